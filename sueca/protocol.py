"""The bot protocol ``sueca-bot/1`` (/work/shared/BOT_PROTOCOL.md, docs/protocol.md): JSON lines
over a program's standard input and output.

Two sides live here:

- :class:`ExternalBot` is the referee's side: a :class:`~sueca.bots.Bot` that runs a command
  and plays through it, so the arena and the web table can seat any program that speaks the
  protocol (``--bots cmd:'python my_bot.py'``). Everything it sends is read off the seat's
  :class:`~sueca.infostate.InformationState` (and, once the deal is over, the hands as dealt).
- :func:`serve` is the bot's side: the loop behind ``sueca bot NAME``, which rebuilds the
  seat's information state from the messages (:class:`SeatTracker`) and asks a bot for cards.

**Error policy of the referee.** A program must never crash the referee. Every fault is
recorded in :attr:`ExternalBot.errors` with the bot's name and seat, and the play goes on:

- an answer that is not JSON, not a ``play`` message, or not a legal card of the turn: the
  turn is asked again (``retries`` times, default 1); after that the seat plays the
  *fallback card*, the first legal card in deck order;
- no answer within the move's ``time_ms`` plus ``grace_ms``, a program that exits or closes
  its output, or one that never says hello: the program is stopped and the seat is
  *forfeited*: it plays the fallback card for every move until the bot is closed.

A late answer would otherwise be read as the answer to the next turn, so a timeout always
disconnects. Lines of type ``info`` are kept (the last 100, in :attr:`ExternalBot.infos`);
other unknown types are ignored, as the protocol asks.
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
from collections.abc import Callable, Iterable
from typing import IO, Any, TextIO

from sueca.bots.base import Bot
from sueca.cards import (
    Card,
    CardMask,
    CardParseError,
    card_name,
    cards_mask,
    mask_cards,
    parse_card,
)
from sueca.deal import Deal
from sueca.infostate import InformationState
from sueca.jsontext import NotJsonError, parse_json
from sueca.rules import Rules, RulesError
from sueca.state import IllegalMoveError, State

PROTOCOL = "sueca-bot/1"


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


# ---- the referee's side ------------------------------------------------------------------


class ExternalBot(Bot):
    """A bot played by an external program that speaks ``sueca-bot/1``.

    ``command`` is split like a shell line (``python my_bot.py --depth 3``); ``{seed}`` in it
    becomes this bot's seed, so that a seeded program plays the same way every time (the
    arena seeds each board's bots). The program starts on first use and stops at
    :meth:`close`.
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
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._forfeited = False
        self._match: tuple[Rules, int] | None = None
        self._match_sent = False
        self._deal_key: tuple[int, int, CardMask] | None = None
        self._sent = 0  # plays of the current deal already sent

    # -- the Bot interface --

    def new_match(self, rules: Rules, seat: int) -> None:
        self._match = (rules, seat)
        self._match_sent = False
        self._deal_key = None
        self._send_match()

    def choose(self, info: InformationState) -> Card:
        legal = info.legal_moves()
        if not legal:
            raise ValueError(f"seat {info.seat} has no card to play now")
        fallback = legal[0]
        if self._forfeited:
            return fallback
        self._sync(info)
        names = [card_name(c) for c in legal]
        for attempt in range(self.retries + 1):
            if not self._send({"type": "turn", "legal": names, "time_ms": self.time_ms}):
                return fallback
            answer = self._read((self.time_ms + self.grace_ms) / 1000, "play",
                                f"its card (seat {info.seat}, trick {info.trick_number + 1})")
            if answer is None:
                return fallback
            problem = answer if isinstance(answer, str) else self._check_play(answer, legal)
            if isinstance(problem, int):
                return problem
            again = ("asking again" if attempt < self.retries
                     else f"playing the fallback card {card_name(fallback)}")
            self._error(f"seat {info.seat}: {problem}; {again}")
        return fallback

    def deal_over(self, info: InformationState, hands: tuple[CardMask, ...]) -> None:
        if self._forfeited or self._process is None:
            return
        self._sync(info)
        points = [round(p) for p in info.points_taken]
        self._send({"type": "deal_end", "points": points,
                    "hands": [[card_name(c) for c in mask_cards(h)] for h in hands]})
        self._deal_key = None

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

    def _send_match(self) -> None:
        if self._match is None or self._match_sent or not self._start():
            return
        rules, seat = self._match
        self._match_sent = self._send({"type": "match", "rules": rules.to_dict(), "seat": seat})

    def _sync(self, info: InformationState) -> None:
        """Send what the seat has seen since the last message: a new deal, the cards played."""
        if self._match is None or self._match[1] != info.seat or self._match[0] != info.rules:
            self._match = (info.rules, info.seat)
            self._match_sent = False
        self._send_match()
        seats = info.play_seats()
        dealt = info.hand
        for seat, card in zip(seats, info.plays, strict=True):
            if seat == info.seat:
                dealt |= 1 << card
        key = (info.dealer, info.trump_card, dealt)
        if key != self._deal_key or self._sent > len(info.plays):
            self._deal_key = key
            self._sent = 0
            self._send({"type": "deal", "dealer": info.dealer,
                        "hand": [card_name(c) for c in mask_cards(dealt)],
                        "trump_card": card_name(info.trump_card)})
        for index in range(self._sent, len(info.plays)):
            self._send({"type": "played", "seat": seats[index],
                        "card": card_name(info.plays[index])})
        self._sent = len(info.plays)

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

    def _read(self, timeout: float, expect: str, waiting_for: str
              ) -> dict[str, Any] | str | None:
        """The next message of type ``expect``; a string saying what is wrong with a line
        that is no protocol message; ``None`` (and a forfeit) on timeout or exit. ``info``
        messages are kept and other types skipped, as the protocol asks."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
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

    def _check_play(self, message: dict[str, Any], legal: Iterable[Card]) -> Card | str:
        """The card of a ``play`` message when it is legal, else what is wrong with it."""
        text = message.get("card")
        try:
            card = parse_card(text) if isinstance(text, str) else None
        except CardParseError:
            card = None
        if card is None:
            return f"{text!r} is not a card"
        if card not in legal:
            return f"{card_name(card)} is not a legal card now"
        return card

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

    A stand-in :class:`State` holds the seat's real hand, the turned card in the dealer's hand
    and, for every other seat, each card just before that seat plays it: the engine then
    works out tricks, winners, points and voids exactly as the referee does, and refuses a
    ``played`` message that could not happen. Hand sizes and known cards are set from the
    facts the messages give. (Version 1 of the protocol carries no cards shown during the play,
    so with open hands or a dummy the tracker knows only what a closed table shows.)
    """

    def __init__(self, rules: Rules, seat: int, dealer: int, hand: CardMask, trump_card: Card
                 ) -> None:
        self.rules = rules
        self.seat = seat
        hands = [0] * rules.players
        hands[seat] = hand
        hands[dealer] |= 1 << trump_card
        self.state = State(rules, Deal(dealer, tuple(hands), trump_card))
        self.counts = [0] * rules.players  # cards each seat has played

    def played(self, seat: int, card: Card) -> None:
        state = self.state
        if state.is_finished():
            raise ProtocolError(f"{card_name(card)} played after the deal is over")
        if seat != state.to_play:
            raise ProtocolError(f"seat {seat} played {card_name(card)}, but it is seat "
                                f"{state.to_play}'s turn")
        if not 0 <= card < self.rules.deck_size or state.played_mask() >> card & 1:
            raise ProtocolError(f"{card_name(card)} was already played")
        if seat != self.seat:
            for other in range(self.rules.players):
                if other != seat and state.hands[other] >> card & 1:
                    raise ProtocolError(f"seat {seat} played {card_name(card)}, which seat "
                                        f"{other} holds")
            state.hands[seat] |= 1 << card
        try:
            state.push(card)
        except IllegalMoveError as error:
            if seat != self.seat:
                state.hands[seat] &= ~(1 << card)
            raise ProtocolError(str(error)) from None
        self.counts[seat] += 1

    def information_state(self) -> InformationState:
        info = InformationState.of(self.state, self.seat)
        known = [0] * self.rules.players
        known[self.seat] = self.state.hands[self.seat]
        if self.state.trump_card_held():
            known[info.dealer] |= 1 << info.trump_card
        sizes = tuple(self.rules.hand_size - n for n in self.counts)
        return dataclasses.replace(info, known=tuple(known), hand_sizes=sizes)


