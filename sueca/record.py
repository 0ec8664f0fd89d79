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

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sueca.cards import (
    DECK_SIZE,
    SUIT_LETTERS,
    CardParseError,
    card_name,
    format_mask,
    held_copy,
    parse_card,
)
from sueca.deal import Deal, DealError, number_copies
from sueca.jsontext import NotJsonError, parse_json
from sueca.match import Match
from sueca.redeal import hand_points, redeal_order
from sueca.rules import Rules, RulesError
from sueca.state import IllegalMoveError, State


class RecordFormatError(ValueError):
    """Text that cannot be read as a record at all (``sueca check`` exits 2)."""


@dataclass
class DealRecord:
    """One deal as written in a record: card strings are kept as given until checked."""

    dealer: Any
    hands: Any
    trump_card: Any  # None at a bidding table
    plays: list[Any] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    bids: Any = None  # a bidding table's auction, in bidding order (0 passes)
    called_card: Any = None  # the declarer's called card
    # weak_hand_redeal: the deals annulled before this one, in order (each a DealRecord with
    # ``asked_by`` and no plays), and in such an entry the seat that asked for a new deal.
    redeals: list[DealRecord] | None = None
    asked_by: Any = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"dealer": self.dealer, "hands": self.hands}
        if self.trump_card is not None:
            out["trump_card"] = self.trump_card
        if self.bids is not None:
            out["bids"] = self.bids
        if self.called_card is not None:
            out["called_card"] = self.called_card
        if self.asked_by is not None:  # an annulled deal: nothing was played
            out["asked_by"] = self.asked_by
            out.update(self.extra)
            return out
        if self.redeals is not None:  # an empty list written by another program stays
            out["redeals"] = [r.to_json() for r in self.redeals]
        out["plays"] = self.plays
        out.update(self.extra)
        return out

    def to_deal(self, decks: int = 1) -> Deal:
        """The :class:`Deal` this record describes; :class:`DealError` names what is wrong.
        With two decks a card named twice is its two copies (the second copy is ``card + 40``)."""
        if not isinstance(self.dealer, int) or isinstance(self.dealer, bool):
            raise DealError(f"dealer must be a seat number, not {self.dealer!r}")
        if not isinstance(self.hands, list) or not all(isinstance(h, str) for h in self.hands):
            raise DealError("hands must be a list of strings of cards")
        masks = []
        dealt = 0
        for seat, text in enumerate(self.hands):
            mask = 0
            for token in text.replace(",", " ").split():
                try:
                    card = parse_card(token)
                except CardParseError as error:
                    raise DealError(f"seat {seat}'s hand: {error}") from None
                if decks == 2 and dealt >> card & 1:
                    card += DECK_SIZE  # the second copy
                    if dealt >> card & 1:
                        raise DealError(f"{card_name(card)} is dealt three times (again to seat "
                                        f"{seat}); two decks hold two")
                elif mask >> card & 1:
                    raise DealError(f"seat {seat}'s hand holds {card_name(card)} twice")
                mask |= 1 << card
                dealt |= 1 << card
            masks.append(mask)
        if self.trump_card is None:
            deal = Deal(self.dealer, tuple(masks), None)
            return number_copies(deal) if decks == 2 else deal
        if not isinstance(self.trump_card, str):
            raise DealError("trump_card must be a card")
        try:
            trump = parse_card(self.trump_card)
        except CardParseError as error:
            raise DealError(f"trump_card: {error}") from None
        if self.dealer in range(len(masks)):
            trump = held_copy(masks[self.dealer], trump)
        deal = Deal(self.dealer, tuple(masks), trump)
        return number_copies(deal) if decks == 2 else deal

    @classmethod
    def from_state(cls, state: State) -> DealRecord:
        """The deal as played so far; a deal annulled by a seat asking for a new deal
        (``weak_hand_redeal``) is the entry of a ``redeals`` list: its cards and the asker."""
        deal = state.deal
        if state.redeal_by is not None:
            return cls(
                dealer=deal.dealer,
                hands=[format_mask(h) for h in deal.hands],
                trump_card=None if deal.trump_card is None else card_name(deal.trump_card),
                asked_by=state.redeal_by,
            )
        bidding = state.rules.bidding
        return cls(
            dealer=deal.dealer,
            hands=[format_mask(h) for h in deal.hands],
            trump_card=None if deal.trump_card is None else card_name(deal.trump_card),
            plays=[card_name(c) for c in state.plays],
            bids=list(state.bids) if bidding else None,
            called_card=(
                card_name(state.contract.called_card) if state.contract is not None else None
            ),
        )


