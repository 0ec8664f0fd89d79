"""Issue 17, item 13: at a Portuguese table a card is typed as the Portuguese web page shows it
(``Rp``, ``Vc``, ``Do``) or said in words (``7 de paus``, ``rei de copas``), besides the
record's notation; in English, ``king of hearts``."""

from __future__ import annotations

from pathlib import Path

import pytest
from terminal_scripting import Scripted, make_table

from sueca.cards import card_rank, card_suit, parse_card
from sueca.rules import Rules
from sueca.terminal.i18n import LANGUAGES
from sueca.terminal.input import ChoiceError, parse_choice, parse_spoken_card

PT = LANGUAGES["pt"]


@pytest.mark.parametrize(("typed", "card"), [
    ("Rp", "KC"), ("vc", "JH"), ("Do", "QD"), ("Ae", "AS"), ("7p", "7C"),
    ("7 de paus", "7C"), ("rei de copas", "KH"), ("Ás de espadas", "AS"), ("as de ouros", "AD"),
    ("sete de copas", "7H"), ("manilha de paus", "7C"), ("dama de espadas", "QS"),
    ("  VALETE  DE  OUROS ", "JD"), ("2 de copa", "2H"),
])
def test_portuguese_letters_and_words(typed: str, card: str) -> None:
    assert parse_choice(typed, (), PT) == parse_card(card)
    assert parse_choice(typed, (), LANGUAGES["pt-BR"]) == parse_card(card)


def test_the_record_notation_still_reads_first_and_english_words_read_in_english() -> None:
    assert parse_choice("7c", (), PT) == parse_card("7C")  # clubs, as records write it
    assert parse_choice("KS", (), PT) == parse_card("KS")
    assert parse_spoken_card("king of hearts", LANGUAGES["en"]) == parse_card("KH")
    assert parse_spoken_card("rei de copas", LANGUAGES["en"]) is None
    for nonsense in ("Xp", "rei de nada", "de paus", "7 de", "Rp Rp", ""):
        with pytest.raises(ChoiceError, match="não é uma carta"):
            parse_choice(nonsense, (), PT)


def test_a_portuguese_player_plays_a_deal_typing_cards_in_words(tmp_path: Path) -> None:
    said = [0]

    def in_words(screen: Scripted, prompt: str) -> str:
        legal = screen.views[-1].legal
        if not legal:
            return ""  # between deals: carry on
        card = legal[-1]
        said[0] += 1
        if said[0] % 2:  # a word for the rank and the suit's name
            return f"{PT.ranks[card_rank(card)].lower()} de {PT.suits[card_suit(card)]}"
        return PT.rank_letters[card_rank(card)] + PT.suit_letters[card_suit(card)].lower()

    rules = Rules.from_dict({"variant": "standard", "match_target": 1})
    table, screen = make_table(tmp_path, in_words, rules=rules, lang="pt")
    result = table.run()
    assert said[0] >= 10 and not any("não é uma carta" in text for text in screen.said)
    assert result is not None and not any("assistir" in text for text in screen.said)
