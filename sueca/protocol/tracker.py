"""The bot's side of the protocol: one seat's information state rebuilt from the messages.

This is the engine's mirror in the bot's process, not a front-end: it replays every action it
is told of on a stand-in :class:`~sueca.state.State` (:meth:`State.apply` with the actions of
:mod:`sueca.actions`), so that the engine itself works out the auction, tricks, winners,
points and voids exactly as the referee did, and refuses what could not have happened.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence

from sueca.actions import Bid, Call, Phase, Play, Redeal
from sueca.auction import high_bidder
from sueca.cards import (
    DECK_SIZE,
    SUIT_LETTERS,
    Card,
    CardMask,
    card_face,
    card_name,
    card_suit,
    held_copy,
    mask_cards,
)
from sueca.deal import Deal
from sueca.infostate import InformationState
from sueca.protocol.messages import ProtocolError, in_words, shown
from sueca.rules import Rules
from sueca.state import IllegalMoveError, State


def _faces(mask: CardMask) -> Counter[Card]:
    """A mask's cards by face, each as often as it holds it (twice, with two decks)."""
    return Counter(card_face(c) for c in mask_cards(mask))


def copies(face: Card, rules: Rules) -> tuple[Card, ...]:
    """Every copy of a card's face at this table (one per deck)."""
    return tuple(card_face(face) + DECK_SIZE * k for k in range(rules.decks))


def hand_of_faces(faces: Sequence[Card], rules: Rules, what: str) -> CardMask:
    """A hand named by faces as a mask: a face's first copy, then its second (two decks)."""
    hand = 0
    for face in faces:
        free = [c for c in copies(face, rules) if not hand >> c & 1]
        if not free:
            twice = "a card twice" if rules.decks == 1 else "a card more than twice"
            raise ProtocolError(f"{what} names {twice} ({card_name(face)}) at a "
                                f"{rules.decks}-deck table")
        hand |= 1 << free[0]
    return hand


