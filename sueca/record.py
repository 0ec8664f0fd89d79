"""Game records (RECORD.md): read, write, replay and check.

A record is JSON: the rules, the first dealer, and each deal's hands, turned trump card and
plays. :func:`loads` turns text into a :class:`GameRecord` (or raises :class:`RecordFormatError`
when it is not a record at all); :func:`check` replays it under the rules and returns exactly
the ``sueca check --json`` document of RECORD.md.

>>> import random
>>> from sueca.rules import STANDARD
>>> from sueca.match import Match
>>> match = Match(STANDARD, first_dealer=2)
>>> state = match.new_deal(random.Random(3))
>>> while not state.is_finished():
...     state.push(state.legal_moves()[-1])
>>> record = GameRecord.from_states(STANDARD, 2, [state])
>>> report = check(loads(dumps(record)))
>>> report["valid"], sum(report["deals"][0]["points"]), len(report["deals"][0]["tricks"])
(True, 120, 10)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sueca.cards import SUIT_LETTERS, CardParseError, card_name, format_mask, parse_card
from sueca.deal import Deal, DealError
from sueca.jsontext import NotJsonError, parse_json
from sueca.match import Match
from sueca.rules import Rules, RulesError
from sueca.state import IllegalMoveError, State


class RecordFormatError(ValueError):
    """Text that cannot be read as a record at all (``sueca check`` exits 2)."""


@dataclass
class DealRecord:
    """One deal as written in a record: card strings are kept as given until checked."""

    dealer: Any
    hands: Any
    trump_card: Any
    plays: list[Any] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {
            "dealer": self.dealer,
            "hands": self.hands,
            "trump_card": self.trump_card,
            "plays": self.plays,
        }
        out.update(self.extra)
        return out

    def to_deal(self) -> Deal:
        """The :class:`Deal` this record describes; :class:`DealError` names what is wrong."""
        if not isinstance(self.dealer, int) or isinstance(self.dealer, bool):
            raise DealError(f"dealer must be a seat number, not {self.dealer!r}")
        if not isinstance(self.hands, list) or not all(isinstance(h, str) for h in self.hands):
            raise DealError("hands must be a list of strings of cards")
        masks = []
        for seat, text in enumerate(self.hands):
            mask = 0
            for token in text.replace(",", " ").split():
                try:
                    card = parse_card(token)
                except CardParseError as error:
                    raise DealError(f"seat {seat}'s hand: {error}") from None
                if mask >> card & 1:
                    raise DealError(f"seat {seat}'s hand holds {card_name(card)} twice")
                mask |= 1 << card
            masks.append(mask)
        if not isinstance(self.trump_card, str):
            raise DealError("trump_card must be a card")
        try:
            trump = parse_card(self.trump_card)
        except CardParseError as error:
            raise DealError(f"trump_card: {error}") from None
        return Deal(self.dealer, tuple(masks), trump)

    @classmethod
    def from_state(cls, state: State) -> DealRecord:
        deal = state.deal
        return cls(
            dealer=deal.dealer,
            hands=[format_mask(h) for h in deal.hands],
            trump_card=card_name(deal.trump_card),
            plays=[card_name(c) for c in state.plays],
        )


@dataclass
class GameRecord:
    """A whole record: rules (as written, a RECORD.md ``rules`` object), first dealer, deals."""

    rules: dict[str, Any]
    first_dealer: Any
    deals: list[DealRecord]
    extra: dict[str, Any] = field(default_factory=dict)

    def parsed_rules(self) -> Rules:
        return Rules.from_dict(self.rules)

    @classmethod
    def from_states(
        cls, rules: Rules, first_dealer: int, states: Sequence[State], **extra: Any
    ) -> GameRecord:
        return cls(rules.to_dict(), first_dealer, [DealRecord.from_state(s) for s in states],
                   dict(extra))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": self.rules, "first_dealer": self.first_dealer}
        out.update(self.extra)
        out["deals"] = [d.to_json() for d in self.deals]
        return out


_DEAL_KEYS = ("dealer", "hands", "trump_card", "plays")


def loads(text: str) -> GameRecord:
    """Parse a record's text; :class:`RecordFormatError` says why it is not a record."""
    try:
        data = parse_json(text)
    except NotJsonError as error:
        raise RecordFormatError(str(error)) from None
    return from_json(data)


