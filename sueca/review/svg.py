"""The evaluation graph of a reviewed deal, drawn as SVG text by the package (no script, no
library, nothing fetched): across, the deal's cards; up, the side's final card points.

- the seat's line: after each card it played, the points its side could expect from what it
  knew (a dot per card, coloured by its label; ``data-index`` is the card's place in the deal,
  for a page to jump there when it is clicked);
- the double-dummy line, dashed: the same with every hand known, after every card;
- the game-point lines of the rules (61, 91 and every point for the standard game).
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from sueca.cards import card_symbol, parse_card

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 14, 30
COLOURS = {None: "#4a6fa5", "inaccuracy": "#d4a017", "mistake": "#e07020",
           "blunder": "#c0392b"}


def graph_svg(review: dict[str, Any], ours: str = "expected (what you knew)",
              every_hand: str = "every hand known",
              label_names: dict[str, str] | None = None) -> str:
    """The graph of one deal's review in the JSON of docs/review.md
    (:func:`sueca.review.deal_json`), as one ``<svg>`` element. ``ours`` and ``every_hand``
    name the two lines, ``label_names`` the labels in the page's language (each dot's
    tooltip)."""
    total = int(review["total_points"])
    players = int(review["players"])
    cards = max(len(review["plays"]), 1)
    names = label_names or {}

    def x(index: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * index / cards

    def y(points: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (1 - points / total)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="review-graph" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img">',
             f'<rect x="{LEFT}" y="{TOP}" width="{WIDTH - LEFT - RIGHT}" '
             f'height="{HEIGHT - TOP - BOTTOM}" fill="#fbfbf8" stroke="#bbb"/>']
    for points in _game_lines(total):
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(points):.1f}" '
                     f'y2="{y(points):.1f}" stroke="#ccc" stroke-width="1"/>'
                     f'<text x="{LEFT - 4}" y="{y(points) + 4:.1f}" font-size="10" '
                     f'text-anchor="end" fill="#777">{points}</text>')
    for trick in range(0, cards + 1, players):
        parts.append(f'<text x="{x(trick):.1f}" y="{HEIGHT - BOTTOM + 14}" font-size="10" '
                     f'text-anchor="middle" fill="#777">{trick // players}</text>')
    dd = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(review["double_dummy"]))
    parts.append(f'<polyline class="double-dummy" points="{dd}" fill="none" stroke="#999" '
                 f'stroke-width="1.5" stroke-dasharray="4 3"/>')
    mine = [(int(c["index"]) + 1, float(c["expected"])) for c in review["cards"]]
    if mine:
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in mine)
        parts.append(f'<polyline class="expected" points="{path}" fill="none" '
                     f'stroke="#4a6fa5" stroke-width="2"/>')
    for card in review["cards"]:
        kind = card["label"] if card["label"] in COLOURS else None
        label = names.get(kind, kind) if kind else ""
        index, expected = int(card["index"]), float(card["expected"])
        tip = f"{card_symbol(parse_card(str(card['card'])))}: {expected:.1f}" + (
            f" (−{float(card['lost']):.1f}, {label})" if label else "")
        parts.append(f'<circle class="card-point" data-index="{index}" '
                     f'cx="{x(index + 1):.1f}" cy="{y(expected):.1f}" '
                     f'r="{6 if kind else 4}" fill="{COLOURS[kind]}" '
                     f'stroke="#fff" stroke-width="1" style="cursor:pointer">'
                     f'<title>{escape(tip)}</title></circle>')
    legend_y = HEIGHT - 6
    parts.append(f'<line x1="{LEFT}" x2="{LEFT + 20}" y1="{legend_y - 4}" y2="{legend_y - 4}" '
                 f'stroke="#4a6fa5" stroke-width="2"/><text x="{LEFT + 24}" y="{legend_y}" '
                 f'font-size="11" fill="#333">{escape(ours)}</text>')
    middle = WIDTH // 2 + 20
    parts.append(f'<line x1="{middle}" x2="{middle + 20}" y1="{legend_y - 4}" '
                 f'y2="{legend_y - 4}" stroke="#999" stroke-width="1.5" '
                 f'stroke-dasharray="4 3"/><text x="{middle + 24}" y="{legend_y}" '
                 f'font-size="11" fill="#333">{escape(every_hand)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _game_lines(total: int) -> list[int]:
    """The card points where a side's games change: more than half, more than three
    quarters, all (61, 91, 120 of 120)."""
    return [total // 2 + 1, (3 * total) // 4 + 1, total]


__all__ = ["graph_svg"]