class SeatTracker:
    """Rebuilds one seat's :class:`InformationState` from protocol messages.

    A stand-in :class:`State` holds what the seat knows of each hand: its own, the turned card
    in the dealer's hand, the cards ``shown`` to it (a dummy, open hands), and, for every other
    seat, each card just before that seat plays it. Each action told is applied to it as the
    referee applied it (:meth:`State.apply`): that is why this class, unlike a front-end, moves
    a state; it must end where the referee's seat stands. The known cards of each seat are
    exactly the stand-in's hands; hand sizes follow from the cards played; at a bidding table
    the sides follow from who is seen to hold or play the called card. At a ``renuncia``
    table the stand-in's rules let a card break following suit, as the referee's do, and a
    denunciation keeps the outcome the referee found (the stand-in cannot see the hands).

    With two decks the messages name faces. The stand-in is a two-deck state like the
    referee's, which numbers the copies of a face by play order (the first played is ``c``,
    the other from then on ``c + 40``, wherever it is), so the tracker may play any copy it
    knows the seat to hold, or put a free one in an unknown hand and play that: its plays are
    the referee's ids exactly, and so is every copy left of a face once one is played. Only a
    face nobody has played keeps ids the tracker cannot know, the deal's coin toss
    (:func:`sueca.deal.number_copies`), the seat's own cards included (``deal`` names faces);
    no rule of play tells those copies apart.
    """

    def __init__(self, rules: Rules, seat: int, dealer: int, hand: CardMask,
                 trump_card: Card | None) -> None:
        self.rules = rules
        self.seat = seat
        hands = [0] * rules.players
        hands[seat] = hand
        if trump_card is not None:
            hands[dealer] |= 1 << trump_card
        self.state = State(rules, Deal(dealer, tuple(hands), trump_card))
        self.counts = [0] * rules.players  # cards each seat has played

    # -- what the messages tell --

    def bid(self, seat: int, value: int) -> None:
        try:
            self.state.apply(seat, Bid(value))
        except IllegalMoveError as error:
            raise ProtocolError(f"bid {shown(value)} by seat {seat}: {in_words(error)}") from None

    def redeal(self, seat: int, ask: bool) -> None:
        """``seat`` kept its hand (``ask`` false) or asked for a new deal."""
        try:
            self.state.apply(seat, Redeal(ask))
        except IllegalMoveError as error:
            raise ProtocolError(f"redeal answer {shown(ask)} by seat {seat}: {in_words(error)}"
                                ) from None

    def contract(self, declarer: int, bid: int, called: Card, trump: int | None = None
                 ) -> None:
        state = self.state
        if state.phase != Phase.CALLING:
            raise ProtocolError(f"a contract, but the auction is not over ({state.phase})")
        expected = high_bidder(self.rules, state.deal.dealer, state.bids)
        if (declarer, bid) != expected:
            raise ProtocolError(f"the contract names seat {declarer} for {bid}, but the bids "
                                f"make seat {expected[0]} the declarer for {expected[1]}")
        if trump is not None and trump != card_suit(called):
            raise ProtocolError(f"the trump of a contract calling {card_name(called)} is "
                                f"{SUIT_LETTERS[card_suit(called)]}, not {SUIT_LETTERS[trump]}")
        try:
            state.apply(declarer, Call(held_copy(state.hands[self.seat], called)))
        except IllegalMoveError as error:
            raise ProtocolError(str(error)) from None
        self._settle_sides()

    def show(self, seat: int, cards: Sequence[Card]) -> None:
        """Cards of ``seat``'s hand become known to this seat (by face)."""
        if seat == self.seat:
            raise ProtocolError("a seat's own hand is never shown to it: it holds it")
        state = self.state
        hand = state.hands[seat]
        for face in cards:
            free = self._free_copies(face, taken=hand)
            if not free:
                raise ProtocolError(f"{card_name(face)} is shown in seat {seat}'s hand, but "
                                    "every copy of it is held or played already")
            hand |= 1 << free[0]
        if hand.bit_count() > self.rules.hand_size - self.counts[seat]:
            raise ProtocolError(f"seat {seat} is shown more cards than it holds")
        state.hands[seat] = hand
        self._settle_sides()

    def played(self, seat: int, card: Card, turned: bool = False) -> None:
        """``seat`` played a card of this face (``turned``: the turned trump card itself)."""
        state = self.state
        if state.is_finished():
            raise ProtocolError(f"{card_name(card)} played after the deal is over")
        while state.phase == Phase.REDEAL:
            # A card is played: every seat not heard of kept (keeping is always allowed).
            state.apply(state.to_play, Redeal(False))
        if state.phase != Phase.PLAY:
            raise ProtocolError(f"{card_name(card)} played before the contract is made")
        if seat != state.to_play:
            raise ProtocolError(f"seat {seat} played {card_name(card)}, but it is seat "
                                f"{state.to_play}'s turn")
        if not 0 <= card < self.rules.deck_size:
            raise ProtocolError(f"{shown(card)} is not a card")
        copy = self._copy_played(seat, card_face(card), turned)
        added = not state.hands[seat] >> copy & 1
        state.hands[seat] |= 1 << copy
        try:
            state.apply(seat, Play(copy))
        except IllegalMoveError as error:
            if added:
                state.hands[seat] &= ~(1 << copy)
            raise ProtocolError(str(error)) from None
        self.counts[seat] += 1
        self._settle_sides()

    def denounced(self, seat: int, correct: bool) -> None:
        """``seat`` cried *renúncia!*, ``correct`` as the referee found it (``renuncia``)."""
        try:
            self.state.denounce(seat, correct)
        except IllegalMoveError as error:
            raise ProtocolError(f"a denunciation by seat {seat}: {error}") from None

    def hands_at_end(self, hands: Sequence[Sequence[Card]] | None) -> tuple[CardMask, ...]:
        """The hands a ``deal_end`` names (by face), as masks, checked against what this seat
        saw: a hand for each seat, none of more cards than a hand holds, no card more often
        than there are decks, each holding every card the seat saw it hold or play, this
        seat's own whole. A deal ended before its last card (a revoke proven) names only what
        is public, so another seat's hand may be short; every card played, none is."""
        rules = self.rules
        if hands is None or len(hands) != rules.players:
            raise ProtocolError(f"deal_end names {0 if hands is None else len(hands)} hands, "
                                f"not {rules.players} (one a seat)")
        info = self.information_state()
        seen = info.hands_as_dealt(info.known)
        complete = len(info.plays) == rules.cards_in_play
        named: Counter[Card] = Counter()
        masks = []
        for seat, faces in enumerate(hands):
            what = f"deal_end hand {seat}"
            hand = hand_of_faces(faces, rules, what)
            size = len(faces)
            if size > rules.hand_size or (size < rules.hand_size and (
                    complete or seat == self.seat)):
                raise ProtocolError(f"{what} names {size} cards, not {rules.hand_size}")
            missing = _faces(seen[seat]) - Counter(faces)
            if missing:
                raise ProtocolError(f"{what} lacks {card_name(min(missing))}, which seat {seat} "
                                    "held")
            named.update(faces)
            masks.append(hand)
        twice = [face for face, count in named.items() if count > rules.decks]
        if twice:
            raise ProtocolError(f"deal_end names {card_name(min(twice))} in "
                                f"{named[min(twice)]} hands at a {rules.decks}-deck table")
        return tuple(masks)

    # -- what the seat knows --

    def information_state(self, seat: int | None = None) -> InformationState:
        """The tracked seat's information state, or the dummy's when the tracked seat is the
        dummy's partner (who plays its cards and knows what the dummy knows)."""
        rules = self.rules
        seat = self.seat if seat is None else seat
        if seat != self.seat and not (seat == rules.dummy
                                      and rules.controller_of(seat) == self.seat):
            raise ProtocolError(f"seat {self.seat} does not play for seat {seat}")
        info = InformationState.of(self.state, seat)
        sizes = tuple(rules.hand_size - n for n in self.counts)
        return dataclasses.replace(info, known=tuple(self.state.hands), hand_sizes=sizes)

    # -- copies and sides --

    def _free_copies(self, face: Card, taken: CardMask = 0) -> list[Card]:
        """Copies of ``face`` in no known hand and not played (and not in ``taken``)."""
        for hand in self.state.hands:
            taken |= hand
        taken |= self.state.played_mask()
        return [c for c in copies(face, self.rules) if not taken >> c & 1]

    def _copy_played(self, seat: int, face: Card, turned: bool) -> Card:
        """The copy of ``face`` to play for the seat's card: the turned card if the message
        says so; else a copy known in its hand that is not the turned card; else, for a seat
        whose hand is not all known, a copy nobody is known to hold (:meth:`played` puts it
        in the hand); else the turned card (one deck never says ``turned``).

        With two decks any copy will do: the stand-in numbers plays as the referee's state
        does (the first copy of a face played is ``face``, the second ``face + 40``, the
        other copy renumbered to match), so its plays, and the numbers of the copies left
        of a face once one is played, are the referee's."""
        state = self.state
        name = card_name(face)
        dealer = state.deal.dealer
        turned_held = state.turned_card if state.trump_card_held() else None
        hand = state.hands[seat]
        if turned:
            if turned_held is None or seat != dealer or card_face(turned_held) != face:
                raise ProtocolError(f"seat {seat} played {name} as the turned card, which it "
                                    "does not hold")
            return turned_held
        in_hand = [c for c in copies(face, self.rules) if hand >> c & 1 and c != turned_held]
        if in_hand:
            return in_hand[0]
        if seat != self.seat and hand.bit_count() < self.rules.hand_size - self.counts[seat]:
            free = self._free_copies(face)
            if free:
                return free[0]
        if turned_held is not None and seat == dealer and card_face(turned_held) == face:
            return turned_held
        played = state.played_mask()
        if all(played >> c & 1 for c in copies(face, self.rules)):
            raise ProtocolError(f"{name} was already played")
        if seat == self.seat or hand.bit_count() >= self.rules.hand_size - self.counts[seat]:
            raise ProtocolError(f"{name} is not in seat {seat}'s hand")
        holder = next(s for s, h in enumerate(state.hands)
                      if any(h >> c & 1 for c in copies(face, self.rules)))
        raise ProtocolError(f"seat {seat} played {name}, which seat {holder} holds")

    def _settle_sides(self) -> None:
        """At a bidding table, the stand-in's sides from who holds or played the called card
        as far as this seat knows (the declarer alone while nobody is known to): the
        information state then shows exactly the sides this seat knows."""
        state = self.state
        contract = state.contract
        if contract is None:
            return
        called = contract.called_card
        holder = next((s for s, h in enumerate(state.hands) if h >> called & 1), None)
        if holder is None and called in state.plays:
            holder = state.played_by()[state.plays.index(called)]
        partner = contract.declarer if holder is None else holder
        state.teams = tuple(0 if s in (contract.declarer, partner) else 1
                            for s in range(self.rules.players))
