"""The arena plays whole matches (``sueca arena --matches N``): duplicate pairs of matches,
the same deal sequence with the teams swapped, reported as the match win rate with its
interval beside the card-point margin and the game points per deal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sueca.arena.play import play_match_board
from sueca.arena.tournament import run_arena
from sueca.cli import app
from sueca.record import check, read
from sueca.rules import STANDARD, preset


def test_a_match_board_plays_the_same_deals_with_the_teams_swapped(tmp_path: Path) -> None:
    board = play_match_board(STANDARD, "heuristic", "random", index=2, seed=5,
                             records_dir=tmp_path)
    assert len(board.match_wins) == 2 and set(board.match_wins) <= {0.0, 1.0}
    first, second = (read(tmp_path / f"match00002{side}.json") for side in "ab")
    for record in (first, second):
        check(record)
    assert first.first_dealer == second.first_dealer == 2
    assert board.match_deals == (len(first.deals), len(second.deals))
    # The deal sequence is the match's, whoever sits where: deal k is dealt alike in both.
    for a, b in zip(first.deals, second.deals, strict=False):
        assert a.hands == b.hands
    assert first.extra["seats"] != second.extra["seats"]
    again = play_match_board(STANDARD, "heuristic", "random", index=2, seed=5)
    assert again == board


def test_the_arena_reports_match_win_rate_margin_and_game_points() -> None:
    result = run_arena(STANDARD, ["heuristic", "random"], deals=1, seed=1, workers=1,
                       matches=6)
    pair = result.to_json()["pairs"][0]  # type: ignore[index]
    assert pair["duplicate"] == "whole matches"
    matches = pair["matches"]
    assert matches["played"] == 12 and matches["won"]["a"] + matches["won"]["b"] == 12
    lo, hi = matches["ci95"]
    assert 0 <= lo <= matches["win_rate"] <= hi <= 1
    assert matches["win_rate"] > 0.5  # the heuristic beats random cards
    assert pair["margin"] > 0 and pair["game_points"]["margin"] > 0
    assert pair["deals"] >= 12 * 1
    text = str(result)
    assert "win rate" in text and "game points per deal" in text
    # Three bots: Elo counted from the pairs of matches.
    three = run_arena(STANDARD, ["heuristic", "random", "heuristic+signals"], deals=1,
                      seed=1, workers=1, matches=2)
    assert set(three.ratings) == {"heuristic", "random", "heuristic+signals"}


def test_matches_are_refused_where_there_is_no_game_scored_match() -> None:
    for name in ("pontos", "italiana5"):
        with pytest.raises(ValueError, match="--matches"):
            run_arena(preset(name), ["heuristic", "random"], deals=1, workers=1, matches=1)


def test_cli_arena_matches_json() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["arena", "--bots", "heuristic,random", "--matches", "2",
                                 "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    pair = data["pairs"][0]
    assert data["match_pairs_planned"] == 2
    assert {"matches", "margin", "game_points"} <= set(pair)
    bad = runner.invoke(app, ["arena", "--bots", "heuristic,random", "--matches", "0"])
    assert bad.exit_code != 0 and "--matches" in bad.output


def test_deals_report_what_each_deal_is_worth_in_games(tmp_path: Path) -> None:
    from sueca.arena.play import play_board

    board = play_board(STANDARD, "heuristic", "random", index=3, seed=2, records_dir=tmp_path)
    for swap, side in enumerate("ab"):
        deal = check(read(tmp_path / f"deal00003{side}.json"))["deals"][0]
        a_points = deal["points"][swap]  # A holds team 0 in the first play, team 1 in the second
        # 61, 91, all 120: 1, 2, 4 games; a 60-60 tie none to either side.
        games = 4 if a_points == 120 else 2 if a_points >= 91 else 1 if a_points >= 61 else 0
        other = 120 - a_points
        b_games = 4 if other == 120 else 2 if other >= 91 else 1 if other >= 61 else 0
        assert (board.a_game[swap], board.b_game[swap]) == (games, b_games)
    # What a match makes of a deal's games is not the deal's worth: under rolha a 91 at 0-0
    # takes nothing from the losers, yet the deal is worth two games, as at any table.
    rolha = play_board(STANDARD.replace(rolha=True), "heuristic", "random", index=3, seed=2)
    assert (rolha.a_game, rolha.b_game) == (board.a_game, board.b_game)
    result = run_arena(STANDARD, ["heuristic", "random"], deals=30, seed=1, workers=1)
    pair = result.to_json()["pairs"][0]  # type: ignore[index]
    games = pair["game_points"]
    assert games["a"] > games["b"] and games["margin"] > 0
    lo, hi = games["ci95"]
    assert lo <= games["margin"] <= hi
    assert "game points per deal" in str(result)
    # Sueca de Pontos has no games: the card points are the score.
    pontos = run_arena(preset("pontos"), ["heuristic", "random"], deals=2, seed=1, workers=1)
    assert "game_points" not in pontos.to_json()["pairs"][0]  # type: ignore[index]
