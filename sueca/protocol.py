"""The bot protocol ``sueca-bot/1`` (/work/shared/BOT_PROTOCOL.md, docs/protocol.md): JSON lines
over a program's standard input and output, at every table of the rules.

Two sides live here:

- :class:`ExternalBot` is the referee's side: a :class:`~sueca.bots.Bot` that runs a command
  and plays through it, so the arena and the web table can seat any program that speaks the
  protocol (``--bots cmd:'python my_bot.py'``). What it sends is composed by :class:`SeatFeed`
  from the seat's :class:`~sueca.infostate.InformationState` alone (and, once the deal is over,
  the hands as dealt), so a program can learn nothing its seat may not know.
- :func:`serve` is the bot's side: the loop behind ``sueca bot NAME``, which rebuilds the
  seat's information state from the messages (:class:`SeatTracker`) and asks a bot for its
  bids, its called card and its cards.

Version 1 grew *extensions* for the tables of RULES.md sections 3 and 4 (docs/protocol.md):
``bid_turn``/``bid``, ``call_turn``/``call`` and ``contract`` for the five-player auction,
``shown`` for cards that become known during the play (a dummy, open hands), ``turn`` with a
``seat`` for the dummy's card, ``played`` with ``turned`` for the turned trump card itself at a
double-deck table, and ``deal_end`` with ``set_aside`` and ``seat_points``. A card is named by
its face: with two decks a hand names a card twice, and the referee plays the copy the hand
holds (:func:`sueca.cards.held_copy`).

**Error policy of the referee.** A program must never crash the referee. Every fault is
recorded in :attr:`ExternalBot.errors` with the bot's name and seat, and the play goes on:

- an answer that is not JSON, not the message asked for, or not a legal card, bid or call:
  the question is asked again (``retries`` times, default 1); after that the seat plays the
  *fallback card* (the first legal card in deck order), passes, or calls the fallback card
  (:meth:`Bot.call`'s default: the top card it lacks in its longest suit);
- no card within the move's ``time_ms`` plus ``grace_ms``, a program that exits or closes its
  output, or one that never says hello: the program is stopped and the seat is *forfeited*:
  it plays the fallback card (passes, calls the fallback card) until the bot is closed;
- no answer to a ``bid_turn`` or ``call_turn`` in that time: the program is taken to predate
  the auction extension. It is not stopped (it may still play cards): the seat passes (calls
  the fallback card), and is not asked to bid or call again.

A late card would otherwise be read as the answer to the next turn, so a timeout on a card
always disconnects; a late bid or call cannot be mistaken for a card (each answer has its own
type) and the seat is never asked for one again. Lines of type ``info`` are kept (the last
100, in :attr:`ExternalBot.infos`); other unknown types are ignored, as the protocol asks.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import queue
import shlex
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any, TextIO, TypeVar

from sueca.auction import PASS, bid_error, bidding_order, call_error, high_bidder, lowest_bid
from sueca.bots.base import Bot
from sueca.cards import (
    DECK_SIZE,
    FULL_DECK,
    SUIT_LETTERS,
    Card,
    CardMask,
    CardParseError,
    card_face,
    card_name,
    card_suit,
    cards_mask,
    held_copy,
    mask_cards,
    parse_card,
)
from sueca.deal import Deal
from sueca.infostate import InformationState
from sueca.jsontext import NotJsonError, parse_json
from sueca.redeal import hand_points, redeal_limit, redeal_order
from sueca.rules import MAX_BID, Rules, RulesError
from sueca.state import IllegalMoveError, State

PROTOCOL = "sueca-bot/1"

T = TypeVar("T")


class ProtocolError(ValueError):
    """A message that breaks the protocol (bad JSON, a missing field, an impossible play)."""


def encode(message: dict[str, Any]) -> str:
    """One protocol line (without its newline): compact JSON, UTF-8 as is."""
    return json.dumps(message, ensure_ascii=False, separators=(", ", ": "))


def decode(line: str) -> dict[str, Any]:
    """A protocol line as a dict; :class:`ProtocolError` when it is not a JSON object with a
    string ``type``."""
    try:
        message = parse_json(line)
    except NotJsonError as error:
        raise ProtocolError(f"{error} in {line.strip()[:80]!r}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"not a protocol message (a JSON object with a type): "
                            f"{line.strip()[:80]!r}")
    return message


def card_names(mask: CardMask) -> list[str]:
    """The names of a mask's cards in deck order (suits S H D C, low to high); with two decks
    a card held twice is named twice, side by side."""
    return [card_name(c) for c in sorted(mask_cards(mask), key=card_face)]


def copies(face: Card, rules: Rules) -> tuple[Card, ...]:
    """Every copy of a card's face at this table (one per deck)."""
    return tuple(card_face(face) + DECK_SIZE * k for k in range(rules.decks))