def _cards(value: object, what: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProtocolError(f"{what} must be a list of cards")
    try:
        return [parse_card(v) for v in value]
    except CardParseError as error:
        raise ProtocolError(f"{what}: {error}") from None


def _seat(value: object, rules: Rules, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < rules.players:
        raise ProtocolError(f"{what} must be a seat from 0 to {rules.players - 1}")
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
            rules = self._rules()
            cards = _cards(message.get("hand"), "deal hand")
            hand = cards_mask(cards)
            (trump_card,) = _cards([message.get("trump_card")], "trump_card")
            dealer = _seat(message.get("dealer"), rules, "dealer")
            if hand.bit_count() != len(cards):
                raise ProtocolError("deal hand names a card twice")
            if hand.bit_count() != rules.hand_size:
                raise ProtocolError(f"deal hand holds {hand.bit_count()} cards, not "
                                    f"{rules.hand_size}")
            if dealer == self.seat and not hand >> trump_card & 1:
                raise ProtocolError("this seat deals, but its hand lacks the trump card")
            if dealer != self.seat and hand >> trump_card & 1:
                raise ProtocolError("the trump card is the dealer's, not this seat's")
            self.tracker = SeatTracker(rules, self.seat, dealer, hand, trump_card)
            return []
        if kind == "played":
            tracker = self._tracker()
            (card,) = _cards([message.get("card")], "played card")
            tracker.played(_seat(message.get("seat"), tracker.rules, "played seat"), card)
            return []
        if kind == "turn":
            info = self._tracker().information_state()
            legal = info.legal_moves()
            if not legal:
                raise ProtocolError("a turn, but it is not this seat's turn to play")
            card = self.bot.choose(info)
            offered = _cards(message.get("legal", [card_name(c) for c in legal]), "legal")
            if not offered:
                raise ProtocolError("a turn whose legal list is empty")
            answers: list[dict[str, Any]] = []
            if card not in offered:
                answers.append({"type": "info", "warning": f"{card_name(card)} is not in the "
                                "referee's legal list; playing its first card"})
                card = offered[0]
            answers.append({"type": "play", "card": card_name(card)})
            return answers
        if kind == "deal_end":
            current = self.tracker
            if current is not None:
                hands_text = message.get("hands")
                hands: list[CardMask] = []
                if isinstance(hands_text, list):
                    for index, cards in enumerate(hands_text):
                        hands.append(cards_mask(_cards(cards, f"deal_end hand {index}")))
                self.bot.deal_over(current.information_state(), tuple(hands))
            self.tracker = None
            return []
        return []  # unknown types are ignored, so that the protocol can grow

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
