"""The ``sueca`` command line: check, deal, simulate, watch (RECORD.md's exit statuses and JSON)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from core_support import sweep_state
from typer.testing import CliRunner

from sueca.cli import app
from sueca.record import GameRecord, check, dumps, loads
from sueca.rules import STANDARD

runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


@pytest.fixture
def valid_record(tmp_path: Path) -> Path:
    path = tmp_path / "valid.json"
    rules = STANDARD.replace(match_target=8)
    path.write_text(dumps(GameRecord.from_states(rules, 3, [sweep_state(rules, 3)])),
                    encoding="utf-8")
    return path


@pytest.fixture
def invalid_record(valid_record: Path, tmp_path: Path) -> Path:
    data = json.loads(valid_record.read_text(encoding="utf-8"))
    data["deals"][0]["plays"][1], data["deals"][0]["plays"][2] = (
        data["deals"][0]["plays"][2], data["deals"][0]["plays"][1])
    path = tmp_path / "invalid.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_check_json_of_a_valid_record(valid_record: Path) -> None:
    result = run("check", "--json", str(valid_record))
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report) == {"valid", "error", "deals", "match"}
    assert set(report["deals"][0]) == {"trump", "tricks", "points", "game_points", "finished"}
    assert set(report["deals"][0]["tricks"][0]) == {"leader", "cards", "winner", "points"}
    assert report["valid"] is True and report["error"] is None
    assert report["deals"][0]["points"] == [120, 0]
    assert report["match"] == {"score": [4, 0], "winner": None}
    assert report == check(loads(valid_record.read_text(encoding="utf-8")))


def test_check_json_of_an_invalid_record(invalid_record: Path) -> None:
    result = run("check", "--json", str(invalid_record))
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False
    assert set(report["error"]) == {"deal", "play", "reason"}
    assert (report["error"]["deal"], report["error"]["play"]) == (0, 1)


def test_check_as_a_table(valid_record: Path, invalid_record: Path) -> None:
    result = run("check", str(valid_record))
    assert result.exit_code == 0 and "valid" in result.stdout and "120–0" in result.stdout
    result = run("check", str(invalid_record))
    # The JSON's deal 0, play 1: counted from 1 as the table counts deals and cards.
    assert result.exit_code == 1 and "invalid at deal 1, card 2" in result.stdout


def test_check_as_a_table_counts_tricks_by_the_records_teams(tmp_path: Path) -> None:
    # Seat 0 (team 1 here, not team 0 as at every preset's table) takes every trick.
    rules = STANDARD.replace(teams=(1, 0, 1, 0), match_target=8)
    path = tmp_path / "teams.json"
    path.write_text(dumps(GameRecord.from_states(rules, 3, [sweep_state(rules, 3)])),
                    encoding="utf-8")
    result = run("check", str(path))
    assert result.exit_code == 0, result.output
    assert "0–10" in result.stdout and "0–120" in result.stdout


MALFORMED = {
    "not_json.json": "this is not a record",
    "no_deals.json": '{"rules": {"variant": "standard"}}',
    "bad_variant.json": '{"rules": {"variant": "bisca"}, "deals": []}',
    "bad_option.json": '{"rules": {"variant": "standard", "trumps": 2}, "deals": []}',
    "bad_value.json": '{"rules": {"variant": "standard", "match_target": "four"}, "deals": []}',
    "array.json": "[]",
    "deep.json": "[" * 100_000,
    "bad_deal.json": '{"deals": [{"dealer": 0}]}',
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_check_of_a_file_that_is_not_a_record(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(MALFORMED[name], encoding="utf-8")
    for args in (["check", "--json", str(path)], ["check", str(path)]):
        result = run(*args)
        assert result.exit_code == 2
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("sueca: ") and name in lines[0]
        assert "Traceback" not in result.output


def test_check_of_a_missing_file_or_a_directory(tmp_path: Path) -> None:
    for path in (tmp_path / "nothing.json", tmp_path):
        result = run("check", "--json", str(path))
        assert result.exit_code == 2
        assert len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.output


def test_check_in_a_real_process(tmp_path: Path, valid_record: Path) -> None:
    """Exit statuses and streams as another program sees them."""
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    command = [sys.executable, "-m", "sueca.cli", "check", "--json"]
    done = subprocess.run([*command, str(bad)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    done = subprocess.run([*command, str(valid_record)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout)["valid"] is True


def test_deal_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    first = run("deal", "--seed", "3")
    assert first.exit_code == 0
    assert first.stdout == run("deal", "--seed", "3").stdout
    assert first.stdout != run("deal", "--seed", "4").stdout
    assert first.stdout.count("seat ") == 5  # the dealer line and four hands
    # --dealer counts from 1, as people do; the record keeps the engine's seat, from 0.
    record = run("deal", "--seed", "3", "--dealer", "3", "--rules", "brazil", "--json")
    assert record.exit_code == 0
    path = tmp_path / "deal.json"
    path.write_text(record.stdout, encoding="utf-8")
    report = json.loads(run("check", "--json", str(path)).stdout)
    assert report["valid"] and report["deals"][0]["finished"] is False
    data = json.loads(record.stdout)
    assert data["rules"] == {"variant": "brazil"} and data["deals"][0]["dealer"] == 2


@pytest.mark.parametrize(
    "args",
    [["deal", "--dealer", "5"], ["deal", "--dealer", "0"], ["deal", "--rules", "bisca"],
     ["deal", "--set", "trumps=1"], ["deal", "--set", "must_trump"],
     ["simulate", "--bots", "random"], ["simulate", "--bots", "random,nobody"],
     ["simulate", "--deals", "0"], ["watch", "--bots", "random,random"]],
)
def test_bad_options_exit_2_with_one_line(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.output


def test_simulate_saves_records_that_check(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    result = run("simulate", "--bots", "heuristic,random", "--deals", "5", "--seed", "2",
                 "--records", str(folder), "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["deals"] == 10 and summary["pairs"] == 5
    paths = sorted(folder.glob("*.json"))
    assert len(paths) == 10
    for path in paths:
        checked = run("check", "--json", str(path))
        assert checked.exit_code == 0, (path.name, checked.stdout)
        report = json.loads(checked.stdout)
        assert report["deals"][0]["finished"]
        data = json.loads(path.read_text(encoding="utf-8"))
        assert len(data["seats"]) == 4 and data["duplicate_pass"] in (0, 1)
    # The two plays of a duplicate deal share the cards, with the teams' bots swapped.
    a = json.loads((folder / paths[0].name).read_text(encoding="utf-8"))
    b = json.loads((folder / paths[1].name).read_text(encoding="utf-8"))
    assert a["deals"][0]["hands"] == b["deals"][0]["hands"]
    assert a["seats"] == b["seats"][1:] + b["seats"][:1]


def test_watch_saves_a_record_of_the_whole_match(tmp_path: Path) -> None:
    saved = tmp_path / "match.json"
    result = run("watch", "--seed", "1", "--save", str(saved))
    assert result.exit_code == 0, result.output
    assert "wins the match" in result.stdout
    report = json.loads(run("check", "--json", str(saved)).stdout)
    assert report["valid"] and report["match"]["winner"] is not None
    assert f"{report['match']['score'][0]}–{report['match']['score'][1]}" in result.stdout
    again = tmp_path / "again.json"
    assert run("watch", "--seed", "1", "--save", str(again)).stdout == result.stdout.replace(
        str(saved), str(again))
    assert again.read_text(encoding="utf-8") == saved.read_text(encoding="utf-8")


def test_watch_under_other_rules(tmp_path: Path) -> None:
    saved = tmp_path / "italiana.json"
    result = run("watch", "--seed", "5", "--rules", "italiana", "--set", "sweep=bandeira",
                 "--bots", "heuristic,random,heuristic,random", "--save", str(saved))
    assert result.exit_code == 0, result.output
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["rules"] == {"variant": "italiana", "sweep": "bandeira"}
    assert json.loads(run("check", "--json", str(saved)).stdout)["valid"]


def test_unwritable_outputs_exit_2_with_one_line(tmp_path: Path) -> None:
    a_file = tmp_path / "a_file"
    a_file.write_text("", encoding="utf-8")
    for args in (["simulate", "--deals", "1", "--records", str(a_file)],
                 ["watch", "--seed", "1", "--save", str(tmp_path / "no" / "such" / "m.json")]):
        result = run(*args)
        assert result.exit_code == 2
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Traceback" not in result.output
