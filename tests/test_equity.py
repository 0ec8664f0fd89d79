"""The match equity table (sueca.bots.equity): sums and symmetries, monotone in the score,
final scores 0 or 1, the shipped tables equal to the recursion over the shipped distribution,
and the bots' side of it (the score a bot follows, what a deal's end is worth)."""

from __future__ import annotations

import json
import random
from importlib import resources
from itertools import pairwise
from pathlib import Path

import pytest

from sueca.bots import make_bot
from sueca.bots.equity import (
    TABLE_RULES,
    DealOutcomes,
    deal_worth,
    equity,
    main,
    plays_for_match,
    shipped_outcomes,
    smoothed,
    tables,
)
from sueca.bots.pimc import PimcBot
from sueca.cards import Card
from sueca.infostate import InformationState
from sueca.match import Match
from sueca.referee import Referee
from sueca.rules import STANDARD, Rules, preset
from sueca.state import State

RULE_SETS = [STANDARD.replace(**options) for options in TABLE_RULES.values()]


def _scores(target: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(target) for b in range(target)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=list(TABLE_RULES))
def test_a_side_wins_exactly_when_the_other_loses_with_the_dealer_swapped(rules: Rules) -> None:
    for a, b in _scores(rules.match_target):
        for dealer in (0, 1):
            mine = equity(rules, (a, b), dealer_team=dealer)
            theirs = equity(rules, (b, a), dealer_team=1 - dealer)
            assert mine == pytest.approx(1 - theirs, abs=1e-9)
            assert 0 < mine < 1


@pytest.mark.parametrize("rules", RULE_SETS, ids=list(TABLE_RULES))
def test_more_games_never_lower_the_chance(rules: Rules) -> None:
    target = rules.match_target
    for a, b in _scores(target):
        for dealer in (0, 1):
            here = equity(rules, (a, b), dealer_team=dealer)
            if a + 1 < target:
                assert equity(rules, (a + 1, b), dealer_team=dealer) > here
            if b + 1 < target:
                assert equity(rules, (a, b + 1), dealer_team=dealer) < here
    # Level scores: the dealing side, which holds the turned trump, is the favourite.
    assert equity(rules, (0, 0), dealer_team=0) > 0.5


def test_final_scores_are_won_or_lost() -> None:
    for rules in RULE_SETS:
        target = rules.match_target
        for other in range(target):
            assert equity(rules, (target, other)) == 1.0
            assert equity(rules, (other, target)) == 0.0
            assert equity(rules, (target + 3, other), dealer_team=1) == 1.0


def test_one_deal_from_a_score_averages_to_its_equity() -> None:
    """The table is the fixed point of one deal: the outcomes' probabilities (which sum to 1)
    times the equity after each, at every score, is the equity before."""
    outcomes = shipped_outcomes()
    assert sum(p for _, _, p in outcomes.probabilities()) == pytest.approx(1.0)
    for rules in RULE_SETS:
        for a, b in _scores(rules.match_target):
            for dealer in (0, 1):
                stakes = deal_worth(rules, dealer, (a, b), 0, 1 - dealer, True)
                expected = 0.0
                for points, sweeper, p in outcomes.probabilities():
                    if sweeper == 0 and rules.sweep != "points":
                        # the dealer's side took every trick
                        worth = deal_worth(rules, dealer, (a, b), 0, 1 - dealer, False)[points]
                    elif sweeper == 1 and rules.sweep != "points":
                        worth = 1 - deal_worth(rules, 1 - dealer, (a, b), 0, 1 - dealer,
                                               False)[rules.total_points - points]
                    else:
                        worth = stakes[points]
                    expected += p * worth
                mine = equity(rules, (a, b), dealer_team=dealer)
                mine = mine if dealer == 0 else 1 - mine
                assert expected == pytest.approx(mine, abs=1e-4)  # the points' nudge aside


def test_with_ties_carried_a_carry_is_worth_more_to_the_likelier_winner() -> None:
    rules = STANDARD.replace(tie_carry=True)
    assert equity(rules, (0, 0), carry=2, dealer_team=0) > equity(rules, (0, 0), dealer_team=0)
    assert equity(rules, (0, 0), carry=2) == pytest.approx(
        1 - equity(rules, (0, 0), carry=2, dealer_team=1))


def test_the_shipped_tables_are_the_recursion_over_the_shipped_distribution() -> None:
    text = resources.files("sueca.bots").joinpath("data", "match_equity.json").read_text()
    assert json.loads(text) == json.loads(json.dumps(tables(shipped_outcomes())))
    assert shipped_outcomes().deals >= 100


def test_only_game_scored_four_seat_tables_play_for_the_match() -> None:
    assert plays_for_match(STANDARD) and plays_for_match(preset("brazil"))
    for name in ("pontos", "italiana5", "double8", "double6"):
        assert not plays_for_match(preset(name))
    with pytest.raises(ValueError, match="four-seat"):
        equity(preset("pontos"), (0, 0))


def test_at_three_all_only_sixty_one_matters() -> None:
    worth = deal_worth(STANDARD, 0, (3, 3), 0, 1, True)
    assert worth[61] == pytest.approx(1.0, abs=1e-4) and worth[59] == pytest.approx(0, abs=1e-4)
    assert worth[120] - worth[61] < 1e-3  # only the nudge towards more points
    at_start = deal_worth(STANDARD, 0, (0, 0), 0, 1, True)
    assert at_start[91] > at_start[90] > at_start[61] > at_start[60] > at_start[59]