def from_json(data: Any) -> GameRecord:
    if not isinstance(data, dict):
        raise RecordFormatError("a record must be a JSON object")
    if "deals" not in data:
        raise RecordFormatError("the record has no 'deals' list")
    rules = data.get("rules", {"variant": "standard"})
    if not isinstance(rules, dict):
        raise RecordFormatError("'rules' must be an object")
    try:
        Rules.from_dict(rules)
    except (RulesError, TypeError) as error:
        raise RecordFormatError(f"rules: {error}") from None
    deals_data = data["deals"]
    if not isinstance(deals_data, list):
        raise RecordFormatError("'deals' must be a list")
    deals = []
    for index, item in enumerate(deals_data):
        if not isinstance(item, dict):
            raise RecordFormatError(f"deal {index} is not an object")
        missing = [k for k in _DEAL_KEYS[:3] if k not in item]
        if missing:
            raise RecordFormatError(f"deal {index} has no {missing[0]!r}")
        plays = item.get("plays", [])
        if not isinstance(plays, list):
            raise RecordFormatError(f"deal {index}: 'plays' must be a list")
        extra = {k: v for k, v in item.items() if k not in _DEAL_KEYS}
        deals.append(DealRecord(item["dealer"], item["hands"], item["trump_card"], plays, extra))
    first_dealer = data.get("first_dealer", deals[0].dealer if deals else 0)
    extra = {k: v for k, v in data.items() if k not in ("rules", "first_dealer", "deals")}
    return GameRecord(rules, first_dealer, deals, extra)


def dumps(record: GameRecord) -> str:
    """The record as JSON text: one line per field of a deal, easy to read and to diff."""
    data = record.to_json()
    deals = data.pop("deals")
    lines = ["{"]
    for key, value in data.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    lines.append('  "deals": [')
    for i, deal in enumerate(deals):
        fields = [f"      {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                  for k, v in deal.items()]
        comma = "," if i < len(deals) - 1 else ""
        lines.append("    {\n" + ",\n".join(fields) + "\n    }" + comma)
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---- replay and check --------------------------------------------------------------------


@dataclass
class Replay:
    """A record played through the engine: the match, every deal's state, the first error."""

    rules: Rules
    match: Match
    states: list[State]
    error: dict[str, Any] | None
    results: list[dict[str, Any]]


def replay(record: GameRecord) -> Replay:
    """Play a record through the rules, stopping at the first illegal or malformed thing."""
    rules = record.parsed_rules()
    first = record.first_dealer
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < rules.players:
        error = {"deal": 0, "play": None, "reason": f"first_dealer {first!r} is not a seat"}
        return Replay(rules, Match(rules, 0), [], error, [])
    match = Match(rules, first_dealer=first)
    states: list[State] = []
    results: list[dict[str, Any]] = []

    def fail(deal: int, play: int | None, reason: str) -> Replay:
        return Replay(rules, match, states, {"deal": deal, "play": play, "reason": reason}, results)

    for index, deal_record in enumerate(record.deals):
        if match.is_over:
            return fail(index, None, f"the match was already won by team {match.winner}")
        if states and not states[-1].is_finished():
            return fail(index - 1, None, "this deal is unfinished, but another deal follows it")
        try:
            deal = deal_record.to_deal()
            if deal.dealer != match.dealer:
                raise DealError(
                    f"seat {deal.dealer} deals, but the deal has passed to seat {match.dealer}"
                )
            state = match.start_deal(deal)
        except DealError as error:
            return fail(index, None, str(error))
        states.append(state)
        for play_index, token in enumerate(deal_record.plays):
            try:
                if not isinstance(token, str):
                    raise CardParseError(f"not a card: {token!r}")
                card = parse_card(token)
                if state.is_finished():
                    raise IllegalMoveError("the hand is over: no card may be played", "hand_over")
                state.push(card)
            except (CardParseError, IllegalMoveError) as error:
                results.append(deal_report(state, None))
                return fail(index, play_index, str(error))
        result = match.finish_deal(state) if state.is_finished() else None
        results.append(deal_report(state, result.game_points if result else None))
    return Replay(rules, match, states, None, results)


def deal_report(state: State, game_points: Sequence[int] | None) -> dict[str, Any]:
    """One deal's entry of the ``sueca check --json`` output."""
    return {
        "trump": SUIT_LETTERS[state.trump],
        "tricks": [
            {
                "leader": t.leader,
                "cards": [card_name(c) for c in t.cards],
                "winner": t.winner,
                "points": t.points,
            }
            for t in state.tricks()
        ],
        "points": state.team_points(),
        "game_points": list(game_points) if game_points is not None else [0] * len(
            state.team_points()
        ),
        "finished": state.is_finished(),
    }


def check(record: GameRecord) -> dict[str, Any]:
    """The ``sueca check --json`` document for a record (RECORD.md, to the letter)."""
    result = replay(record)
    return {
        "valid": result.error is None,
        "error": result.error,
        "deals": result.results,
        "match": {"score": list(result.match.score), "winner": result.match.winner},
    }


def read(path: str) -> GameRecord:
    """Read a record file; :class:`RecordFormatError` for anything that is not a record."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise RecordFormatError(f"cannot read {path}: {error}") from None
    return loads(text)
