"""The table's words: every language has every message, with the same placeholders."""

from __future__ import annotations

import string

import pytest

from sueca.cards import parse_card
from sueca.terminal.i18n import LANGUAGES, language


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_language_has_every_message_with_the_same_placeholders() -> None:
    english = LANGUAGES["en"].messages
    for code, lang in LANGUAGES.items():
        assert set(lang.messages) == set(english), code
        for key, text in lang.messages.items():
            assert placeholders(text) == placeholders(english[key]), (code, key)


@pytest.mark.parametrize(
    ("code", "card", "long"),
    [
        ("pt", "AH", "Ás de copas"),
        ("pt", "7S", "Manilha de espadas"),
        ("pt", "KD", "Rei de ouros"),
        ("pt", "JC", "Valete de paus"),
        ("pt", "QH", "Dama de copas"),
        ("pt-BR", "7S", "Sete de espadas"),
        ("en", "QC", "queen of clubs"),
    ],
)
def test_cards_are_spelled_out_in_each_language(code: str, card: str, long: str) -> None:
    assert language(code).card_long(parse_card(card)) == long


def test_the_short_form_uses_the_record_letters_and_the_suit_symbol() -> None:
    assert language("pt").card(parse_card("7h")) == "7♥"


def test_portuguese_suit_names() -> None:
    assert [language("pt").suit(s) for s in range(4)] == ["espadas", "copas", "ouros", "paus"]


def test_lists_join_with_the_language_conjunction() -> None:
    assert language("pt").and_list(["A♠", "7♠", "2♠"]) == "A♠, 7♠ e 2♠"
    assert language("en").and_list(["7♥", "2♥"]) == "7♥ and 2♥"
    assert language("en").and_list(["7♥"]) == "7♥"


def test_language_codes_are_case_insensitive_and_unknown_ones_refused() -> None:
    assert language("PT-br").code == "pt-BR"
    assert language("pt_BR").code == "pt-BR"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        language("fr")


def test_the_heuristic_bots_reasons_are_translated() -> None:
    import inspect
    import re

    from sueca.bots import heuristic

    source = inspect.getsource(heuristic)
    reasons = set(re.findall(r'return [^\n]*?, "([^"]+)"', source))
    assert len(reasons) >= 10
    for code in ("pt", "pt-BR"):
        lang = language(code)
        for reason in reasons:
            assert lang.reason(reason) != reason, (code, reason)
    assert language("en").reason("the only legal card") == "the only legal card"


def test_reasons_are_translated_part_by_part_and_unknown_parts_kept() -> None:
    pt = language("pt")
    assert pt.reason("the only legal card; echo to partner") == (
        "a única carta que podes jogar; sinal ao parceiro"
    )
    assert pt.reason("something new") == "something new"
    assert pt.reason("ismcts: 7H chosen in 500 of 1000 simulations, expecting about 70 "
                     "points for our side") == (
        "ismcts: 7H escolhida em 500 de 1000 simulações, à espera de uns 70 pontos para o "
        "nosso lado"
    )


def test_the_pimc_bots_reason_is_translated_with_its_numbers() -> None:
    reason = ("pimc: 5C averages 69.9 points for our side over 32 sampled deals played out by "
              "the heuristic from each card")
    assert language("pt").reason(reason) == (
        "pimc: 5C dá em média 69.9 pontos ao nosso lado em 32 mãos sorteadas jogadas até ao fim "
        "pela heurística a partir de cada carta")
    solved = reason.replace("played out by the heuristic from each card", "solved double-dummy")
    assert language("pt-BR").reason(solved).endswith("resolvidas com as cartas todas à vista")
    assert language("en").reason(reason) == reason