@dataclass
class GameRecord:
    """A whole record: rules (as written, a RECORD.md ``rules`` object), first dealer, deals."""

    rules: dict[str, Any]
    first_dealer: Any
    deals: list[DealRecord]
    extra: dict[str, Any] = field(default_factory=dict)
    # Deals annulled after the last one of ``deals`` (a record saved before the same dealer
    # dealt again): written as the top-level ``pending_redeals``.
    pending_redeals: list[DealRecord] = field(default_factory=list)

    def parsed_rules(self) -> Rules:
        return Rules.from_dict(self.rules)

    @classmethod
    def from_states(
        cls, rules: Rules, first_dealer: int, states: Sequence[State], **extra: Any
    ) -> GameRecord:
        """The record of a match's deals in order. Deals annulled by a seat asking for a new
        deal (``weak_hand_redeal``) may be among them: each is written in the ``redeals`` of
        the deal played after it, so that readers that know nothing of them read the deals
        that were played, dealer after dealer, as before."""
        deals: list[DealRecord] = []
        annulled: list[DealRecord] = []
        for state in states:
            entry = DealRecord.from_state(state)
            if entry.asked_by is not None:
                annulled.append(entry)
                continue
            if annulled:
                entry.redeals, annulled = annulled, []
            deals.append(entry)
        return cls(rules.to_dict(), first_dealer, deals, dict(extra), annulled)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": self.rules, "first_dealer": self.first_dealer}
        with contextlib.suppress(RulesError):  # rules that do not parse are written as they came
            out["players"] = self.parsed_rules().players
        out.update(self.extra)
        out["deals"] = [d.to_json() for d in self.deals]
        if self.pending_redeals:
            out["pending_redeals"] = [r.to_json() for r in self.pending_redeals]
        return out


_DEAL_KEYS = ("dealer", "hands", "trump_card", "plays", "bids", "called_card", "redeals")
_DEAL_KEYS_WITHOUT_REDEALS = tuple(k for k in _DEAL_KEYS if k != "redeals")
_REDEAL_KEYS = ("dealer", "hands", "trump_card", "asked_by")


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
        parsed = Rules.from_dict(rules)
    except (RulesError, TypeError) as error:
        raise RecordFormatError(f"rules: {error}") from None
    players = data.get("players", parsed.players)
    if type(players) is not int or players != parsed.players:  # 5.0 and true are no count
        raise RecordFormatError(
            f"'players' is {players!r}, but the rules seat {parsed.players} players"
        )
    deals_data = data["deals"]
    if not isinstance(deals_data, list):
        raise RecordFormatError("'deals' must be a list")
    deals = []
    for index, item in enumerate(deals_data):
        if not isinstance(item, dict):
            raise RecordFormatError(f"deal {index} is not an object")
        required = ("dealer", "hands") if parsed.bidding else ("dealer", "hands", "trump_card")
        missing = [k for k in required if k not in item]
        if missing:
            raise RecordFormatError(f"deal {index} has no {missing[0]!r}")
        for key in ("plays", "bids"):
            if not isinstance(item.get(key, []), list):
                raise RecordFormatError(f"deal {index}: {key!r} must be a list")
        # ``redeals`` is ours only where the rules play weak_hand_redeal: elsewhere it is some
        # other writer's field, kept and ignored like any unknown one.
        ours = _DEAL_KEYS if parsed.weak_hand_redeal else _DEAL_KEYS_WITHOUT_REDEALS
        extra = {k: v for k, v in item.items() if k not in ours}
        redeals = None
        if "redeals" in item and parsed.weak_hand_redeal:
            redeals = _redeals_from_json(item["redeals"], f"deal {index}'s 'redeals'", parsed)
        deals.append(DealRecord(
            item["dealer"], item["hands"], item.get("trump_card"), item.get("plays", []), extra,
            bids=item.get("bids"), called_card=item.get("called_card"), redeals=redeals,
        ))
    first_dealer = data.get("first_dealer", deals[0].dealer if deals else 0)
    top = ("rules", "first_dealer", "players", "deals",
           *(("pending_redeals",) if parsed.weak_hand_redeal else ()))
    extra = {k: v for k, v in data.items() if k not in top}
    pending = (_redeals_from_json(data.get("pending_redeals", []), "'pending_redeals'", parsed)
               if parsed.weak_hand_redeal else [])
    return GameRecord(rules, first_dealer, deals, extra, pending)


