"""What the referee tells one seat: the protocol lines composed from that seat's information
states alone, so that nothing hidden can be sent (boardgame.io's redacted log, per seat)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from sueca.auction import bidding_order
from sueca.cards import DECK_SIZE, FULL_DECK, Card, CardMask, card_face, card_name, mask_cards
from sueca.infostate import InformationState
from sueca.protocol import messages as msg
from sueca.redeal import redeal_order
from sueca.referee import Event, EventKind
from sueca.rules import Rules


def in_deck_order(mask: CardMask) -> tuple[Card, ...]:
    """A mask's cards in deck order (suits S H D C, low to high); with two decks a card held
    twice comes twice, side by side."""
    return tuple(sorted(mask_cards(mask), key=card_face))


def _faces_held(mask: CardMask) -> tuple[CardMask, CardMask]:
    """A hand as the faces it names: the faces it holds, and those it holds twice (two decks).
    Unlike the mask itself this does not change when a two-deck state renumbers copies."""
    low = mask & FULL_DECK
    high = mask >> DECK_SIZE
    return low | high, low & high


@dataclass
class _DealSent:
    """How far one deal has been told to the seat."""

    # Dealer, turned card's face, the seat's hand as dealt (as faces: with two decks the
    # state renumbers a face's copies when the first one is played, see _renumber).
    key: tuple[int, Card | None, tuple[CardMask, CardMask]]
    told: list[CardMask]  # per seat, the cards of its hand the seat has been told of
    bids: int = 0
    redeals: int = 0  # redeal answers told (weak_hand_redeal)
    contract: bool = False
    plays: int = 0
    denunciations: int = 0  # renuncia


@dataclass
class SeatFeed:
    """The referee's messages to one seat, composed from that seat's information states only.

    The referee sees a seat only when it asks it something (or tells it the deal is over), so
    :meth:`catch_up` sends, in order, whatever the seat has come to know since the last time:
    a new ``deal``, the ``redeal`` answers, the ``bid`` broadcasts, the ``contract``, the cards
    ``played`` (each ``denounced`` cry in its place among them), and ``shown`` for cards of
    other hands that the seat's ``known`` masks now hold. Nothing else of the state is ever
    read, so nothing hidden can be sent.

    :meth:`hear` renders the referee's events instead, each as it happens (a listener that
    keeps a seat told at once); :class:`~sueca.protocol.ExternalBot` tells its program only
    when it asks it something, and hears the one event no question follows: a denunciation
    made after the deal's end was told (:meth:`after_end`).
    """

    rules: Rules | None = None
    seat: int = -1
    deals: int = 0  # the deals told so far (a ``deal`` message each)
    _match_sent: bool = False
    _deal: _DealSent | None = None
    _ended: _DealSent | None = None  # the deal whose deal_end was told last

    def start_match(self, rules: Rules, seat: int) -> None:
        self.rules = rules
        self.seat = seat
        self._match_sent = False
        self._deal = self._ended = None

    def view(self, info: InformationState) -> InformationState:
        """``info`` as this feed's seat sees it. The dummy's information state, handed to the
        program of the dummy's partner (who plays its cards), is the partner's own with the
        seat and hand changed: both know both hands and everything public. Any other seat
        starts a new match for that seat."""
        rules = info.rules
        if rules == self.rules and info.seat != self.seat and info.seat == rules.dummy and (
            rules.controller_of(info.seat) == self.seat
        ):
            return dataclasses.replace(info, seat=self.seat, hand=info.known[self.seat])
        if rules != self.rules or info.seat != self.seat:
            self.start_match(rules, info.seat)
        return info

    def match_messages(self) -> list[dict[str, Any]]:
        if self.rules is None or self._match_sent:
            return []
        self._match_sent = True
        return [msg.Match(rules=self.rules, seat=self.seat).to_dict()]

    def catch_up(self, info: InformationState) -> list[dict[str, Any]]:
        """Everything ``info`` (this feed's seat, see :meth:`view`) knows that was not yet told."""
        info = self.view(info)
        rules = info.rules
        out = self.match_messages()
        seats = info.played_by()
        dealt = info.hands_as_dealt(info.known)[info.seat]
        key = _deal_key(info, dealt)
        sent = self._deal
        if sent is None or sent.key != key or sent.plays > len(info.plays) or (
            sent.bids > len(info.bids) or sent.redeals > len(info.redeal_answers)
            or sent.denunciations > len(info.denunciations)
        ):
            told = [0] * rules.players
            told[info.seat] = dealt
            if info.trump_card is not None:
                told[info.dealer] |= 1 << info.trump_card
            sent = self._deal = _DealSent(key, told)
            self._ended = None
            self.deals += 1
            out.append(msg.Deal(dealer=info.dealer, hand=in_deck_order(dealt),
                                trump_card=info.trump_card).to_dict())
        asked = redeal_order(rules, info.opening_leader)
        for index in range(sent.redeals, len(info.redeal_answers)):
            out.append(msg.Redeal(seat=asked[index], ask=info.redeal_answers[index]).to_dict())
        sent.redeals = len(info.redeal_answers)
        order = bidding_order(rules, info.dealer)
        for index in range(sent.bids, len(info.bids)):
            out.append(msg.Bid(seat=order[index], value=info.bids[index]).to_dict())
        sent.bids = len(info.bids)
        contract = info.contract
        if contract is not None and not sent.contract:
            # The called card, never its holder: the partner is secret until it is played.
            out.append(msg.Contract(declarer=contract.declarer, bid=contract.bid,
                                    called_card=contract.called_card,
                                    trump=contract.trump).to_dict())
            sent.contract = True
        for index in range(sent.plays, len(info.plays)):
            out += self._denounced(info, sent, index)
            card = info.plays[index]
            if rules.decks > 1 and card < DECK_SIZE:
                _renumber(sent.told, seats[index], card)
            # ``turned``: the turned card itself, not its twin (two decks).
            turned = True if rules.decks > 1 and card == info.trump_card else None
            out.append(msg.Played(seat=seats[index], card=card, turned=turned).to_dict())
        sent.plays = len(info.plays)
        out += self._denounced(info, sent, len(info.plays))
        for seat, known in enumerate(info.known):
            new = known & ~sent.told[seat]
            if seat != info.seat and new:
                out.append(msg.Shown(seat=seat, cards=in_deck_order(new)).to_dict())
                sent.told[seat] |= new
        return out

    def _denounced(self, info: InformationState, sent: _DealSent, plays: int
                   ) -> list[dict[str, Any]]:
        """The cries not yet told that came after ``plays`` cards or before: public, the seat
        and the outcome only."""
        out = []
        while (sent.denunciations < len(info.denunciations)
               and info.denunciations[sent.denunciations].after <= plays):
            cry = info.denunciations[sent.denunciations]
            out.append(msg.Denounced(seat=cry.seat, correct=cry.correct).to_dict())
            sent.denunciations += 1
        return out

    def deal_annulled(self, info: InformationState) -> list[dict[str, Any]]:
        """What is left to tell of a deal annulled by a seat asking for a new deal: the
        answers, the ask last. No ``deal_end``: the cards are thrown in unseen, and the same
        dealer's next ``deal`` follows."""
        if self.view(info).seat != info.seat:
            return []  # the dummy's partner hears it for its own seat
        out = self.catch_up(info)
        self._deal = None
        return out

    def deal_end(self, info: InformationState) -> list[dict[str, Any]]:
        """What is left to tell, then ``deal_end`` with the hands as dealt as far as they are
        public, read off ``info`` like every other line. Once the last card is down that is
        every hand, and at the six-player table the cards set aside too (what no hand held).
        A deal that ends before it (a revoke proven) shows each seat's cards played and what
        this seat knew of the hands (its own, cards shown, the turned card): a card nobody
        played stays as hidden as it was, and so do the cards set aside, unless every hand is
        known (open hands)."""
        if self.view(info).seat != info.seat:
            return []  # the dummy's partner hears the end of the deal for its own seat
        out = self.catch_up(info)
        rules = info.rules
        hands = info.hands_as_dealt(info.known)
        set_aside = None
        if rules.set_aside and sum(h.bit_count() for h in hands) == rules.cards_in_play:
            dealt = 0
            for hand in hands:
                dealt |= hand
            set_aside = in_deck_order(((1 << rules.deck_size) - 1) & ~dealt)
        out.append(msg.DealEnd(
            points=tuple(info.points_taken), hands=tuple(in_deck_order(h) for h in hands),
            set_aside=set_aside,
            seat_points=tuple(info.seat_points) if rules.bidding else None).to_dict())
        self._ended, self._deal = self._deal, None
        return out

    def after_end(self, info: InformationState) -> list[dict[str, Any]]:
        """The cries made since this seat was told the deal's end (``renuncia``: a deal may be
        denounced until the next one starts), for the deal ``info`` is of; else nothing."""
        info = self.view(info)
        ended = self._ended
        if ended is None or not self._told_the_end(info):
            return []
        return self._denounced(info, ended, len(info.plays))

    def telling(self, info: InformationState) -> bool:
        """Whether ``info`` is of the deal this seat was told last (in play, or its end
        told), not of a deal yet to be told."""
        info = self.view(info)
        sent = self._deal or self._ended
        return sent is not None and sent.plays <= len(info.plays) and (
            sent.bids <= len(info.bids) and sent.redeals <= len(info.redeal_answers)
            and sent.key == _deal_key(info, info.hands_as_dealt(info.known)[info.seat]))

    def _told_the_end(self, info: InformationState) -> bool:
        """Whether ``info`` is of the deal whose end this seat was told last (the same
        cards and every card of it played: a deal played again, in a duplicate, is not)."""
        ended = self._ended
        return (ended is not None and self._deal is None and ended.plays == len(info.plays)
                and ended.bids == len(info.bids)
                and ended.key == _deal_key(info, info.hands_as_dealt(info.known)[info.seat]))

    def hear(self, event: Event) -> list[dict[str, Any]]:
        """One referee event as this seat is told of it at once: what its information state
        now holds that was not yet told, or the deal's end or annulment. Composed from the
        seat's information state, as :meth:`catch_up` is; the event only says when."""
        if self.rules is None or event.kind is EventKind.MATCH_ENDED:
            return []
        info = event.state.information_state(self.seat)
        if event.kind is EventKind.DEAL_ANNULLED:
            return self.deal_annulled(info)
        if self._told_the_end(info):
            return self.after_end(info)  # a late cry, or nothing
        if event.kind is EventKind.DEAL_ENDED:
            return self.deal_end(info)
        return self.catch_up(info)


def _deal_key(info: InformationState, dealt: CardMask
              ) -> tuple[int, Card | None, tuple[CardMask, CardMask]]:
    """What tells one deal from the next for the seat: the dealer, the turned card's face and
    its hand as dealt (``dealt``), as faces."""
    turned_face = None if info.trump_card is None else card_face(info.trump_card)
    return info.dealer, turned_face, _faces_held(dealt)


def _renumber(told: list[CardMask], player: int, card: Card) -> None:
    """Follow in ``told`` the renumbering a two-deck state (``sueca.state._TwoDeckState``)
    does at the first play of a face, ``card`` (< 40): the first copy of a face played is
    always ``card``, the other copy from then on ``card + 40``, wherever it is.

    A seat other than the player told of one copy of the face, as ``card``, holds it still:
    it is ``card + 40`` now. The player told of one copy (the turned card, or his whole hand
    holding one copy) played it, so it is ``card``; the dealer holding the turned card and
    its twin always plays the turned card, as the table sees it. A seat told of both copies
    is told of both still."""
    low, high = 1 << card, 1 << (card + DECK_SIZE)
    both = low | high
    for seat, mask in enumerate(told):
        held = mask & both
        if not held or held == both:
            continue
        if seat != player:
            if held == low:
                told[seat] = mask ^ both
            continue
        told[seat] = (mask & ~both) | low


def card_names(mask: CardMask) -> list[str]:
    """The names of a mask's cards in deck order; with two decks a card held twice is named
    twice, side by side (as ``deal`` and ``deal_end`` name hands)."""
    return [card_name(c) for c in in_deck_order(mask)]
