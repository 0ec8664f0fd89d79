"""The arena: round robins, reproducibility across worker counts, SPRT, records, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sueca.arena import run_duplicate
from sueca.arena.play import play_board
from sueca.arena.tournament import round_robin, run_arena
from sueca.cli import app
from sueca.record import check, read
from sueca.rules import STANDARD, Rules


def test_round_robin_pairs_every_bot_once() -> None:
    assert round_robin(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]


def test_two_bot_arena_matches_run_duplicate() -> None:
    arena = run_arena(STANDARD, ["heuristic", "random"], deals=6, seed=3, workers=1)
    series = run_duplicate(STANDARD, "heuristic", "random", 6, seed=3)
    assert arena.pairs[0].pair_points == series.pair_points
    assert arena.pairs[0].deals_won == series.deals_won
    assert not arena.ratings


def test_results_do_not_depend_on_the_worker_count() -> None:
    bots = ["heuristic", "random", "heuristic+signals"]
    one = run_arena(STANDARD, bots, deals=6, seed=5, workers=1)
    two = run_arena(STANDARD, bots, deals=6, seed=5, workers=2)
    assert [p.to_json() for p in one.pairs] == [p.to_json() for p in two.pairs]
    assert one.ratings == two.ratings
    assert set(one.ratings) == set(bots)


def test_a_board_is_a_pure_function_of_seed_and_index() -> None:
    first = play_board(STANDARD, "random", "heuristic", index=4, seed=9)
    again = play_board(STANDARD, "random", "heuristic", index=4, seed=9)
    assert first == again and len(first.a_points) == 2
    other = play_board(STANDARD, "random", "heuristic", index=5, seed=9)
    assert other != first


def test_pairs_and_deals_add_up() -> None:
    result = run_arena(STANDARD, ["heuristic", "heuristic+signals"], deals=3, workers=1)
    pair = result.pairs[0]
    assert pair.pairs == 3 and sum(pair.deals_won) == 6 and sum(pair.matches_won) == 3
    lo, hi = pair.margin_ci95
    assert lo <= pair.margin <= hi


def test_sprt_stops_at_the_same_board_in_any_worker_count(tmp_path: Path) -> None:
    runs = []
    for workers in (1, 2):
        folder = tmp_path / f"w{workers}"
        result = run_arena(STANDARD, ["heuristic", "random"], deals=400, seed=1,
                           workers=workers, sprt=(0, 100), records_dir=folder)
        test = result.sprt[0]
        assert test is not None and test.decision == "H1"
        runs.append((result.pairs[0].to_json(), sorted(p.name for p in folder.rglob("*.json"))))
    assert runs[0] == runs[1]
    assert runs[0][0]["pairs"] < 400
    assert len(runs[0][1]) == 2 * runs[0][0]["pairs"]  # no record of an uncounted board


def test_records_are_valid_game_records(tmp_path: Path) -> None:
    run_arena(STANDARD, ["heuristic", "random"], deals=2, workers=1, records_dir=tmp_path)
    files = sorted(tmp_path.rglob("*.json"))
    assert [f.name for f in files] == ["deal00000a.json", "deal00000b.json",
                                       "deal00001a.json", "deal00001b.json"]
    assert files[0].parent.name == "heuristic__vs__random"
    for path in files:
        assert check(read(str(path)))["valid"]


def test_other_rules_are_played() -> None:
    rules = Rules.from_dict({"variant": "italiana", "last_trick_bonus": 10})
    result = run_arena(rules, ["heuristic", "random"], deals=3, workers=2)
    assert result.pairs[0].pairs == 3


@pytest.mark.parametrize(("bots", "deals", "message"), [
    (["heuristic"], 3, "at least two bots"),
    (["heuristic", "heuristic"], 3, "only once"),
    (["heuristic", "random"], 0, "at least one deal"),
    (["heuristic", "nobody"], 3, "unknown bot 'nobody'"),
    (["heuristic", "ismcts:depth=3"], 3, "no option 'depth'"),
    (["heuristic", "random:x=1"], 3, "takes no options"),
    (["heuristic", "random+echo"], 3, "unknown bot modifier"),
])
def test_bad_arenas_are_refused_before_play(bots: list[str], deals: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_arena(STANDARD, bots, deals=deals, workers=1)


runner = CliRunner()


def test_cli_arena_json() -> None:
    result = runner.invoke(app, ["arena", "--bots", "heuristic,random,heuristic+signals",
                                 "--deals", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    first = summary["pairs"][0]
    assert (first["a"], first["b"], first["deals"]) == ("heuristic", "random", 4)
    lo, hi = first["ci95"]
    assert lo <= first["margin"] <= hi
    assert {row["bot"] for row in summary["elo"]} == {"heuristic", "random", "heuristic+signals"}


def test_cli_arena_text_and_sprt() -> None:
    result = runner.invoke(app, ["arena", "--bots", "heuristic,random", "--deals", "300",
                                 "--sprt", "0,100", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "margin per deal" in result.stdout and "H1 (Elo ≥ 100) accepted" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "heuristic"], "at least two bots"),
    (["--bots", "heuristic,random", "--sprt", "5"], "--sprt takes ELO0,ELO1"),
    (["--bots", "heuristic,random", "--sprt", "5,0"], "ELO0 < ELO1"),
    (["--bots", "heuristic,nobody"], "unknown bot 'nobody'"),
    (["--bots", "heuristic,random", "--workers", "0"], "--workers"),
])
def test_cli_arena_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["arena", *args])
    assert result.exit_code == 2
    assert message in result.output
