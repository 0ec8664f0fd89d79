"""The bot's side of a session: ``sueca bot NAME`` reads the referee's messages, rebuilds its
seat's information state (:class:`~sueca.protocol.tracker.SeatTracker`) and answers each
question through the :class:`~sueca.bots.Bot` interface, checked against the seat's
:meth:`~sueca.infostate.InformationState.request`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from sueca.actions import AskBid, AskCall, AskCard, AskRedeal, Bid, Call, Phase, Redeal
from sueca.auction import PASS
from sueca.bots.base import Bot, plain_action
from sueca.cards import card_face, card_name, held_copy
from sueca.infostate import InformationState
from sueca.protocol import messages as msg
from sueca.protocol.messages import PROTOCOL, ProtocolError, decode, encode, shown
from sueca.protocol.tracker import SeatTracker, copies, hand_of_faces
from sueca.rules import Rules

_STANDARD = Rules()  # a referee that sends no match plays the standard game

Answers = list[msg.Message]


class BotSession:
    """The bot's side of one protocol session: message in, answers out (see :func:`serve`).

    :meth:`handle` reads a message (:func:`~sueca.protocol.messages.read_to_bot`) and passes
    it to the handler its type has in one table; a type the table lacks is ignored, so the
    protocol can grow.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.rules: Rules | None = None
        self.seat = 0
        self.tracker: SeatTracker | None = None
        self.last: SeatTracker | None = None  # the deal just ended, until the next one
        self.done = False
        self._handlers: dict[type[msg.Message], Callable[[Any], Answers]] = {
            msg.Hello: self._hello,
            msg.Quit: self._quit,
            msg.Match: self._match,
            msg.Deal: self._deal,
            msg.Redeal: self._redeal,
            msg.Bid: self._bid,
            msg.Contract: self._contract,
            msg.Shown: self._shown,
            msg.Played: self._played,
            msg.Denounced: self._denounced,
            msg.Turn: self._turn,
            msg.BidTurn: self._bid_turn,
            msg.CallTurn: self._call_turn,
            msg.RedealTurn: self._redeal_turn,
            msg.DenounceTurn: self._denounce_turn,
            msg.DealEnd: self._deal_end,
        }

    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """The answers to one message; :class:`ProtocolError` when it cannot be followed."""
        typed = msg.read_to_bot(message, self.rules or _STANDARD)
        if typed is None:
            return []  # unknown types are ignored, so that the protocol can grow
        return [answer.to_dict() for answer in self._handlers[type(typed)](typed)]

    # -- the session --

    def _hello(self, message: msg.Hello) -> Answers:
        return [msg.Hello(name=self.bot.name, protocol=PROTOCOL)]

    def _quit(self, message: msg.Quit) -> Answers:
        self.done = True
        return []

    def _match(self, message: msg.Match) -> Answers:
        self.rules = message.rules
        self.seat = message.seat
        self.tracker = self.last = None
        self.bot.new_match(message.rules, message.seat)
        # At a renuncia table: ask this bot at each deal's end too (denounce_turn).
        return [msg.DenounceReady()] if message.rules.renuncia else []

    # -- what the seat is told --

    def _deal(self, message: msg.Deal) -> Answers:
        self.tracker = self._new_deal(message)
        self.last = None
        return []

    def _redeal(self, message: msg.Redeal) -> Answers:
        tracker = self._tracker()
        tracker.redeal(message.seat, message.ask)
        if message.ask:
            self.bot.deal_annulled(tracker.information_state())
            self.tracker = None  # the same dealer's new deal follows
        return []

    def _bid(self, message: msg.Bid) -> Answers:
        self._tracker().bid(message.seat, message.value)
        return []

    def _contract(self, message: msg.Contract) -> Answers:
        self._tracker().contract(message.declarer, message.bid, message.called_card,
                                 message.trump)
        return []

    def _shown(self, message: msg.Shown) -> Answers:
        self._tracker().show(message.seat, message.cards)
        return []

    def _played(self, message: msg.Played) -> Answers:
        self._tracker().played(message.seat, message.card, message.turned is True)
        return []

    def _denounced(self, message: msg.Denounced) -> Answers:
        # A deal may be denounced until the next one starts: after its deal_end too.
        tracker = self.tracker or self.last
        if tracker is None:
            raise ProtocolError("no deal in progress")
        tracker.denounced(message.seat, message.correct)
        return []

    def _deal_end(self, message: msg.DealEnd) -> Answers:
        current = self.tracker
        if current is not None:
            # Checked before the deal is closed: a deal_end that cannot be followed leaves
            # the deal as it was, as any message refused does.
            hands = current.hands_at_end(message.hands)
            self.bot.deal_over(current.information_state(), hands)
        self.tracker, self.last = None, current
        return []

    # -- what the seat is asked --

    def _turn(self, message: msg.Turn) -> Answers:
        tracker = self._tracker()
        seat = self.seat if message.seat is None else message.seat
        info = tracker.information_state(seat)
        request = _asked(info, AskCard, "turn", f"it is not seat {seat}'s turn to play")
        offered = (message.legal if message.legal is not None
                   else tuple(card_face(c) for c in request.legal))
        if not offered:
            raise ProtocolError("a turn whose legal list is empty")
        answers: Answers = []
        self._keep_time(message.time_ms)
        if message.denounce is True and info.may_denounce() and self.bot.denounce(info):
            answers.append(msg.DenounceAnswer())  # renuncia: the cry comes before the card
        card = self.bot.choose(info)
        if card_face(card) not in offered:
            answers.append(msg.Info(warning=f"{card_name(card)} is not in the referee's legal "
                                    "list; playing its first card"))
            card = offered[0]
        answers.append(msg.PlayAnswer(card=card))
        return answers

    def _bid_turn(self, message: msg.BidTurn) -> Answers:
        info = self._tracker().information_state()
        request = _asked(info, AskBid, "bid_turn", "it is not this seat's turn to bid")
        self._keep_time(message.time_ms)
        value = self.bot.bid(info)
        if type(value) is int and (value == PASS or request.lowest <= value <= request.highest):
            return [msg.BidAnswer(value=value)]
        allowed = (f"a pass (0) or a bid from {request.lowest} to {request.highest}"
                   if request.may_bid else "only a pass (0)")
        plain = plain_action(self.bot, info, request)
        assert type(plain) is Bid
        return [msg.Info(warning=f"the bot's bid is refused ({shown(value)}: {allowed}); "
                         "passing"), msg.BidAnswer(value=plain.value)]

    def _call_turn(self, message: msg.CallTurn) -> Answers:
        info = self._tracker().information_state()
        request = _asked(info, AskCall, "call_turn", "this seat has not won the auction")
        self._keep_time(message.time_ms)
        card = self.bot.call(info)
        if type(card) is int and 0 <= card < request.deck_size:
            return [msg.CallAnswer(card=card)]
        plain = plain_action(self.bot, info, request)
        assert type(plain) is Call
        return [msg.Info(warning=f"the bot's call {shown(card)} is not a card; calling "
                         f"{card_name(plain.card)}"), msg.CallAnswer(card=plain.card)]

    def _redeal_turn(self, message: msg.RedealTurn) -> Answers:
        # ``seat``: the dummy's question, put to its partner (as a ``turn`` names it).
        tracker = self._tracker()
        seat = self.seat if message.seat is None else message.seat
        info = tracker.information_state(seat)
        request = _asked(info, AskRedeal, "redeal_turn", f"it is not seat {seat}'s turn to answer")
        self._keep_time(message.time_ms)
        answer = self.bot.redeal(info)
        if type(answer) is bool and (request.may_ask or not answer):
            return [msg.RedealAnswer(ask=answer)]
        plain = plain_action(self.bot, info, request)
        assert type(plain) is Redeal
        return [msg.Info(warning=f"the bot's redeal answer {shown(answer)} is refused (only a weak "
                         "hand may ask); keeping"), msg.RedealAnswer(ask=plain.ask)]

    def _denounce_turn(self, message: msg.DenounceTurn) -> Answers:
        if not (self.rules or _STANDARD).renuncia:
            raise ProtocolError("a denounce_turn, but this table does not play renúncia "
                                "(renuncia)")
        tracker = self.tracker or self.last
        if tracker is None:
            raise ProtocolError("a denounce_turn, but no deal was played")
        info = tracker.information_state()
        self._keep_time(message.time_ms)
        if info.may_denounce() and self.bot.denounce(info):
            return [msg.DenounceAnswer()]
        return [msg.PassAnswer()]

    # -- helpers --

    def _keep_time(self, time_ms: int | None) -> None:
        """The referee's budget for this answer (1 ms or more, as the message was read): a
        ceiling the bot keeps from now on; none given, the last one told still holds."""
        if time_ms is not None:
            self.bot.set_time_budget(time_ms / 1000)

    def _new_deal(self, message: msg.Deal) -> SeatTracker:
        rules = self._rules()
        hand = hand_of_faces(message.hand, rules, "deal hand")
        if hand.bit_count() != rules.hand_size:
            raise ProtocolError(f"deal hand holds {hand.bit_count()} cards, not "
                                f"{rules.hand_size}")
        face = message.trump_card
        if rules.bidding:
            if face is not None:
                raise ProtocolError("a bidding table turns no trump card: the called card "
                                    "makes trump")
            return SeatTracker(rules, self.seat, message.dealer, hand, None)
        if face is None:
            raise ProtocolError("a deal at this table names its trump_card")
        if message.dealer == self.seat:
            trump_card = held_copy(hand, face)
            if not hand >> trump_card & 1:
                raise ProtocolError("this seat deals, but its hand lacks the trump card")
        else:
            free = [c for c in copies(face, rules) if not hand >> c & 1]
            if not free:
                raise ProtocolError("the trump card is the dealer's, not this seat's")
            trump_card = free[0]
        return SeatTracker(rules, self.seat, message.dealer, hand, trump_card)

    def _rules(self) -> Rules:
        if self.rules is None:
            self.rules = _STANDARD  # a referee that sends no match plays the standard game
            self.bot.new_match(self.rules, self.seat)
        return self.rules

    def _tracker(self) -> SeatTracker:
        if self.tracker is None:
            raise ProtocolError("no deal in progress")
        return self.tracker


