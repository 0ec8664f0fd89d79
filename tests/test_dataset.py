"""sueca dataset: self-play records as JSON lines with an index, the same bytes from the same
seed (whatever the number of workers), every record a valid RECORD.md record."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sueca.cli import app
from sueca.dataset import INDEX, RECORDS, make_dataset
from sueca.record import check, from_json
from sueca.rules import STANDARD, preset


def test_the_same_seed_gives_the_same_bytes_and_every_record_checks(tmp_path: Path) -> None:
    one = make_dataset(STANDARD, "heuristic", games=4, seed=9, out=tmp_path / "one")
    two = make_dataset(STANDARD, "heuristic", games=4, seed=9, out=tmp_path / "two",
                       workers=2)
    other = make_dataset(STANDARD, "heuristic", games=4, seed=10, out=tmp_path / "other")
    data = (tmp_path / "one" / RECORDS).read_bytes()
    assert data == (tmp_path / "two" / RECORDS).read_bytes()
    assert (tmp_path / "one" / INDEX).read_bytes() == (tmp_path / "two" / INDEX).read_bytes()
    assert data != (tmp_path / "other" / RECORDS).read_bytes()
    assert one == two and one["sha256"] == hashlib.sha256(data).hexdigest()
    assert other["sha256"] != one["sha256"]
    index = json.loads((tmp_path / "one" / INDEX).read_text())
    assert (index["count"], index["bot"], index["seed"], index["rules"]) == (
        4, "heuristic", 9, {"variant": "standard"})
    lines = data.decode().splitlines()
    assert len(lines) == 4
    for line in lines:
        record = from_json(json.loads(line))
        report = check(record)
        assert report["valid"] and all(deal["finished"] for deal in report["deals"])
        assert record.extra["bot"] == "heuristic"


def test_a_bidding_table_data_set(tmp_path: Path) -> None:
    index = make_dataset(preset("italiana5"), "random", games=2, seed=1, out=tmp_path)
    assert index["rules"] == {"variant": "italiana5"}
    for line in (tmp_path / RECORDS).read_text().splitlines():
        assert check(from_json(json.loads(line)))["valid"]


@pytest.mark.parametrize(("games", "bot", "message"), [
    (0, "heuristic", "--games must be a whole number from 1 to 1,000,000"),
    (1_000_001, "heuristic", "--games must be a whole number from 1 to 1,000,000"),
    (2, "nope", "unknown bot 'nope'"),
    (2, "cmd:python bot.py", "not cmd: programs"),
])
def test_bad_requests_are_refused_before_anything_is_played(
        tmp_path: Path, games: int, bot: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_dataset(STANDARD, bot, games=games, seed=0, out=tmp_path / "x")
    assert not (tmp_path / "x").exists()


def test_the_command(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["dataset", "--games", "2", "--bot", "random", "--seed", "3",
                                 "--out", str(tmp_path), "--rules", "brazil"])
    assert result.exit_code == 0, result.output
    assert f"2 records in {tmp_path / RECORDS}" in result.output
    assert json.loads((tmp_path / INDEX).read_text())["rules"] == {"variant": "brazil"}
    (tmp_path / "file").write_text("")
    result = runner.invoke(app, ["dataset", "--games", "2", "--bot", "random",
                                 "--out", str(tmp_path / "file")])
    assert result.exit_code == 2 and "cannot make the folder" in result.output
