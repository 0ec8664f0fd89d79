"""``sueca review``: a table per deal, the JSON of docs/review.md, the graph, the refusals; and
the review's stop at a renúncia table's first revoke."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from sueca.cli import app
from sueca.deal import deal_cards
from sueca.record import GameRecord, dumps
from sueca.review import review_deal
from sueca.rules import STANDARD
from sueca.state import State

FIXTURES = Path(__file__).parent / "fixtures"
runner = CliRunner()


def test_the_json_names_each_card_lost_and_its_reason_in_the_language_asked() -> None:
    result = runner.invoke(app, ["review", str(FIXTURES / "review_mistake.json"), "--seat", "2",
                                 "--deal", "1", "--json", "--lang", "pt-BR"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["format"] == 1 and document["lang"] == "pt-BR"
    [entry] = document["reviews"]
    nine = next(c for c in entry["cards"] if c["trick"] == 9)
    assert (nine["card"], nine["best"], nine["lost"], nine["label"]) == ("7C", "QC", 10,
                                                                        "mistake")
    assert nine["reason"].startswith("o K♣ ainda não tinha saído")


def test_the_table_and_the_graph(tmp_path: Path) -> None:
    graph = tmp_path / "graph.svg"
    result = runner.invoke(app, ["review", str(FIXTURES / "review_blunder.json"), "--seat", "2",
                                 "--lang", "en", "--svg", str(graph)])
    assert result.exit_code == 0, result.output
    assert "Deal 1, Player 2 (team 2)" in result.output  # seat 1 of the record, from 1
    assert "blunder" in result.output and "Every hand known" in result.output
    svg = graph.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count('class="card-point"') == 10
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")  # nothing fetched


def test_the_table_names_seats_by_the_records_names(tmp_path: Path) -> None:
    # A server's record (the History's download) names its players in a top-level "seats".
    data = json.loads((FIXTURES / "review_blunder.json").read_text(encoding="utf-8"))
    data["seats"] = ["Ana", "Bruno", "Carla", "Duarte"]
    named = tmp_path / "named.json"
    named.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["review", str(named), "--seat", "2", "--lang", "en"],
                           terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "Deal 1, Bruno (Player 2) (team 2)" in result.output


def test_refusals_name_the_problem(tmp_path: Path) -> None:
    record = str(FIXTURES / "review_mistake.json")
    for args, code, words in [
        (["--seat", "5"], 2, "--seat takes seats from 1 to 4, not 5"),
        (["--seat", "0"], 2, "--seat counts seats from 1 (1 to 4)"),
        (["--deal", "2"], 1, "deal 2 is not in the record"),
        (["--deal", "0"], 2, "--deal counts deals from 1 (the first deal is 1), not 0"),
        (["--deal", "-1"], 2, "--deal counts deals from 1"),
        (["--thresholds", "8,3,1"], 2, "--thresholds"),
        (["--max-worlds", "0"], 2, "--max-worlds"),
        (["--lang", "xx"], 2, "unknown language"),
    ]:
        result = runner.invoke(app, ["review", record, *args])
        assert result.exit_code == code and words in result.output, (args, result.output)
    junk = tmp_path / "junk.json"
    junk.write_text("not json", encoding="utf-8")
    result = runner.invoke(app, ["review", str(junk)])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_the_review_stops_at_the_first_revoke(tmp_path: Path) -> None:
    rules = STANDARD.replace(renuncia=True)
    state = State(rules, deal_cards(rules, dealer=0, rng=random.Random(4)))
    revoke_at = None
    while not state.is_finished():
        seat = state.to_play
        legal = state.legal_moves()
        hand = [c for c in range(40) if state.hands[seat] >> c & 1]
        off = [c for c in hand if c not in legal]
        if revoke_at is None and state.trick and off and seat == 1:
            card = off[0]
            revoke_at = len(state.plays)
        else:
            card = legal[0]
        state.play(card, seat)
    assert revoke_at is not None and state.revokes == [revoke_at]
    review = review_deal(state, 1)
    assert review.stopped == "revoke"
    assert all(c.index < revoke_at for c in review.cards)
    assert len(review.double_dummy) == revoke_at + 1
    # The record round trip: the CLI says where it stopped.
    path = tmp_path / "revoke.json"
    path.write_text(dumps(GameRecord.from_states(rules, 0, [state])), encoding="utf-8")
    result = runner.invoke(app, ["review", str(path), "--seat", "2", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "stops at the first revoke" in result.output
