"""The torneio: a tournament of pairs, as pure data and rules (no I/O, no clock).

A :class:`Tournament` holds the registered pairs (or individuals still to be drawn into
pairs), its rounds and, at each table of a round, the result. It decides the pairings of the
next round and the standings; the server (:mod:`sueca.server.tournament_routes`) creates the
tables, reads their results and stores the tournament (:mod:`sueca.server.tournament_rows`).

Formats:

- **Swiss** (Monrad style, as card clubs run it): pairs in standings order, the first against
  the next it has not met yet, and so on down (backtracking so that nobody is left without an
  opponent; a rematch only when no other pairing exists). With an odd number of pairs the
  lowest-placed pair that has not had a bye sits out and scores a bye.
- **Knock-out**: seeds in registration order on a bracket of the next power of two (the top
  seeds get the byes), the winners of neighbouring tables meet next, until one pair is left.

Each table is a match to ``target`` games (a Sueca match, to 4), or the best of ``sets``
such matches (3: the first pair to win two). A pair scores :data:`WIN_POINTS` match points
for a win and none for a loss; standings break ties by game points, then card points, then the
registration order. A bye is a win ``target``–0 with no card points, and so is a forfeit for
the pair that was there (a pair that never came lost after the tournament's wait), or an
organiser's adjudication (who won, and the games he awards).

**Duplicate rounds** (bridge club style): every table of the round is dealt the same cards
(the server deals them from the round's seed, deal by deal), so at every table the pair in
seats 0 and 2 holds the same hands, and so does the pair in 1 and 3. A pair is scored against
each pair that held the same cards at another table, on the boards (deals) both tables
played: the one that took more card points there wins the comparison (1, ½ for a tie, 0 — the
arena's duplicate pair score, :mod:`sueca.arena.stats`). Its match points for the round are
``WIN_POINTS`` times its comparisons' mean, so the luck of the cards is out of it; its game and
card points are still those of its own match.

>>> t = Tournament(name="Café", organiser=1)
>>> for n in range(4):
...     _ = t.register_pair(f"P{n + 1}", (Player(None, f"a{n}"), Player(None, f"b{n}")))
>>> [table.pairs for table in t.start_round().tables]
[(1, 2), (3, 4)]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

Format = Literal["swiss", "knockout"]
FORMATS: tuple[str, ...] = ("swiss", "knockout")
HOW = ("played", "forfeit", "adjudicated")

WIN_POINTS = 2
"""Match points for a won match (a bye, a forfeit won); a loss scores none."""

MAX_PAIRS = 64
MAX_ROUNDS = 12
MAX_PROPOSALS = 4 * MAX_PAIRS  # pairs waiting for their partner's word (one per proposer)
NAME_MAX = 40


class TournamentError(ValueError):
    """A request the tournament refuses; ``code`` is a stable machine-readable reason."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Player:
    """A registered person: an account (``None`` in the pure tests) and the name shown."""

    account: int | None
    name: str


@dataclass
class Pair:
    """A partnership, numbered from 1 in registration order (its seed)."""

    number: int
    name: str
    players: tuple[Player, Player]
    withdrawn: int | None = None  # withdrawn before this round (it is paired in no later one)


@dataclass(frozen=True)
class Proposal:
    """A pair one player registered, waiting for the partner he named to confirm it (by
    registering with him in turn): it holds no place, blocks nobody and is never drawn."""

    by: Player
    partner: Player
    name: str


@dataclass(frozen=True)
class Result:
    """How one table ended, for its two pairs (index 0: the pair in seats 0 and 2).

    ``games``: the game points each scored (summed over the sets); ``card_points`` likewise;
    ``boards``: each deal's card points (duplicate rounds compare them); ``sets``: the matches
    each won (1–0 in a single match)."""

    winner: int  # 0 or 1
    games: tuple[int, int]
    card_points: tuple[int, int] = (0, 0)
    boards: tuple[tuple[int, int], ...] = ()
    sets: tuple[int, int] = (0, 0)
    how: str = "played"


@dataclass
class Assignment:
    """One table of a round: the two pairs (the first sits at seats 0 and 2), the server's
    table (its id, once created) and the result, once known."""

    number: int  # the table's number in the round, from 1
    pairs: tuple[int, int]
    table_id: str | None = None
    result: Result | None = None
    matches: tuple[int, ...] = ()  # the server's matches played there (the sets), in order