# ---- the referee's side: what one seat is told --------------------------------------------


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


@dataclass
class SeatFeed:
    """The referee's messages to one seat, composed from that seat's information states only.

    The referee sees a seat only when it asks it something (or tells it the deal is over), so
    :meth:`catch_up` sends, in order, whatever the seat has come to know since the last time:
    a new ``deal``, the ``bid`` broadcasts, the ``contract``, the cards ``played``, and
    ``shown`` for cards of other hands that the seat's ``known`` masks now hold. Nothing else
    of the state is ever read, so nothing hidden can be sent.
    """

    rules: Rules | None = None
    seat: int = -1
    _match_sent: bool = False
    _deal: _DealSent | None = None

    def start_match(self, rules: Rules, seat: int) -> None:
        self.rules = rules
        self.seat = seat
        self._match_sent = False
        self._deal = None

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
        return [{"type": "match", "rules": self.rules.to_dict(), "seat": self.seat}]

    def catch_up(self, info: InformationState) -> list[dict[str, Any]]:
        """Everything ``info`` (this feed's seat, see :meth:`view`) knows that was not yet told."""
        info = self.view(info)
        rules = info.rules
        out = self.match_messages()
        seats = info.played_by()
        dealt = info.hands_as_dealt(info.known)[info.seat]
        turned_face = None if info.trump_card is None else card_face(info.trump_card)
        key = (info.dealer, turned_face, _faces_held(dealt))
        sent = self._deal
        if sent is None or sent.key != key or sent.plays > len(info.plays) or (
            sent.bids > len(info.bids) or sent.redeals > len(info.redeal_answers)
        ):
            told = [0] * rules.players
            told[info.seat] = dealt
            deal: dict[str, Any] = {"type": "deal", "dealer": info.dealer,
                                    "hand": card_names(dealt)}
            if info.trump_card is not None:
                told[info.dealer] |= 1 << info.trump_card
                deal["trump_card"] = card_name(info.trump_card)
            sent = self._deal = _DealSent(key, told)
            out.append(deal)
        asked = redeal_order(rules, info.opening_leader)
        for index in range(sent.redeals, len(info.redeal_answers)):
            out.append({"type": "redeal", "seat": asked[index],
                        "ask": info.redeal_answers[index]})
        sent.redeals = len(info.redeal_answers)
        order = bidding_order(rules, info.dealer)
        for index in range(sent.bids, len(info.bids)):
            out.append({"type": "bid", "seat": order[index], "value": info.bids[index]})
        sent.bids = len(info.bids)
        contract = info.contract
        if contract is not None and not sent.contract:
            # The called card, never its holder: the partner is secret until it is played.
            out.append({"type": "contract", "declarer": contract.declarer, "bid": contract.bid,
                        "called_card": card_name(contract.called_card),
                        "trump": SUIT_LETTERS[contract.trump]})
            sent.contract = True
        for index in range(sent.plays, len(info.plays)):
            card = info.plays[index]
            if rules.decks > 1 and card < DECK_SIZE:
                _renumber(sent.told, seats[index], card)
            played: dict[str, Any] = {"type": "played", "seat": seats[index],
                                      "card": card_name(card)}
            if rules.decks > 1 and card == info.trump_card:
                played["turned"] = True  # the turned card itself, not its twin
            out.append(played)
        sent.plays = len(info.plays)
        for seat, known in enumerate(info.known):
            new = known & ~sent.told[seat]
            if seat != info.seat and new:
                out.append({"type": "shown", "seat": seat, "cards": card_names(new)})
                sent.told[seat] |= new
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

    def deal_end(self, info: InformationState, hands: Sequence[CardMask]
                 ) -> list[dict[str, Any]]:
        """What is left to tell, then ``deal_end`` with every hand as dealt (public now)."""
        if self.view(info).seat != info.seat:
            return []  # the dummy's partner hears the end of the deal for its own seat
        out = self.catch_up(info)
        rules = info.rules
        end: dict[str, Any] = {"type": "deal_end", "points": list(info.points_taken),
                               "hands": [card_names(h) for h in hands]}
        if rules.set_aside:
            dealt = 0
            for hand in hands:
                dealt |= hand
            end["set_aside"] = card_names(((1 << rules.deck_size) - 1) & ~dealt)
        if rules.bidding:
            end["seat_points"] = list(info.seat_points)
        out.append(end)
        self._deal = None
        return out


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


