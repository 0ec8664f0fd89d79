"""Game records (RECORD.md): read, write, replay and check.

A record is JSON: the rules, the first dealer, and each deal's hands, turned trump card and
plays (at a ``renuncia`` table also its revokes and denunciations). :func:`loads` turns text
into a :class:`GameRecord` (or raises :class:`RecordFormatError` when it is not a record at
all); :func:`replay` plays it again through a :class:`~sueca.referee.Referee` with nobody
seated, submitting each recorded move as the seat the referee asks, the one path every table's
moves take; :func:`check` returns exactly the ``sueca check --json`` document of RECORD.md.

>>> import random
>>> from sueca.bots import make_bot
>>> from sueca.match import Match
>>> from sueca.referee import Referee
>>> from sueca.rules import STANDARD
>>> bots = [make_bot("random", seed=seat) for seat in range(4)]
>>> state = Referee(Match(STANDARD, first_dealer=2), bots, rng=random.Random(3)).play_deal()
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

from sueca.actions import Action, AskCard, AskRedeal, Bid, Call, Denounce, Phase, Play, Redeal
from sueca.cards import (
    DECK_SIZE,
    SUIT_LETTERS,
    Card,
    CardParseError,
    card_name,
    format_cards,
    format_mask,
    held_copy,
    parse_card,
)
from sueca.deal import Deal, DealError, number_copies
from sueca.jsontext import NotJsonError, parse_json
from sueca.match import Match
from sueca.referee import Referee
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
    # renuncia: the indexes in ``plays`` of the cards that failed to follow suit (or to trump),
    # and every denunciation in the order made, each ``{"after": cards played before it,
    # "seat": s, "correct": b}``. ``None`` where the record has none (nothing is written).
    revokes: list[Any] | None = None
    denunciations: list[Any] | None = None

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
        if self.revokes is not None:
            out["revokes"] = self.revokes
        if self.denunciations is not None:
            out["denunciations"] = self.denunciations
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
            revokes=list(state.revokes) or None,
            denunciations=[{"after": d.after, "seat": d.seat, "correct": d.correct}
                           for d in state.denunciations] or None,
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


_DEAL_KEYS = ("dealer", "hands", "trump_card", "plays", "bids", "called_card")
_REDEAL_DEAL_KEYS = ("redeals",)  # weak_hand_redeal's
_RENUNCIA_KEYS = ("revokes", "denunciations")  # renuncia's
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
        # ``redeals`` is ours only where the rules play weak_hand_redeal, ``revokes`` and
        # ``denunciations`` where they play renuncia: elsewhere they are some other writer's
        # fields, kept and ignored like any unknown one.
        ours = (*_DEAL_KEYS, *(_REDEAL_DEAL_KEYS if parsed.weak_hand_redeal else ()),
                *(_RENUNCIA_KEYS if parsed.renuncia else ()))
        for key in ("plays", "bids", *(_RENUNCIA_KEYS if parsed.renuncia else ())):
            if not isinstance(item.get(key, []), list):
                raise RecordFormatError(f"deal {index}: {key!r} must be a list")
        extra = {k: v for k, v in item.items() if k not in ours}
        redeals = None
        if "redeals" in item and parsed.weak_hand_redeal:
            redeals = _redeals_from_json(item["redeals"], f"deal {index}'s 'redeals'", parsed)
        deals.append(DealRecord(
            item["dealer"], item["hands"], item.get("trump_card"), item.get("plays", []), extra,
            bids=item.get("bids"), called_card=item.get("called_card"), redeals=redeals,
            revokes=item.get("revokes") if parsed.renuncia else None,
            denunciations=item.get("denunciations") if parsed.renuncia else None,
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
    """Play a record through the rules, stopping at the first illegal or malformed thing.

    A :class:`~sueca.referee.Referee` with nobody seated plays it: each recorded move is
    submitted as the seat the referee asks (the dummy's partner for its cards), so a record
    is checked by the very path a table's moves take, and the referee scores and annuls the
    deals as a table would (a late denunciation scores its deal again)."""
    rules = record.parsed_rules()
    first = record.first_dealer
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < rules.players:
        error = {"deal": 0, "play": None, "reason": f"first_dealer {first!r} is not a seat"}
        return Replay(rules, Match(rules, 0), [], error, [], [])
    match = Match(rules, first_dealer=first)
    referee = Referee(match, [None] * rules.players, where="record")
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
            problem = _replay_redeal(referee, redealt, annulled, dealt)
            if problem:
                return fail(index, None, f"redeal {number}: {problem}")
        try:
            deal = deal_record.to_deal(rules.decks)
            if deal.dealer != match.dealer:
                raise DealError(
                    f"seat {deal.dealer} deals, but the deal has passed to seat {match.dealer}"
                )
            state = referee.deal(deal)
        except DealError as error:
            return fail(index, None, str(error))
        states.append(state)
        dealt.append(state)
        scored = _Score.of(match)
        found = _replay_deal(referee, deal_record)
        if found is not None:
            # A deal in error is reported as it stood, unscored, even where its last card (or
            # a proven revoke) had let the referee score it before the bad move came.
            scored.restore(match)
            results.append(report(state, None))
            return fail(index, *found)
        result = match.results[-1] if state.is_finished() else None
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
        problem = _replay_redeal(referee, redealt, pending, dealt)
        if problem:
            return fail(last, None, f"pending redeal {number} (after this deal): {problem}")
    return Replay(rules, match, states, None, results, dealt, pending)


@dataclass(frozen=True)
class _Score:
    """The match's score before a deal, to put back when that deal turns out to be in error."""

    score: list[int]
    carry: int
    winner: int | None
    results: int

    @classmethod
    def of(cls, match: Match) -> _Score:
        return cls(list(match.score), match.carry, match.winner, len(match.results))

    def restore(self, match: Match) -> None:
        match.score, match.carry, match.winner = list(self.score), self.carry, self.winner
        del match.results[self.results:]


def _submit(referee: Referee, action: Action) -> None:
    """Submit ``action`` as the seat the referee asks now (a dummy's partner for its cards):
    a record says what was played, not who sat where."""
    state = referee.state
    assert state is not None
    referee.submit(referee.rules.controller_of(state.to_play), action)


def _replay_redeal(referee: Referee, redealt: DealRecord, reports: list[dict[str, Any]],
                   dealt: list[State]) -> str | None:
    """Replay a deal annulled by a seat asking for a new deal: every seat before the asker
    kept, then the asker asked (refused unless his hand was weak enough). Its ``sueca check``
    entry goes to ``reports``; the first problem is returned."""
    rules = referee.rules
    match = referee.match
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
        state = referee.deal(deal)
    except DealError as error:
        return str(error)
    while True:  # the seats before the asker kept their hands
        now = referee.asked()
        assert now is not None and type(now[1]) is AskRedeal  # keeping is always allowed
        question = now[1]
        if question.seat == asked:
            break
        referee.submit(now[0], Redeal(False))
    try:
        referee.submit(now[0], Redeal(True))
    except ValueError as error:  # a hand not weak enough; the same annulled deal listed twice
        match.deals.pop()  # the deal is not in play: the match stays as it was
        return str(error)
    dealt.append(state)
    reports.append({"dealer": deal.dealer, "asked_by": asked, "points": question.points})
    return None


def _replay_deal(referee: Referee, deal_record: DealRecord) -> tuple[int | None, str] | None:
    """Submit a deal's recorded moves to the referee, its deal just dealt: the redeal answers,
    the auction, then the cards with the denunciations among them. The first problem, as the
    index in ``plays`` of the card at fault (``None`` for the deal itself) and the reason."""
    state = referee.state
    assert state is not None
    while deal_record.plays and state.phase == Phase.REDEAL:
        # A card was played: every seat kept its hand. (A deal with no card played yet
        # waits for the answers, as it did when it was saved.)
        _submit(referee, Redeal(False))
    problem = _replay_auction(referee, deal_record)
    if problem:
        return None, problem
    plays = deal_record.plays
    revokes, problem = _listed_revokes(deal_record.revokes, len(plays))
    if problem:
        return None, problem
    denunciations, problem = _listed_denunciations(deal_record.denunciations, len(plays),
                                                   referee.rules)
    if problem:
        return None, problem
    made = 0  # denunciations submitted
    for play_index, token in enumerate(plays):
        while made < len(denunciations) and denunciations[made][0] == play_index:
            problem = _denounce(referee, made, *denunciations[made])
            if problem:
                return None, problem
            made += 1
        try:
            if not isinstance(token, str):
                raise CardParseError(f"not a card: {token!r}")
            card = parse_card(token)
            problem = _revoke_problem(referee, play_index, card, play_index in revokes)
            if problem:
                return play_index, problem
            _submit(referee, Play(card))
        except (CardParseError, IllegalMoveError) as error:
            return play_index, str(error)
    for number in range(made, len(denunciations)):  # made after the last card recorded
        problem = _denounce(referee, number, *denunciations[number])
        if problem:
            return None, problem
    return None


def _replay_auction(referee: Referee, deal_record: DealRecord) -> str | None:
    """Submit a bidding table's recorded bids and called card; the first problem."""
    state = referee.state
    assert state is not None
    if not state.rules.bidding:
        if deal_record.bids is not None or deal_record.called_card is not None:
            return "bids and a called card belong to a bidding table only"
        return None
    bids = deal_record.bids if deal_record.bids is not None else []
    for number, value in enumerate(bids):
        try:
            _submit(referee, Bid(value))
        except IllegalMoveError as error:
            return f"bid {number}: {error}"
    if deal_record.called_card is None:
        if state.phase == Phase.CALLING and deal_record.plays:
            return "the declarer's called card is missing"
        if state.phase == Phase.BIDDING and deal_record.plays:
            return f"{len(bids)} bids recorded, but every one of {state.players} players bids"
        return None
    if state.phase != Phase.CALLING:
        return f"a card is called, but only {len(bids)} of {state.players} players have bid"
    try:
        _submit(referee, Call(parse_card(str(deal_record.called_card))))
    except (CardParseError, IllegalMoveError) as error:
        return f"called_card: {error}"
    return None


# ---- renúncia: revokes and denunciations ----------------------------------------------------


def _listed_revokes(listed: list[Any] | None, plays: int) -> tuple[set[int], str | None]:
    """The play indexes a deal's ``revokes`` lists, or the problem with them."""
    out: set[int] = set()
    for entry in listed or ():
        if type(entry) is not int or entry < 0:
            return out, f"'revokes' must list indexes in 'plays', not {entry!r}"
        if entry >= plays:
            return out, f"'revokes' lists play {entry}, but the deal has {plays} plays"
        if entry in out:
            return out, f"'revokes' lists play {entry} twice"
        out.add(entry)
    return out, None


def _listed_denunciations(listed: list[Any] | None, plays: int, rules: Rules
                          ) -> tuple[list[tuple[int, int, bool]], str | None]:
    """A deal's ``denunciations`` as (after, seat, correct), or the problem with them."""
    out: list[tuple[int, int, bool]] = []
    for number, entry in enumerate(listed or ()):
        where = f"denunciation {number}"
        if not isinstance(entry, dict):
            return out, (f"{where} must be an object such as "
                         '{"after": 13, "seat": 1, "correct": true}')
        after, seat, correct = entry.get("after"), entry.get("seat"), entry.get("correct")
        if type(after) is not int or after < 0:
            return out, (f"{where}: 'after' must be how many cards were played before it, "
                         f"not {after!r}")
        if after > plays:
            return out, f"{where} comes after {after} cards, but the deal has {plays} plays"
        if out and after < out[-1][0]:
            return out, (f"{where} comes after {after} cards, but the one before it after "
                         f"{out[-1][0]}: they are listed in the order made")
        if type(seat) is not int or not 0 <= seat < rules.players:
            return out, (f"{where}: 'seat' must be a seat from 0 to {rules.players - 1}, "
                         f"not {seat!r}")
        if type(correct) is not bool:
            return out, f"{where}: 'correct' must be true or false, not {correct!r}"
        out.append((after, seat, correct))
    return out, None


def _revoke_problem(referee: Referee, index: int, card: Card, listed: bool) -> str | None:
    """Whether play ``index`` (``card``, a face) and the deal's ``revokes`` disagree: at a
    ``renuncia`` table a card that fails to follow suit (or to trump) is played, and must be
    listed as a revoke; a listed one must be one. Elsewhere the rules refuse such a card."""
    asked = referee.asked() if referee.rules.renuncia else None
    if asked is None or type(asked[1]) is not AskCard:
        return None
    request = asked[1]
    face = card % DECK_SIZE
    name = card_name(card)
    if not listed and face in {c % DECK_SIZE for c in request.revokes}:
        return (f"{name} is a revoke: seat {request.seat} had to play one of "
                f"{format_cards(request.legal)}, but 'revokes' does not list play {index}")
    if listed and face in {c % DECK_SIZE for c in request.legal}:
        return f"'revokes' lists play {index}, but {name} follows the rules of play"
    return None


def _denounce(referee: Referee, number: int, after: int, seat: int, correct: bool
              ) -> str | None:
    """Submit a recorded denunciation; the problem when the referee refuses it or when its
    ``correct`` is not what the hands prove."""
    state = referee.state
    assert state is not None
    where = f"denunciation {number} (seat {seat}, after {after} cards)"
    if state.may_denounce(seat):
        side = 1 - state.teams[seat]
        if state.revoked_by(side) != correct:
            if correct:
                return (f"{where} is recorded as correct, but no player of team {side} had "
                        "revoked")
            seats = state.played_by()
            revoke = next(i for i in state.revokes if state.teams[seats[i]] == side)
            return f"{where} is recorded as wrong, but team {side} had revoked (play {revoke})"
    try:
        referee.submit(seat, Denounce())
    except IllegalMoveError as error:
        return f"{where}: {error}"
    return None


def deal_report(state: State, game_points: Sequence[int] | None) -> dict[str, Any]:
    """One deal's entry of the ``sueca check --json`` output (RECORD.md's fields, then the
    fields this project adds: at a ``renuncia`` table the revokes and denunciations, at a
    bidding table each seat's card points and the contract)."""
    report = _deal_report(state, game_points)
    if state.rules.renuncia:
        report["revokes"] = list(state.revokes)
        report["denunciations"] = [{"after": d.after, "seat": d.seat, "correct": d.correct}
                                   for d in state.denunciations]
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


class PositionError(ValueError):
    """A record that holds no position to solve or study."""


def last_position(text: str) -> State:
    """The position of a RECORD.md record whose last deal is unfinished: that deal's state
    (what ``sueca solve`` solves). :class:`PositionError` names the problem: not a record, an
    invalid record, no deal, or a last deal already played out."""
    try:
        record = loads(text)
    except RecordFormatError as error:
        raise PositionError(f"not a record: {error}") from None
    result = replay(record)
    if result.error is not None:
        problem = result.error
        where = f"deal {problem['deal']}" + (
            f", play {problem['play']}" if problem["play"] is not None else "")
        raise PositionError(f"invalid record at {where}: {problem['reason']}")
    if not result.states:
        raise PositionError("the record holds no deal")
    state = result.states[-1]
    if state.is_finished():
        raise PositionError("the record's last deal is finished: there is no position to "
                            "solve")
    return state
