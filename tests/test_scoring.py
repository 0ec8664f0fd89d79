"""Scoring: every rule of RULES.md sections 1 and 2, first on ``score_hand`` alone, then on
hand-built deals played through a :class:`Match` and through a record's ``check``, which must
agree with each other."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from core_support import deal_to_points, sweep_state

from sueca.match import Match
from sueca.record import GameRecord, check, dumps, loads
from sueca.rules import STANDARD, Rules, preset
from sueca.scoring import HandResult, level, match_winner, score_hand, score_renuncia
from sueca.state import State

BANDEIRA = STANDARD.replace(sweep="bandeira")
POINTS_WINS = STANDARD.replace(sweep="points_wins_match")
ROLHA = STANDARD.replace(rolha=True)
CARRY = STANDARD.replace(tie_carry=True)
PONTOS = preset("pontos")


# ---- score_hand on its own ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "games"),
    [((61, 59), (1, 0)), ((59, 61), (0, 1)), ((90, 30), (1, 0)), ((91, 29), (2, 0)),
     ((118, 2), (2, 0)), ((120, 0), (4, 0)), ((0, 120), (0, 4)), ((29, 91), (0, 2)),
     ((74, 46), (1, 0))],
)
def test_standard_thresholds(points: tuple[int, int], games: tuple[int, int]) -> None:
    result = score_hand(STANDARD, points, (5, 5))
    assert result.game_points == games and not result.tie and result.carry == 0
    assert result.winner == (0 if games[0] else 1)
    assert result.wins_match is None


def test_sixty_all_is_a_tie_that_scores_nothing() -> None:
    result = score_hand(STANDARD, (60, 60), (5, 5))
    assert result.tie and result.winner is None
    assert result.game_points == (0, 0) and result.carry == 0


@pytest.mark.parametrize(
    ("rules", "points", "tricks", "games", "wins_match"),
    [
        (STANDARD, (120, 0), (10, 0), (4, 0), None),
        (STANDARD, (120, 0), (9, 1), (4, 0), None),
        (BANDEIRA, (120, 0), (10, 0), (4, 0), 0),  # all ten tricks: the match, at once
        (BANDEIRA, (120, 0), (9, 1), (2, 0), None),  # a pointless trick lost: only 91+
        (BANDEIRA, (0, 120), (0, 10), (0, 4), 1),
        (BANDEIRA, (95, 25), (8, 2), (2, 0), None),
        (POINTS_WINS, (120, 0), (9, 1), (4, 0), 0),  # 120 points win, tricks or not
        (POINTS_WINS, (118, 2), (9, 1), (2, 0), None),
    ],
)
def test_sweeps(rules: Rules, points: tuple[int, int], tricks: tuple[int, int],
                games: tuple[int, int], wins_match: int | None) -> None:
    result = score_hand(rules, points, tricks)
    assert result.game_points == games
    assert result.wins_match == wins_match
    if wins_match is not None:
        assert match_winner(rules, [0, 0], result) == wins_match


def test_a_match_won_at_once_is_recorded_as_the_games_to_the_target() -> None:
    result = score_hand(BANDEIRA, (120, 0), (10, 0), score=(1, 3))
    assert result.game_points == (3, 0)
    result = score_hand(POINTS_WINS.replace(match_target=10), (0, 120), (1, 9), score=(2, 7))
    assert result.game_points == (0, 3)


@pytest.mark.parametrize(
    ("points", "score", "games"),
    [
        ((95, 25), (0, 3), (0, -2)),
        ((95, 25), (0, 1), (0, -1)),  # never below zero
        ((95, 25), (2, 0), (0, 0)),
        ((25, 95), (3, 2), (-2, 0)),
        ((75, 45), (0, 3), (1, 0)),  # 61-90 scores as usual
        ((120, 0), (0, 3), (4, 0)),  # 120 keeps its sweep meaning
    ],
)
def test_rolha(points: tuple[int, int], score: tuple[int, int], games: tuple[int, int]) -> None:
    assert score_hand(ROLHA, points, (5, 5), score=score).game_points == games


def test_tie_carry_accumulates() -> None:
    first = score_hand(CARRY, (60, 60), (5, 5), carry=0)
    assert first.tie and first.carry == 1 and first.game_points == (0, 0)
    second = score_hand(CARRY, (60, 60), (4, 6), carry=first.carry)
    assert second.tie and second.carry == 2
    third = score_hand(CARRY, (45, 75), (4, 6), carry=second.carry)
    assert third.game_points == (0, 3) and third.carry == 0
    # Without the option a tie carries nothing.
    assert score_hand(STANDARD, (60, 60), (5, 5), carry=0).carry == 0
    # With rolha, the carried games still go to the winners.
    rolha_carry = STANDARD.replace(rolha=True, tie_carry=True)
    assert score_hand(rolha_carry, (95, 25), (7, 3), score=(0, 3), carry=1).game_points == (1, -2)


def test_pontos_scores_the_card_points() -> None:
    assert score_hand(PONTOS, (74, 46), (6, 4)).game_points == (74, 46)
    assert score_hand(PONTOS, (60, 60), (5, 5)).game_points == (60, 60)
    assert score_hand(PONTOS, (120, 0), (10, 0)).game_points == (120, 0)
    assert match_winner(PONTOS, [499, 380]) is None
    assert match_winner(PONTOS, [500, 380]) == 0
    assert match_winner(PONTOS, [510, 530]) == 1  # both past the target: the higher wins
    assert match_winner(PONTOS, [520, 520]) is None  # level: play on


@pytest.mark.parametrize(
    ("rules", "total", "tie", "one", "two"),
    [
        (STANDARD.replace(maria_de_copas=4), 124, 62, (63, 93), (94, 123)),
        (STANDARD.replace(last_trick_bonus=10), 130, 65, (66, 97), (98, 129)),
        (STANDARD.replace(maria_de_copas=1), 121, None, (61, 90), (91, 120)),
        (STANDARD.replace(last_trick_bonus=4, maria_de_copas=4), 128, 64, (65, 96), (97, 127)),
    ],
)
def test_bonuses_scale_the_thresholds(rules: Rules, total: int, tie: int | None,
                                      one: tuple[int, int], two: tuple[int, int]) -> None:
    """More than half scores 1, more than three quarters 2, all of it 4."""
    assert rules.total_points == total
    if tie is not None:
        assert score_hand(rules, (tie, tie), (5, 5)).tie
    for points in one:
        assert score_hand(rules, (points, total - points), (5, 5)).game_points == (1, 0)
        assert level(rules, points) == 1
    for points in two:
        assert score_hand(rules, (points, total - points), (5, 5)).game_points == (2, 0)
    assert level(rules, one[0] - 1) == 0
    assert score_hand(rules, (total, 0), (10, 0)).game_points == (4, 0)


# ---- hand-built deals ---------------------------------------------------------------------

def run_match(rules: Rules, first_dealer: int, states: Sequence[State]) -> dict[str, Any]:
    """Score the states through a Match and through a record's check; both must agree.
    Returns the check report."""
    match = Match(rules, first_dealer=first_dealer)
    results: list[HandResult] = []
    for state in states:
        match.start_deal(state.deal)
        results.append(match.finish_deal(state))
    record = GameRecord.from_states(rules, first_dealer, states)
    report = check(loads(dumps(record)))
    assert report["valid"], report["error"]
    assert [d["game_points"] for d in report["deals"]] == [list(r.game_points) for r in results]
    assert [d["points"] for d in report["deals"]] == [list(r.points) for r in results]
    assert report["match"] == {"score": match.score, "winner": match.winner}
    assert all(d["finished"] for d in report["deals"])
    return report


def test_sweep_deals_are_what_they_say() -> None:
    for dealer in range(4):
        team = (dealer + 1) % 2
        state = sweep_state(STANDARD, dealer)
        assert state.team_points()[team] == 120 and state.team_tricks()[team] == 10
        state = sweep_state(STANDARD, dealer, lose_last=True)
        assert state.team_points()[team] == 120 and state.team_tricks()[team] == 9
        assert state.tricks()[-1].points == 0 and state.tricks()[-1].winner == (dealer + 2) % 4
    state = sweep_state(preset("italiana"), 3)  # legal under must_trump too
    assert state.team_tricks() == [10, 0]


@pytest.mark.parametrize(
    ("rules", "lose_last", "game_points", "winner"),
    [
        (STANDARD, False, [4, 0], 0),
        (STANDARD, True, [4, 0], 0),
        (BANDEIRA.replace(match_target=10), False, [10, 0], 0),
        (BANDEIRA.replace(match_target=10), True, [2, 0], None),
        (POINTS_WINS.replace(match_target=10), True, [10, 0], 0),
        (STANDARD.replace(match_target=10), True, [4, 0], None),
    ],
)
def test_sweeps_through_match_and_record(rules: Rules, lose_last: bool, game_points: list[int],
                                         winner: int | None) -> None:
    report = run_match(rules, 3, [sweep_state(rules, 3, lose_last)])
    assert report["deals"][0]["points"] == [120, 0]
    assert report["deals"][0]["game_points"] == game_points
    assert report["match"]["winner"] == winner


@pytest.mark.parametrize(
    ("team0", "game_points"),
    [(60, [0, 0]), (61, [1, 0]), (59, [0, 1]), (90, [1, 0]), (91, [2, 0]), (29, [0, 2]),
     (30, [0, 1])],
)
def test_thresholds_through_match_and_record(team0: int, game_points: list[int]) -> None:
    state = deal_to_points(STANDARD, 2, team0, seed=team0)
    report = run_match(STANDARD, 2, [state])
    assert report["deals"][0]["points"] == [team0, 120 - team0]
    assert report["deals"][0]["game_points"] == game_points


def test_two_ties_carry_two_games_to_the_next_winner() -> None:
    states = [deal_to_points(CARRY, 0, 60, seed=1), deal_to_points(CARRY, 1, 60, seed=2),
              deal_to_points(CARRY, 2, 70, seed=3), deal_to_points(CARRY, 3, 60, seed=4),
              deal_to_points(CARRY, 0, 20, seed=5)]
    report = run_match(CARRY, 0, states)
    assert [d["game_points"] for d in report["deals"]] == [[0, 0], [0, 0], [3, 0], [0, 0],
                                                           [0, 3]]
    assert report["match"] == {"score": [3, 3], "winner": None}
    # Without the option the same deals score plainly.
    plain = [deal_to_points(STANDARD, d % 4, s.team_points()[0], seed=9) for d, s in
             enumerate(states)]
    report = run_match(STANDARD, 0, plain)
    assert [d["game_points"] for d in report["deals"]] == [[0, 0], [0, 0], [1, 0], [0, 0],
                                                           [0, 2]]


def test_rolha_takes_games_off_the_losers_never_below_zero() -> None:
    plan = [(40, [0, 1]), (40, [0, 1]), (40, [0, 1]), (91, [0, -2]), (95, [0, -1]),
            (91, [0, 0])]
    states = [deal_to_points(ROLHA, (1 + i) % 4, pts, seed=i) for i, (pts, _) in
              enumerate(plan)]
    states.append(sweep_state(ROLHA, 3))  # deal 7: dealer 3, team 0 takes 120: 4 games
    report = run_match(ROLHA, 1, states)
    assert [d["game_points"] for d in report["deals"]] == [g for _, g in plan] + [[4, 0]]
    assert report["match"] == {"score": [4, 0], "winner": 0}


def test_pontos_accumulates_card_points() -> None:
    rules = PONTOS.replace(match_target=150)
    states = [deal_to_points(rules, 0, 60, seed=1), deal_to_points(rules, 1, 60, seed=2),
              deal_to_points(rules, 2, 90, seed=3)]
    report = run_match(rules, 0, states)
    assert [d["game_points"] for d in report["deals"]] == [[60, 60], [60, 60], [90, 30]]
    # Both sides past 150 on the same deal: the higher total wins.
    assert report["match"] == {"score": [210, 150], "winner": 0}


def test_pontos_level_past_the_target_plays_on() -> None:
    rules = PONTOS.replace(match_target=120)
    states = [deal_to_points(rules, 0, 60, seed=1), deal_to_points(rules, 1, 60, seed=2)]
    report = run_match(rules, 0, states)
    assert report["match"] == {"score": [120, 120], "winner": None}
    states.append(deal_to_points(rules, 2, 59, seed=3))
    report = run_match(rules, 0, states)
    assert report["match"] == {"score": [179, 181], "winner": 1}


def test_pontos_to_500() -> None:
    plan = [90, 100, 95, 91, 100, 40]  # team 0 reaches 500 on the sixth deal: 516 to 204
    states = [deal_to_points(PONTOS, i % 4, pts, seed=i) for i, pts in enumerate(plan)]
    report = run_match(PONTOS, 0, states[:5])
    assert report["match"] == {"score": [476, 124], "winner": None}
    report = run_match(PONTOS, 0, states)
    assert report["match"] == {"score": [516, 204], "winner": 0}


@pytest.mark.parametrize(
    ("rules", "team0", "game_points"),
    [
        (STANDARD.replace(maria_de_copas=4), 62, [0, 0]),
        (STANDARD.replace(maria_de_copas=4), 63, [1, 0]),
        (STANDARD.replace(maria_de_copas=4), 93, [1, 0]),
        (STANDARD.replace(maria_de_copas=4), 94, [2, 0]),
        (STANDARD.replace(last_trick_bonus=10), 65, [0, 0]),
        (STANDARD.replace(last_trick_bonus=10), 66, [1, 0]),
        (STANDARD.replace(last_trick_bonus=10), 97, [1, 0]),
        (STANDARD.replace(last_trick_bonus=10), 98, [2, 0]),
        (STANDARD.replace(last_trick_bonus=10), 32, [0, 2]),
    ],
)
def test_bonus_thresholds_through_match_and_record(rules: Rules, team0: int,
                                                   game_points: list[int]) -> None:
    state = deal_to_points(rules, 1, team0, seed=team0)
    report = run_match(rules, 1, [state])
    assert report["deals"][0]["points"] == [team0, rules.total_points - team0]
    assert report["deals"][0]["game_points"] == game_points


@pytest.mark.parametrize("rules", [STANDARD.replace(maria_de_copas=4),
                                   STANDARD.replace(last_trick_bonus=10),
                                   STANDARD.replace(last_trick_bonus=3, maria_de_copas=5)])
def test_taking_everything_with_bonuses_scores_four(rules: Rules) -> None:
    report = run_match(rules, 3, [sweep_state(rules, 3)])
    assert report["deals"][0]["points"] == [rules.total_points, 0]
    assert report["deals"][0]["game_points"] == [4, 0]
    # Losing the pointless last trick loses the last-trick bonus, and with it the 4 games.
    report = run_match(rules, 3, [sweep_state(rules, 3, lose_last=True)])
    expected = [4, 0] if not rules.last_trick_bonus else [2, 0]
    assert report["deals"][0]["game_points"] == expected
    last = report["deals"][0]["tricks"][-1]
    assert last["points"] == rules.last_trick_bonus and last["winner"] == 1  # seat 1: 5S


def test_the_last_trick_bonus_goes_to_the_last_trick() -> None:
    rules = STANDARD.replace(last_trick_bonus=10)
    state = deal_to_points(rules, 0, 70, seed=4)
    tricks = state.tricks()
    assert tricks[-1].points == 10 + sum(rules.card_points[c] for c in tricks[-1].cards)
    assert sum(t.points for t in tricks) == 130


# ---- renúncia: score_renuncia ---------------------------------------------------------------


def test_a_deal_without_denunciations_is_scored_as_the_cards_say() -> None:
    plain = score_hand(STANDARD, points=(74, 46), tricks=(6, 4))
    assert score_renuncia(STANDARD, plain, None, (0, 0)) is plain


@pytest.mark.parametrize("rules", [STANDARD, STANDARD.replace(renuncia_penalty=2),
                                   PONTOS.replace(renuncia_penalty=3)])
def test_a_proven_revoke_scores_the_penalty_whatever_the_cards(rules: Rules) -> None:
    """In games, or under pontos in quarters of the points in play (30 card points a game:
    the capote, 4, is every point)."""
    unit = 30 if rules.scoring == "pontos" else 1
    for revoked_by in (0, 1):
        for points in ((120, 0), (74, 46), (60, 60), (0, 120)):
            plain = score_hand(rules, points, (5, 5))
            result = score_renuncia(rules, plain, revoked_by, (0, 0))
            expected = [0, 0]
            expected[1 - revoked_by] = rules.renuncia_penalty * unit
            assert list(result.game_points) == expected
            assert result.winner == 1 - revoked_by and result.revoked_by == revoked_by
            assert not result.tie and result.carry == 0 and result.wins_match is None
            assert result.points == plain.points  # the cards taken are still reported


def test_wrong_denunciations_give_the_other_side_the_false_penalty() -> None:
    rules = STANDARD.replace(false_renuncia_penalty=3)
    plain = score_hand(rules, points=(74, 46), tricks=(6, 4))
    assert score_renuncia(rules, plain, None, (1, 0)).game_points == (1, 3)
    assert score_renuncia(rules, plain, None, (0, 2)).game_points == (7, 0)
    # With a proven revoke too: the revokers' side still pays for its own wrong cries.
    assert score_renuncia(rules, plain, 0, (1, 1)).game_points == (3, 7)
    tie = score_hand(CARRY, points=(60, 60), tricks=(5, 5), carry=1)
    kept = score_renuncia(CARRY, tie, None, (1, 0))
    assert kept.tie and kept.carry == tie.carry and kept.game_points == (0, 1)
    assert score_renuncia(CARRY, tie, 1, (0, 0)).carry == 0  # a revoke decided the deal


def test_a_bandeira_revoked_wins_no_match() -> None:
    plain = score_hand(BANDEIRA, points=(120, 0), tricks=(10, 0))
    assert plain.wins_match == 0
    result = score_renuncia(BANDEIRA, plain, 0, (0, 0))
    assert result.wins_match is None and result.game_points == (0, 4)
