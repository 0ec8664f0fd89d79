"""Match equity: the chance of winning the match from every score, as backgammon programs use.

A Sueca match is won in games (61, 91 and 120 card points are worth 1, 2 and 4 of them), so
the same card points are worth more or less from one score to the next: at 3-3 in a match to
4 only 61 matters. :func:`equity` is the probability that team 0 wins the match from a score,
the games a tie carried over (``tie_carry``) and the team that deals next, under a table's
rules (``rolha``, ``bandeira``, ``points_wins_match``, the target). It is computed by dynamic
programming over how deals end, a distribution measured from self-play of a strong bot
(``sueca/bots/data/deal_outcomes.json``: the dealer's side's card points and who took every
trick, per deal). Under ``rolha`` a score can go down, so the table is the fixed point of the
one-deal recursion, found by iterating it (value iteration) rather than a single backward
pass.

:func:`deal_worth` turns this into what the searching bots maximise: for the card points a
side ends the deal with, its chance of winning the match afterwards. Sueca de Pontos
(``scoring = "pontos"``) and bidding tables keep card points (:func:`plays_for_match`).

Regenerate the measured distribution and the shipped tables (``match_equity.json``, an
excerpt of :func:`equity` for the presets, which a test checks against the recursion) with

    python -m sueca.bots.equity --deals 1500 --bot pimc --workers 2 --seed 7

(the shipped figures: 1,500 deals of pimc at its default budget, 35 minutes on two cores; the
file says how many deals and which bot).

>>> from sueca.rules import STANDARD
>>> round(equity(STANDARD, (0, 0), dealer_team=0) + equity(STANDARD, (0, 0), dealer_team=1), 9)
1.0
>>> equity(STANDARD, (4, 2)), equity(STANDARD, (1, 4))
(1.0, 0.0)
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from sueca.bots.base import Bot
from sueca.infostate import InformationState
from sueca.rules import Rules, preset
from sueca.scoring import match_winner, score_hand

DATA = "data"
OUTCOMES_FILE = "deal_outcomes.json"
TABLES_FILE = "match_equity.json"
# The rule sets whose tables are shipped (an excerpt: the recursion answers for any rules).
TABLE_RULES: dict[str, dict[str, object]] = {
    "standard": {},
    "rolha": {"rolha": True},
    "bandeira": {"sweep": "bandeira"},
    "points_wins_match": {"sweep": "points_wins_match"},
    "tie_carry": {"tie_carry": True},
}
_TOLERANCE = 1e-12
_MAX_ITERATIONS = 10_000


@dataclass(frozen=True)
class DealOutcomes:
    """How deals end, counted: ``counts[(points, sweeper)]`` deals in which the dealer's side
    took ``points`` card points and ``sweeper`` took every trick (0 the dealer's side, 1 the
    other, -1 neither)."""

    counts: dict[tuple[int, int], int]
    deals: int
    bot: str
    seed: int

    def probabilities(self) -> list[tuple[int, int, float]]:
        return [(points, sweeper, count / self.deals)
                for (points, sweeper), count in sorted(self.counts.items())]

    def to_json(self) -> dict[str, object]:
        return {
            "about": "card points of the dealer's side per deal, and who took every trick "
                     "(0 the dealer's side, 1 the other, -1 neither), from self-play",
            "bot": self.bot, "seed": self.seed, "deals": self.deals, "rules": "standard",
            "outcomes": [[p, s, c] for (p, s), c in sorted(self.counts.items())],
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> DealOutcomes:
        rows = data["outcomes"]
        assert isinstance(rows, list)
        counts = {(int(p), int(s)): int(c) for p, s, c in rows}
        deals = int(str(data["deals"]))
        if sum(counts.values()) != deals or deals <= 0:
            raise ValueError(f"{OUTCOMES_FILE}: the outcomes do not add up to {deals} deals")
        return cls(counts, deals, str(data["bot"]), int(str(data["seed"])))


@cache
def shipped_outcomes() -> DealOutcomes:
    """The distribution shipped with the package."""
    text = resources.files("sueca.bots").joinpath(DATA, OUTCOMES_FILE).read_text("utf-8")
    return DealOutcomes.from_json(json.loads(text))


def plays_for_match(rules: Rules) -> bool:
    """Whether a table's bots play for the match (its equity is defined): a game-scored
    partnership match of four seats and one deck, the table the distribution was measured
    at. Sueca de Pontos (the card points are the score), bidding tables and the larger tables
    keep card points."""
    return (rules.scoring == "games" and not rules.bidding and rules.players == 4
            and rules.decks == 1)


State = tuple[int, int, int, int]  # team 0's score, team 1's, the carry, the dealing team


def _after(rules: Rules, state: State, points0: int, sweeper: int | None
           ) -> State | float:
    """The match after one deal in which team 0 took ``points0`` card points (``sweeper``:
    the team that took every trick): the next state, or 1.0 / 0.0 when the match is won."""
    a, b, carry, dealer_team = state
    total = rules.total_points
    tricks = (rules.hand_size, 0) if sweeper == 0 else (0, rules.hand_size) \
        if sweeper == 1 else (1, rules.hand_size - 1)
    result = score_hand(rules, (points0, total - points0), tricks, (a, b), carry)
    score = (a + result.game_points[0], b + result.game_points[1])
    winner = match_winner(rules, score, result)
    if winner is not None:
        return 1.0 if winner == 0 else 0.0
    return (score[0], score[1], min(result.carry, rules.match_target), 1 - dealer_team)


def _table(rules: Rules, outcomes: DealOutcomes) -> dict[State, float]:
    """Every non-final state's equity for team 0, by value iteration over one deal."""
    if not plays_for_match(rules):
        raise ValueError("match equity is defined at four-seat, one-deck game-scored tables")
    target = rules.match_target
    carries = range(target + 1) if rules.tie_carry else range(1)
    states = [(a, b, c, d) for a in range(target) for b in range(target)
              for c in carries for d in (0, 1)]
    # Each state's moves: (probability, next state or a final value), from the dealer's
    # side's points turned into team 0's.
    moves: dict[State, list[tuple[float, State | float]]] = {}
    for state in states:
        dealer_team = state[3]
        row = []
        for points, sweeper, p in outcomes.probabilities():
            points0 = points if dealer_team == 0 else rules.total_points - points
            team_sweeper = None if sweeper < 0 else (sweeper if dealer_team == 0
                                                     else 1 - sweeper)
            row.append((p, _after(rules, state, points0, team_sweeper)))
        moves[state] = row
    value = dict.fromkeys(states, 0.5)
    for _ in range(_MAX_ITERATIONS):
        change = 0.0
        for state in states:
            new = sum(p * (nxt if isinstance(nxt, float) else value[nxt])
                      for p, nxt in moves[state])
            change = max(change, abs(new - value[state]))
            value[state] = new
        if change < _TOLERANCE:
            break
    return value


