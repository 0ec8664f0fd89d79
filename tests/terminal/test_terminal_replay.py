"""``sueca replay``: a saved record, trick by trick, every hand face up."""

from __future__ import annotations

from pathlib import Path

import pytest
from terminal_scripting import Scripted, always, lines, make_table
from typer.testing import CliRunner

from sueca.cards import parse_card
from sueca.cli import app
from sueca.record import read, replay
from sueca.rules import STANDARD
from sueca.terminal.i18n import language
from sueca.terminal.replay import positions, step_through
from sueca.terminal.setup import SetupError

EN = language("en")


@pytest.fixture
def record_path(tmp_path: Path) -> Path:
    table, _ = make_table(tmp_path, always("1"), rules=STANDARD.replace(match_target=3))
    table.run()
    return table.setup.path


def test_every_deal_as_dealt_then_after_each_trick(record_path: Path) -> None:
    states = replay(read(str(record_path))).states
    steps = positions(states)
    assert len(steps) == 11 * len(states)
    assert (steps[0].deal, steps[0].tricks) == (0, 0)
    assert (steps[11].deal, steps[11].tricks) == (1, 0)


def test_stepping_forward_to_the_end_shows_all_hands(record_path: Path) -> None:
    record = read(str(record_path))
    screen = Scripted(always(""))
    shown = step_through(record, screen, EN)
    deals = len(record.deals)
    assert shown == 11 * deals
    assert screen.said[-1] == EN.text("replay_end")
    for index, view in enumerate(screen.views):
        info = view.info
        tricks = index % 11
        assert view.review and view.acting is None
        assert view.deal_number == index // 11 + 1
        assert info.trick_number == tricks
        for seat in range(4):
            assert info.hand_sizes[seat] == 10 - tricks
            assert info.known[seat].bit_count() == 10 - tricks  # face up
    last = screen.views[-1]
    assert last.score == tuple(replay(record).match.score)
    assert screen.views[0].score == (0, 0)


def test_back_and_quit(record_path: Path) -> None:
    screen = Scripted(lines(["", "", "b", "b", "b", "", "q"]))
    step_through(read(str(record_path)), screen, EN)
    assert [v.info.trick_number for v in screen.views] == [0, 1, 2, 1, 0, 0, 1]


def test_the_end_of_input_stops_the_replay(record_path: Path) -> None:
    screen = Scripted(lines([""], then=None))
    assert step_through(read(str(record_path)), screen, EN) == 2


def test_a_record_with_no_deal_cannot_be_replayed(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text('{"rules": {"variant": "standard"}, "deals": []}', encoding="utf-8")
    with pytest.raises(SetupError, match="nothing to replay"):
        step_through(read(str(path)), Scripted(always("")), EN)


# ---- renúncia ---------------------------------------------------------------------------------

RENUNCIA = STANDARD.replace(renuncia=True, match_target=3)


def test_a_deal_ended_by_a_proven_cry_shows_its_last_card_then_the_cry(tmp_path: Path) -> None:
    """Seed 1: the person trumps a diamond lead while holding diamonds (a revoke), then leads
    the diamond he denied; Player 2 (seat 1 of the record) proves it. The replay showed the
    first trick as the deal's end, with the penalty already on the score: now the card after
    it, then the cry."""
    path = tmp_path / "r.json"
    result = CliRunner().invoke(app, ["play", "--seed", "1", "--fast", "--bots", "heuristic",
                                      "--lang", "en", "--save", str(path), "--set",
                                      "renuncia=true"], input="js\n5d\n")
    assert "Player 2 cries renúncia! Proven" in result.output, result.output
    screen = Scripted(always(""))
    step_through(read(str(path)), screen, EN)
    _, trick, card, cry = screen.views
    assert [len(v.info.plays) for v in screen.views] == [0, 4, 5, 5]
    assert card.info.trick == cry.info.trick == (parse_card("5D"),)
    assert card.message == "Deal 1 of 1, in trick 2 of 10"
    assert card.score == trick.score == (0, 0) and not card.results
    assert cry.message == ("Deal 1 of 1, in trick 2 of 10. Player 2 cries renúncia! Proven: "
                           "the other side revoked, and the deal ends")
    assert cry.score == (0, 4) and len(cry.results) == 1
    assert [d.seat for d in cry.info.denunciations] == [1] and not card.info.denunciations


def test_each_wrong_cry_is_shown_where_it_came(tmp_path: Path) -> None:
    """Seed 4: bots never revoke, so the person's cries are wrong: one at his second card (in
    the middle of a trick), one after the deal's last card. Each is a position of its
    own, said with its outcome; the deal's score counts from the last cry, its penalty in."""
    asked: list[str] = []

    def answer(screen: Scripted, prompt: str) -> str | None:
        if prompt.startswith("The deal is over"):
            asked.append(prompt)
            return "r" if len(asked) == 1 else ""
        if not asked and screen.last_view.info.plays and not table.states[0].denunciations:
            return "r"
        return "1"

    table, _ = make_table(tmp_path, answer, rules=RENUNCIA, seed=4)
    table.run()
    first = table.states[0]
    cries = [(d.after, d.seat, d.correct) for d in first.denunciations]
    assert len(cries) == 2 and cries[1] == (40, 0, False) and cries[0][0] % 4
    steps = [p for p in positions(replay(read(str(table.setup.path))).states) if p.deal == 0]
    after = cries[0][0]
    tricks: list[tuple[int, int | None]] = [(t * 4, None) for t in range(11)]
    assert [(p.cards, p.cry) for p in steps] == (
        [*tricks[:after // 4 + 1], (after, 0), *tricks[after // 4 + 1:], (40, 1)])
    screen = Scripted(always(""))
    step_through(read(str(table.setup.path)), screen, EN)
    views = screen.views[:len(steps)]
    wrong = ("Player 1 cries renúncia! Wrong: nobody on the other side revoked (1 to that "
             "side)")
    middle = views[after // 4 + 1]
    assert middle.message == (f"Deal 1 of {len(table.states)}, in trick {after // 4 + 1} of "
                              f"10. {wrong}")
    assert len(middle.info.trick) == after % 4 and len(middle.info.denunciations) == 1
    assert views[after // 4 + 2].info.denunciations == middle.info.denunciations
    last_card, late = views[-2], views[-1]
    assert last_card.message == f"Deal 1 of {len(table.states)}, after trick 10 of 10"
    assert len(last_card.info.denunciations) == 1 and not last_card.results
    assert late.message == f"Deal 1 of {len(table.states)}, after trick 10 of 10. {wrong}"
    assert len(late.info.denunciations) == 2
    assert late.results == (table.match.results[0],)
    assert late.score == tuple(table.match.results[0].game_points)