def _redeals_from_json(data: Any, where: str, rules: Rules) -> list[DealRecord]:
    """The annulled deals of a ``redeals`` (or ``pending_redeals``) list."""
    if not isinstance(data, list):
        raise RecordFormatError(f"{where} must be a list")
    out = []
    for number, item in enumerate(data):
        if not isinstance(item, dict):
            raise RecordFormatError(f"{where}: entry {number} is not an object")
        missing = [k for k in _REDEAL_KEYS if k not in item and not (
            k == "trump_card" and rules.bidding)]
        if missing:
            raise RecordFormatError(f"{where}: entry {number} has no {missing[0]!r}")
        extra = {k: v for k, v in item.items() if k not in _REDEAL_KEYS}
        out.append(DealRecord(item["dealer"], item["hands"], item.get("trump_card"), [], extra,
                              asked_by=item["asked_by"]))
    return out


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
    # Every deal's state in order, those annulled by a redeal (weak_hand_redeal) included:
    # what GameRecord.from_states writes back as the same record.
    dealt: list[State] = field(default_factory=list)
    # The check entries of deals annulled after the last deal (a record's pending_redeals).
    pending: list[dict[str, Any]] = field(default_factory=list)


def replay(record: GameRecord) -> Replay:
    """Play a record through the rules, stopping at the first illegal or malformed thing."""
    rules = record.parsed_rules()
    first = record.first_dealer
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < rules.players:
        error = {"deal": 0, "play": None, "reason": f"first_dealer {first!r} is not a seat"}
        return Replay(rules, Match(rules, 0), [], error, [], [])
    match = Match(rules, first_dealer=first)
    states: list[State] = []
    results: list[dict[str, Any]] = []
    dealt: list[State] = []

    def fail(deal: int, play: int | None, reason: str) -> Replay:
        return Replay(rules, match, states, {"deal": deal, "play": play, "reason": reason},
                      results, dealt)

    for index, deal_record in enumerate(record.deals):
        if match.is_over:
            return fail(index, None, f"the match was already won by {match.winner_name}")
        if states and not states[-1].is_finished():
            return fail(index - 1, None, "this deal is unfinished, but another deal follows it")
        annulled: list[dict[str, Any]] = []

        def report(state: State, game_points: Sequence[int] | None,
                   annulled: list[dict[str, Any]] = annulled) -> dict[str, Any]:
            entry = deal_report(state, game_points)
            if annulled:
                entry["redeals"] = annulled
            return entry

        for number, redealt in enumerate(deal_record.redeals or ()):
            problem = _replay_redeal(match, redealt, annulled, dealt)
            if problem:
                return fail(index, None, f"redeal {number}: {problem}")
        try:
            deal = deal_record.to_deal(rules.decks)
            if deal.dealer != match.dealer:
                raise DealError(
                    f"seat {deal.dealer} deals, but the deal has passed to seat {match.dealer}"
                )
            state = match.start_deal(deal)
        except DealError as error:
            return fail(index, None, str(error))
        states.append(state)
        dealt.append(state)
        while deal_record.plays and state.phase == "redeal":
            # A card was played: every seat kept its hand. (A deal with no card played yet
            # waits for the answers, as it did when it was saved.)
            state.answer_redeal(False)
        auction_error = _replay_auction(state, deal_record)
        if auction_error:
            results.append(report(state, None))
            return fail(index, None, auction_error)
        for play_index, token in enumerate(deal_record.plays):
            try:
                if not isinstance(token, str):
                    raise CardParseError(f"not a card: {token!r}")
                card = parse_card(token)
                if state.is_finished():
                    raise IllegalMoveError("the hand is over: no card may be played", "hand_over")
                state.push(held_copy(state.hands[state.to_play], card))
            except (CardParseError, IllegalMoveError) as error:
                results.append(report(state, None))
                return fail(index, play_index, str(error))
        result = match.finish_deal(state) if state.is_finished() else None
        results.append(report(state, result.game_points if result else None))
    # A pending redeal comes after the last deal: its errors name that deal (``error.deal``
    # indexes ``deals``), or deal 0 when the record has none yet.
    last = max(len(record.deals) - 1, 0)
    pending: list[dict[str, Any]] = []
    for number, redealt in enumerate(record.pending_redeals):
        if match.is_over:
            return fail(last, None, f"pending redeal {number} (after this deal): the match "
                                    f"was already won by {match.winner_name}")
        if states and not states[-1].is_finished():
            return fail(last, None, "this deal is unfinished, but a new deal was asked "
                                    "for after it")
        problem = _replay_redeal(match, redealt, pending, dealt)
        if problem:
            return fail(last, None, f"pending redeal {number} (after this deal): {problem}")
    return Replay(rules, match, states, None, results, dealt, pending)


