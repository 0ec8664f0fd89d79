"""The referee's side: a :class:`~sueca.bots.Bot` played by an external program, and what the
referee does when the program misbehaves (docs/protocol.md, "Errors")."""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import IO, Any, TypeVar

from sueca.actions import AskBid, AskCall, AskCard, AskRedeal, Phase
from sueca.auction import PASS, bid_error, call_error
from sueca.bots.base import Bot
from sueca.cards import Card, CardMask, CardParseError, card_face, card_name, held_copy, parse_card
from sueca.infostate import InformationState
from sueca.protocol import messages as msg
from sueca.protocol.feed import SeatFeed
from sueca.protocol.messages import ECHO, PROTOCOL, ProtocolError, bounded, decode, encode, shown
from sueca.referee import Event, EventKind
from sueca.rules import Rules

T = TypeVar("T")

_ANY_RULES = Rules()  # a bot's answers name no seat: any table's rules read them


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

    Every question renders the seat's :meth:`~sueca.infostate.InformationState.request`: the
    legal cards of a ``turn``, the bid range of a ``bid_turn``, the points and limit of a
    ``redeal_turn``. What the program is told before it is composed by :class:`SeatFeed` from
    the seat's information state alone, the hands of ``deal_end`` included.

    At a ``renuncia`` table a ``turn`` says ``"denounce": true`` while the seat may cry
    *renúncia!*: a ``denounce`` line before the program's ``play`` is its cry, which
    :meth:`denounce` gives the referee as soon as it asks (right after the card). A program
    that answered the ``match`` with ``denounce_ready`` is also asked at each deal's end
    (``denounce_turn``). A cry made once the program was told the deal's end reaches it as
    an event (:meth:`hear`).
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
        # renuncia: the deal (SeatFeed.deals) whose turn offers a cry while it is asked; the
        # deal of a cry the program made and the referee has not yet taken; whether it said
        # denounce_ready (and is asked at each deal's end), whether it let that question
        # time out (and is not asked it again), and the last deal it was asked about there.
        self._offered: int | None = None
        self._cry: int | None = None
        self._ready_to_denounce = False
        self._silent_at_end = False
        self._asked_at_end: int | None = None
        # The match is won (the referee's match_ended heard): its result stands, so no cry is
        # offered or asked for until the next match (Referee.may_denounce).
        self._match_won = False

    # -- the Bot interface --

    def set_time_budget(self, seconds: float | None) -> None:
        """A table's budget reaches the program as each turn's ``time_ms``."""
        super().set_time_budget(seconds)
        if seconds is not None:
            self.time_ms = max(1, round(seconds * 1000))

    def new_match(self, rules: Rules, seat: int) -> None:
        feed = self.feed
        if rules == feed.rules and seat == rules.dummy and rules.controller_of(seat) == feed.seat:
            return  # one program plays the dummy's partner and the dummy: it keeps its seat
        feed.start_match(rules, seat)
        self._match_won = False
        self._start()  # the match message waits for the first question (see SeatFeed.view)

    def choose(self, info: InformationState) -> Card:
        request = info.request()
        if type(request) is not AskCard:
            raise ValueError(f"seat {info.seat} has no card to play now")
        fallback = request.legal[0]
        if self._forfeited:
            return fallback
        own_seat = self.feed.view(info).seat
        before = self.feed.catch_up(info)
        offer = info.rules.renuncia and info.may_denounce() and not self._match_won
        turn = msg.Turn(legal=tuple(dict.fromkeys(sorted(card_face(c) for c in request.legal))),
                        time_ms=self.time_ms,
                        seat=info.seat if own_seat != info.seat else None,  # the dummy's card
                        denounce=True if offer else None)
        self._offered = self.feed.deals if offer else None
        try:
            answer = self._ask(info.seat, before, turn, msg.PlayAnswer,
                               f"its card (seat {info.seat}, trick {info.trick_number + 1})",
                               lambda m: _check_play(m, info, request),
                               f"playing the fallback card {card_name(fallback)}")
        finally:
            self._offered = None
        return fallback if answer is None else answer

    def bid(self, info: InformationState) -> int:
        request = info.request()
        if self._forfeited or self._no_auction or type(request) is not AskBid:
            return PASS
        question = msg.BidTurn(lowest=request.lowest, highest=request.highest, pass_value=PASS,
                               time_ms=self.time_ms)
        answer = self._ask(info.seat, self.feed.catch_up(info), question, msg.BidAnswer,
                           f"its bid (seat {info.seat})", lambda m: _check_bid(m, info),
                           "passing", silence=self._predates_the_auction)
        return PASS if answer is None else answer

    def call(self, info: InformationState) -> Card:
        fallback = super().call(info)
        if self._forfeited or self._no_auction or type(info.request()) is not AskCall:
            return fallback
        answer = self._ask(info.seat, self.feed.catch_up(info),
                           msg.CallTurn(time_ms=self.time_ms), msg.CallAnswer,
                           f"its called card (seat {info.seat})", lambda m: _check_call(m, info),
                           f"calling the fallback card {card_name(fallback)}",
                           silence=self._predates_the_auction)
        return fallback if answer is None else answer

    def redeal(self, info: InformationState) -> bool:
        """Only a seat that may ask is asked (``redeal_turn``); any other keeps, as does a
        program that does not answer (it is then not asked again)."""
        request = info.request()
        if (self._forfeited or self._no_auction or type(request) is not AskRedeal
                or not request.may_ask):
            return False
        own_seat = self.feed.view(info).seat
        question = msg.RedealTurn(points=request.points, limit=request.limit,
                                  time_ms=self.time_ms,
                                  # the dummy's question, answered by its partner
                                  seat=info.seat if own_seat != info.seat else None)
        answer = self._ask(info.seat, self.feed.catch_up(info), question, msg.RedealAnswer,
                           f"its redeal answer (seat {info.seat})", _check_redeal,
                           "keeping the hand", silence=self._predates_the_auction)
        return False if answer is None else answer

    def denounce(self, info: InformationState) -> bool:
        """The program's cry, if it made one at its last ``turn`` of this deal; at the deal's
        end, the answer to ``denounce_turn`` from a program that said ``denounce_ready``.
        Asked after every card, so it costs nothing otherwise: no line is written or read.

        The referee asks at a deal's end before it scores the deal, as it asks every bot: a
        cry then is part of the deal, even of one that goes on to win the match. Once the
        match is won (:meth:`hear`) nothing is asked: its result stands."""
        if self._forfeited or self._match_won or not info.may_denounce():
            return False
        deal = self.feed.deals
        if self._cry is not None:
            cried, self._cry = self._cry == deal and self.feed.telling(info), None
            if cried:
                return True
        if (not self._ready_to_denounce or self._silent_at_end or info.phase != Phase.OVER
                or self._asked_at_end == deal or self._process is None):
            return False
        self._asked_at_end = deal  # once a deal, for whichever of its seats is asked first
        answer = self._ask(info.seat, [], msg.DenounceTurn(time_ms=self.time_ms),
                           (msg.DenounceAnswer, msg.PassAnswer),
                           f"its denunciation or pass (seat {info.seat}, the deal over)",
                           lambda m: m, "no denunciation", silence=self._no_answer_at_end)
        return isinstance(answer, msg.DenounceAnswer)

    def hear(self, event: Event) -> None:
        """The referee's events (it seats a bot that hears them as a listener): a cry made
        once the program was told the deal's end is told to it at once, since no question of
        that deal will follow; the match's end closes the cries (:meth:`denounce`).
        Everything else reaches the program with its next question."""
        if event.kind is EventKind.MATCH_ENDED:
            self._match_won = True
            return
        if (event.kind is not EventKind.DENOUNCED or self._forfeited or self._process is None
                or self.feed.rules is None):
            return
        self._send_all(self.feed.after_end(event.state.information_state(self.feed.seat)))

    def deal_annulled(self, info: InformationState) -> None:
        if self._forfeited or self._process is None:
            return
        self._send_all(self.feed.deal_annulled(info))

    def deal_over(self, info: InformationState, hands: tuple[CardMask, ...]) -> None:
        """``deal_end``, composed from ``info`` alone (:meth:`SeatFeed.deal_end`): the
        referee's ``hands`` are every hand as dealt, which a deal ended before its last card
        (a revoke proven) must not show, so they are not read."""
        if self._forfeited or self._process is None:
            return
        self._send_all(self.feed.deal_end(info))

    def close(self) -> None:
        process = self._process
        if process is None:
            return
        self._process = None
        with contextlib.suppress(OSError, ValueError):
            if process.poll() is None and process.stdin is not None:
                process.stdin.write(encode(msg.Quit()) + "\n")
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
        seat: int,
        before: list[dict[str, Any]],
        question: msg.Message,
        expect: type[msg.Message] | tuple[type[msg.Message], ...],
        waiting_for: str,
        check: Callable[[Any], T | str],
        fallback: str,
        silence: Callable[[str, str], None] | None = None,
    ) -> T | None:
        """Send ``before`` (what the seat has not yet been told), ask ``question`` and return
        the checked answer (what ``check`` returns when it is not a string: a string says what
        is wrong). ``None`` after the retries or a forfeit. A question with a ``silence`` is
        one a program may not know: a timeout then calls it with the error's words and the
        ``fallback`` and returns ``None``, where a card's timeout forfeits the seat."""
        if not self._send_all(before):
            return None
        for attempt in range(self.retries + 1):
            if not self._send(question.to_dict()):
                return None
            timeout = (self.time_ms + self.grace_ms) / 1000
            answer = self._read(timeout, expect, waiting_for, forfeit_on_timeout=silence is None)
            if answer is None:
                if not self._forfeited and silence is not None:
                    silence(f"seat {seat}: no answer within {timeout:.1f} s while waiting for "
                            f"{waiting_for}", fallback)
                return None
            result = answer if isinstance(answer, str) else check(answer)
            if not isinstance(result, str):
                return result
            again = "asking again" if attempt < self.retries else fallback
            self._error(f"seat {seat}: {result}; {again}")
        return None

    def _predates_the_auction(self, what: str, fallback: str) -> None:
        self._no_auction = True
        self._error(f"{what} (a program that predates the auction?); {fallback}, and it is not "
                    "asked to bid, call or answer a redeal question again")

    def _no_answer_at_end(self, what: str, fallback: str) -> None:
        self._silent_at_end = True
        self._error(f"{what}; {fallback}, and it is not asked at a deal's end again")

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
        if not self._send(msg.Hello(protocol=PROTOCOL).to_dict()):
            return False
        answer = self._read(self.hello_timeout, msg.Hello, "its hello")
        if answer is None:
            return False
        if isinstance(answer, str):
            self._forfeit(f"no hello: {answer}")
            return False
        assert isinstance(answer, msg.Hello)
        self.remote_name = answer.name
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

    def _read(self, timeout: float, expect: type[msg.Message] | tuple[type[msg.Message], ...],
              waiting_for: str, forfeit_on_timeout: bool = True) -> msg.Message | str | None:
        """The next message of type ``expect``; a string saying what is wrong with a line
        that is no protocol message; ``None`` on timeout (a forfeit unless told otherwise)
        or exit (a forfeit). ``info`` messages are kept, a cry or a ``denounce_ready`` noted,
        and other types skipped, as the protocol asks."""
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
                raw = decode(line)
                message = msg.read_answer(raw, self.feed.rules or _ANY_RULES)
            except ProtocolError as error:
                return str(error)
            if isinstance(message, expect):
                return message
            if isinstance(message, msg.Info):
                self.infos.append(raw)
            elif isinstance(message, msg.DenounceAnswer) and self._offered is not None:
                self._cry = self._offered  # before its card: given at the next denounce()
            elif isinstance(message, msg.DenounceReady):
                self._ready_to_denounce = True

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
        lines = (bounded(line, 2 * ECHO) for line in self._stderr)  # its words, not a flood
        return f"; its last error output: {' | '.join(lines)}" if self._stderr else ""


