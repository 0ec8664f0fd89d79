"""Issue 17, item 13: seats are numbered from 1 wherever a person reads or types them — ``sueca
play``, ``replay``, ``deal``, ``check``, ``solve``, ``review`` and their errors — as on the web
and in ``sueca watch``; records and ``--json`` keep the engine's seats, from 0 (RECORD.md). The
old numbering's seat 0 is refused with a message saying so (docs/terminal.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sueca.cli import app

runner = CliRunner()
SHORT = ["--set", "match_target=1"]


def invoke(args: list[str], stdin: str = "", home: Path | None = None) -> tuple[int, str]:
    env = {"COLUMNS": "200"} if home is None else {"COLUMNS": "200", "XDG_DATA_HOME": str(home)}
    result = runner.invoke(app, args, input=stdin, env=env)
    return result.exit_code, result.output


# ---- sueca deal ----------------------------------------------------------------------------


def test_deal_names_seats_and_teams_from_one_and_the_record_keeps_zero() -> None:
    code, text = invoke(["deal", "--seed", "3"])
    assert code == 0
    assert "dealer seat 1," in text  # the default dealer is the first seat
    assert [int(s) for s in re.findall(r"^  seat (\d)", text, re.M)] == [1, 2, 3, 4]
    assert "seat 1 (team 1)" in text and "seat 2 (team 2)" in text
    assert "seat 3 (team 1)" in text and "seat 4 (team 2)" in text
    assert "seat 0" not in text and "team 0" not in text
    code, text = invoke(["deal", "--seed", "3", "--dealer", "4"])
    assert code == 0 and "dealer seat 4," in text
    code, record = invoke(["deal", "--seed", "3", "--dealer", "4", "--json"])
    assert code == 0 and json.loads(record)["deals"][0]["dealer"] == 3
    # Seat 4 of a person is the engine's 3: the same cards as the record's dealer 3.
    code, three = invoke(["deal", "--seed", "3", "--dealer", "3", "--json"])
    assert json.loads(three)["deals"][0]["dealer"] == 2


@pytest.mark.parametrize(("dealer", "words"), [
    ("0", "--dealer counts seats from 1 (1 to 4), as the tables show them: 0 is no seat"),
    ("5", "--dealer takes seats from 1 to 4, not 5"),
])
def test_deal_refuses_seat_0_and_seats_past_the_table(dealer: str, words: str) -> None:
    result = runner.invoke(app, ["deal", "--dealer", dealer])
    assert result.exit_code == 2
    assert words in " ".join(result.stderr.split())
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_a_double_deck_deal_numbers_its_eight_seats_from_one() -> None:
    code, text = invoke(["deal", "--rules", "double8", "--dealer", "8"])
    assert code == 0
    assert "dealer seat 8," in text
    assert [int(s) for s in re.findall(r"^  seat (\d)", text, re.M)] == list(range(1, 9))


# ---- sueca check and sueca solve -----------------------------------------------------------


def test_check_and_solve_count_seats_and_teams_from_one(tmp_path: Path) -> None:
    whole = tmp_path / "match.json"
    assert runner.invoke(app, ["watch", "--seed", "3", "--save", str(whole)]).exit_code == 0
    _, text = invoke(["check", str(whole)])
    report = json.loads(invoke(["check", "--json", str(whole)])[1])
    winner = report["match"]["winner"]  # the record's team, from 0
    assert "Match score (team 1 – team 2)" in text
    assert f"won by team {winner + 1}" in text
    record = json.loads(whole.read_text(encoding="utf-8"))
    record["deals"][-1]["plays"] = record["deals"][-1]["plays"][:5]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(record), encoding="utf-8")
    _, solved = invoke(["solve", str(cut)])
    position = json.loads(invoke(["solve", "--json", str(cut)])[1])
    side = position["side_to_move"]  # from 0, as RECORD.md's JSON
    match = re.search(r"seat (\d) \(team (\d)\) to play", solved)
    assert match is not None, solved
    assert int(match.group(2)) == side + 1
    # Five cards played from the deal's leader: the sixth is the second of trick 2.
    assert 1 <= int(match.group(1)) <= 4
    header = next(line for line in solved.splitlines() if "Card" in line)
    assert "Team 1" in header and "Team 2" in header and "Team 0" not in solved
    assert "team 1 takes" in solved and "team 2 takes" in solved


def test_check_of_a_bidding_table_names_the_declarer_partner_and_winner_from_one(
        tmp_path: Path) -> None:
    path = tmp_path / "i5.json"
    assert runner.invoke(app, ["watch", "--rules", "italiana5", "--seed", "2", "--save",
                               str(path)]).exit_code == 0
    _, text = invoke(["check", str(path)])
    report = json.loads(invoke(["check", "--json", str(path)])[1])
    assert "seat 1 first" in text
    winner = report["match"]["winner"]
    assert f"won by seat {winner + 1}" in text
    contracts = [d["contract"] for d in report["deals"] if d.get("contract")]
    assert contracts
    for contract in contracts:
        partner = contract.get("partner")
        tail = f"+ {partner + 1}" if partner is not None else "alone"
        assert re.search(rf"\b{contract['declarer'] + 1}: {contract['bid'] or 61} \S+ "
                         rf"{re.escape(tail)}", text), (contract, text)


# ---- sueca play and sueca replay, in each language --------------------------------------------


@pytest.mark.parametrize(("lang", "player", "passing"), [
    ("en", "Player", "Pass the screen to Player 3"),
    ("pt", "Jogador", "Passa o ecrã a Jogador 3"),
    ("pt-BR", "Jogador", "Passe a tela para Jogador 3"),
])
def test_play_takes_and_shows_seats_from_one(tmp_path: Path, lang: str, player: str,
                                             passing: str) -> None:
    # --humans 1,3: the record's seats 0 and 2, partners; the screen passes to Player 3.
    code, text = invoke(["play", "--seed", "4", "--fast", "--bots", "heuristic", "--lang", lang,
                         "--plain", "--humans", "1,3", *SHORT], stdin="1\n" * 400,
                        home=tmp_path)
    assert code == 0, text
    assert passing in text
    assert f"{player} 0" not in text
    numbers = {int(n) for n in re.findall(rf"{player} (\d)", text)}
    assert numbers == {1, 2, 3, 4}
    [saved] = (tmp_path / "sueca" / "matches").glob("*.json")
    seats = json.loads(saved.read_text(encoding="utf-8"))["seats"]
    assert seats[0] == seats[2] == "human" and "human" not in (seats[1], seats[3])


@pytest.mark.parametrize("humans", ["0", "0,2", "2,0"])
def test_play_refuses_the_old_seat_0_saying_seats_count_from_one(tmp_path: Path,
                                                                 humans: str) -> None:
    result = runner.invoke(app, ["play", "--fast", "--humans", humans],
                           env={"XDG_DATA_HOME": str(tmp_path)})
    assert result.exit_code == 2
    said = " ".join(result.stderr.split())
    assert "--humans counts seats from 1 (1 to 4), as the tables show them: 0 is no seat" in said
    assert not (tmp_path / "sueca" / "matches").exists()  # nothing played, nothing saved


@pytest.mark.parametrize(("lang", "player"), [("en", "Player"), ("pt", "Jogador"),
                                              ("pt-BR", "Jogador")])
def test_replay_names_every_seat_from_one(tmp_path: Path, lang: str, player: str) -> None:
    path = tmp_path / "m.json"
    assert runner.invoke(app, ["watch", "--seed", "5", "--save", str(path)]).exit_code == 0
    code, text = invoke(["replay", str(path), "--lang", lang, "--plain"], stdin="\n\nq\n")
    assert code == 0, text
    for seat in (1, 2, 3, 4):
        assert f"{player} {seat}: " in text  # every hand shown, by its seat from 1
    assert f"{player} 0" not in text


def test_check_counts_the_faulty_deal_and_card_from_one_and_says_whose_numbers_a_reason_uses(
        tmp_path: Path) -> None:
    # Seed 3, dealer 0: seat 1 leads AS; seat 2 holds spades and plays AD instead.
    record = json.loads(invoke(["deal", "--seed", "3", "--json"])[1])
    record["deals"][0]["plays"] = ["AS", "AD"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, text = invoke(["check", str(path)])
    error = json.loads(invoke(["check", "--json", str(path)])[1])["error"]
    assert code == 1 and (error["deal"], error["play"]) == (0, 1)  # RECORD.md's indexes
    assert "seat 2 holds" in error["reason"]  # the engine's words, the record's seat
    line = " ".join(text.split())
    assert "invalid at deal 1, card 2: must follow spades: seat 2 holds" in line
    assert "(seats as the record numbers them, from 0)" in line


# ---- sueca review ----------------------------------------------------------------------------

FIXTURES = Path(__file__).parents[1] / "fixtures"


@pytest.mark.parametrize(("lang", "title"), [
    ("pt", "Mão 1, Jogador 2 (equipa 2)"),
    ("pt-BR", "Mão 1, Jogador 2 (time 2)"),
    ("en", "Deal 1, Player 2 (team 2)"),
])
def test_review_takes_and_names_seats_from_one(tmp_path: Path, lang: str, title: str) -> None:
    graph = tmp_path / "g.svg"
    code, text = invoke(["review", str(FIXTURES / "review_blunder.json"), "--seat", "2",
                         "--lang", lang, "--max-worlds", "6", "--svg", str(graph)])
    assert code == 0, text
    assert title in text
    assert "Jogador 0" not in text and "Player 0" not in text
    assert graph.read_text(encoding="utf-8").startswith("<svg")
    code, document = invoke(["review", str(FIXTURES / "review_blunder.json"), "--seat", "2",
                             "--lang", lang, "--max-worlds", "6", "--json"])
    assert [r["seat"] for r in json.loads(document)["reviews"]] == [1]  # the record's seat


def test_reviews_graphs_are_named_by_seats_from_one(tmp_path: Path) -> None:
    graph = tmp_path / "g.svg"
    code, text = invoke(["review", str(FIXTURES / "review_blunder.json"), "--lang", "en",
                         "--max-worlds", "6", "--svg", str(graph)])
    assert code == 0, text
    assert sorted(p.name for p in tmp_path.glob("g-*.svg")) == [
        f"g-deal1-seat{seat}.svg" for seat in (1, 2, 3, 4)]