def _replay_redeal(match: Match, redealt: DealRecord, reports: list[dict[str, Any]],
                   dealt: list[State]) -> str | None:
    """Replay a deal annulled by a seat asking for a new deal: every seat before the asker
    kept, then the asker asked (refused unless his hand was weak enough). Its ``sueca check``
    entry goes to ``reports``; the first problem is returned."""
    rules = match.rules
    if not rules.weak_hand_redeal:
        return "a deal annulled by a redeal, but the rules do not play weak_hand_redeal"
    asked = redealt.asked_by
    if type(asked) is not int or not 0 <= asked < rules.players:
        return f"asked_by must be a seat from 0 to {rules.players - 1}, not {asked!r}"
    try:
        deal = redealt.to_deal(rules.decks)
        if deal.dealer != match.dealer:
            raise DealError(
                f"seat {deal.dealer} deals, but the deal is seat {match.dealer}'s (after an "
                "annulled deal the same dealer deals again)"
            )
        state = match.start_deal(deal)
    except DealError as error:
        return str(error)
    for seat in redeal_order(rules, state.first_leader):
        if seat == asked:
            break
        state.answer_redeal(False, seat)
    try:
        state.answer_redeal(True, asked)
    except IllegalMoveError as error:
        match.deals.pop()  # the deal is not in play: the match stays as it was
        return str(error)
    try:
        match.annul_deal(state)
    except ValueError as error:  # e.g. the same annulled deal listed twice
        match.deals.pop()
        return str(error)
    dealt.append(state)
    reports.append({"dealer": deal.dealer, "asked_by": asked,
                    "points": hand_points(rules, deal.hands[asked])})
    return None


def _replay_auction(state: State, deal_record: DealRecord) -> str | None:
    """Feed a bidding table's recorded bids and called card to ``state``; the first problem."""
    if not state.rules.bidding:
        if deal_record.bids is not None or deal_record.called_card is not None:
            return "bids and a called card belong to a bidding table only"
        return None
    bids = deal_record.bids if deal_record.bids is not None else []
    for number, value in enumerate(bids):
        try:
            state.bid(value)
        except IllegalMoveError as error:
            return f"bid {number}: {error}"
    if deal_record.called_card is None:
        if state.phase == "calling" and deal_record.plays:
            return "the declarer's called card is missing"
        if state.phase == "bidding" and deal_record.plays:
            return f"{len(bids)} bids recorded, but every one of {state.players} players bids"
        return None
    if state.phase != "calling":
        return f"a card is called, but only {len(bids)} of {state.players} players have bid"
    try:
        state.call(parse_card(str(deal_record.called_card)))
    except (CardParseError, IllegalMoveError) as error:
        return f"called_card: {error}"
    return None


def deal_report(state: State, game_points: Sequence[int] | None) -> dict[str, Any]:
    """One deal's entry of the ``sueca check --json`` output (RECORD.md's fields, then the
    fields this project adds at a bidding table: each seat's card points and the contract)."""
    report = _deal_report(state, game_points)
    if state.rules.bidding:
        report["seat_points"] = list(state.seat_points)
        report["bids"] = list(state.bids)
    contract = state.contract
    if contract is not None:
        report["contract"] = {
            "declarer": contract.declarer,
            "bid": contract.bid,
            "called_card": card_name(contract.called_card),
            "partner": state.partner,
            "made": state.team_points()[0] >= contract.target if state.is_finished() else None,
        }
    return report


def _deal_report(state: State, game_points: Sequence[int] | None) -> dict[str, Any]:
    slots = state.rules.score_slots
    return {
        "trump": SUIT_LETTERS[state.trump] if state.trump >= 0 else None,
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
        "game_points": list(game_points) if game_points is not None else [0] * slots,
        "finished": state.is_finished(),
    }


def check(record: GameRecord) -> dict[str, Any]:
    """The ``sueca check --json`` document for a record (RECORD.md, to the letter)."""
    result = replay(record)
    report: dict[str, Any] = {
        "valid": result.error is None,
        "error": result.error,
        "deals": result.results,
        "match": {"score": list(result.match.score), "winner": result.match.winner},
    }
    if result.pending:  # weak_hand_redeal: deals annulled after the last one (an addition)
        report["pending_redeals"] = result.pending
    return report


def read(path: str) -> GameRecord:
    """Read a record file; :class:`RecordFormatError` for anything that is not a record."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise RecordFormatError(f"cannot read {path}: {error}") from None
    return loads(text)