def _rules_table(rules: Rules) -> dict[State, float]:
    return rules.derived(("match-equity",), lambda: _table(rules, shipped_outcomes()))


def equity(rules: Rules, score: Sequence[int], carry: int = 0, dealer_team: int = 0) -> float:
    """The probability that team 0 wins the match from ``score`` (per team), ``carry`` games
    carried over by ties, with ``dealer_team`` dealing the next deal; 1.0 or 0.0 for a match
    already won. Scores below zero (none occur) count as zero."""
    a, b = (max(0, s) for s in score)
    winner = match_winner(rules, (a, b))
    if winner is not None:
        return 1.0 if winner == 0 else 0.0
    carry = min(carry, rules.match_target) if rules.tie_carry else 0
    return _rules_table(rules)[(a, b, carry, dealer_team)]


@dataclass(frozen=True)
class DealStakes:
    """What the end of this deal is worth to team 0, from the match score before it: its
    chance of winning the match for each card-point total it may end the deal with, when
    nobody takes every trick (``plain[points0]``), and when team 0 or team 1 takes every
    trick (``swept``). Every value is nudged by a millionth of a card point's share, so that
    where the match does not care (a deal that cannot change it) more points still rank
    first."""

    plain: tuple[float, ...]
    swept: tuple[float, float]

    def team0(self, points0: int, sweeper: int | None = None) -> float:
        if sweeper is not None:
            return self.swept[sweeper]
        return self.plain[points0]


POINT_NUDGE = 1e-6  # of equity per card point: where equity is level, the points decide


def deal_stakes(rules: Rules, score: Sequence[int], carry: int, next_dealer_team: int
                ) -> DealStakes:
    """The :class:`DealStakes` of a deal played from ``score`` (per team) and ``carry``, with
    ``next_dealer_team`` dealing the deal after it."""
    key = ("deal-stakes", tuple(max(0, s) for s in score), carry, next_dealer_team)
    return rules.derived(key, lambda: _stakes(rules, key[1], carry, next_dealer_team))


def _stakes(rules: Rules, score: tuple[int, ...], carry: int, next_dealer_team: int
            ) -> DealStakes:
    total = rules.total_points
    a, b = score[0], score[1]

    def worth(points0: int, sweeper: int | None) -> float:
        after = _after(rules, (a, b, carry, 1 - next_dealer_team), points0, sweeper)
        e0 = after if isinstance(after, float) else equity(rules, after[:2], after[2],
                                                           after[3])
        return e0 + POINT_NUDGE * (points0 - total / 2)

    return DealStakes(tuple(worth(p, None) for p in range(total + 1)),
                      (worth(total, 0), worth(0, 1)))


def deal_worth(rules: Rules, team: int, score: Sequence[int], carry: int,
               next_dealer_team: int, opponents_took_a_trick: bool) -> list[float]:
    """For each card-point total ``0..total_points`` that ``team`` may end this deal with,
    its chance of winning the match afterwards (nudged as :class:`DealStakes` says). A side
    that ends with every point is counted as taking every trick unless the other side has
    taken one already (what matters to ``bandeira``)."""
    stakes = deal_stakes(rules, score, carry, next_dealer_team)
    total = rules.total_points
    worth = []
    for points in range(total + 1):
        points0 = points if team == 0 else total - points
        sweeper = team if points == total and not opponents_took_a_trick else None
        e0 = stakes.team0(points0, sweeper)
        worth.append(e0 if team == 0 else 1.0 - e0)
    return worth


