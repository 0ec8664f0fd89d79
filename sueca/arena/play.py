"""Seat bots, play deals and matches, and run duplicate series.

Duplicate: each deal is played twice with the same cards, the teams swapped between the two
plays, so the luck of the cards cancels and the margin measures the players.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sueca.bots import Bot, make_bot
from sueca.deal import Deal, deal_cards
from sueca.match import Match
from sueca.record import GameRecord, dumps
from sueca.rules import Rules
from sueca.state import State

PlayListener = Callable[[State, int, int], None]  # state after the play, seat, card


class BotError(RuntimeError):
    """A bot answered with a card it may not play."""


def play_deal(
    rules: Rules, deal: Deal, bots: Sequence[Bot], on_play: PlayListener | None = None
) -> State:
    """Play one deal to the end, each bot seeing only its own information state."""
    return play_out(State(rules, deal), bots, on_play)


def play_out(state: State, bots: Sequence[Bot], on_play: PlayListener | None = None) -> State:
    """Play a deal on from where it stands to the end."""
    while not state.is_finished():
        seat = state.to_play
        card = bots[seat].choose(state.information_state(seat))
        if not state.is_legal(card):
            raise BotError(f"bot {bots[seat].name!r} at seat {seat} played an illegal card {card}")
        state.push(card)
        if on_play is not None:
            on_play(state, seat, card)
    return state


def play_match(
    rules: Rules,
    bots: Sequence[Bot],
    rng: random.Random,
    first_dealer: int | None = None,
    on_play: PlayListener | None = None,
    on_deal: Callable[[Match, State], None] | None = None,
) -> tuple[Match, list[State]]:
    """Play a whole match; ``on_deal`` hears of each finished deal."""
    dealer = rng.randrange(rules.players) if first_dealer is None else first_dealer
    match = Match(rules, first_dealer=dealer)
    for seat, bot in enumerate(bots):
        bot.new_match(rules, seat)
    states = []
    while not match.is_over:
        state = play_out(match.new_deal(rng), bots, on_play)
        match.finish_deal(state)
        states.append(state)
        if on_deal is not None:
            on_deal(match, state)
    return match, states


@dataclass
class DuplicateSummary:
    """Team A's results over duplicate deal pairs, with 95% confidence intervals."""

    bot_a: str
    bot_b: str
    pair_points: list[float] = field(default_factory=list)  # A's mean card points per pair
    deals_won: list[int] = field(default_factory=lambda: [0, 0, 0])  # A, B, ties

    @property
    def pairs(self) -> int:
        return len(self.pair_points)

    @property
    def mean_points(self) -> float:
        return statistics.fmean(self.pair_points) if self.pair_points else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return mean_ci95(self.pair_points)

    @property
    def margin(self) -> float:
        """A's mean card-point margin over B per deal (A's points minus B's)."""
        return 2 * self.mean_points - 120 if self.pair_points else 0.0

    def to_json(self) -> dict[str, object]:
        lo, hi = self.ci95
        return {
            "a": self.bot_a,
            "b": self.bot_b,
            "deals": 2 * self.pairs,
            "pairs": self.pairs,
            "mean_points": round(self.mean_points, 2),
            "points_ci95": [round(lo, 2), round(hi, 2)],
            "margin": round(self.margin, 2),
            "ci95": [round(2 * lo - 120, 2), round(2 * hi - 120, 2)],
            "deals_won": {"a": self.deals_won[0], "b": self.deals_won[1],
                          "tied": self.deals_won[2]},
        }

    def __str__(self) -> str:
        lo, hi = self.ci95
        return (
            f"{self.bot_a} vs {self.bot_b}: {2 * self.pairs} deals ({self.pairs} duplicate pairs)\n"
            f"  {self.bot_a} mean card points per deal: {self.mean_points:.2f} "
            f"(95% CI {lo:.2f} to {hi:.2f})\n"
            f"  margin per deal: {self.margin:+.2f} "
            f"(95% CI {2 * lo - 120:+.2f} to {2 * hi - 120:+.2f})\n"
            f"  deals won: {self.bot_a} {self.deals_won[0]}, {self.bot_b} {self.deals_won[1]}, "
            f"tied {self.deals_won[2]}"
        )


def mean_ci95(values: Sequence[float]) -> tuple[float, float]:
    """Normal-approximation 95% interval of the mean."""
    if len(values) < 2:
        mean = values[0] if values else 0.0
        return mean, mean
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def run_duplicate(
    rules: Rules,
    bot_a: str,
    bot_b: str,
    deals: int,
    seed: int = 0,
    records_dir: Path | None = None,
    duplicate: bool = True,
    on_pair: Callable[[int], None] | None = None,
) -> DuplicateSummary:
    """Team A (seats 0, 2) against team B, each deal played twice with the teams swapped."""
    summary = DuplicateSummary(bot_a, bot_b)
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
    passes = (0, 1) if duplicate else (0,)
    for index in range(deals):
        deal_rng = random.Random(f"{seed}:deal:{index}")
        deal = deal_cards(rules, index % rules.players, deal_rng)
        a_points = []
        for swap in passes:
            specs = [bot_b if (rules.teams[s] == 0) == bool(swap) else bot_a
                     for s in range(rules.players)]
            bots = [make_bot(spec, seed=hash_seed(seed, index, swap, s))
                    for s, spec in enumerate(specs)]
            for seat, bot in enumerate(bots):
                bot.new_match(rules, seat)
            state = play_deal(rules, deal, bots)
            team_a = swap  # A holds team 0 in the first pass, team 1 in the second
            points = state.team_points()
            a_points.append(points[team_a] * 120 / rules.total_points)
            if points[team_a] * 2 > rules.total_points:
                summary.deals_won[0] += 1
            elif points[1 - team_a] * 2 > rules.total_points:
                summary.deals_won[1] += 1
            else:
                summary.deals_won[2] += 1
            if records_dir is not None:
                record = GameRecord.from_states(
                    rules, deal.dealer, [state], seats=specs, duplicate_pass=swap
                )
                name = f"deal{index:05d}{'ab'[swap]}.json"
                (records_dir / name).write_text(dumps(record), encoding="utf-8")
        summary.pair_points.append(statistics.fmean(a_points))
        if on_pair is not None:
            on_pair(index)
    return summary


def hash_seed(*parts: object) -> int:
    """A stable seed from several parts (Python's own ``hash`` of a str varies by process)."""
    return random.Random(":".join(map(str, parts))).getrandbits(63)
