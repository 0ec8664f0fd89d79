"""Every message of ``sueca-bot/1``, defined once: its type, its fields in the order they are
written, and how each field is written and read back (docs/protocol.md, BOT_PROTOCOL.md).

A message is a frozen dataclass whose fields carry the engine's values (seats, cards as ints,
a :class:`~sueca.rules.Rules`); :meth:`Message.to_dict` writes it as the protocol does
(cards by name, the trump suit by its letter) and :meth:`Message.from_dict` reads it back,
checking each field and naming it in the :class:`ProtocolError` when it is wrong. A field
left ``None`` is not sent. :func:`encode` and :func:`decode` turn those dicts into lines.

Two tables list the messages by direction: :data:`TO_BOT` what a referee writes and a bot
reads (:func:`read_to_bot`), :data:`TO_REFEREE` what a bot answers (:func:`read_answer`). A
bot's answers keep the fields as the program wrote them: the referee checks each against the
question it answers (:mod:`sueca.protocol.external`), so that a refusal can say what was wrong.
Where an answer names an action (``play``, ``bid``, ``call``, ``redeal``, ``denounce``) its
wire form is the action's own (:meth:`sueca.actions.Play.to_dict`).

>>> Played(seat=2, card=3).to_dict()
{'type': 'played', 'seat': 2, 'card': '5S'}
>>> from sueca.rules import STANDARD
>>> read_to_bot({"type": "bid", "seat": 9, "value": 70}, STANDARD)
Traceback (most recent call last):
...
sueca.protocol.messages.ProtocolError: bid seat must be a seat from 0 to 3
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from sueca.cards import SUIT_LETTERS, Card, CardParseError, card_name, parse_card
from sueca.jsontext import NotJsonError, parse_json
from sueca.rules import Rules, RulesError

PROTOCOL = "sueca-bot/1"

M = TypeVar("M", bound="Message")


class ProtocolError(ValueError):
    """A message that breaks the protocol (bad JSON, a missing field, an impossible play)."""


ECHO = 80  # the most of a bad input an error shows


def bounded(text: str, limit: int = ECHO) -> str:
    """``text`` cut to ``limit`` characters, the last of them "…" where it is cut."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def shown(value: object) -> str:
    """``value`` as an error shows it: its ``repr``, cut to :data:`ECHO` characters. A line of
    bad input is answered with a line of words, never with the input again."""
    return bounded(repr(value))


class Quoted:
    """A value too long to quote whole, standing in for it where a check beyond the protocol
    (the auction's) quotes what it refuses: no value it allows is that long, so its verdict is
    the same, and its quote is :func:`shown`'s."""

    def __init__(self, value: object) -> None:
        self.text = shown(value)

    def __repr__(self) -> str:
        return self.text


def quoted(value: object) -> object:
    """``value``, or its :class:`Quoted` stand-in when its ``repr`` is longer than an error
    quotes."""
    return value if len(repr(value)) <= ECHO else Quoted(value)


def in_words(error: object) -> str:
    """The message of an error raised beyond the protocol (the rules, the engine), which may
    quote the input whole: its words and an echo's worth."""
    return bounded(str(error), 2 * ECHO)


def encode(message: Message | Mapping[str, Any]) -> str:
    """One protocol line (without its newline): compact JSON, UTF-8 as is."""
    if isinstance(message, Message):
        message = message.to_dict()
    return json.dumps(message, ensure_ascii=False, separators=(", ", ": "))


def decode(line: str) -> dict[str, Any]:
    """A protocol line as a dict; :class:`ProtocolError` when it is not a JSON object with a
    string ``type``."""
    try:
        message = parse_json(line)
    except NotJsonError as error:
        raise ProtocolError(f"{error} in {shown(line.strip())}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"not a protocol message (a JSON object with a type): "
                            f"{shown(line.strip())}")
    return message