def smoothed(worth: Sequence[float], left: int, spread: float) -> list[float]:
    """``worth`` (by the points a side takes from the ``left`` points still in play) averaged
    over a normal doubt of ``spread`` points about that total, cut to ``0..left``: the
    stake of an outcome only known roughly. Past ``left`` the list keeps its last value."""
    if spread <= 0:
        return list(worth)
    kernel = [math.exp(-0.5 * (d / spread) ** 2) for d in range(left + 1)]  # by distance
    out = []
    for centre in range(left + 1):
        weights = [kernel[abs(k - centre)] for k in range(left + 1)]
        out.append(sum(w * worth[k] for k, w in enumerate(weights)) / sum(weights))
    return out + [out[-1]] * (len(worth) - left - 1)


def match_worth(bot: Bot, info: InformationState) -> list[float]:
    """For each card-point total the side of ``info``'s seat may still take in this deal
    (``0..`` what is left), its chance of winning the match once the deal ends so, from the
    match score ``bot`` follows (:meth:`Bot.follow_deal`)."""
    rules = info.rules
    teams = info.teams
    team = teams[info.seat]
    assert team is not None
    taken = sum(p for seat, p in enumerate(info.seat_points) if teams[seat] == team)
    others_tricks = any(teams[w] != team for w in info.trick_winners)
    next_dealer_team = teams[(info.dealer + 1) % rules.players]
    assert next_dealer_team is not None
    score = bot.match_score or (0, 0)
    worth = deal_worth(rules, team, score, bot.match_carry, next_dealer_team, others_tricks)
    return worth[taken:] + [worth[-1]] * taken


# ---- the shipped tables ----------------------------------------------------------------------


def tables(outcomes: DealOutcomes) -> dict[str, object]:
    """The shipped excerpt: per rule set of :data:`TABLE_RULES`, every score's equity for team
    0 with team 0 dealing next and with team 1 dealing next (no carry)."""
    out: dict[str, object] = {"deals": outcomes.deals, "bot": outcomes.bot}
    for name, options in TABLE_RULES.items():
        rules = preset("standard").replace(**options)
        table = _table(rules, outcomes)
        target = rules.match_target
        out[name] = {
            f"dealer_team_{d}": [[round(table[(a, b, 0, d)], 6) for b in range(target)]
                                 for a in range(target)]
            for d in (0, 1)
        }
    return out


def _play_deal(job: tuple[str, int, int]) -> tuple[int, int]:
    """One self-play deal: the dealer's side's points and who took every trick."""
    from sueca.bots import make_bot
    from sueca.deal import deal_cards
    from sueca.rules import STANDARD
    from sueca.state import State as GameState

    spec, seed, dealer = job
    rng = random.Random(seed)
    state = GameState(STANDARD, deal_cards(STANDARD, dealer, rng))
    bots = [make_bot(spec, seed=seed * 4 + s) for s in range(4)]
    while not state.is_finished():
        state.push(bots[state.to_play].choose(state.information_state(state.to_play)))
    for bot in bots:
        bot.close()
    side = STANDARD.teams[dealer]
    points = state.team_points()[side]
    tricks = state.team_tricks()
    sweeper = -1
    if tricks[side] == STANDARD.hand_size:
        sweeper = 0
    elif tricks[1 - side] == STANDARD.hand_size:
        sweeper = 1
    return points, sweeper


def measure(deals: int, bot: str, seed: int, workers: int = 1) -> DealOutcomes:
    """Self-play ``deals`` deals of ``bot`` in every seat (dealers in turn, each deal from a
    seed drawn from ``seed``), counted as :class:`DealOutcomes`."""
    draw = random.Random(seed)
    jobs = [(bot, draw.randrange(2**31), index % 4) for index in range(deals)]
    if workers > 1:
        from multiprocessing import Pool

        with Pool(workers) as pool:
            results = pool.map(_play_deal, jobs, chunksize=4)
    else:
        results = [_play_deal(job) for job in jobs]
    counts: dict[tuple[int, int], int] = {}
    for outcome in results:
        counts[outcome] = counts.get(outcome, 0) + 1
    return DealOutcomes(counts, deals, bot, seed)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sueca.bots.equity",
        description="Measure how deals end in self-play and write the match equity tables.")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--bot", default="pimc")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / DATA,
                        help="the folder to write both files to (default: the package's)")
    args = parser.parse_args(argv)
    if not 1 <= args.deals <= 1_000_000 or not 1 <= args.workers <= 64:
        parser.error("--deals must be 1-1000000 and --workers 1-64")
    outcomes = measure(args.deals, args.bot, args.seed, args.workers)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / OUTCOMES_FILE).write_text(json.dumps(outcomes.to_json()) + "\n", "utf-8")
    (args.out / TABLES_FILE).write_text(json.dumps(tables(outcomes), indent=1) + "\n",
                                        "utf-8")
    print(f"{args.deals} deals of {args.bot}: written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
