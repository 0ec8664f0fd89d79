"""``sueca play`` and ``sueca replay`` from the command line, with piped input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sueca.cli import app
from sueca.record import check, read

CARDS = "1\n" * 2000
SHORT = ["--set", "match_target=1"]  # one deal: where the whole match is not the point


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "data"


def invoke(home: Path, args: list[str], stdin: str = CARDS) -> tuple[int, str]:
    runner = CliRunner()
    result = runner.invoke(app, args, input=stdin, env={"XDG_DATA_HOME": str(home)})
    return result.exit_code, result.output


def saved_matches(home: Path) -> list[Path]:
    return sorted((home / "sueca" / "matches").glob("*.json"))


def test_a_piped_match_ends_with_the_score_and_a_record_sueca_check_accepts(home: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(home), PYTHONIOENCODING="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "sueca.cli", "play", "--seed", "3", "--fast", "--bots",
         "heuristic"],
        input=CARDS, capture_output=True, text=True, encoding="utf-8", env=env, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout.splitlines()
    [path] = saved_matches(home)
    assert out[-1] == f"Registo guardado: {path}"
    assert any(line.startswith(("Ganhámos a partida", "Eles ganharam a partida"))
               for line in out[-3:])
    assert "\x1b[" not in run.stdout  # plain text: no terminal codes
    checked = subprocess.run([sys.executable, "-m", "sueca.cli", "check", "--json", str(path)],
                             capture_output=True, text=True, encoding="utf-8", env=env,
                             timeout=60)
    assert checked.returncode == 0
    assert json.loads(checked.stdout)["match"]["winner"] is not None


@pytest.mark.parametrize(
    ("lang", "prompt", "trump"),
    [("pt", "A tua carta", "trunfo"), ("pt-BR", "Sua carta", "trunfo"),
     ("en", "Your card", "trump")],
)
def test_languages(home: Path, lang: str, prompt: str, trump: str) -> None:
    code, out = invoke(home, ["play", "--seed", "1", "--fast", "--bots", "heuristic",
                              "--lang", lang, *SHORT])
    assert code == 0
    assert prompt in out and trump in out


def test_save_to_a_chosen_file(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    code, out = invoke(home, ["play", "--seed", "2", "--fast", "--bots", "random",
                              "--save", str(path), *SHORT])
    assert code == 0
    assert f"Registo guardado: {path}" in out
    assert check(read(str(path)))["valid"]
    assert saved_matches(home) == []


def test_quit_then_resume_from_the_data_directory(home: Path) -> None:
    code, out = invoke(home, ["play", "--seed", "4", "--fast", "--bots", "heuristic",
                              "--lang", "en"], stdin="1\n" * 10 + "q\ny\n")
    assert code == 0
    assert "To continue: sueca play --resume" in out
    [path] = saved_matches(home)
    assert check(read(str(path)))["deals"][-1]["finished"] is False

    code, out = invoke(home, ["play", "--resume", "--fast", "--bots", "random"])
    assert code == 2
    assert "--bots cannot change a resumed match" in " ".join(out.split())
    code, out = invoke(home, ["play", "--resume", "--fast", "--lang", "en"])
    assert code == 0, out
    assert f"Resuming the match in {path}" in out
    assert saved_matches(home) == [path]
    report = check(read(str(path)))
    assert report["valid"] and report["match"]["winner"] is not None

    code, out = invoke(home, ["play", "--resume", "--fast"])
    assert code == 2  # nothing left to resume


def test_input_ending_early_exits_1_with_the_match_saved(home: Path) -> None:
    code, out = invoke(home, ["play", "--seed", "5", "--fast", "--bots", "heuristic"],
                       stdin="1\n1\n")
    assert code == 1
    assert "A entrada acabou antes da partida" in out
    [path] = saved_matches(home)
    assert check(read(str(path)))["valid"]


def test_open_hands_with_hints(home: Path) -> None:
    code, out = invoke(home, ["play", "--seed", "6", "--fast", "--bots", "heuristic",
                              "--open", "--hints", "--lang", "en", *SHORT])
    assert code == 0
    assert "Hint: " in out
    assert "Player 3: " in out  # the partner's hand (seat 3, as people count), face up
    [path] = saved_matches(home)
    assert read(str(path)).rules == {"variant": "standard", "open_hands": True,
                                     "match_target": 1}


def test_three_players_and_hot_seat(home: Path) -> None:
    code, out = invoke(home, ["play", "--seed", "7", "--fast", "--players", "3",
                              "--humans", "1,2,4", "--lang", "en", *SHORT])
    assert code == 0
    assert "Card for the dummy" in out
    assert "Pass the screen to Player 2" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "5"], "--players takes 4 or 3"),
        (["--players", "3", "--humans", "1,3"], "seat 3 is the dummy"),
        (["--humans", "0,2"], "--humans counts seats from 1 (1 to 4)"),
        (["--lang", "fr"], "unknown language 'fr'"),
        (["--bots", "nobody"], "unknown bot 'nobody'"),
        (["--humans", "7"], "--humans takes seats from 1 to 4"),
        (["--players", "4", "--set", "dummy=1"], "use --players 3"),
        (["--variant", "double8", "--players", "3"], "--players takes 8, not 3"),
        (["--variant", "italiana5", "--players", "4"], "--players takes 5, not 4"),
        (["--variant", "nowhere"], "unknown rules variant 'nowhere'"),
        (["--resume"], "no unfinished match to resume"),
    ],
)
def test_bad_options_are_refused_with_a_reason(home: Path, args: list[str],
                                               message: str) -> None:
    code, out = invoke(home, ["play", "--fast", *args])
    assert code == 2
    assert message in " ".join(out.split())  # the error console wraps long lines


def test_replay_steps_through_a_record(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    invoke(home, ["play", "--seed", "2", "--fast", "--bots", "heuristic", "--save", str(path),
                  "--set", "match_target=2"])
    code, out = invoke(home, ["replay", str(path), "--lang", "en"], stdin="\n\nb\nq\n")
    assert code == 0
    assert "Deal 1 of" in out and "the cards as dealt" in out
    assert "after trick 2 of 10" in out
    for seat in (1, 2, 3, 4):
        assert f"Player {seat}: " in out  # every hand shown, seats counted from 1
    assert "Player 0" not in out
    assert out.count("after trick 1 of 10") == 2  # once forward, once back


def test_replay_refuses_what_is_not_a_record(tmp_path: Path, home: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("[]", encoding="utf-8")
    code, out = invoke(home, ["replay", str(path)])
    assert code == 2 and "a record must be a JSON object" in " ".join(out.split())


def test_every_table_is_named_in_the_help(home: Path) -> None:
    code, out = invoke(home, ["play", "--help"])
    assert code == 0
    text = " ".join(out.split())
    for name in ("--variant", "double8", "double6", "italiana5", "--players", "3 at a table"):
        assert name in text


@pytest.mark.parametrize("variant", ["double8", "double6"])
def test_a_double_deck_match_from_the_command_line(home: Path, variant: str) -> None:
    code, out = invoke(home, ["play", "--variant", variant, "--seed", "1", "--fast", "--bots",
                              "heuristic", "--lang", "en", *SHORT])
    assert code == 0, out
    [path] = saved_matches(home)
    record = read(str(path))
    assert check(record)["valid"]
    assert record.extra["seats"][0] == "human"
    players = 8 if variant == "double8" else 6
    assert f"Player {players} (" in out  # the seat row of the plain table: seats from 1


def test_an_italiana_match_from_the_command_line_then_its_replay(home: Path,
                                                                 tmp_path: Path) -> None:
    path = tmp_path / "i5.json"
    # Pass; AH (the call, should every seat pass and leave the dealing human to call; else
    # a card, played or refused); then the first legal card at every prompt.
    code, out = invoke(home, ["play", "--variant", "italiana5", "--seed", "3", "--fast",
                              "--bots", "heuristic", "--lang", "en", "--save", str(path),
                              *SHORT], stdin="0\nAH\n" + "1\n" * 200)
    assert "Your bid (61–120, or 0 to pass" in out
    assert "Bids: " in out and "Contract: " in out
    assert check(read(str(path)))["valid"]
    assert code in (0, 1)  # the match may outlast the input: it is saved either way
    code, out = invoke(home, ["replay", str(path), "--lang", "en"], stdin="\n\nq\n")
    assert code == 0
    assert "Bids: " in out and "Contract: " in out and "partner: " in out
