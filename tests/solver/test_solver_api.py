"""The solver's public face: solve() on states, the JSON shape, the record command, errors,
node limits and the choice of backend."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from solver_support import SOLVER_RULES, brute_force, random_position
from typer.testing import CliRunner

from sueca import solver
from sueca.cards import parse_card
from sueca.cli import app
from sueca.deal import deal_cards
from sueca.record import GameRecord, PositionError, dumps, last_position
from sueca.rules import STANDARD
from sueca.solver import (
    C_AVAILABLE,
    ReferenceSolver,
    SolverError,
    core_for,
    new_core,
    position_of,
    remaining_points,
    solve,
    value,
)
from sueca.state import State

runner = CliRunner()


def midgame(seed: int = 4, plays: int = 22) -> State:
    rng = random.Random(seed)
    state = State(STANDARD, deal_cards(STANDARD, 1, rng))
    for _ in range(plays):
        state.push(rng.choice(state.legal_moves()))
    return state


def test_solution_is_consistent_with_its_moves() -> None:
    for plays in (20, 21, 22, 23):  # every point of a trick
        state = midgame(plays=plays)
        snapshot = (list(state.plays), list(state.hands))
        solution = solve(state)
        assert (list(state.plays), list(state.hands)) == snapshot  # the state is untouched
        side = solution.side_to_move
        assert side == STANDARD.teams[state.to_play]
        assert set(solution.moves) == set(state.legal_moves())
        total = remaining_points(state)
        assert sum(solution.points) == total
        assert all(sum(v) == total for v in solution.moves.values())
        assert solution.points[side] == max(v[side] for v in solution.moves.values())
        assert solution.best_moves()
        assert value(state) == solution.points
        assert sum(state.team_points()) + total == STANDARD.total_points


def test_json_shape() -> None:
    solution = solve(midgame())
    data = solution.to_json()
    assert set(data) == {"side_to_move", "points", "moves"}
    assert data["side_to_move"] in (0, 1)
    moves = data["moves"]
    assert isinstance(moves, dict)
    for name, pair in moves.items():
        parse_card(name)
        assert isinstance(pair, list) and len(pair) == 2


def test_bonuses_count_where_the_rules_say() -> None:
    """The last-trick bonus counts in the last trick, the queen of hearts' points in hers."""
    rules = SOLVER_RULES["everything"]
    rng = random.Random(5)
    state = State(rules, deal_cards(rules, 0, rng))
    while len(state.plays) < 37:
        state.push(state.legal_moves()[0])
    team0, team1 = value(state)
    assert team0 + team1 == remaining_points(state) >= rules.last_trick_bonus
    start = state.team_points()
    while not state.is_finished():  # the last trick is forced: the value is what it gives
        state.push(state.legal_moves()[0])
    gained = [after - before for after, before in zip(state.team_points(), start, strict=True)]
    assert gained == [team0, team1]


def test_finished_deal_is_refused() -> None:
    state = midgame(plays=0)
    while not state.is_finished():
        state.push(state.legal_moves()[0])
    with pytest.raises(SolverError, match="over"):
        solve(state)
    assert value(state) == (0, 0)


def test_bad_positions_are_refused_clearly() -> None:
    core = core_for(STANDARD)
    hands, trump, leader, trick = position_of(midgame(plays=20))
    with pytest.raises(ValueError, match="disjoint"):
        core.value((hands[0], hands[0], hands[2], hands[3]), trump, leader, trick)
    with pytest.raises(ValueError, match="hand sizes"):
        core.value((hands[0] | hands[1], 0, hands[2], hands[3]), trump, leader, trick)
    with pytest.raises(ValueError, match="0-3"):
        core.value(hands, 4, leader, trick)


def test_node_limit_gives_none_and_leaves_the_table_sound() -> None:
    state = midgame(plays=8)
    for backend in ("c", "python") if C_AVAILABLE else ("python",):
        core = new_core(STANDARD, backend, table_bits=12)
        position = position_of(midgame(plays=24))
        assert core.value(*position_of(state), -1, 50) is None
        assert core.move_values(*position_of(state), -1, 50) is None
        # An aborted search stores nothing false: later answers are still exact.
        assert core.value(*position) == ReferenceSolver(
            STANDARD.card_points, STANDARD.teams, False, 0).value(*position)


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
def test_c_core_is_the_default_when_built(monkeypatch: pytest.MonkeyPatch) -> None:
    assert solver.default_backend() == "c"
    monkeypatch.setenv("SUECA_SOLVER", "python")
    assert solver.default_backend() == "python"
    assert isinstance(core_for(STANDARD), ReferenceSolver)


def test_c_extension_is_built() -> None:
    """``pip install -e .`` must build the C core where a compiler is present (CI has one);
    ``SUECA_SOLVER=python`` marks a run that means to go without it."""
    import os

    if os.environ.get("SUECA_SOLVER") == "python":
        pytest.skip("SUECA_SOLVER=python")
    assert C_AVAILABLE, solver.backend_note()


def test_unknown_backend() -> None:
    with pytest.raises(SolverError, match="backend"):
        new_core(STANDARD, "fortran")


def test_last_position_and_errors() -> None:
    state = midgame()
    text = dumps(GameRecord.from_states(STANDARD, 1, [state]))
    again = last_position(text)
    assert again.plays == state.plays and again.hands == state.hands
    with pytest.raises(PositionError, match="not a record"):
        last_position("[]")
    while not state.is_finished():
        state.push(state.legal_moves()[0])
    with pytest.raises(PositionError, match="finished"):
        last_position(dumps(GameRecord.from_states(STANDARD, 1, [state])))
    broken = json.loads(text)
    broken["deals"][0]["plays"].append("ZZ")
    with pytest.raises(PositionError, match="invalid record"):
        last_position(json.dumps(broken))


def test_cli_solve(tmp_path: Path) -> None:
    state = midgame()
    path = tmp_path / "position.json"
    path.write_text(dumps(GameRecord.from_states(STANDARD, 1, [state])), encoding="utf-8")
    result = runner.invoke(app, ["solve", "--json", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data == solve(state).to_json()
    assert data["points"][0] == brute_force(state)
    human = runner.invoke(app, ["solve", str(path)])
    assert human.exit_code == 0 and "best" in human.stdout
    missing = runner.invoke(app, ["solve", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2


def test_random_positions_with_every_rule_set() -> None:
    rng = random.Random(9)
    for rules in SOLVER_RULES.values():
        state = random_position(rules, rng, max_cards=3)
        assert value(state)[0] == brute_force(state)
