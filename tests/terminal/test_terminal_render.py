"""Drawing the table: the Rich screen and the plain one, from a table view."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest
from rich.console import Console
from terminal_scripting import Scripted, always, make_table

from sueca.cards import card_symbol, mask_cards
from sueca.rules import STANDARD
from sueca.terminal.i18n import language
from sueca.terminal.render import PlainScreen, RichScreen, plain_table, render_table, seat_position
from sueca.terminal.setup import Setup, make_seats
from sueca.terminal.table import Outcome, Table
from sueca.terminal.view import TableView

PT = language("pt")


def first_turn(tmp_path: Path, **options: object) -> TableView:
    """The first view in which the human chooses a card."""
    table, screen = make_table(tmp_path, always("q"), **options)  # type: ignore[arg-type]
    screen.answer = lambda s, prompt: None  # stop at the first prompt
    table.run()
    return next(v for v in screen.views if v.acting is not None)


def draw(view: TableView, lang: str = "pt", log: tuple[str, ...] = ()) -> str:
    console = Console(record=True, width=100, file=io.StringIO())
    console.print(render_table(view, language(lang), log))
    return console.export_text()


def test_the_rich_table_shows_hand_trump_cloth_and_score_sheet(tmp_path: Path) -> None:
    view = first_turn(tmp_path, lang="pt")
    text = draw(view, log=("Jogador 1 joga 7♥",))
    assert "As tuas cartas" in text
    assert "Nós" in text and "Eles" in text and "partida a 4" in text
    assert f"trunfo: {PT.suit_label(view.info.trump)}" in text
    assert "★ trunfo" in text  # the trump suit marked in the hand
    for card in mask_cards(view.info.hand):
        assert card_symbol(card) in text
    for number, card in enumerate(view.choices, start=1):
        assert f"{number} {card_symbol(card)}" in text
    for card in view.info.trick:
        assert card_symbol(card) in text
    assert "Jogador 1 joga 7♥" in text
    if view.info.trump_card_held:
        assert card_symbol(view.info.trump_card) in text


def test_the_rich_table_hides_the_hand_between_hot_seat_turns(tmp_path: Path) -> None:
    view = first_turn(tmp_path)
    public = dataclasses.replace(view.info, hand=0, known=(0,) * 4)
    text = draw(dataclasses.replace(view, info=public, hidden=True, acting=None))
    assert "(escondidas)" in text
    on_table = set(view.info.trick) | {view.info.trump_card}
    for card in mask_cards(view.info.hand):
        if card not in on_table:
            assert card_symbol(card) not in text


def test_seats_sit_in_portuguese_order() -> None:
    class FakeRules:
        players = 4
        direction = "counterclockwise"

    class FakeInfo:
        rules = FakeRules()

    class FakeView:
        info = FakeInfo()
        bottom = 0

    view = FakeView()
    # Play passes to the right: the next player sits on the viewer's right.
    assert [seat_position(view, s) for s in range(4)] == ["bottom", "right", "top", "left"]  # type: ignore[arg-type]
    FakeRules.direction = "clockwise"
    assert [seat_position(view, s) for s in range(4)] == ["bottom", "left", "top", "right"]  # type: ignore[arg-type]
    view.bottom = 2
    assert seat_position(view, 2) == "bottom" and seat_position(view, 0) == "top"  # type: ignore[arg-type]


def test_plain_table_lists_the_face_up_hands(tmp_path: Path) -> None:
    view = first_turn(tmp_path, lang="en", rules=STANDARD.replace(open_hands=True))
    text = "\n".join(plain_table(view, language("en")))
    for seat in (2, 3, 4):  # the other three, counted from 1 as people count
        assert f"Player {seat}: " in text
    assert "Player 1: " not in text  # seat 1 is the viewer's own: "Your cards"
    assert "Your cards: " in text and "1:" in text


@pytest.mark.parametrize("lang", ["pt"])
def test_a_whole_match_on_the_rich_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          lang: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=True)
    rules = STANDARD.replace(match_target=1)
    setup = Setup(rules, make_seats(rules, [0], "heuristic"), 3, tmp_path / "m.json",
                  language(lang), fast=True)
    result = Table(setup, RichScreen(language(lang), console)).run()
    assert result.outcome is Outcome.FINISHED
    assert str(result.path) in out.getvalue().replace("\n", "")


def test_the_plain_screen_echoes_answers_and_prints_the_table_once_per_turn() -> None:
    screen = PlainScreen(language("en"), io.StringIO("7h\n"), io.StringIO())
    assert screen.ask("Your card: ") == "7h"
    assert screen.ask("Your card: ") is None
    assert screen.stdout.getvalue() == "Your card: 7h\nYour card: \n"  # type: ignore[attr-defined]


def test_scripted_screen_never_pauses_in_fast_mode(tmp_path: Path) -> None:
    table, screen = make_table(tmp_path, always("1"), rules=STANDARD.replace(match_target=1))
    assert isinstance(screen, Scripted)
    assert table.run().outcome is Outcome.FINISHED  # Scripted.pause would raise


def test_the_documentation_screenshot_can_be_drawn_again() -> None:
    from sueca.terminal.screenshot import capture

    text = capture().export_text(clear=False)
    assert "Sugestão:" in text and "As tuas cartas" in text and "Folha" in text