# ---- how a field is written and read ---------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """How the values of one kind of field are written, and read back: ``read`` takes the
    value as sent, the field's name for the error (``what``) and the table's rules (seats are
    checked against them)."""

    write: Callable[[Any], Any]
    read: Callable[[object, str, Rules], Any]


def _as_is(value: Any) -> Any:
    return value


def _read_as_is(value: object, what: str, rules: Rules) -> object:
    return value


def _read_seat(value: object, what: str, rules: Rules) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < rules.players:
        raise ProtocolError(f"{what} must be a seat from 0 to {rules.players - 1}")
    return value


def _read_whole(value: object, what: str, rules: Rules) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError(f"{what} must be a whole number")
    return value


def _read_budget(value: object, what: str, rules: Rules) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ProtocolError(f"{what} must be a whole number of milliseconds, 1 or more")
    return value


def _read_wholes(value: object, what: str, rules: Rules) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ProtocolError(f"{what} must be a list of whole numbers")
    return tuple(_read_whole(v, what, rules) for v in value)


def _read_cards(value: object, what: str, rules: Rules) -> tuple[Card, ...]:
    """Cards named by face (``7H``): each as its first deck's id."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProtocolError(f"{what} must be a list of cards")
    cards = []
    for v in value:
        try:
            cards.append(parse_card(v))
        except CardParseError:
            raise ProtocolError(f"{what}: not a card: {shown(v)} (expected a rank A 7 K J Q 6 "
                                "5 4 3 2 and a suit S H D C)") from None
    return tuple(cards)


def _read_card(value: object, what: str, rules: Rules) -> Card:
    if not isinstance(value, str):
        raise ProtocolError(f"{what} must be a card, not {shown(value)}")
    return _read_cards([value], what, rules)[0]


def _read_hands(value: object, what: str, rules: Rules) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list):
        raise ProtocolError(f"{what} must be a list of hands")
    return tuple(_read_cards(hand, f"{what} {index}", rules) for index, hand in enumerate(value))


def _read_flag(value: object, what: str, rules: Rules) -> bool:
    if type(value) is not bool:
        raise ProtocolError(f"{what} must be true or false, not {shown(value)}")
    return value


def _read_suit(value: object, what: str, rules: Rules) -> int:
    if not isinstance(value, str) or len(value) != 1 or value.upper() not in SUIT_LETTERS:
        raise ProtocolError(f"{what} must be one of S H D C, not {shown(value)}")
    return SUIT_LETTERS.index(value.upper())


def _read_rules(value: object, what: str, rules: Rules) -> Rules:
    # None (no rules sent) is the standard game, as a referee that sends no match plays it.
    if value is not None and not isinstance(value, dict):
        raise ProtocolError(f"{what} must be a RECORD.md rules object, not {shown(value)}")
    try:
        return Rules.from_dict(_cut_names(value) or {})  # type: ignore[arg-type]
    except (RulesError, TypeError) as error:
        raise ProtocolError(f"bad rules: {in_words(error)}") from None


