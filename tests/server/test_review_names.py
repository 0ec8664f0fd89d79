"""The review's reasons name a seat nobody named in the reader's language, never "Seat 2"."""

from __future__ import annotations

import pytest

from sueca.review.facts import Fact
from sueca.server.reviews import people_named
from sueca.terminal.i18n import language


def test_the_tables_stand_in_names_are_left_to_the_language() -> None:
    assert people_named(["Ana", "Seat 2", "Rita", "Dummy"]) == ["Ana", "", "Rita", ""]
    assert people_named(["Seat 24 fan"]) == ["Seat 24 fan"]  # a name a person chose
    assert people_named([]) is None


@pytest.mark.parametrize(("code", "seat_word"), [("pt", "Jogador 2"), ("pt-BR", "Jogador 2"),
                                                 ("en", "Player 2")])
def test_a_reason_names_an_unnamed_seat_in_its_language(code: str, seat_word: str) -> None:
    lang = language(code)
    names = people_named(["Ana", "Seat 2", "Rita", "Vasco"])
    void = Fact("opponent_void", suit=0, seat=1)
    reason = lang.facts([void, Fact("opponent_void", suit=1, seat=0)], past=True, names=names)
    assert "Seat" not in reason if code != "en" else "Seat 2" not in reason
    assert seat_word in reason and "Ana" in reason
