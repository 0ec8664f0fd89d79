"""Issue 17, item 13: ``sueca watch --lang``, all in one language, seats numbered from 1."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from sueca.cli import app


def test_watch_in_portuguese_says_everything_in_portuguese_with_seats_from_one() -> None:
    result = CliRunner().invoke(app, ["watch", "--seed", "7", "--lang", "pt"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Mão 1: o lugar" in text and "vaza  1" in text and "ganha a partida" in text
    for english in ("Deal", "trick", "seat", "takes", "wins", "match"):
        assert english not in text, english
    seats = {int(s) for s in re.findall(r"(\d):[2-7AKQJ][♠♥♦♣]", text)}
    assert seats == {1, 2, 3, 4}


def test_watch_in_english_numbers_seats_from_one_and_refuses_an_unknown_language() -> None:
    text = CliRunner().invoke(app, ["watch", "--seed", "7"]).output
    assert "Nós" not in text and "Eles" not in text and "seat 0" not in text
    assert re.search(r"Team [12] \(seats (1 and 3|2 and 4)\) wins the match", text)
    refused = CliRunner().invoke(app, ["watch", "--seed", "7", "--lang", "xx"])
    assert refused.exit_code == 2 and "Deal" not in refused.output  # (said on stderr)