class ExternalBot(Bot):
    """A bot played by an external program that speaks ``sueca-bot/1``.

    ``command`` is split like a shell line (``python my_bot.py --depth 3``); ``{seed}`` in it
    becomes this bot's seed, so that a seeded program plays the same way every time (the
    arena seeds each board's bots). The program starts when the bot is seated
    (:meth:`new_match`) or first asked, and stops at :meth:`close`. At a three-player table
    the program of the dummy's partner may be asked for the dummy's cards too: :meth:`choose`
    with the dummy's information state sends a ``turn`` naming the dummy's seat (seating one
    ExternalBot at both seats does that; it keeps the partner's seat). The dummy's redeal
    question (weak_hand_redeal) names the dummy's seat in its ``redeal_turn`` the same way.
    """

    def __init__(
        self,
        command: str,
        seed: int | None = None,
        *,
        time_ms: int = 1000,
        grace_ms: int = 2000,
        hello_timeout: float = 15.0,
        retries: int = 1,
    ) -> None:
        super().__init__(seed)
        self.command = command.strip()
        if not self.command:
            raise ValueError("cmd: needs a command to run, as in cmd:'python my_bot.py'")
        try:
            words = shlex.split(self.command)
        except ValueError as error:  # an unclosed quote: say which command
            raise ValueError(f"cmd:{self.command} is not a command line: {error}") from None
        self.argv = [a.replace("{seed}", str(seed or 0)) for a in words]
        self.name = f"cmd:{self.command}"
        self.time_ms = time_ms
        self.grace_ms = grace_ms
        self.hello_timeout = hello_timeout
        self.retries = retries
        self.errors: list[str] = []
        self.infos: deque[dict[str, Any]] = deque(maxlen=100)
        self.remote_name: str | None = None  # what the program calls itself
        self.feed = SeatFeed()
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._forfeited = False
        # It let a bid, a call or a redeal question time out: it predates the auction (or
        # the redeal), and is not asked such questions again.
        self._no_auction = False

    # -- the Bot interface --

    def new_match(self, rules: Rules, seat: int) -> None:
        feed = self.feed
        if rules == feed.rules and seat == rules.dummy and rules.controller_of(seat) == feed.seat:
            return  # one program plays the dummy's partner and the dummy: it keeps its seat
        feed.start_match(rules, seat)
        self._start()  # the match message waits for the first question (see SeatFeed.view)

    def choose(self, info: InformationState) -> Card:
        legal = info.legal_moves()
        if not legal:
            raise ValueError(f"seat {info.seat} has no card to play now")
        fallback = legal[0]
        if self._forfeited:
            return fallback
        own_seat = self.feed.view(info).seat
        turn: dict[str, Any] = {"type": "turn",
                                "legal": list(dict.fromkeys(card_names(cards_mask(legal)))),
                                "time_ms": self.time_ms}
        if own_seat != info.seat:
            turn["seat"] = info.seat  # the dummy's card, played by its partner
        answer = self._ask(info, turn, "play", f"its card (seat {info.seat}, trick "
                           f"{info.trick_number + 1})", lambda m: _check_play(m, info),
                           f"playing the fallback card {card_name(fallback)}")
        return fallback if answer is None else answer

    def bid(self, info: InformationState) -> int:
        if self._forfeited or self._no_auction or info.phase != "bidding":
            return PASS
        question = {"type": "bid_turn", "min": lowest_bid(info.rules, info.bids),
                    "max": MAX_BID, "pass": PASS, "time_ms": self.time_ms}
        answer = self._ask(info, question, "bid", f"its bid (seat {info.seat})",
                           lambda m: _check_bid(m, info), "passing", patient=True)
        return PASS if answer is None else answer

    def call(self, info: InformationState) -> Card:
        fallback = super().call(info)
        if self._forfeited or self._no_auction or info.phase != "calling":
            return fallback
        answer = self._ask(info, {"type": "call_turn", "time_ms": self.time_ms}, "call",
                           f"its called card (seat {info.seat})", lambda m: _check_call(m, info),
                           f"calling the fallback card {card_name(fallback)}", patient=True)
        return fallback if answer is None else answer

    def redeal(self, info: InformationState) -> bool:
        """Only a seat that may ask is asked (``redeal_turn``); any other keeps, as does a
        program that does not answer (it is then not asked again)."""
        if (self._forfeited or self._no_auction or info.phase != "redeal"
                or not info.may_ask_redeal()):
            return False
        question: dict[str, Any] = {
            "type": "redeal_turn", "points": hand_points(info.rules, info.hand),
            "limit": redeal_limit(info.rules, info.seat, info.opening_leader),
            "time_ms": self.time_ms}
        if self.feed.view(info).seat != info.seat:
            question["seat"] = info.seat  # the dummy's question, answered by its partner
        answer = self._ask(info, question, "redeal", f"its redeal answer (seat {info.seat})",
                           _check_redeal, "keeping the hand", patient=True)
        return False if answer is None else answer

    def deal_annulled(self, info: InformationState) -> None:
        if self._forfeited or self._process is None:
            return
        self._send_all(self.feed.deal_annulled(info))

    def deal_over(self, info: InformationState, hands: tuple[CardMask, ...]) -> None:
        if self._forfeited or self._process is None:
            return
        self._send_all(self.feed.deal_end(info, hands))

    def close(self) -> None:
        process = self._process
        if process is None:
            return
        self._process = None
        with contextlib.suppress(OSError, ValueError):
            if process.poll() is None and process.stdin is not None:
                process.stdin.write(encode({"type": "quit"}) + "\n")
                process.stdin.flush()
                process.stdin.close()
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    # -- one question --

    def _ask(
        self,
        info: InformationState,
        question: dict[str, Any],
        expect: str,
        waiting_for: str,
        check: Callable[[dict[str, Any]], T | str],
        fallback: str,
        patient: bool = False,
    ) -> T | None:
        """Catch the seat up, ask ``question`` and return the checked answer (what ``check``
        returns when it is not a string: a string says what is wrong). ``None`` after the
        retries, a forfeit, or (``patient``) a timeout that marks a program without the
        auction extension."""
        if not self._send_all(self.feed.catch_up(info)):
            return None
        for attempt in range(self.retries + 1):
            if not self._send(question):
                return None
            timeout = (self.time_ms + self.grace_ms) / 1000
            answer = self._read(timeout, expect, waiting_for, forfeit_on_timeout=not patient)
            if answer is None:
                if not self._forfeited:  # a patient question timed out
                    self._no_auction = True
                    self._error(f"seat {info.seat}: no answer within {timeout:.1f} s while "
                                f"waiting for {waiting_for} (a program that predates the "
                                f"auction?); {fallback}, and it is not asked to bid, call "
                                "or answer a redeal question again")
                return None
            result = answer if isinstance(answer, str) else check(answer)
            if not isinstance(result, str):
                return result
            again = "asking again" if attempt < self.retries else fallback
            self._error(f"seat {info.seat}: {result}; {again}")
        return None

    # -- what is sent --

    def _start(self) -> bool:
        if self._process is not None:
            return True
        if self._forfeited:
            return False
        try:
            process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1,
            )
        except OSError as error:
            self._forfeit(f"cannot start {self.command!r}: {error}")
            return False
        self._process = process
        assert process.stdout is not None and process.stderr is not None
        _pump(process.stdout, self._lines.put, end=lambda: self._lines.put(None))
        _pump(process.stderr, self._stderr.append)
        if not self._send({"type": "hello", "protocol": PROTOCOL}):
            return False
        answer = self._read(self.hello_timeout, "hello", "its hello")
        if answer is None:
            return False
        if isinstance(answer, str):
            self._forfeit(f"no hello: {answer}")
            return False
        name = answer.get("name")
        self.remote_name = name if isinstance(name, str) else None
        return True

    def _send_all(self, messages: list[dict[str, Any]]) -> bool:
        return all(self._send(message) for message in messages)

    def _send(self, message: dict[str, Any]) -> bool:
        if not self._start():
            return False
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(encode(message) + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            self._forfeit(f"cannot write to the program (it exited with "
                          f"{process.poll()}){self._stderr_tail()}")
            return False
        return True

    # -- what is read --

    def _read(self, timeout: float, expect: str, waiting_for: str,
              forfeit_on_timeout: bool = True) -> dict[str, Any] | str | None:
        """The next message of type ``expect``; a string saying what is wrong with a line
        that is no protocol message; ``None`` on timeout (a forfeit unless told otherwise)
        or exit (a forfeit). ``info`` messages are kept and other types skipped, as the
        protocol asks."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                if forfeit_on_timeout:
                    self._forfeit(f"no answer within {timeout:.1f} s while waiting for "
                                  f"{waiting_for}")
                return None
            if line is None:
                code = self._process.wait() if self._process is not None else None
                self._forfeit(f"the program exited (status {code}) while we waited for "
                              f"{waiting_for}{self._stderr_tail()}")
                return None
            if not line.strip():
                continue
            try:
                message = decode(line)
            except ProtocolError as error:
                return str(error)
            if message["type"] == expect:
                return message
            if message["type"] == "info":
                self.infos.append(message)

    # -- faults --

    def _error(self, message: str) -> None:
        self.errors.append(f"{self.name}: {message}")

    def _forfeit(self, message: str) -> None:
        self._error(message + "; the seat is forfeited: fallback cards from now on")
        self._forfeited = True
        process = self._process
        self._process = None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()

    def _stderr_tail(self) -> str:
        return f"; its last error output: {' | '.join(self._stderr)}" if self._stderr else ""


def _named_card(message: dict[str, Any]) -> Card | str:
    """The card a ``play`` or ``call`` message names (its face), else what is wrong."""
    text = message.get("card")
    try:
        return parse_card(text) if isinstance(text, str) else f"{text!r} is not a card"
    except CardParseError:
        return f"{text!r} is not a card"


def _check_play(message: dict[str, Any], info: InformationState) -> Card | str:
    """The card of a ``play`` message (the copy the hand holds) when it is legal, else what
    is wrong with it."""
    card = _named_card(message)
    if isinstance(card, str):
        return card
    card = held_copy(info.hand, card)
    if card not in info.legal_moves():
        return f"{card_name(card)} is not a legal card now"
    return card


def _check_bid(message: dict[str, Any], info: InformationState) -> int | str:
    value = message.get("value")
    problem = bid_error(info.rules, info.bids, value)
    if problem is not None:
        return f"bad bid: {problem}"
    assert isinstance(value, int)
    return value


def _check_redeal(message: dict[str, Any]) -> bool | str:
    """The answer of a ``redeal`` message (``ask``: true or false), else what is wrong. The
    question went only to a seat that may ask, so either answer is allowed."""
    ask = message.get("ask")
    return ask if type(ask) is bool else f"bad redeal answer: 'ask' must be true or false, " \
        f"not {ask!r}"


def _check_call(message: dict[str, Any], info: InformationState) -> Card | str:
    card = _named_card(message)
    if isinstance(card, str):
        return f"bad call: {card}"
    card = held_copy(info.hand, card)
    problem = call_error(info.rules, card)
    return f"bad call: {problem}" if problem is not None else card


def _pump(stream: IO[str], put: Callable[[str], object], end: Callable[[], object] | None = None
          ) -> None:
    """Copy a program's output lines into ``put`` from a daemon thread (reads block)."""

    def run() -> None:
        try:
            for line in stream:
                put(line.rstrip("\n"))
        except (OSError, ValueError):
            pass
        finally:
            if end is not None:
                end()

    threading.Thread(target=run, daemon=True).start()


# ---- the bot's side ----------------------------------------------------------------------


class SeatTracker:
    """Rebuilds one seat's :class:`InformationState` from protocol messages.

    A stand-in :class:`State` holds what the seat knows of each hand: its own, the turned card
    in the dealer's hand, the cards ``shown`` to it (a dummy, open hands), and, for every other
    seat, each card just before that seat plays it. The engine then works out the auction,
    tricks, winners, points and voids exactly as the referee does, and refuses a message that
    could not happen. The known cards of each seat are exactly the stand-in's hands; hand
    sizes follow from the cards played; at a bidding table the sides follow from who is seen
    to hold or play the called card.

    With two decks the messages name faces. The stand-in is a two-deck state like the
    referee's, which numbers the copies of a face by play order (the first played is ``c``,
    the other from then on ``c + 40``, wherever it is), so the tracker may push any copy it
    knows the seat to hold, or put a free one in an unknown hand and push that: its plays are
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
            self.state.bid(value, seat)
        except IllegalMoveError as error:
            raise ProtocolError(f"bid {value!r} by seat {seat}: {error}") from None

    def redeal(self, seat: int, ask: bool) -> None:
        """``seat`` kept its hand (``ask`` false) or asked for a new deal."""
        try:
            self.state.answer_redeal(ask, seat)
        except IllegalMoveError as error:
            raise ProtocolError(f"redeal answer {ask!r} by seat {seat}: {error}") from None

    def contract(self, declarer: int, bid: int, called: Card, trump: int | None = None
                 ) -> None:
        state = self.state
        if state.phase != "calling":
            raise ProtocolError(f"a contract, but the auction is not over ({state.phase})")
        expected = high_bidder(self.rules, state.deal.dealer, state.bids)
        if (declarer, bid) != expected:
            raise ProtocolError(f"the contract names seat {declarer} for {bid}, but the bids "
                                f"make seat {expected[0]} the declarer for {expected[1]}")
        if trump is not None and trump != card_suit(called):
            raise ProtocolError(f"the trump of a contract calling {card_name(called)} is "
                                f"{SUIT_LETTERS[card_suit(called)]}, not {SUIT_LETTERS[trump]}")
        try:
            state.call(held_copy(state.hands[self.seat], called), declarer)
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
        while state.phase == "redeal":
            state.answer_redeal(False)  # a card is played: every seat not heard of kept
        if state.phase != "play":
            raise ProtocolError(f"{card_name(card)} played before the contract is made")
        if seat != state.to_play:
            raise ProtocolError(f"seat {seat} played {card_name(card)}, but it is seat "
                                f"{state.to_play}'s turn")
        if not 0 <= card < self.rules.deck_size:
            raise ProtocolError(f"{card!r} is not a card")
        copy = self._copy_played(seat, card_face(card), turned)
        added = not state.hands[seat] >> copy & 1
        state.hands[seat] |= 1 << copy
        try:
            state.push(copy)
        except IllegalMoveError as error:
            if added:
                state.hands[seat] &= ~(1 << copy)
            raise ProtocolError(str(error)) from None
        self.counts[seat] += 1
        self._settle_sides()

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
        """The copy of ``face`` to push for the seat's card: the turned card if the message
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


def _cards(value: object, what: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProtocolError(f"{what} must be a list of cards")
    try:
        return [parse_card(v) for v in value]
    except CardParseError as error:
        raise ProtocolError(f"{what}: {error}") from None


def _card(value: object, what: str) -> Card:
    return _cards([value], what)[0]


def _hand(value: object, rules: Rules, what: str) -> CardMask:
    """A hand named by faces as a mask: a face's first copy, then its second (two decks)."""
    hand = 0
    for face in _cards(value, what):
        free = [c for c in copies(face, rules) if not hand >> c & 1]
        if not free:
            twice = "a card twice" if rules.decks == 1 else "a card more than twice"
            raise ProtocolError(f"{what} names {twice} ({card_name(face)}) at a "
                                f"{rules.decks}-deck table")
        hand |= 1 << free[0]
    return hand


def _seat(value: object, rules: Rules, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < rules.players:
        raise ProtocolError(f"{what} must be a seat from 0 to {rules.players - 1}")
    return value


def _whole(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError(f"{what} must be a whole number")
    return value


class BotSession:
    """The bot's side of one protocol session: message in, answers out (see :func:`serve`)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.rules: Rules | None = None
        self.seat = 0
        self.tracker: SeatTracker | None = None
        self.done = False

    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """The answers to one message; :class:`ProtocolError` when it cannot be followed."""
        kind = message["type"]
        if kind == "hello":
            return [{"type": "hello", "name": self.bot.name, "protocol": PROTOCOL}]
        if kind == "quit":
            self.done = True
            return []
        if kind == "match":
            try:
                rules = Rules.from_dict(message.get("rules") or {})
            except (RulesError, TypeError) as error:
                raise ProtocolError(f"bad rules: {error}") from None
            self.seat = _seat(message.get("seat"), rules, "match seat")
            self.rules = rules
            self.tracker = None
            self.bot.new_match(rules, self.seat)
            return []
        if kind == "deal":
            self.tracker = self._new_deal(message)
            return []
        if kind == "bid":
            tracker = self._tracker()
            tracker.bid(_seat(message.get("seat"), tracker.rules, "bid seat"),
                        _whole(message.get("value"), "bid value"))
            return []
        if kind == "redeal":
            tracker = self._tracker()
            ask = message.get("ask")
            if type(ask) is not bool:
                raise ProtocolError(f"redeal 'ask' must be true or false, not {ask!r}")
            tracker.redeal(_seat(message.get("seat"), tracker.rules, "redeal seat"), ask)
            if ask:
                self.bot.deal_annulled(tracker.information_state())
                self.tracker = None  # the same dealer's new deal follows
            return []
        if kind == "redeal_turn":
            # ``seat``: the dummy's question, put to its partner (as a ``turn`` names it).
            tracker = self._tracker()
            seat = _seat(message.get("seat", self.seat), tracker.rules, "redeal_turn seat")
            info = tracker.information_state(seat)
            if info.phase != "redeal" or info.to_play != seat:
                raise ProtocolError(f"a redeal_turn, but it is not seat {seat}'s turn to "
                                    "answer")
            answer = self.bot.redeal(info)
            if type(answer) is bool and answer in info.redeal_answers_allowed():
                return [{"type": "redeal", "ask": answer}]
            return [{"type": "info", "warning": f"the bot's redeal answer {answer!r} is "
                     "refused (only a weak hand may ask); keeping"},
                    {"type": "redeal", "ask": False}]
        if kind == "contract":
            tracker = self._tracker()
            trump = message.get("trump")
            if trump is not None and (not isinstance(trump, str) or trump.upper() not in
                                      SUIT_LETTERS or len(trump) != 1):
                raise ProtocolError(f"contract trump must be one of S H D C, not {trump!r}")
            tracker.contract(_seat(message.get("declarer"), tracker.rules, "declarer"),
                             _whole(message.get("bid"), "contract bid"),
                             _card(message.get("called_card"), "called_card"),
                             None if trump is None else SUIT_LETTERS.index(trump.upper()))
            return []
        if kind == "shown":
            tracker = self._tracker()
            tracker.show(_seat(message.get("seat"), tracker.rules, "shown seat"),
                         _cards(message.get("cards"), "shown cards"))
            return []
        if kind == "played":
            tracker = self._tracker()
            tracker.played(_seat(message.get("seat"), tracker.rules, "played seat"),
                           _card(message.get("card"), "played card"),
                           message.get("turned") is True)
            return []
        if kind == "turn":
            return self._play(message)
        if kind == "bid_turn":
            info = self._tracker().information_state()
            if info.phase != "bidding" or info.to_play != self.seat:
                raise ProtocolError("a bid_turn, but it is not this seat's turn to bid")
            value = self.bot.bid(info)
            problem = bid_error(info.rules, info.bids, value)
            if problem is None:
                return [{"type": "bid", "value": value}]
            return [{"type": "info", "warning": f"the bot's bid is refused ({problem}); "
                     "passing"}, {"type": "bid", "value": PASS}]
        if kind == "call_turn":
            info = self._tracker().information_state()
            if info.phase != "calling" or info.to_play != self.seat:
                raise ProtocolError("a call_turn, but this seat has not won the auction")
            return [{"type": "call", "card": card_name(self.bot.call(info))}]
        if kind == "deal_end":
            current = self.tracker
            if current is not None:
                hands_text = message.get("hands")
                hands: list[CardMask] = []
                if isinstance(hands_text, list):
                    for index, cards in enumerate(hands_text):
                        hands.append(_hand(cards, current.rules, f"deal_end hand {index}"))
                self.bot.deal_over(current.information_state(), tuple(hands))
            self.tracker = None
            return []
        return []  # unknown types are ignored, so that the protocol can grow

    def _new_deal(self, message: dict[str, Any]) -> SeatTracker:
        rules = self._rules()
        dealer = _seat(message.get("dealer"), rules, "dealer")
        hand = _hand(message.get("hand"), rules, "deal hand")
        if hand.bit_count() != rules.hand_size:
            raise ProtocolError(f"deal hand holds {hand.bit_count()} cards, not "
                                f"{rules.hand_size}")
        turned = message.get("trump_card")
        if rules.bidding:
            if turned is not None:
                raise ProtocolError("a bidding table turns no trump card: the called card "
                                    "makes trump")
            return SeatTracker(rules, self.seat, dealer, hand, None)
        face = _card(turned, "trump_card")
        if dealer == self.seat:
            trump_card = held_copy(hand, face)
            if not hand >> trump_card & 1:
                raise ProtocolError("this seat deals, but its hand lacks the trump card")
        else:
            free = [c for c in copies(face, rules) if not hand >> c & 1]
            if not free:
                raise ProtocolError("the trump card is the dealer's, not this seat's")
            trump_card = free[0]
        return SeatTracker(rules, self.seat, dealer, hand, trump_card)

    def _play(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        tracker = self._tracker()
        seat = _seat(message.get("seat", self.seat), tracker.rules, "turn seat")
        info = tracker.information_state(seat)
        legal = info.legal_moves()
        if not legal:
            raise ProtocolError(f"a turn, but it is not seat {seat}'s turn to play")
        card = self.bot.choose(info)
        offered = _cards(message.get("legal", [card_name(c) for c in legal]), "legal")
        if not offered:
            raise ProtocolError("a turn whose legal list is empty")
        answers: list[dict[str, Any]] = []
        if card_face(card) not in offered:
            answers.append({"type": "info", "warning": f"{card_name(card)} is not in the "
                            "referee's legal list; playing its first card"})
            card = offered[0]
        answers.append({"type": "play", "card": card_name(card)})
        return answers

    def _rules(self) -> Rules:
        if self.rules is None:
            self.rules = Rules()  # a referee that sends no match plays the standard game
            self.bot.new_match(self.rules, self.seat)
        return self.rules

    def _tracker(self) -> SeatTracker:
        if self.tracker is None:
            raise ProtocolError("no deal in progress")
        return self.tracker


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
            answers = [{"type": "info", "error": str(error)}]
        for answer in answers:
            writer.write(encode(answer) + "\n")
        writer.flush()
        if session.done:
            break
    bot.close()
    return 0
