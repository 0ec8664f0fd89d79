"""A deal's review as JSON (the format of docs/review.md, ``sueca review --json``), with no
words of any language in it: front-ends add the reasons in theirs."""

from __future__ import annotations

from typing import Any

from sueca.cards import card_name, mask_cards
from sueca.review.deal import CardReview, DealReview

FORMAT = 1
"""The format's version (docs/review.md)."""


def _points(value: float) -> float:
    return round(value, 2)


def card_json(card: CardReview) -> dict[str, Any]:
    found = card.estimate
    dd = card.double_dummy
    return {
        "index": card.index,
        "trick": card.trick,
        "seat": card.seat,
        "card": card_name(card.card),
        "legal": [card_name(c) for c in card.legal],
        "forced": card.forced,
        "best": card_name(card.best),
        "expected": _points(card.expected),
        "best_expected": _points(found.values[card.best]),
        "lost": _points(card.lost),
        "error": _points(found.error),
        "worlds": found.worlds,
        "label": card.label,
        "games_lost": _points(card.games_lost),
        "values": {card_name(c): _points(v) for c, v in sorted(found.values.items())},
        "facts": [f.to_json() for f in card.facts],
        "double_dummy": {
            "played": dd.played,
            "best": dd.best,
            "lost": dd.lost,
            "best_cards": [card_name(c) for c in dd.best_cards],
        },
    }


def deal_json(review: DealReview) -> dict[str, Any]:
    t = review.thresholds
    return {
        "deal": review.deal,
        "seat": review.seat,
        "side": review.side,
        "players": review.rules.players,
        "total_points": review.rules.total_points,
        "hands": [[card_name(c) for c in mask_cards(h)] for h in review.hands],
        "plays": [card_name(c) for c in review.plays],
        "played_by": list(review.played_by),
        "final": review.final,
        "lost": _points(review.total_lost),
        "stopped": review.stopped,
        "thresholds": {"inaccuracy": t.inaccuracy, "mistake": t.mistake, "blunder": t.blunder},
        "cards": [card_json(c) for c in review.cards],
        "double_dummy": review.double_dummy,
        "crossings": [
            {"index": x.index, "seat": x.seat, "card": card_name(x.card), "side": x.side,
             "before": x.before, "after": x.after}
            for x in review.crossings
        ],
    }


def reviews_json(reviews: list[DealReview]) -> dict[str, Any]:
    return {"format": FORMAT, "reviews": [deal_json(r) for r in reviews]}
