"""Several threads on each test of a position: the same values as one thread, a table shared
soundly (a small table, so that the threads overwrite each other's entries often), the node
limit and the thread count's limits. The C core starts its threads once a test has cost
``solo_nodes`` alone; here mostly from the first node, so that every test runs on them."""

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
from sueca.solver import (  # _dds: None where the C core is not built
    C_AVAILABLE,
    MAX_THREADS,
    SolverError,
    _dds,
    core_for,
    default_threads,
    new_core,
    position_of,
    solve,
)
from sueca.state import State

needs_c = pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
RULES = [*SOLVER_RULES.values(), STANDARD.replace(teams=(0, 0, 1, 1)),
         STANDARD.replace(teams=(0, 1, 1, 1))]


def threaded_core(rules: Rules, threads: int, table_bits: int = 12,
                  solo_nodes: int = 0) -> _dds.Solver:
    assert _dds is not None
    return _dds.Solver(rules.card_points, rules.teams, rules.must_trump,
                       rules.last_trick_bonus, table_bits, threads=threads,
                       solo_nodes=solo_nodes)


def large_position(rules: Rules, rng: random.Random) -> State:
    """A random deal played at random until each hand holds 7-10 cards, stopped anywhere in a
    trick."""
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
        many = threaded_core(rules, threads)
        position = position_of(state)
        where = (rules.teams, state.deal, state.plays)
        assert many.value(*position) == one.value(*position), where
        assert many.move_values(*position) == one.move_values(*position), where
        assert many.threaded_tests > 0  # every test, in fact (solo_nodes=0)


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
    """As the library builds them: the threads start once a test has cost 10,000 nodes."""
    rng = random.Random(3)
    one = new_core(STANDARD, "c")
    two = new_core(STANDARD, "c", threads=2)
    assert (one.threads, two.threads) == (1, 2)
    for index in range(4):
        position = position_of(State(STANDARD, deal_cards(STANDARD, index % 4, rng)))
        before = two.nodes
        assert two.value(*position) == one.value(*position)
        assert two.nodes > before  # the workers' nodes are counted
    assert two.threaded_tests > 0  # type: ignore[attr-defined]


@needs_c
def test_cheap_tests_run_alone() -> None:
    rng = random.Random(4)
    state = State(STANDARD, deal_cards(STANDARD, 0, rng))
    for _ in range(28):  # three cards a hand: no test comes near 10,000 nodes
        state.push(rng.choice(state.legal_moves()))
    core = threaded_core(STANDARD, 2, solo_nodes=10_000)
    core.move_values(*position_of(state))
    assert core.threaded_tests == 0


@needs_c
def test_a_node_limit_runs_on_one_thread_and_stops() -> None:
    state = State(STANDARD, deal_cards(STANDARD, 0, random.Random(8)))
    core = threaded_core(STANDARD, 2, table_bits=18)
    before = core.nodes
    assert core.value(*position_of(state), -1, 500) is None  # (guess, node_limit)
    assert core.nodes - before == 500  # exactly the limit: no worker ran on
    assert core.threaded_tests == 0
    assert core.value(*position_of(state)) == new_core(STANDARD, "c").value(
        *position_of(state))


@needs_c
def test_thread_counts_out_of_range_are_refused() -> None:
    for threads in (0, -1, MAX_THREADS + 1):
        with pytest.raises(SolverError, match=f"threads must be 1-{MAX_THREADS}"):
            new_core(STANDARD, "c", threads=threads)
        with pytest.raises(SolverError, match=f"threads must be 1-{MAX_THREADS}"):
            core_for(STANDARD, "python", threads=threads)
    for wrong in (True, 2.0, "2"):
        with pytest.raises(SolverError, match="threads must be a whole number"):
            new_core(STANDARD, "c", threads=wrong)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads must be 1-16"):
        threaded_core(STANDARD, 0)
    with pytest.raises(ValueError, match="solo_nodes must be >= 0"):
        threaded_core(STANDARD, 2, solo_nodes=-1)
    assert _dds is not None and _dds.MAX_THREADS == MAX_THREADS  # a build with threads here
    assert 1 <= default_threads() <= 2


def test_the_python_search_takes_a_thread_count_and_runs_on_one() -> None:
    rng = random.Random(2)
    state = State(STANDARD, deal_cards(STANDARD, 0, rng))
    for _ in range(28):
        state.push(rng.choice(state.legal_moves()))
    assert solve(state, "python", threads=2) == solve(state, "python")
    assert core_for(STANDARD, "python", threads=2) is core_for(STANDARD, "python")


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
    for wrong in ("0", "17"):
        refused = runner.invoke(app, ["solve", str(path), "--threads", wrong])
        assert refused.exit_code == 2
        assert f"sueca: --threads must be 1-16, not {wrong}" in refused.output
