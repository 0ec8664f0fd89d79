"""Issue 17, item 13: ``sueca check`` and ``sueca solve`` tables have no empty, unlabelled
column: the notes column is labelled and shown only where a deal has a note, the solver's
last column says what it holds."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sueca.cli import app


def test_check_and_solve_label_every_column(tmp_path: Path) -> None:
    runner = CliRunner()
    whole = tmp_path / "match.json"
    assert runner.invoke(app, ["watch", "--seed", "3", "--save", str(whole)]).exit_code == 0
    text = runner.invoke(app, ["check", str(whole)]).output
    header = next(line for line in text.splitlines() if "Deal" in line)
    assert "┃  ┃" not in header and "Notes" not in header  # nothing to note: no column
    record = json.loads(whole.read_text(encoding="utf-8"))
    record["deals"][-1]["plays"] = record["deals"][-1]["plays"][:5]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(record), encoding="utf-8")
    text = runner.invoke(app, ["check", str(cut)]).output
    assert "Notes" in text and "unfinished" in text
    solved = runner.invoke(app, ["solve", str(cut)])
    assert solved.exit_code == 0, solved.output
    header = next(line for line in solved.output.splitlines() if "Card" in line)
    assert "vs best" in header and "┃  ┃" not in header
