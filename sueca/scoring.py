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

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from sueca.auction import Contract
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
    contract: Contract | None = None  # a bidding table's contract (game_points are per seat)
    made: bool | None = None  # whether the declarer's side reached its bid
    # renuncia: the side whose revoke a denunciation proved (it lost the deal), and per side
    # the denunciations it made that proved wrong (each gave the other side a penalty).
    revoked_by: int | None = None
    false_denunciations: tuple[int, ...] = ()

    @property
    def winner(self) -> int | None:
        """The side that won the hand (at a bidding table 0 is the declarer's), or ``None``
        for a tie."""
        if self.revoked_by is not None:
            return 1 - self.revoked_by
        if self.made is not None:
            return 0 if self.made else 1
        if self.tie:
            return None
        return max(range(len(self.points)), key=self.points.__getitem__)


def level(rules: Rules, points: int, total: int | None = None) -> int:
    """Games for taking ``points`` of the ``total`` in play: more than half 1, more than three
    quarters 2, all of them 4 (0 for half or less). For 120 points: 61 / 91 / 120; for the
    double deck's 240: 121 / 181 / 240. ``total`` defaults to every point of the rules; where
    cards are set aside unseen (the six-player table) the points in play are those dealt."""
    if total is None:
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
    in_play = sum(points)
    winners = [t for t in range(teams) if level(rules, points[t], in_play) > 0]
    if not winners:
        next_carry = carry + 1 if rules.tie_carry else 0
        return HandResult(points, tricks, (0,) * teams, tie=True, carry=next_carry)
    winner = winners[0]
    loser = 1 - winner
    games = level(rules, points[winner], in_play)
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


def renuncia_penalties(rules: Rules) -> tuple[int, int]:
    """What a proven revoke and a wrong denunciation score the other side, in the match
    score's unit: ``renuncia_penalty`` and ``false_renuncia_penalty`` games, or under
    ``pontos`` (the score is card points) a quarter of the points in play per game of penalty,
    so that the capote (4) is every point, as taking all of them would be.

    >>> from sueca.rules import preset
    >>> renuncia_penalties(preset("standard")), renuncia_penalties(preset("pontos"))
    ((4, 1), (120, 30))
    """
    unit = 1 if rules.scoring == "games" else (
        rules.total_points * rules.cards_in_play // (4 * rules.deck_size))
    return rules.renuncia_penalty * unit, rules.false_renuncia_penalty * unit


def score_renuncia(rules: Rules, result: HandResult, revoked_by: int | None,
                   false_denunciations: Sequence[int]) -> HandResult:
    """A partnership deal's result once its denunciations are counted (``renuncia``). A
    proven revoke by ``revoked_by`` ends the deal: the offenders score nothing and the other
    side ``renuncia_penalty`` games (under ``pontos``, where the score is card points, a game of
    penalty is a quarter of the points in play: the capote is every point), whatever the cards
    said; each wrong denunciation by a side gives the other ``false_renuncia_penalty``. A tie
    carried over stays carried only when no revoke decided the deal.

    >>> from sueca.rules import STANDARD
    >>> plain = score_hand(STANDARD, points=(74, 46), tricks=(4, 2))
    >>> score_renuncia(STANDARD, plain, revoked_by=0, false_denunciations=(0, 1)).game_points
    (1, 4)
    """
    if revoked_by is None and not any(false_denunciations):
        return result
    proven, wrong = renuncia_penalties(rules)
    delta = [0, 0] if revoked_by is not None else list(result.game_points)
    if revoked_by is not None:
        delta[1 - revoked_by] = proven
    for side, count in enumerate(false_denunciations):
        delta[1 - side] += count * wrong
    return dataclasses.replace(
        result, game_points=tuple(delta), revoked_by=revoked_by,
        false_denunciations=tuple(false_denunciations),
        tie=result.tie and revoked_by is None,
        carry=result.carry if revoked_by is None else 0,
        wins_match=result.wins_match if revoked_by is None else None)


def score_contract(rules: Rules, contract: Contract, points: Sequence[int],
                   teams: Sequence[int], tricks: Sequence[int] = (0, 0)) -> HandResult:
    """Score a finished deal of a bidding table: ``points`` and ``tricks`` per side (0 the
    declarer's, 1 the defenders'), ``teams`` each seat's side. The declarer's side wins when
    it reaches the bid (61 after a pass); each player of the winning side scores the
    ``bid_scores`` value of the bid's band, and ``game_points`` holds one entry per seat.

    >>> from sueca.auction import Contract
    >>> from sueca.rules import preset
    >>> rules = preset("italiana5")
    >>> score_contract(rules, Contract(2, 85, 19), (88, 32), (1, 1, 0, 0, 1)).game_points
    (0, 0, 3, 3, 0)
    >>> score_contract(rules, Contract(2, 85, 19), (80, 40), (1, 1, 0, 0, 1)).game_points
    (3, 3, 0, 0, 3)
    """
    made = points[0] >= contract.target
    value = rules.bid_scores[rules.bid_band(contract.bid)]
    winning_side = 0 if made else 1
    game_points = tuple(value if side == winning_side else 0 for side in teams)
    return HandResult(tuple(points), tuple(tricks), game_points, contract=contract, made=made)


def match_winner(
    rules: Rules, score: Sequence[int], result: HandResult | None = None
) -> int | None:
    """The team (or at a bidding table, the player) that has won the match with this score."""
    if result is not None and result.wins_match is not None:
        return result.wins_match
    reached = [t for t in range(len(score)) if score[t] >= rules.match_target]
    if not reached:
        return None
    best = max(score[t] for t in reached)
    leaders = [t for t in reached if score[t] == best]
    # Two sides past the target at once (only in pontos): the higher wins; level, play on.
    return leaders[0] if len(leaders) == 1 else None
