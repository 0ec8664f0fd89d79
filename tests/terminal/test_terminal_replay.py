"""``sueca replay``: a saved record, trick by trick, every hand face up."""

from __future__ import annotations

from pathlib import Path

import pytest
from terminal_scripting import Scripted, always, lines, make_table

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