R = TypeVar("R", AskCard, AskBid, AskCall, AskRedeal)


def _asked(info: InformationState, wanted: type[R], question: str, out_of_turn: str) -> R:
    """What the seat is asked (:meth:`InformationState.request`), where it is the kind of
    question the referee put (``wanted``); else a :class:`ProtocolError` saying why not: the
    deal is over (a revoke proven, or every card played), or ``out_of_turn``."""
    request = info.request()
    if isinstance(request, wanted):
        return request
    if info.phase == Phase.OVER:
        why = ("a revoke is proven" if any(d.correct for d in info.denunciations)
               else "every card is played")
        raise ProtocolError(f"a {question}, but the deal is over: {why}")
    raise ProtocolError(f"a {question}, but {out_of_turn}")


def serve(bot: Bot, reader: TextIO = sys.stdin, writer: TextIO = sys.stdout) -> int:
    """Play ``bot`` over the protocol until ``quit`` or the end of input; the exit status.

    A message that cannot be followed is answered with an ``info`` line naming the problem
    (the session goes on), so a referee sees why its bot is confused.
    """
    session = BotSession(bot)
    for line in reader:
        if not line.strip():
            continue
        try:
            answers = session.handle(decode(line))
        except ProtocolError as error:
            answers = [msg.Info(error=str(error)).to_dict()]
        for answer in answers:
            writer.write(encode(answer) + "\n")
        writer.flush()
        if session.done:
            break
    bot.close()
    return 0


__all__ = ["BotSession", "serve"]
