"""What a finished hand is worth: game points under every scoring option of RULES.md.

>>> from sueca.rules import STANDARD
>>> score_hand(STANDARD, points=(74, 46), tricks=(6, 4)).game_points
(1, 0)
>>> score_hand(STANDARD, points=(60, 60), tricks=(5, 5)).tie
True
>>> rolha = STANDARD.replace(rolha=True)
>>> score_hand(rolha, points=(95, 25), tricks=(7, 3), score=(0, 3)).game_points
(0, -2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sueca.rules import Rules


@dataclass(frozen=True)
class HandResult:
    """The outcome of one finished hand for the match."""

    points: tuple[int, ...]  # card points per team, bonuses included
    tricks: tuple[int, ...]  # tricks per team
    game_points: tuple[int, ...]  # the change to each team's match score (negative under rolha)
    tie: bool = False
    carry: int = 0  # extra games the next hand is worth to its winner (tie_carry)
    wins_match: int | None = None  # a team that won the match at once (bandeira and the like)

    @property
    def winner(self) -> int | None:
        """The team that won the hand, or ``None`` for a tie."""
        if self.tie:
            return None
        return max(range(len(self.points)), key=self.points.__getitem__)


def level(rules: Rules, points: int) -> int:
    """Games for taking ``points`` of the points in play: more than half 1, more than three
    quarters 2, all of them 4 (0 for half or less). For 120 points: 61 / 91 / 120."""
    total = rules.total_points
    if points >= total:
        return 4
    if 4 * points > 3 * total:
        return 2
    if 2 * points > total:
        return 1
    return 0


def score_hand(
    rules: Rules,
    points: Sequence[int],
    tricks: Sequence[int],
    score: Sequence[int] = (0, 0),
    carry: int = 0,
) -> HandResult:
    """Score a finished hand given each team's card points and tricks, the match score before it
    and the games carried over from ties (see docs/rules.md for every choice made here)."""
    points = tuple(points)
    tricks = tuple(tricks)
    teams = len(points)
    if rules.scoring == "pontos":
        # Sueca de Pontos: the card points are the score; ties and sweeps mean nothing more.
        return HandResult(points, tricks, points)
    winners = [t for t in range(teams) if level(rules, points[t]) > 0]
    if not winners:
        next_carry = carry + 1 if rules.tie_carry else 0
        return HandResult(points, tricks, (0,) * teams, tie=True, carry=next_carry)
    winner = winners[0]
    loser = 1 - winner
    games = level(rules, points[winner])
    took_all_tricks = tricks[winner] == sum(tricks)
    wins_match = None
    if rules.sweep == "bandeira":
        # Only all ten tricks are a bandeira; 120 points with a (pointless) trick lost is 91+.
        if took_all_tricks:
            wins_match = winner
        games = min(games, 2)
    elif rules.sweep == "points_wins_match" and games == 4:
        wins_match = winner
    bonus = carry if rules.tie_carry else 0
    delta = [0] * teams
    if wins_match is not None:
        delta[winner] = max(rules.match_target - score[winner], 0)
    elif rules.rolha and games == 2:
        # Rolha: the 91+ side scores its two games by taking them off the losers, never
        # below zero; a carried tie still adds to the winners' own count.
        delta[loser] = -min(2, score[loser])
        delta[winner] = bonus
    else:
        delta[winner] = games + bonus
    return HandResult(points, tricks, tuple(delta), wins_match=wins_match)


def match_winner(
    rules: Rules, score: Sequence[int], result: HandResult | None = None
) -> int | None:
    """The team that has won the match with this score, if any."""
    if result is not None and result.wins_match is not None:
        return result.wins_match
    reached = [t for t in range(len(score)) if score[t] >= rules.match_target]
    if not reached:
        return None
    best = max(score[t] for t in reached)
    leaders = [t for t in reached if score[t] == best]
    # Two sides past the target at once (only in pontos): the higher wins; level, play on.
    return leaders[0] if len(leaders) == 1 else None
