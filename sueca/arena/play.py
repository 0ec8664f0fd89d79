"""Seat bots, play deals and matches, and run duplicate series.

Duplicate: each deal is played twice with the same cards, the teams swapped between the two
plays, so the luck of the cards cancels and the margin measures the players.
"""

from __future__ import annotations

import random
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sueca.arena.stats import mean_ci95
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
    for seat, bot in enumerate(bots):
        if type(bot).deal_over is not Bot.deal_over:  # most bots do not listen: skip the work
            bot.deal_over(state.information_state(seat), state.deal.hands)
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
    # A duplicate pair is a small match of two deals: won by the side with more points over both.
    matches_won: list[int] = field(default_factory=lambda: [0, 0, 0])  # A, B, ties
    errors: list[str] = field(default_factory=list)  # what external bots did wrong

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

    @property
    def margin_ci95(self) -> tuple[float, float]:
        lo, hi = self.ci95
        return 2 * lo - 120, 2 * hi - 120

    def add(self, board: BoardResult) -> None:
        """Count one duplicate pair (or one single deal when not playing duplicate)."""
        self.pair_points.append(board.mean_points)
        for a_points in board.a_points:
            self.deals_won[_outcome(a_points)] += 1
        self.matches_won[_outcome(board.mean_points)] += 1
        self.errors.extend(board.errors)

    def to_json(self) -> dict[str, object]:
        lo, hi = self.ci95
        m_lo, m_hi = self.margin_ci95
        return {
            "a": self.bot_a,
            "b": self.bot_b,
            "deals": sum(self.deals_won),
            "pairs": self.pairs,
            "mean_points": round(self.mean_points, 2),
            "points_ci95": [round(lo, 2), round(hi, 2)],
            "margin": round(self.margin, 2),
            "ci95": [round(m_lo, 2), round(m_hi, 2)],
            "deals_won": {"a": self.deals_won[0], "b": self.deals_won[1],
                          "tied": self.deals_won[2]},
            "matches_won": {"a": self.matches_won[0], "b": self.matches_won[1],
                            "tied": self.matches_won[2]},
            "errors": len(self.errors),
        }

    def __str__(self) -> str:
        lo, hi = self.ci95
        m_lo, m_hi = self.margin_ci95
        text = (
            f"{self.bot_a} vs {self.bot_b}: {sum(self.deals_won)} deals "
            f"({self.pairs} duplicate pairs)\n"
            f"  {self.bot_a} mean card points per deal: {self.mean_points:.2f} "
            f"(95% CI {lo:.2f} to {hi:.2f})\n"
            f"  margin per deal: {self.margin:+.2f} (95% CI {m_lo:+.2f} to {m_hi:+.2f})\n"
            f"  deals won: {self.bot_a} {self.deals_won[0]}, {self.bot_b} {self.deals_won[1]}, "
            f"tied {self.deals_won[2]}\n"
            f"  pairs won: {self.bot_a} {self.matches_won[0]}, {self.bot_b} "
            f"{self.matches_won[1]}, tied {self.matches_won[2]}"
        )
        if self.errors:
            text += f"\n  bot errors: {len(self.errors)} (first: {self.errors[0]})"
        return text


def _outcome(a_points: float) -> int:
    """0 when A took more than half the points (scaled to 120), 1 when B did, 2 for a tie."""
    return 0 if a_points > 60 else 1 if a_points < 60 else 2


@dataclass(frozen=True)
class BoardResult:
    """One deal played by A and B in each seat direction: A's card points (scaled to 120) in
    each play, and what the bots did wrong (external bots only)."""

    index: int
    a_points: tuple[float, ...]
    errors: tuple[str, ...] = ()

    @property
    def mean_points(self) -> float:
        return statistics.fmean(self.a_points)

    @property
    def game_score(self) -> float:
        """The board as one game for A (an SPRT's sample): 1 won, 0 lost, 0.5 tied."""
        return (1.0, 0.0, 0.5)[_outcome(self.mean_points)]


def play_board(
    rules: Rules,
    bot_a: str,
    bot_b: str,
    index: int,
    seed: int = 0,
    records_dir: Path | None = None,
    duplicate: bool = True,
) -> BoardResult:
    """Deal number ``index`` of series ``seed``, played by A (seats of team 0) and B, then
    again with the teams swapped. Everything follows from ``(seed, index)``, so a board gives
    the same result whichever process plays it and in whatever order."""
    deal_rng = random.Random(f"{seed}:deal:{index}")
    deal = deal_cards(rules, index % rules.players, deal_rng)
    a_points = []
    errors: list[str] = []
    for swap in (0, 1) if duplicate else (0,):
        specs = [bot_b if (rules.teams[s] == 0) == bool(swap) else bot_a
                 for s in range(rules.players)]
        bots = [make_bot(spec, seed=hash_seed(seed, index, swap, s))
                for s, spec in enumerate(specs)]
        try:
            for seat, bot in enumerate(bots):
                bot.new_match(rules, seat)
            state = play_deal(rules, deal, bots)
        finally:
            for bot in bots:
                bot.close()
                errors.extend(f"deal {index}{'ab'[swap]}: {e}" for e in getattr(bot, "errors", ()))
        team_a = swap  # A holds team 0 in the first play, team 1 in the second
        a_points.append(state.team_points()[team_a] * 120 / rules.total_points)
        if records_dir is not None:
            record = GameRecord.from_states(
                rules, deal.dealer, [state], seats=specs, duplicate_pass=swap
            )
            name = f"deal{index:05d}{'ab'[swap]}.json"
            (records_dir / name).write_text(dumps(record), encoding="utf-8")
    return BoardResult(index, tuple(a_points), tuple(errors))


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
    """Team A (seats 0, 2) against team B, each deal played twice with the teams swapped, in
    this process (``sueca arena`` runs the same boards on every core)."""
    summary = DuplicateSummary(bot_a, bot_b)
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
    for index in range(deals):
        summary.add(play_board(rules, bot_a, bot_b, index, seed, records_dir, duplicate))
        if on_pair is not None:
            on_pair(index)
    return summary


def hash_seed(*parts: object) -> int:
    """A stable seed from several parts (Python's own ``hash`` of a str varies by process)."""
    return random.Random(":".join(map(str, parts))).getrandbits(63)


def safe_name(spec: str) -> str:
    """A bot spec as a file name: ``cmd:python my bot.py`` → ``cmd_python_my_bot.py``."""
    return re.sub(r"[^A-Za-z0-9_.+=-]+", "_", spec).strip("_")[:80] or "bot"


__all__ = [
    "BoardResult", "BotError", "DuplicateSummary", "hash_seed", "mean_ci95", "play_board",
    "play_deal", "play_match", "play_out", "run_duplicate", "safe_name",
]