def _named_card(text: object) -> Card | str:
    """The card an answer names (its face), else what is wrong."""
    try:
        return parse_card(text) if isinstance(text, str) else f"{shown(text)} is not a card"
    except CardParseError:
        return f"{shown(text)} is not a card"


def _check_play(answer: msg.PlayAnswer, info: InformationState, request: AskCard
                ) -> Card | str:
    """The card of a ``play`` (the copy the hand holds) when the request allows it, else what
    is wrong with it."""
    card = _named_card(answer.card)
    if isinstance(card, str):
        return card
    card = held_copy(info.hand, card)
    if card not in request.legal:
        return f"{card_name(card)} is not a legal card now"
    return card


def _check_bid(answer: msg.BidAnswer, info: InformationState) -> int | str:
    value = answer.value
    problem = bid_error(info.rules, info.bids, msg.quoted(value))  # the auction's words
    if problem is not None:
        return f"bad bid: {problem}"
    assert isinstance(value, int)
    return value


def _check_redeal(answer: msg.RedealAnswer) -> bool | str:
    """The answer of a ``redeal`` (``ask``: true or false), else what is wrong. The question
    went only to a seat that may ask, so either answer is allowed."""
    ask = answer.ask
    return ask if type(ask) is bool else f"bad redeal answer: 'ask' must be true or false, " \
        f"not {shown(ask)}"


def _check_call(answer: msg.CallAnswer, info: InformationState) -> Card | str:
    card = _named_card(answer.card)
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
