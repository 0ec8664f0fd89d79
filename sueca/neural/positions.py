"""The card decisions of a played deal: what a learner imitates.

:func:`decisions` replays a finished deal (its :attr:`State.history`, on a fresh
:class:`~sueca.state.State` of its deal, as :mod:`sueca.bots.inference` replays a world) and
yields, before every card, the information state of the seat that played it and the card: the
position as that seat saw it, never more. Cards with no choice (one legal face) are skipped:
nothing to learn there. :func:`outcome` is the value a position is trained towards: the seat's
side's card points less the other seats', as a share of the deck's points.

>>> import random
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(4)))
>>> while not state.is_finished():
...     state.push(state.legal_moves()[-1])
>>> seen = list(decisions(state))
>>> all(card in info.legal_moves() for info, card in seen), 20 < len(seen) < 40
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator

from sueca.actions import Play
from sueca.cards import Card, one_per_face
from sueca.infostate import InformationState
from sueca.state import State


def decisions(played: State) -> Iterator[tuple[InformationState, Card]]:
    """Each card choice of ``played`` in order: the chooser's information state, the card."""
    replay = State(played.rules, played.deal)
    for seat, action in played.history:
        if type(action) is Play and replay.to_play == seat:
            info = replay.information_state(seat)
            if len(one_per_face(info.legal_moves())) > 1:
                yield info, action.card
        replay.apply(seat, action)


def outcome(played: State, seat: int) -> float:
    """``seat``'s side's card points less the others', over the deck's points (-1 … 1), at
    the end of ``played`` (a bidding table's sides as they ended, every seat's own at a table
    that scores per seat)."""
    rules = played.rules
    points = played.seat_points
    if rules.scores_per_seat or not played.teams:
        mine = points[seat]
    else:
        side = played.teams[seat]
        mine = sum(p for s, p in enumerate(points) if played.teams[s] == side)
    total = sum(points) or 1
    return max(-1.0, min(1.0, (2 * mine - total) / total))


__all__ = ["decisions", "outcome"]
