"""Draw docs/terminal.svg: a moment of a real match at the table, exported by Rich.

    python -m sueca.terminal.screenshot docs/terminal.svg [--text]

The match is seed 11, you against three heuristic bots with hints on, in Portuguese; the
picture is the first moment of the second deal with two cards on the cloth, the turned trump
still beside the dealer and at least three cards you may play.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

from sueca.rules import STANDARD
from sueca.terminal.i18n import language
from sueca.terminal.render import RichScreen
from sueca.terminal.setup import Setup, make_seats
from sueca.terminal.table import Table
from sueca.terminal.view import TableView

SEED = 11
WIDTH = 96


def capture(width: int = WIDTH) -> Console:
    """A recording console holding the one screen chosen (see the module docstring)."""
    lang = language("pt")
    console = Console(record=True, width=width, file=io.StringIO(), force_terminal=True)
    screen = RichScreen(lang, console)
    chosen: list[Console] = []
    draw = screen.show

    def show(view: TableView) -> None:
        if chosen:
            return
        console.export_text(clear=True)  # keep only the latest screen in the recording
        draw(view)
        info = view.info
        if (view.acting == 0 and view.deal_number == 2 and len(info.trick) >= 2
                and info.trump_card_held and info.dealer != 0 and len(view.choices) >= 3
                and info.trick_number >= 2):
            # The player takes the hint: its number among the cards that may be played.
            answer = view.choices.index(view.hint[0]) + 1 if view.hint else 1
            console.print(lang.text("prompt") + str(answer), end="")
            chosen.append(console)

    screen.show = show  # type: ignore[method-assign]
    screen.ask = lambda prompt: None if chosen else "1"  # type: ignore[method-assign]
    screen.pause = lambda seconds: None  # type: ignore[method-assign]
    screen.close = lambda: None  # type: ignore[method-assign]
    setup = Setup(STANDARD, make_seats(STANDARD, [0], "heuristic"), SEED, Path(), lang,
                  hints=True, fast=True)
    table = Table(setup, screen)
    table.save = lambda: None  # type: ignore[method-assign]  # a picture, not a match to keep
    table.run()
    if not chosen:
        raise RuntimeError("the match never reached the moment to draw")
    return console


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit("usage: python -m sueca.terminal.screenshot FILE.svg [--text]")
    console = capture()
    if "--text" in argv:
        sys.stdout.write(console.export_text(clear=False))
    Path(argv[0]).write_text(console.export_svg(title="sueca play"), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