@dataclass
class Round:
    number: int  # from 1
    duplicate: bool
    seed: int  # a duplicate round's deals are dealt from it
    tables: list[Assignment]
    byes: tuple[int, ...] = ()  # the pairs that sit out (each a win target-0)
    # Knock-out: the round's pairs in bracket order (None: a bye's empty slot); neighbours
    # met, and the winners of neighbouring slots meet next.
    bracket: tuple[int | None, ...] = ()
    started: float | None = None  # wall-clock time the tables were created

    @property
    def finished(self) -> bool:
        return all(table.result is not None for table in self.tables)


@dataclass(frozen=True)
class Standing:
    rank: int
    pair: int
    name: str
    match_points: Fraction
    game_points: int
    card_points: int
    played: int
    withdrawn: bool

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "pair": self.pair, "name": self.name,
                "match_points": _number(self.match_points), "game_points": self.game_points,
                "card_points": self.card_points, "played": self.played,
                "withdrawn": self.withdrawn}


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 4)


@dataclass
class Tournament:
    name: str
    organiser: int  # the organiser's account
    format: Format = "swiss"
    rounds_planned: int = 3
    duplicate_rounds: frozenset[int] = frozenset()
    target: int = 4  # each match: to this many games
    sets: int = 1  # 1: one match; 3: the best of three
    forfeit_wait: float = 600.0  # seconds a round waits for a pair before it loses by forfeit
    start: float | None = None  # the announced start (wall-clock), for the pages
    individuals: bool = False  # people register alone and are drawn into pairs
    id: int = 0  # the store's
    pairs: list[Pair] = field(default_factory=list)
    singles: list[Player] = field(default_factory=list)  # registered alone, not drawn yet
    proposals: list[Proposal] = field(default_factory=list)  # pairs waiting for a partner
    rounds: list[Round] = field(default_factory=list)
    created: float = 0.0

    def __post_init__(self) -> None:
        self.name = " ".join(self.name.split())[:NAME_MAX]
        if not self.name:
            raise TournamentError("a tournament needs a name", "bad_tournament")
        if self.format not in FORMATS:
            raise TournamentError(f"format must be one of {', '.join(FORMATS)}", "bad_format")
        if not 1 <= self.rounds_planned <= MAX_ROUNDS:
            raise TournamentError(f"rounds must be 1 to {MAX_ROUNDS}", "bad_rounds")
        if any(not 1 <= r <= self.rounds_planned for r in self.duplicate_rounds):
            raise TournamentError("a duplicate round must be one of the rounds", "bad_rounds")
        if self.format == "knockout" and self.duplicate_rounds:
            raise TournamentError("duplicate rounds need the Swiss format (a knock-out round "
                                  "has too few tables to compare)", "bad_rounds")
        if self.sets not in (1, 3):
            raise TournamentError("sets must be 1 (a match) or 3 (the best of three)",
                                  "bad_sets")
        if not 1 <= self.target <= 10:
            raise TournamentError("a match is to 1 to 10 games", "bad_target")
        if not 0 < self.forfeit_wait <= 3600:
            raise TournamentError("the forfeit wait is 1 s to an hour", "bad_wait")

    # ---- registration ----------------------------------------------------------------------

    @property
    def status(self) -> str:
        if not self.rounds:
            return "registering"
        return "finished" if self.over else "running"

    @property
    def over(self) -> bool:
        if not self.rounds or not self.rounds[-1].finished:
            return False
        if self.format == "knockout":
            return len([p for p in self._advancing() if p is not None]) <= 1
        return len(self.rounds) >= self.rounds_planned

    def players(self) -> list[Player]:
        return [p for pair in self.pairs for p in pair.players] + list(self.singles)

    def _check_new(self, people: Sequence[Player]) -> None:
        if self.rounds:
            raise TournamentError("the tournament has started: registration is closed",
                                  "registration_closed")
        if len(self.pairs) + (len(self.singles) + len(people)) // 2 > MAX_PAIRS:
            raise TournamentError(f"the tournament is full ({MAX_PAIRS} pairs)", "full")
        taken = {p.account for p in self.players() if p.account is not None}
        taken_names = {p.name.casefold() for p in self.players()}
        for person in people:
            if (person.account is not None and person.account in taken) or \
                    person.name.casefold() in taken_names:
                raise TournamentError(f"{person.name} is registered already", "registered")
        if len(people) == 2 and people[0] == people[1]:
            raise TournamentError("a pair is two different people", "bad_pair")

    def register_pair(self, name: str, players: tuple[Player, Player]) -> Pair:
        if self.individuals:
            raise TournamentError("this tournament draws pairs: register alone",
                                  "register_alone")
        self._check_new(players)
        name = " ".join(name.split())[:NAME_MAX] or f"{players[0].name} & {players[1].name}"
        pair = Pair(len(self.pairs) + 1, name, players)
        self.pairs.append(pair)
        return pair

    def propose(self, name: str, by: Player, partner: Player) -> Pair | None:
        """``by`` registers with ``partner``: the pair is made if ``partner`` proposed it
        first (naming ``by``), and is otherwise pending until he does. A player has one
        proposal at a time (a new one replaces his last); a pair made drops every proposal
        by or to its players. Returns the pair made, or ``None`` while it waits."""
        if self.individuals:
            raise TournamentError("this tournament draws pairs: register alone",
                                  "register_alone")
        self._check_new((by, partner))
        mutual = next((p for p in self.proposals
                       if p.by == partner and p.partner == by), None)
        if mutual is not None:
            pair = self.register_pair(mutual.name or name, (mutual.by, mutual.partner))
            self.proposals = [p for p in self.proposals
                              if not {p.by, p.partner} & set(pair.players)]
            return pair
        others = [p for p in self.proposals if p.by != by]
        if len(others) >= MAX_PROPOSALS:
            raise TournamentError("too many pairs are waiting for a partner's word",
                                  "full")
        name = " ".join(name.split())[:NAME_MAX]
        self.proposals = [*others, Proposal(by, partner, name)]
        return None

    def proposals_to(self, account: int) -> list[Proposal]:
        """The pairs proposed to ``account``, waiting for his word."""
        return [p for p in self.proposals if p.partner.account == account]

    def register_single(self, player: Player) -> None:
        if not self.individuals:
            raise TournamentError("this tournament is for pairs: register with a partner",
                                  "register_pair")
        self._check_new([player])
        self.singles.append(player)

    def unregister(self, account: int) -> None:
        """Leave before the start (a pair leaves together)."""
        if self.rounds:
            raise TournamentError("the tournament has started: withdraw instead",
                                  "registration_closed")
        self.singles = [p for p in self.singles if p.account != account]
        # His proposal is withdrawn, and those made to him are declined.
        self.proposals = [p for p in self.proposals
                          if account not in (p.by.account, p.partner.account)]
        self.pairs = [pair for pair in self.pairs
                      if all(p.account != account for p in pair.players)]
        for number, pair in enumerate(self.pairs, 1):
            pair.number = number

    def draw_pairs(self, rng: random.Random) -> None:
        """Individuals drawn into pairs at random (an odd one out waits for nothing: he is
        left out, and told so by the pages)."""
        people = list(self.singles)
        rng.shuffle(people)
        while len(people) >= 2:
            a, b = people.pop(), people.pop()
            self.pairs.append(Pair(len(self.pairs) + 1, f"{a.name} & {b.name}", (a, b)))
        self.singles = people

    def pair(self, number: int) -> Pair:
        for pair in self.pairs:
            if pair.number == number:
                return pair
        raise TournamentError(f"no pair {number}", "no_pair")

    def pair_of(self, account: int) -> Pair | None:
        for pair in self.pairs:
            if any(p.account == account for p in pair.players):
                return pair
        return None

    # ---- rounds ----------------------------------------------------------------------------

    def start_round(self, seed: int = 0, rng: random.Random | None = None) -> Round:
        """Pair the next round (the first draws the individuals into pairs)."""
        if self.rounds and not self.rounds[-1].finished:
            raise TournamentError("the round in play is not over", "round_in_play")
        if self.over:
            raise TournamentError("the tournament is over", "tournament_over")
        if not self.rounds and self.individuals:
            self.draw_pairs(rng or random.Random(seed))
        if not self.rounds and len(self.pairs) < 2:
            raise TournamentError("a tournament needs at least two pairs", "too_few_pairs")
        self.proposals = []  # a pair never confirmed does not play
        number = len(self.rounds) + 1
        bracket: tuple[int | None, ...] = ()
        if self.format == "swiss":
            pairings, byes = self._swiss()
        else:
            bracket = tuple(self._advancing())
            pairings, byes = _knockout(bracket)
        if not pairings:
            raise TournamentError("no pairs are left to play", "too_few_pairs")
        tables = [Assignment(i, pairing) for i, pairing in enumerate(pairings, 1)]
        round_ = Round(number, number in self.duplicate_rounds, seed, tables, byes, bracket)
        self.rounds.append(round_)
        return round_

    def _active(self, before: int) -> list[Pair]:
        return [p for p in self.pairs if p.withdrawn is None or p.withdrawn > before]

    def _swiss(self) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
        number = len(self.rounds) + 1
        active = {p.number for p in self._active(number)}
        order = [s.pair for s in self.standings() if s.pair in active]
        byes: tuple[int, ...] = ()
        if len(order) % 2:
            had_bye = {p for r in self.rounds for p in r.byes}
            bye = next((p for p in reversed(order) if p not in had_bye), order[-1])
            order.remove(bye)
            byes = (bye,)
        met = self._met()
        pairings = _pair_down(order, met)
        if pairings is None:
            pairings = _pair_down(order, set())
        assert pairings is not None  # without the rematch rule any even list pairs
        return pairings, byes

    def _met(self) -> set[frozenset[int]]:
        return {frozenset(t.pairs) for r in self.rounds for t in r.tables}

    def _advancing(self) -> list[int | None]:
        """Knock-out: the pairs still in, in bracket order (the first round: every seed on
        the bracket, ``None`` where a bye falls; a withdrawn pair is out)."""
        if not self.rounds:
            return _bracket([p.number for p in self.pairs])
        last = self.rounds[-1]
        winners = {t.pairs: t.pairs[t.result.winner] for t in last.tables
                   if t.result is not None}
        still: list[int | None] = []
        for i in range(0, len(last.bracket), 2):
            a = last.bracket[i]
            b = last.bracket[i + 1] if i + 1 < len(last.bracket) else None
            if a is None or b is None:
                still.append(b if a is None else a)
            else:
                still.append(winners.get((a, b)))
        out = {p.number for p in self.pairs if p.withdrawn is not None}
        return [None if p in out else p for p in still if p is not None] or []

    def record(self, round_number: int, table_number: int, result: Result) -> None:
        """A table's result (the server's reading of its match, a forfeit, an adjudication).
        A result already there stands unless the organiser adjudicates it."""
        table = self.table(round_number, table_number)
        if table.result is not None and result.how != "adjudicated":
            raise TournamentError("this table's result is in already", "result_in")
        if result.winner not in (0, 1):
            raise TournamentError("the winner is 0 or 1", "bad_result")
        table.result = result

    def forfeit(self, round_number: int, table_number: int, absent: int) -> Result:
        """The pair ``absent`` (0 or 1 at that table) did not come: it loses target-0."""
        games = (0, self.target) if absent == 0 else (self.target, 0)
        result = Result(1 - absent, games, how="forfeit")
        self.record(round_number, table_number, result)
        return result

    def adjudicate(self, round_number: int, table_number: int, winner: int,
                   games: tuple[int, int] | None = None) -> Result:
        """The organiser decides a table: its winner, and the games he awards (by default,
        target-0)."""
        if winner not in (0, 1):
            raise TournamentError("the winner is 0 or 1", "bad_result")
        if games is None:
            games = (self.target, 0) if winner == 0 else (0, self.target)
        if any(not 0 <= g <= self.target * self.sets for g in games) or \
                games[winner] < games[1 - winner]:
            raise TournamentError("the games awarded must favour the winner and be in range",
                                  "bad_result")
        table = self.table(round_number, table_number)
        old = table.result
        result = Result(winner, games,
                        old.card_points if old else (0, 0), old.boards if old else (),
                        old.sets if old else (0, 0), how="adjudicated")
        self.record(round_number, table_number, result)
        return result

    def reseat(self, round_number: int, pair_a: int, pair_b: int) -> list[Assignment]:
        """The organiser swaps two pairs' places in a round no table of which has a result:
        the tables changed (their server tables are to be made again)."""
        round_ = self.round(round_number)
        if any(t.result is not None for t in round_.tables):
            raise TournamentError("a table of this round has a result: too late to reseat",
                                  "too_late")
        changed: list[Assignment] = []
        for table in round_.tables:
            if pair_a in table.pairs or pair_b in table.pairs:
                swap = {pair_a: pair_b, pair_b: pair_a}
                new = tuple(swap.get(p, p) for p in table.pairs)
                table.pairs = (new[0], new[1])
                table.table_id = None
                changed.append(table)
        swap_bye = {pair_a: pair_b, pair_b: pair_a}
        round_.byes = tuple(swap_bye.get(p, p) for p in round_.byes)
        if not changed or any(t.pairs[0] == t.pairs[1] for t in changed):
            raise TournamentError("those pairs cannot be swapped", "bad_reseat")
        return changed

    def withdraw(self, pair_number: int) -> list[tuple[Round, Assignment]]:
        """A pair withdraws: paired in no later round; its table of the round in play (if
        not over) is lost by forfeit. Returns the tables it forfeited."""
        pair = self.pair(pair_number)
        if pair.withdrawn is not None:
            raise TournamentError("that pair has withdrawn already", "withdrawn")
        if not self.rounds:
            self.pairs.remove(pair)
            for number, other in enumerate(self.pairs, 1):
                other.number = number
            return []
        current = self.rounds[-1]
        pair.withdrawn = current.number + 1
        forfeited = []
        for table in current.tables:
            if pair_number in table.pairs and table.result is None:
                self.forfeit(current.number, table.number, table.pairs.index(pair_number))
                forfeited.append((current, table))
        return forfeited

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise TournamentError(f"no round {number}", "no_round")
        return self.rounds[number - 1]

    def table(self, round_number: int, table_number: int) -> Assignment:
        round_ = self.round(round_number)
        if not 1 <= table_number <= len(round_.tables):
            raise TournamentError(f"no table {table_number} in round {round_number}",
                                  "no_table")
        return round_.tables[table_number - 1]

    # ---- standings -------------------------------------------------------------------------

    def round_scores(self, round_: Round) -> dict[int, tuple[Fraction, int, int]]:
        """Each pair's (match points, game points, card points) of one round (results so
        far; a bye counts once the round is paired)."""
        scores: dict[int, tuple[Fraction, int, int]] = {}
        for table in round_.tables:
            result = table.result
            if result is None:
                continue
            for index, pair in enumerate(table.pairs):
                won = result.winner == index
                scores[pair] = (Fraction(WIN_POINTS if won else 0), result.games[index],
                                result.card_points[index])
        if round_.duplicate:
            for pair, points in duplicate_points(round_).items():
                _, games, cards = scores[pair]
                scores[pair] = (points, games, cards)
        for pair in round_.byes:
            scores.setdefault(pair, (Fraction(WIN_POINTS), self.target, 0))
        return scores

    def standings(self) -> list[Standing]:
        totals: dict[int, list[Any]] = {p.number: [Fraction(0), 0, 0, 0] for p in self.pairs}
        for round_ in self.rounds:
            for pair, (mp, gp, cp) in self.round_scores(round_).items():
                row = totals[pair]
                row[0] += mp
                row[1] += gp
                row[2] += cp
                row[3] += 1
        order = sorted(self.pairs, key=lambda p: (-totals[p.number][0], -totals[p.number][1],
                                                  -totals[p.number][2], p.number))
        return [Standing(rank, p.number, p.name, totals[p.number][0], totals[p.number][1],
                         totals[p.number][2], totals[p.number][3], p.withdrawn is not None)
                for rank, p in enumerate(order, 1)]

    # ---- as data ---------------------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        return {"format": self.format, "rounds": self.rounds_planned,
                "duplicate_rounds": sorted(self.duplicate_rounds), "target": self.target,
                "sets": self.sets, "forfeit_wait": self.forfeit_wait, "start": self.start,
                "individuals": self.individuals}

    @classmethod
    def from_settings(cls, name: str, organiser: int, settings: Any) -> Tournament:
        """A tournament from a request's (or the store's) settings: hostile data checked."""
        if not isinstance(settings, dict):
            raise TournamentError("settings must be an object", "bad_tournament")
        fmt = settings.get("format", "swiss")
        rounds = settings.get("rounds", 3)
        duplicate = settings.get("duplicate_rounds", [])
        target = settings.get("target", 4)
        sets = settings.get("sets", 1)
        wait = settings.get("forfeit_wait", 600.0)
        start = settings.get("start")
        individuals = settings.get("individuals", False)
        if not isinstance(fmt, str) or not _whole(rounds) or not _whole(target) or \
                not _whole(sets) or not isinstance(duplicate, list) or \
                len(duplicate) > MAX_ROUNDS or not all(_whole(r) for r in duplicate) or \
                not isinstance(wait, (int, float)) or isinstance(wait, bool) or \
                not (start is None or (isinstance(start, (int, float))
                                       and not isinstance(start, bool))) or \
                not isinstance(individuals, bool):
            raise TournamentError("settings: format text; rounds, target, sets whole numbers; "
                                  "duplicate_rounds a list of rounds; forfeit_wait seconds; "
                                  "start a time or null; individuals true or false",
                                  "bad_tournament")
        return cls(name=name, organiser=organiser, format=fmt,  # type: ignore[arg-type]
                   rounds_planned=rounds, duplicate_rounds=frozenset(duplicate),
                   target=target, sets=sets, forfeit_wait=float(wait),
                   start=None if start is None else float(start), individuals=individuals)

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "status": self.status,
                "pairs": len(self.pairs), "singles": len(self.singles),
                "round": len(self.rounds), **self.settings()}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _pair_down(order: list[int], met: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    """Monrad pairing with backtracking: the first pair against the next one it has not met.
    ``None`` if every way leaves a rematch."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair_down(rest[:i] + rest[i + 1:], met)
        if tail is not None:
            return [(first, other), *tail]
    return None


def _bracket(seeds: list[int]) -> list[int | None]:
    """Seeds on a bracket of the next power of two in the standard order (1 meets the last
    seed, and 1 and 2 meet only in the final); ``None`` slots are byes."""
    size = 1
    while size < len(seeds):
        size *= 2
    order = [1]
    while len(order) < size:
        span = len(order) * 2 + 1
        order = [s for seed in order for s in (seed, span - seed)]
    return [seeds[s - 1] if s <= len(seeds) else None for s in order]


def _knockout(bracket: Sequence[int | None]) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """A knock-out round's tables (neighbouring slots) and byes (a slot beside an empty one,
    or the last of an odd number)."""
    pairings: list[tuple[int, int]] = []
    byes: list[int] = []
    for i in range(0, len(bracket), 2):
        a = bracket[i]
        b = bracket[i + 1] if i + 1 < len(bracket) else None
        if a is not None and b is not None:
            pairings.append((a, b))
        elif a is not None or b is not None:
            byes.append(a if a is not None else b)  # type: ignore[arg-type]
    return pairings, tuple(byes)


def duplicate_points(round_: Round) -> dict[int, Fraction]:
    """A duplicate round's match points: each pair against each pair that held the same cards
    at another played table, on the boards both played (1 for more card points, ½ for as
    many), ``WIN_POINTS`` times the mean. A table decided by forfeit or adjudication compares
    with nobody (its pairs keep their match's points)."""
    played = [t for t in round_.tables
              if t.result is not None and t.result.how == "played" and t.result.boards]
    points: dict[int, Fraction] = {}
    for table in played:
        assert table.result is not None
        for side in (0, 1):
            scores: list[Fraction] = []
            for other in played:
                if other is table:
                    continue
                assert other.result is not None
                boards = min(len(table.result.boards), len(other.result.boards))
                mine = sum(b[side] for b in table.result.boards[:boards])
                theirs = sum(b[side] for b in other.result.boards[:boards])
                scores.append(Fraction(1) if mine > theirs else
                              Fraction(1, 2) if mine == theirs else Fraction(0))
            if scores:
                points[table.pairs[side]] = WIN_POINTS * sum(scores, Fraction(0)) / len(scores)
    return points


def result_of_sets(sets: Sequence[tuple[tuple[int, int], Sequence[tuple[int, int]]]],
                   needed: int) -> Result | None:
    """A table's result from its matches so far (each: the games per side and each deal's card
    points); ``None`` while no side has won ``needed`` of them."""
    won = [0, 0]
    games = [0, 0]
    boards: list[tuple[int, int]] = []
    for score, deals in sets:
        winner = 0 if score[0] > score[1] else 1
        won[winner] += 1
        games[0] += score[0]
        games[1] += score[1]
        boards.extend((a, b) for a, b in deals)
    if max(won) < needed:
        return None
    winner = 0 if won[0] > won[1] else 1
    cards = (sum(b[0] for b in boards), sum(b[1] for b in boards))
    return Result(winner, (games[0], games[1]), cards, tuple(boards), (won[0], won[1]))


__all__ = ["FORMATS", "WIN_POINTS", "Assignment", "Pair", "Player", "Proposal", "Result",
           "Round",
           "Standing", "Tournament", "TournamentError", "duplicate_points", "result_of_sets"]
