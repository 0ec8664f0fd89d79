"""A stored match played again: the store's one history, through the one referee.

The store keeps each deal as dealt and its moves as actions (:mod:`sueca.server.storage`).
Here they are played again through a :class:`~sueca.referee.Referee` with nobody seated (no
bot is asked, no hook is called), so the match, its score and every deal's state come out as
the live table made them: to restore a table after a restart
(:meth:`sueca.server.tables.Table.restore`), to write a finished match as a RECORD.md record
for the history pages (:func:`record_of`), and, for a database from before moves were stored as
actions, to turn its cards, bids and redeal answers into actions (:func:`legacy_actions`), each
with the seat the referee asked.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sueca.actions import Action, Bid, Call, Denounce, Play, Redeal, action_from_dict
from sueca.cards import parse_card
from sueca.deal import Deal
from sueca.match import Match
from sueca.record import DealRecord, GameRecord
from sueca.referee import Event, Referee
from sueca.rules import Rules
from sueca.state import REASON_TURN, IllegalMoveError, State

if TYPE_CHECKING:  # annotations only: the store imports this module
    from sueca.server.storage import StoredMatch

log = logging.getLogger("sueca.server")

# What a stored history that does not play raises on the way: a move the rules refuse, a
# malformed action or card, a deal that is no deal, or one dealt after the match was over.
_BROKEN = (ValueError, RuntimeError, TypeError)

Moves = list[tuple[int, dict[str, Any]]]  # a deal's moves: (seat, action dict), in order


class StoredHistoryError(ValueError):
    """Stored moves that do not play: ``converted`` holds, deal by deal, what did."""

    def __init__(self, message: str, converted: Sequence[tuple[int, Moves]] = ()) -> None:
        super().__init__(message)
        self.converted = list(converted)


@dataclass
class Replayed:
    """A stored match played again: the referee where the table stopped (its match, the deal
    in play), every deal's state in order (annulled ones too), and the first problem, if a
    stored move did not play (the states then stop before it)."""

    referee: Referee
    states: list[State] = field(default_factory=list)
    error: str | None = None

    @property
    def match(self) -> Match:
        return self.referee.match

    @property
    def state(self) -> State | None:
        return self.states[-1] if self.states else None


def stored_deal(rules: Rules, dealer: int, hands: list[str], trump_card: str | None) -> Deal:
    """A stored deal's cards (RECORD.md names, as a record's deal holds them) as a
    :class:`~sueca.deal.Deal`; :class:`~sueca.deal.DealError` names what is wrong."""
    return DealRecord(dealer, hands, trump_card).to_deal(rules.decks)


def blank_referee(match: Match) -> Referee:
    """A referee for ``match`` with nobody seated: it asks no bot and calls no hook, so it only
    plays the moves it is given."""
    return Referee(match, [None] * match.rules.players, where="replay")


def submit_stored(referee: Referee, seat: int, action: Action) -> None:
    """One stored move: ``seat`` (the rules' seat, the dummy's own for its cards) made
    ``action``. It is submitted for the seat that decides it (the dummy's partner); a move
    stored for a seat the deal was not waiting for is refused, as the table would have."""
    state = referee.state
    if type(action) is Denounce or state is None:
        referee.submit(seat, action)
        return
    if seat != state.to_play:
        raise IllegalMoveError(f"stored for seat {seat}, but the deal waited for seat "
                               f"{state.to_play}", REASON_TURN)
    referee.submit(referee.rules.controller_of(seat), action)


def replay_stored(stored: StoredMatch) -> Replayed:
    """Play ``stored``'s deals and moves again, stopping at the first that does not play."""
    try:
        rules = Rules.from_dict(stored.rules)
        referee = blank_referee(Match(rules, first_dealer=stored.first_dealer))
    except _BROKEN as error:
        return Replayed(blank_referee(Match(Rules())), [], f"the match's rules: {error}")
    replayed = Replayed(referee)
    for deal in stored.deals:
        try:
            replayed.states.append(referee.deal(
                stored_deal(rules, deal.dealer, deal.hands, deal.trump_card)))
        except _BROKEN as error:
            replayed.error = f"deal {deal.index}: {error}"
            return replayed
        for seq, (seat, data) in enumerate(deal.actions):
            try:
                submit_stored(referee, seat, action_from_dict(data))
            except _BROKEN as error:
                replayed.error = f"deal {deal.index}, move {seq}: {error}"
                return replayed
    return replayed


def record_of(stored: StoredMatch) -> GameRecord:
    """The RECORD.md record of a stored match, as far as its moves play (a problem is
    logged: the server wrote every move only after the rules accepted it)."""
    replayed = replay_stored(stored)
    if replayed.error is not None:
        log.warning("match %d does not replay: %s", stored.id, replayed.error)
        if not replayed.states:
            return GameRecord(stored.rules, stored.first_dealer, [])
    return GameRecord.from_states(replayed.match.rules, stored.first_dealer, replayed.states)


# ---- databases from before actions were stored -------------------------------------------


@dataclass(frozen=True)
class LegacyDeal:
    """A deal as schema 0 stored it: its cards, its ``auction`` column (a bidding table's
    ``bids`` and ``called_card``, or the redeal question's ``kept`` count and ``asked_by``) and
    its cards played, in order."""

    index: int
    dealer: int
    hands: list[str]
    trump_card: str | None
    auction: dict[str, Any]
    plays: list[str]

    def moves(self, rules: Rules) -> Iterator[Action]:
        """The deal's moves as actions, in the order they were made (each read when it is
        reached, so that those before a malformed one still play)."""
        if rules.weak_hand_redeal:
            kept = self.auction.get("kept", 0)
            if "asked_by" in self.auction:
                yield from [Redeal(False)] * kept + [Redeal(True)]
            else:  # a card played means every seat kept
                yield from [Redeal(False)] * (rules.players if self.plays else kept)
        for value in self.auction.get("bids") or ():
            yield Bid(value)
        called = self.auction.get("called_card")
        if called is not None:
            yield Call(parse_card(called))
        for card in self.plays:
            yield Play(parse_card(card))


def legacy_actions(rules_data: dict[str, Any], first_dealer: int,
                   deals: Sequence[LegacyDeal]) -> list[tuple[int, Moves]]:
    """A schema-0 match's deals as stored actions (each deal's index and moves): each move is
    given to the seat the referee asks, and stored with the seat it was made for.
    :class:`StoredHistoryError` at the first that does not play, with what did."""
    out: list[tuple[int, Moves]] = []
    try:
        rules = Rules.from_dict(rules_data)
        referee = blank_referee(Match(rules, first_dealer=first_dealer))
    except _BROKEN as error:
        raise StoredHistoryError(f"the match's rules: {error}") from None
    referee.listen(_taker(out))
    for deal in deals:
        out.append((deal.index, []))
        try:
            referee.deal(stored_deal(rules, deal.dealer, deal.hands, deal.trump_card))
            for action in deal.moves(rules):
                asked = referee.asked()
                if asked is None:
                    raise IllegalMoveError("nothing more is asked in this deal", "hand_over")
                referee.submit(asked[0], action)
        except _BROKEN as error:
            raise StoredHistoryError(f"deal {deal.index}: {error}", out) from None
    return out


def _taker(out: list[tuple[int, Moves]]) -> Callable[[Event], None]:
    """A listener writing each move the referee accepts to the last deal of ``out``."""
    def take(event: Event) -> None:
        if event.action is not None and event.seat is not None:
            out[-1][1].append((event.seat, event.action.to_dict()))
    return take