def _cut_names(value: object) -> object:
    """A rules object with every string in it (an option's name or value) cut as an error
    quotes it. No name or value of the rules is that long, so the rules refuse what they
    refused, and their refusal quotes no more of it than any other error."""
    if isinstance(value, str):
        return value if len(value) <= ECHO - 2 else value[:ECHO - 3] + "…"
    if isinstance(value, dict):
        return {_cut_names(k): _cut_names(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut_names(v) for v in value]
    return value


def _read_text(value: object, what: str, rules: Rules) -> str | None:
    return value if isinstance(value, str) else None  # a name or a note: never refused


SEAT = Kind(_as_is, _read_seat)
WHOLE = Kind(_as_is, _read_whole)
BUDGET = Kind(_as_is, _read_budget)  # a move's time_ms
WHOLES = Kind(list, _read_wholes)
CARD = Kind(card_name, _read_card)
CARDS = Kind(lambda cards: [card_name(c) for c in cards], _read_cards)
HANDS = Kind(lambda hands: [[card_name(c) for c in hand] for hand in hands], _read_hands)
FLAG = Kind(_as_is, _read_flag)
SUIT = Kind(lambda suit: SUIT_LETTERS[suit], _read_suit)
RULES = Kind(lambda rules: rules.to_dict(), _read_rules)
TEXT = Kind(_as_is, _read_text)
# A bot's answer, kept as written: the referee checks it against its question. A card given
# as an id is written by its name (``sueca bot``'s answers).
ANSWER_CARD = Kind(lambda card: card_name(card) if isinstance(card, int) else card, _read_as_is)
ANSWER = Kind(_as_is, _read_as_is)


def _meta(kind: Kind, what: str = "", wire: str = "") -> dict[str, Any]:
    """A message field's metadata: its ``kind``; ``what`` names it in errors (default: the
    message's type and the field's wire name); ``wire`` is its name on the wire where that is
    no Python name (``min``, ``pass``). A field whose default is ``None`` is optional: it is
    not sent when ``None``, and a message read without it has ``None`` there."""
    return {"kind": kind, "what": what, "wire": wire}


@dataclass(frozen=True, kw_only=True, slots=True)
class Message:
    """One protocol message; ``TYPE`` is its ``type`` on the wire."""

    TYPE: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None:
                out[f.metadata["wire"] or f.name] = f.metadata["kind"].write(value)
        return out

    @classmethod
    def from_dict(cls: type[M], message: Mapping[str, Any], rules: Rules) -> M:
        """The message ``message`` (a decoded line of this type) holds, each field read and
        checked; a message naming its rules (``match``) checks its seats against them."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            wire = f.metadata["wire"] or f.name
            raw = message.get(wire)
            if raw is None and f.default is None:
                values[f.name] = None  # an optional field not sent
                continue
            kind: Kind = f.metadata["kind"]
            value = kind.read(raw, f.metadata["what"] or f"{cls.TYPE} {wire}", rules)
            if kind is RULES:
                rules = value
            values[f.name] = value
        return cls(**values)


# ---- what the referee writes ---------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class Hello(Message):
    """The first line, both ways: the referee names the protocol, the bot answers with its
    name (and the protocol it speaks)."""

    TYPE: ClassVar[str] = "hello"
    name: str | None = field(default=None, metadata=_meta(TEXT))
    protocol: str | None = field(default=None, metadata=_meta(TEXT))


@dataclass(frozen=True, kw_only=True, slots=True)
class Match(Message):
    """A match starts: the table's rules (RECORD.md's rules object) and the bot's seat."""

    TYPE: ClassVar[str] = "match"
    rules: Rules = field(metadata=_meta(RULES))
    seat: int = field(metadata=_meta(SEAT, "match seat"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Deal(Message):
    """A new deal: the dealer, the bot's own hand (a card held twice, with two decks, named
    twice) and the turned trump card (none at a bidding table)."""

    TYPE: ClassVar[str] = "deal"
    dealer: int = field(metadata=_meta(SEAT, "dealer"))
    hand: tuple[Card, ...] = field(metadata=_meta(CARDS, "deal hand"))
    trump_card: Card | None = field(default=None, metadata=_meta(CARD, "trump_card"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Redeal(Message):
    """``weak_hand_redeal``: ``seat`` kept its hand (``ask`` false) or asked for a new deal."""

    TYPE: ClassVar[str] = "redeal"
    seat: int = field(metadata=_meta(SEAT, "redeal seat"))
    ask: bool = field(metadata=_meta(FLAG, "redeal 'ask'"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Bid(Message):
    """A bid of the auction (0 passes), the bot's own echoed."""

    TYPE: ClassVar[str] = "bid"
    seat: int = field(metadata=_meta(SEAT, "bid seat"))
    value: int = field(metadata=_meta(WHOLE, "bid value"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Contract(Message):
    """The auction's outcome: declarer, bid, called card and trump suit; never the partner."""

    TYPE: ClassVar[str] = "contract"
    declarer: int = field(metadata=_meta(SEAT, "declarer"))
    bid: int = field(metadata=_meta(WHOLE, "contract bid"))
    called_card: Card = field(metadata=_meta(CARD, "called_card"))
    trump: int | None = field(default=None, metadata=_meta(SUIT, "contract trump"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Shown(Message):
    """Cards of ``seat``'s hand that the bot's seat now knows (a dummy, open hands)."""

    TYPE: ClassVar[str] = "shown"
    seat: int = field(metadata=_meta(SEAT, "shown seat"))
    cards: tuple[Card, ...] = field(metadata=_meta(CARDS, "shown cards"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Played(Message):
    """``seat`` played ``card`` (the bot's own too); ``turned``: the turned trump card itself,
    not its twin (two decks; only ever sent true)."""

    TYPE: ClassVar[str] = "played"
    seat: int = field(metadata=_meta(SEAT, "played seat"))
    card: Card = field(metadata=_meta(CARD, "played card"))
    turned: bool | None = field(default=None, metadata=_meta(FLAG, "played 'turned'"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Denounced(Message):
    """``renuncia``: ``seat`` cried *renúncia!*, and whether it was right. Never a card: which
    card revoked is the referee's alone."""

    TYPE: ClassVar[str] = "denounced"
    seat: int = field(metadata=_meta(SEAT, "denounced seat"))
    correct: bool = field(metadata=_meta(FLAG, "denounced 'correct'"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Turn(Message):
    """Play a card: one of ``legal`` (faces, each once), within ``time_ms``. ``seat``: the
    dummy's card, played by its partner. ``denounce``: at a ``renuncia`` table, the seat may
    cry *renúncia!* now (a ``denounce`` line before its ``play``)."""

    TYPE: ClassVar[str] = "turn"
    legal: tuple[Card, ...] | None = field(default=None, metadata=_meta(CARDS, "legal"))
    time_ms: int | None = field(default=None, metadata=_meta(BUDGET))
    seat: int | None = field(default=None, metadata=_meta(SEAT, "turn seat"))
    denounce: bool | None = field(default=None, metadata=_meta(FLAG, "turn 'denounce'"))


@dataclass(frozen=True, kw_only=True, slots=True)
class BidTurn(Message):
    """Bid: 0 (``pass``), or ``min`` to ``max`` (``min`` above ``max``: only a pass is left)."""

    TYPE: ClassVar[str] = "bid_turn"
    lowest: int | None = field(default=None,
                               metadata=_meta(WHOLE, "bid_turn min", wire="min"))
    highest: int | None = field(default=None,
                                metadata=_meta(WHOLE, "bid_turn max", wire="max"))
    pass_value: int | None = field(default=None,
                                   metadata=_meta(WHOLE, "bid_turn pass", wire="pass"))
    time_ms: int | None = field(default=None, metadata=_meta(BUDGET))


@dataclass(frozen=True, kw_only=True, slots=True)
class CallTurn(Message):
    """The bot won the auction: call any card of the deck."""

    TYPE: ClassVar[str] = "call_turn"
    time_ms: int | None = field(default=None, metadata=_meta(BUDGET))


@dataclass(frozen=True, kw_only=True, slots=True)
class RedealTurn(Message):
    """``weak_hand_redeal``: the hand may ask for a new deal (its ``points`` are under its
    ``limit``); ``seat``: the dummy's question, answered by its partner."""

    TYPE: ClassVar[str] = "redeal_turn"
    points: int | None = field(default=None, metadata=_meta(WHOLE))
    limit: int | None = field(default=None, metadata=_meta(WHOLE))
    time_ms: int | None = field(default=None, metadata=_meta(BUDGET))
    seat: int | None = field(default=None, metadata=_meta(SEAT, "redeal_turn seat"))


@dataclass(frozen=True, kw_only=True, slots=True)
class DenounceTurn(Message):
    """``renuncia``, to a bot that said ``denounce_ready``: the deal is over (its
    ``deal_end`` told); cry *renúncia!* (``denounce``) or not (``pass``)."""

    TYPE: ClassVar[str] = "denounce_turn"
    time_ms: int | None = field(default=None, metadata=_meta(BUDGET))


@dataclass(frozen=True, kw_only=True, slots=True)
class DealEnd(Message):
    """The deal is over: each side's card points and every hand as dealt (public now);
    ``set_aside``: the cards no hand received (six players); ``seat_points``: each seat's
    (a bidding table)."""

    TYPE: ClassVar[str] = "deal_end"
    points: tuple[int, ...] | None = field(default=None,
                                           metadata=_meta(WHOLES, "deal_end points"))
    hands: tuple[tuple[Card, ...], ...] | None = field(default=None,
                                                       metadata=_meta(HANDS, "deal_end hand"))
    set_aside: tuple[Card, ...] | None = field(default=None,
                                               metadata=_meta(CARDS, "deal_end set_aside"))
    seat_points: tuple[int, ...] | None = field(default=None,
                                                metadata=_meta(WHOLES, "deal_end seat_points"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Quit(Message):
    """The session ends."""

    TYPE: ClassVar[str] = "quit"


# ---- what a bot answers ----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayAnswer(Message):
    """The card for a ``turn`` (by face: the referee plays the copy the hand holds)."""

    TYPE: ClassVar[str] = "play"
    card: Any = field(metadata=_meta(ANSWER_CARD))


@dataclass(frozen=True, kw_only=True, slots=True)
class BidAnswer(Message):
    """The bid for a ``bid_turn``: 0 passes."""

    TYPE: ClassVar[str] = "bid"
    value: Any = field(metadata=_meta(ANSWER))


@dataclass(frozen=True, kw_only=True, slots=True)
class CallAnswer(Message):
    """The called card for a ``call_turn``."""

    TYPE: ClassVar[str] = "call"
    card: Any = field(metadata=_meta(ANSWER_CARD))


@dataclass(frozen=True, kw_only=True, slots=True)
class RedealAnswer(Message):
    """The answer to a ``redeal_turn``: ``ask`` true for a new deal, false to keep."""

    TYPE: ClassVar[str] = "redeal"
    ask: Any = field(metadata=_meta(ANSWER))


@dataclass(frozen=True, kw_only=True, slots=True)
class DenounceAnswer(Message):
    """*Renúncia!*: before the ``play`` of a ``turn`` that offers it, or for a
    ``denounce_turn``."""

    TYPE: ClassVar[str] = "denounce"


@dataclass(frozen=True, kw_only=True, slots=True)
class PassAnswer(Message):
    """No denunciation, for a ``denounce_turn``."""

    TYPE: ClassVar[str] = "pass"


@dataclass(frozen=True, kw_only=True, slots=True)
class DenounceReady(Message):
    """The answer to a ``match`` at a ``renuncia`` table from a bot that denounces: ask it at
    each deal's end too (``denounce_turn``). A bot that does not say so is asked nothing new."""

    TYPE: ClassVar[str] = "denounce_ready"


@dataclass(frozen=True, kw_only=True, slots=True)
class Info(Message):
    """A note from the bot, any time (a search depth, a warning, a message it could not
    follow); the referee keeps it and otherwise ignores it. Other fields are free."""

    TYPE: ClassVar[str] = "info"
    warning: str | None = field(default=None, metadata=_meta(TEXT))
    error: str | None = field(default=None, metadata=_meta(TEXT))


def _table(kinds: Sequence[type[Message]]) -> dict[str, type[Message]]:
    return {kind.TYPE: kind for kind in kinds}


TO_BOT = _table([Hello, Match, Deal, Redeal, Bid, Contract, Shown, Played, Denounced, Turn,
                 BidTurn, CallTurn, RedealTurn, DenounceTurn, DealEnd, Quit])
TO_REFEREE = _table([Hello, PlayAnswer, BidAnswer, CallAnswer, RedealAnswer, DenounceAnswer,
                     PassAnswer, DenounceReady, Info])


def read_to_bot(message: Mapping[str, Any], rules: Rules) -> Message | None:
    """A referee's message (decoded) as its :class:`Message`, its seats checked against
    ``rules``; ``None`` for a type this side does not know (ignored, so the protocol can
    grow)."""
    kind = TO_BOT.get(message.get("type", ""))
    return None if kind is None else kind.from_dict(message, rules)


def read_answer(message: Mapping[str, Any], rules: Rules) -> Message | None:
    """A bot's message (decoded) as its :class:`Message`, or ``None`` for another type."""
    kind = TO_REFEREE.get(message.get("type", ""))
    return None if kind is None else kind.from_dict(message, rules)
