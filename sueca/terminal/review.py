"""What ``sueca review`` prints: a table per deal reviewed, or the JSON of docs/review.md with
each card's reason in the chosen language."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from sueca.bots import Bot
from sueca.cards import Card
from sueca.infostate import InformationState
from sueca.record import GameRecord
from sueca.review import LABELS, DealReview, deal_json, reviews_json
from sueca.review.facts import hint_facts
from sueca.review.svg import graph_svg
from sueca.terminal.i18n import Language


def hint_reason(lang: Language, info: InformationState, card: Card, bot: Bot) -> str:
    """A hint's reason in plain words (``--hints``): the facts behind ``card`` that the seat
    can see (the review's, :func:`sueca.review.facts.hint_facts`), and the points the hint
    bot expects its side to end with, where it searched."""
    facts, expected = hint_facts(info, card, getattr(bot, "last_means", {}),
                                 getattr(bot, "last_worlds", 0))
    text = lang.facts(facts)
    if expected is not None:
        text += "; " + lang.text("hint_expected", points=round(expected))
    return text


def reason(lang: Language, card: Any, names: Sequence[str] | None = None) -> str:
    """A reviewed card's reason: the facts behind the better card, as the seat saw them."""
    return lang.facts(card.facts, past=True, names=names)


def record_names(record: GameRecord) -> list[str] | None:
    """The players' names a record gives, seat by seat (a server's record: its top-level
    ``seats``), or None. A terminal table's record has ``seats`` too, but they say who played
    (``human``, a bot's spec) beside its ``seed``: not names."""
    seats = record.extra.get("seats")
    if "seed" in record.extra or not isinstance(seats, list) or not all(
            isinstance(name, str) for name in seats) or not any(seats):
        return None
    return [" ".join(name.split())[:40] for name in seats]


def seat_labels(lang: Language, players: int, names: Sequence[str] | None) -> list[str]:
    """How the review names each seat: ``Rui (Jogador 1)`` where the record names him."""
    labels = []
    for seat in range(players):
        number = lang.seat(seat)
        name = names[seat] if names is not None and seat < len(names) else ""
        labels.append(f"{name} ({number})" if name else number)
    return labels


def review_document(reviews: list[DealReview], lang: Language) -> dict[str, Any]:
    """:func:`sueca.review.reviews_json` with a ``reason`` (words) beside each card's facts
    and ``lang``, the language they are in."""
    document = reviews_json(reviews)
    document["lang"] = lang.code
    for review, entry in zip(reviews, document["reviews"], strict=True):
        for card, item in zip(review.cards, entry["cards"], strict=True):
            item["reason"] = reason(lang, card)
    return document


def print_review(reviews: list[DealReview], lang: Language, console: Console,
                 names: Sequence[str] | None = None) -> None:
    """One table per deal and seat: each card, the best card, the points expected and lost
    (± two standard errors), the label, the double-dummy view apart, and why. ``names``:
    the players' names, seat by seat (:func:`record_names`), shown beside the seats'."""
    for review in reviews:
        labels = seat_labels(lang, review.rules.players, names)
        table = Table(title=lang.text("review_title", deal=review.deal + 1,
                                      seat=labels[review.seat],
                                      side=review.side + 1, final=review.final),
                      title_justify="left")
        for key in ("review_trick", "review_card", "review_best", "review_expected",
                    "review_lost", "review_label", "review_dd", "review_why"):
            table.add_column(lang.text(key), justify="right" if key in (
                "review_trick", "review_expected", "review_lost") else "left")
        for card in review.cards:
            found = card.estimate
            lost = f"{card.lost:.1f}" + (f" ±{2 * found.error:.1f}" if found.error else "")
            label = lang.text(f"label_{card.label}") if card.label else ""
            best = "" if card.best == card.card else lang.card(card.best)
            dd = card.double_dummy
            dd_text = f"{dd.played}/{dd.best}" + (
                "" if not dd.lost else " (" + " ".join(lang.card(c) for c in dd.best_cards)
                + ")")
            table.add_row(str(card.trick), lang.card(card.card), best,
                          f"{card.expected:.1f}", lost, label, dd_text,
                          reason(lang, card, labels) if best or card.forced else "")
        console.print(table)
        console.print(lang.text("review_total", lost=f"{review.total_lost:.1f}"))
        for crossing in review.crossings:
            console.print(lang.text("review_crossing", card=lang.card(crossing.card),
                                    seat=labels[crossing.seat],
                                    side=crossing.side + 1, before=crossing.before,
                                    after=crossing.after))
        if review.stopped:
            console.print(lang.text(f"review_stopped_{review.stopped}"))
    console.print(lang.text("review_dd_note"))


def graph(review: DealReview, lang: Language) -> str:
    """The deal's evaluation graph (:func:`sueca.review.svg.graph_svg`) in ``lang``."""
    return graph_svg(deal_json(review), lang.text("review_expected"), lang.text("review_dd"),
                     {key: lang.text(f"label_{key}") for key in LABELS})


def write_graphs(reviews: list[DealReview], lang: Language, path: Path) -> list[Path]:
    """Each review's graph as an SVG file: ``path`` itself for one review, else
    ``NAME-deal1-seat1.svg`` beside it for each (seats from 1)."""
    written = []
    for review in reviews:
        target = path if len(reviews) == 1 else path.with_name(
            f"{path.stem}-deal{review.deal + 1}-seat{review.seat + 1}{path.suffix or '.svg'}")
        target.write_text(graph(review, lang), encoding="utf-8")
        written.append(target)
    return written
