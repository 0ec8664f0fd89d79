"""A scripted screen for the terminal table: it keeps every view it is shown, everything said
and every prompt, and answers each prompt from a script function. (Imported by the terminal
tests; pytest puts this folder on the path.)"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sueca.rules import STANDARD, Rules
from sueca.terminal.i18n import language
from sueca.terminal.setup import Setup, make_seats
from sueca.terminal.table import Table
from sueca.terminal.view import TableView

Answer = Callable[["Scripted", str], str | None]


@dataclass
class Scripted:
    """A :class:`~sueca.terminal.view.Screen` driven by ``answer(screen, prompt)``.

    ``events`` interleaves what happened, in order: ``("show", view)``, ``("say", text)``,
    ``("ask", prompt)``, ``("hide", None)``."""

    answer: Answer
    interactive: bool = False
    events: list[tuple[str, object]] = field(default_factory=list)

    @property
    def views(self) -> list[TableView]:
        return [v for kind, v in self.events if kind == "show" and isinstance(v, TableView)]

    @property
    def said(self) -> list[str]:
        return [str(v) for kind, v in self.events if kind == "say"]

    @property
    def prompts(self) -> list[str]:
        return [str(v) for kind, v in self.events if kind == "ask"]

    @property
    def last_view(self) -> TableView:
        return self.views[-1]

    def show(self, view: TableView) -> None:
        self.events.append(("show", view))

    def say(self, text: str) -> None:
        self.events.append(("say", text))

    def ask(self, prompt: str) -> str | None:
        self.events.append(("ask", prompt))
        return self.answer(self, prompt)

    def hide(self) -> None:
        self.events.append(("hide", None))

    def pause(self, seconds: float) -> None:
        raise AssertionError("a --fast table must not pause")

    def close(self) -> None:
        self.events.append(("close", None))


def always(text: str) -> Answer:
    return lambda screen, prompt: text


def lines(items: Iterable[str | None], then: str | None = "1") -> Answer:
    """Answer with ``items`` in turn, then ``then`` for ever."""
    queue = list(items)

    def answer(screen: Scripted, prompt: str) -> str | None:
        return queue.pop(0) if queue else then

    return answer


def make_table(tmp_path: Path, answer: Answer, rules: Rules = STANDARD,
               humans: Iterable[int] = (0,), bots: str = "heuristic", seed: int = 3,
               lang: str = "en", hints: bool = False, name: str = "match.json"
               ) -> tuple[Table, Scripted]:
    screen = Scripted(answer)
    setup = Setup(rules, make_seats(rules, list(humans), bots), seed, tmp_path / name,
                  language(lang), hints=hints, fast=True)
    return Table(setup, screen), screen
