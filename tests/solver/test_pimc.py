"""The pimc bot: legal, deterministic given its seed, budgets and options."""

from __future__ import annotations

import random

import pytest

from sueca.arena import play_deal
from sueca.bots import BOTS, make_bot
from sueca.bots.pimc import PimcBot
from sueca.deal import deal_cards
from sueca.infostate import InformationState
from sueca.rules import STANDARD
from sueca.solver import solve
from sueca.state import State


def late_info(seed: int = 3, plays: int = 25) -> tuple[State, InformationState]:
    rng = random.Random(seed)
    state = State(STANDARD, deal_cards(STANDARD, 0, rng))
    for _ in range(plays):
        state.push(rng.choice(state.legal_moves()))
    return state, state.information_state(state.to_play)


def test_registered() -> None:
    assert "pimc" in BOTS
    assert make_bot("pimc:worlds=4", seed=1).name == "pimc"


def test_deterministic_given_seed_and_legal() -> None:
    for seed in range(4):
        _, info = late_info(seed)
        card = PimcBot(seed=7, worlds=6).choose(info)
        assert card in info.legal_moves()
        assert card == PimcBot(seed=7, worlds=6).choose(info)


def test_node_budget_is_deterministic_early_in_the_deal() -> None:
    _, info = late_info(seed=1, plays=9)
    first, second = PimcBot(seed=2, nodes=300_000), PimcBot(seed=2, nodes=300_000)
    assert first.choose(info) == second.choose(info)
    assert first.last_worlds == second.last_worlds
    assert first.last_means == second.last_means


def test_means_are_double_dummy_values_when_hands_are_open() -> None:
    """With open hands every world is the real deal: the means are the solver's values."""
    rules = STANDARD.replace(open_hands=True)
    rng = random.Random(4)
    state = State(rules, deal_cards(rules, 2, rng))
    for _ in range(22):
        state.push(rng.choice(state.legal_moves()))
    info = state.information_state(state.to_play)
    bot = PimcBot(seed=1, worlds=3)
    card = bot.choose(info)
    solution = solve(state)
    side = solution.side_to_move
    assert bot.last_means == {c: float(v[side]) for c, v in solution.moves.items()}
    assert card in solution.best_moves()


def test_no_world_in_budget_falls_back_to_heuristic() -> None:
    _, info = late_info(seed=5, plays=0)
    bot = PimcBot(seed=1, nodes=10)
    card, reason = bot.explain(info)
    assert bot.last_worlds == 0 and "heuristic" in reason
    assert card == make_bot("heuristic", seed=1).choose(info)


def test_fixed_worlds_mode_solves_exactly_that_many() -> None:
    _, info = late_info(seed=6)
    bot = make_bot("pimc:worlds=5:nodes=0", seed=3)
    assert isinstance(bot, PimcBot)
    bot.choose(info)
    assert bot.last_worlds == 5


def test_time_mode_option() -> None:
    bot = make_bot("pimc:time=0.2", seed=3)
    assert isinstance(bot, PimcBot) and bot.time_limit == 0.2 and not bot.nodes
    _, info = late_info(seed=7)
    assert bot.choose(info) in info.legal_moves()
    assert bot.last_worlds >= 1


def test_too_few_worlds_fall_back_to_heuristic() -> None:
    _, info = late_info(seed=6)
    bot = make_bot("pimc:worlds=2:min_worlds=3", seed=3)
    card, reason = bot.explain(info)
    assert "too few" in reason and card == make_bot("heuristic", seed=3).choose(info)


@pytest.mark.parametrize(("spec", "named"), [
    ("pimc:worlds=0", "worlds='0'"),
    ("pimc:nodes=-1", "nodes='-1'"),
    ("pimc:time=x", "time='x'"),
    ("pimc:depth=3", "no option 'depth'"),
    ("pimc:min_worlds=0", "min_worlds='0'"),
])
def test_bad_options(spec: str, named: str) -> None:
    """A bad option is refused with a message naming the bot and what is wrong."""
    with pytest.raises(ValueError, match="pimc") as caught:
        make_bot(spec)
    assert named in str(caught.value)


def test_plays_a_whole_deal() -> None:
    rng = random.Random(8)
    deal = deal_cards(STANDARD, 0, rng)
    bots = [make_bot("pimc:worlds=4:nodes=200000", seed=s) if s % 2 else make_bot("heuristic")
            for s in range(4)]
    state = play_deal(STANDARD, deal, bots)
    assert state.is_finished() and sum(state.team_points()) == 120


def test_a_bad_option_beside_good_ones_changes_nothing() -> None:
    bot = PimcBot()
    for options in ({"goal": "match", "spread": "1e-9"}, {"softening": "0.3", "spread": "-1"},
                     {"goal": "match", "spread": "inf"}):
        with pytest.raises(ValueError):
            bot.configure(options)
        assert (bot.goal, bot.softening, bot.spread) == ("points", 0.5, 0.0)
