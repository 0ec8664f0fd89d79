"""Several threads on each test of a position: the same values as one thread, a table shared
soundly (a small table, so that the threads overwrite each other's entries often), the node
limit and the thread count's limits."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from solver_support import SOLVER_RULES
from typer.testing import CliRunner

from sueca.cli import app
from sueca.deal import deal_cards
from sueca.record import GameRecord, dumps
from sueca.rules import STANDARD, Rules
from sueca.solver import C_AVAILABLE, MAX_THREADS, SolverError, new_core, position_of, solve
from sueca.state import State

needs_c = pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
RULES = [*SOLVER_RULES.values(), STANDARD.replace(teams=(0, 0, 1, 1)),
         STANDARD.replace(teams=(0, 1, 1, 1))]


def large_position(rules: Rules, rng: random.Random) -> State:
    """A random deal played at random until each hand holds 7-10 cards (the threads start at
    7 in the hand of the seat to move), stopped anywhere in a trick."""
    state = State(rules, deal_cards(rules, rng.randrange(4), rng))
    for _ in range(rng.randrange(13)):
        state.push(rng.choice(state.legal_moves()))
    return state


def check_threads_agree(seed: int, count: int, threads: int) -> None:
    rng = random.Random(seed)
    for index in range(count):
        rules = RULES[index % len(RULES)]
        state = large_position(rules, rng)
        one = new_core(rules, "c", table_bits=12)
        many = new_core(rules, "c", table_bits=12, threads=threads)
        position = position_of(state)
        where = (rules.teams, state.deal, state.plays)
        assert many.value(*position) == one.value(*position), where
        assert many.move_values(*position) == one.move_values(*position), where


@needs_c
@pytest.mark.parametrize("threads", [2, 4])
def test_threads_give_the_values_of_one_thread_quick(threads: int) -> None:
    check_threads_agree(seed=threads, count=6, threads=threads)


@needs_c
@pytest.mark.slow
@pytest.mark.parametrize("threads", [2, 3, 8])
def test_threads_give_the_values_of_one_thread(threads: int) -> None:
    check_threads_agree(seed=10 + threads, count=60, threads=threads)


@needs_c
def test_full_deals_with_two_threads_keep_their_table_between_deals() -> None:
    rng = random.Random(3)
    one = new_core(STANDARD, "c")
    two = new_core(STANDARD, "c", threads=2)
    assert (one.threads, two.threads) == (1, 2)
    for index in range(4):
        position = position_of(State(STANDARD, deal_cards(STANDARD, index % 4, rng)))
        before = two.nodes
        assert two.value(*position) == one.value(*position)
        assert two.nodes > before  # the workers' nodes are counted


@needs_c
def test_a_node_limit_runs_on_one_thread_and_stops() -> None:
    state = State(STANDARD, deal_cards(STANDARD, 0, random.Random(8)))
    core = new_core(STANDARD, "c", threads=2)
    before = core.nodes
    assert core.value(*position_of(state), -1, 500) is None  # (guess, node_limit)
    assert core.nodes - before == 500  # exactly the limit: no worker ran on
    assert core.value(*position_of(state)) == new_core(STANDARD, "c").value(
        *position_of(state))


@needs_c
def test_thread_counts_out_of_range_are_refused() -> None:
    for threads in (0, -1, MAX_THREADS + 1):
        with pytest.raises(SolverError, match=f"threads must be 1-{MAX_THREADS}"):
            new_core(STANDARD, "c", threads=threads)
    with pytest.raises(ValueError, match="threads must be 1-16"):
        from sueca.solver import _dds
        _dds.Solver(STANDARD.card_points, STANDARD.teams, STANDARD.must_trump,
                    STANDARD.last_trick_bonus, 10, threads=0)


def test_the_python_search_takes_a_thread_count_and_runs_on_one() -> None:
    rng = random.Random(2)
    state = State(STANDARD, deal_cards(STANDARD, 0, rng))
    for _ in range(28):
        state.push(rng.choice(state.legal_moves()))
    assert solve(state, "python", threads=2) == solve(state, "python")


def test_cli_solve_threads(tmp_path: Path) -> None:
    rng = random.Random(6)
    state = State(STANDARD, deal_cards(STANDARD, 1, rng))
    for _ in range(13):
        state.push(rng.choice(state.legal_moves()))
    path = tmp_path / "position.json"
    path.write_text(dumps(GameRecord.from_states(STANDARD, 1, [state])), encoding="utf-8")
    runner = CliRunner()
    answers = [runner.invoke(app, ["solve", str(path), "--json", *extra])
               for extra in ([], ["--threads", "1"], ["--threads", "2"])]
    assert all(answer.exit_code == 0 for answer in answers), [a.output for a in answers]
    assert len({json.dumps(json.loads(answer.stdout)) for answer in answers}) == 1
    too_many = runner.invoke(app, ["solve", str(path), "--threads", "17"])
    assert too_many.exit_code != 0 and "--threads must be at most 16" in too_many.output
    assert runner.invoke(app, ["solve", str(path), "--threads", "0"]).exit_code != 0