def test_the_regenerating_command_writes_both_files(tmp_path: Path) -> None:
    assert main(["--deals", "8", "--bot", "heuristic", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "deal_outcomes.json").read_text())
    outcomes = DealOutcomes.from_json(data)
    assert outcomes.deals == 8 and outcomes.bot == "heuristic"
    assert set(json.loads((tmp_path / "match_equity.json").read_text())) >= set(TABLE_RULES)
    with pytest.raises(SystemExit):
        main(["--deals", "0"])


def test_a_bot_follows_the_match_score_as_the_match_does() -> None:
    bots = [make_bot("pimc:goal=match:worlds=2:nodes=20000", seed=s) for s in range(4)]
    match = Match(STANDARD, first_dealer=0)
    referee = Referee(match, bots, rng=random.Random(4), strict=True)
    seen = []
    while not match.is_over:
        referee.play_deal()
        seen.append((tuple(match.score), tuple(bots[1].match_score)))
    assert all(ours == tuple(theirs) for ours, theirs in seen)
    bots[0].new_match(STANDARD, 0)
    assert bots[0].match_score == ()
    bots[0].set_match_score((2, 3))
    assert bots[0].match_score == (2, 3)
    with pytest.raises(ValueError, match="match score"):
        bots[0].set_match_score((1.5, 0))  # type: ignore[arg-type]


def _end_position() -> tuple[State, InformationState]:
    """Seed 39's deal, played by the heuristic to its 32nd card: the seat to play
    has one card that makes 61 in every world and one
    that takes more points on average but falls short in some."""
    from sueca.bots.heuristic import HeuristicBot
    from sueca.deal import deal_cards

    state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(39)))
    heuristic = HeuristicBot(0)
    for _ in range(31):
        state.push(heuristic.choose(state.information_state(state.to_play)))
    return state, state.information_state(state.to_play)


def test_playing_for_the_match_takes_the_sure_61_over_more_points() -> None:
    from sueca.solver import solve
    from sueca.worlds import sample_state

    _, info = _end_position()
    team = STANDARD.teams[info.seat]
    points_bot = PimcBot(seed=1, worlds=64, nodes=0)
    match_bot = PimcBot(seed=1, worlds=64, nodes=0)
    match_bot.configure({"goal": "match"})
    match_bot.set_match_score((3, 3))  # a match to 4: only 61 matters now
    more = points_bot.choose(info)
    sure = match_bot.choose(info)
    assert sure != more
    taken = sum(p for seat, p in enumerate(info.seat_points) if STANDARD.teams[seat] == team)
    rng = random.Random(7)
    sure_totals, more_totals = [], []
    for _ in range(64):
        world = sample_state(info, rng)
        values = solve(world).moves
        sure_totals.append(taken + values[sure][team])
        more_totals.append(taken + values[more][team])
    assert min(sure_totals) >= 61  # the sure card makes 61 in every world
    assert min(more_totals) < 61  # the other falls short in some...
    assert sum(more_totals) > sum(sure_totals)  # ...though it takes more points on average
    assert match_bot.last_equity[sure] > 0.999
    assert match_bot.last_means[sure] < match_bot.last_means[more]  # fewer points, the 61 sure
    assert "wins the match" in match_bot.explain(info)[1]
    with pytest.raises(ValueError, match="goal"):
        PimcBot().configure({"goal": "glory"})


def _sure_61(info: InformationState) -> Card:
    """The card pimc playing for the match at 3-3 plays at :func:`_end_position`."""
    sure = PimcBot(seed=1, worlds=64, nodes=0)
    sure.configure({"goal": "match"})
    sure.set_match_score((3, 3))
    return sure.choose(info)


def test_ismcts_playing_for_the_match_takes_the_sure_61_too() -> None:
    _, info = _end_position()
    bot = make_bot("ismcts:goal=match:iterations=2000", seed=1)
    bot.set_match_score((3, 3))
    card, reason = bot.explain(info)
    assert card == _sure_61(info) and "winning the match" in reason
    with pytest.raises(ValueError, match="goal"):
        make_bot("ismcts:goal=glory")


def test_a_stake_averaged_over_doubt_keeps_its_order_and_its_middle() -> None:
    """``spread``: a world's points are a rough guess at the deal's end, so the stake of a
    step (61 wins) is averaged over a normal doubt about the total: still rising with the
    points, a half at the step, the same far from it, untouched where nothing is in doubt."""
    step = [0.0] * 61 + [1.0] * 60
    soft = smoothed(step, 120, 8.0)
    assert len(soft) == len(step)
    assert all(a <= b for a, b in pairwise(soft))
    assert soft[60] < 0.5 < soft[61] and soft[60] + soft[61] == pytest.approx(1.0)
    assert soft[0] == pytest.approx(0.0, abs=1e-9) and soft[120] == pytest.approx(1, abs=1e-9)
    assert 0.05 < soft[50] < 0.15  # ten points short of 61 still hopes a little
    assert smoothed(step, 120, 0) == step
    # Only what is left can be taken: past it the stake stays put.
    short = smoothed(step, 40, 8.0)
    assert short[41:] == [short[40]] * 80


def test_playing_for_the_match_with_doubt_still_takes_the_sure_61() -> None:
    _, info = _end_position()
    doubting = make_bot("pimc:goal=match:spread=8:worlds=64:nodes=0", seed=1)
    doubting.set_match_score((3, 3))
    assert doubting.choose(info) == _sure_61(info)
    for bad in ("-1", "1e-200", "inf", "nan", "500"):
        with pytest.raises(ValueError, match="spread"):
            make_bot(f"pimc:goal=match:spread={bad}")
