"""Reading a line typed at the table: a card or its number, a bid, a redeal answer, a command;
and the referee's refusals phrased for the player.

Nothing here decides what may be played: a line becomes an action (or a command), the referee
takes it or refuses it, and :func:`refusal` says the referee's reason in the player's words.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Final

from sueca.actions import AskCard
from sueca.auction import PASS
from sueca.cards import (
    Card,
    CardMask,
    CardParseError,
    card_suit,
    held_copy,
    make_card,
    parse_card,
)
from sueca.infostate import InformationState
from sueca.state import REASON_FOLLOW, REASON_NOT_HELD, REASON_TRUMP, IllegalMoveError
from sueca.terminal.i18n import Language
from sueca.terminal.view import numbered

PASS_WORDS: Final = ("p", "pass", "passo", "passar", "passa")
# Answers to the redeal question (weak_hand_redeal), in English and Portuguese.
REDEAL_ASK_WORDS: Final = frozenset({"y", "yes", "s", "sim", "r", "redeal", "nova", "dar"})
REDEAL_KEEP_WORDS: Final = frozenset({"n", "no", "não", "nao", "k", "keep", "fico", "ficar"})
QUIT_WORDS: Final = ("q", "quit", "sair")
# The cry of renúncia (the renuncia option): at any prompt of the deal, and at its end.
DENOUNCE_WORDS: Final = frozenset({"r", "renuncia", "renúncia", "renounce", "revoke"})
# How much of a line typed the table says back (its echo of piped input, and a refusal): a
# line pasted by mistake, or 100 kB piped in, is not worth printing whole.
ECHO_LIMIT: Final = 40
# The longest number read as a card's number or a bid: the choices and bids are a few digits,
# and Python refuses to read a number of thousands of digits (int_max_str_digits).
NUMBER_DIGITS: Final = 4


class Quit(Exception):
    """The player asked to quit and confirmed."""


class InputEnded(Exception):
    """The input ran out before the match did."""


class ChoiceError(ValueError):
    """A line that names no card the player may choose by number or by name."""


def echoed(text: str, limit: int = ECHO_LIMIT) -> str:
    """What the table says back of a line typed: the line, or its first ``limit`` characters
    and "…"."""
    return text if len(text) <= limit else text[:limit] + "…"


def read_number(token: str) -> int | None:
    """``token`` as a number, when it is one of a few decimal digits (``isdecimal``: ``²`` is
    a digit that ``int`` does not read)."""
    return int(token) if token.isdecimal() and len(token) <= NUMBER_DIGITS else None


def parse_choice(text: str, choices: Sequence[Card], lang: Language, hand: CardMask = 0
                 ) -> Card:
    """The card a player typed: its number among ``choices`` or the card itself (``7h``,
    ``AS``, ``♥7``). A name is a face: with two decks it is turned into the copy ``hand``
    holds; the language's letters and words are read too (:func:`parse_spoken_card`). A
    card that is not legal is returned as is: the referee refuses it with its
    reason (or, at a ``renuncia`` table, takes it: a revoke is typed by name)."""
    token = text.strip()
    if token.isdecimal():
        number = read_number(token)
        if number is None or not 1 <= number <= len(choices):
            raise ChoiceError(lang.text("no_such_number", number=echoed(token),
                                        count=len(choices)))
        return choices[number - 1]
    try:
        return held_copy(hand, parse_card(token))
    except CardParseError:
        spoken = parse_spoken_card(token, lang)
        if spoken is None:
            raise ChoiceError(lang.text("not_a_card", text=echoed(token))) from None
        return held_copy(hand, spoken)


def _plain(word: str) -> str:
    """A word as typed or as named, compared without case or accents (``Ás`` is ``as``)."""
    decomposed = unicodedata.normalize("NFD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def parse_spoken_card(text: str, lang: Language) -> Card | None:
    """A card in the language's own letters or words: ``Rp`` (*rei de paus*), ``Vc``, ``7 de
    paus``, ``rei de copas``, ``ás de espadas``; in English ``king of hearts``. ``None`` when
    the text is none. The record's notation (``7h``, ``KS``) is :func:`parse_card`'s and is
    read first: in Portuguese ``7c`` stays the seven of clubs (write ``7 de copas``)."""
    token = text.strip()
    if len(token) == 2:
        rank = lang.rank_letters.find(token[0].upper())
        suit = lang.suit_letters.find(token[1].upper())
        if rank >= 0 and suit >= 0:
            return make_card(rank, suit)
    words = _plain(token).split()
    if len(words) != 3 or words[1] not in ("de", "of"):
        return None
    ranks = {_plain(name): r for r, name in enumerate(lang.ranks)}
    ranks |= {word: r for word, r in lang.other_rank_words}
    ranks |= {letter.casefold(): r for r, letter in enumerate(lang.rank_letters)}
    suits = {_plain(name): s for s, name in enumerate(lang.suits)}
    suits |= {name.rstrip("s"): s for name, s in list(suits.items())}  # "copa", "heart"
    named_rank, named_suit = ranks.get(words[0]), suits.get(words[2])
    if named_rank is None or named_suit is None:
        return None
    return make_card(named_rank, named_suit)


def parse_bid(text: str) -> int | None:
    """A bid as typed: a number, or a pass (``0``, ``p``, ``pass``, ``passo``); ``None`` for
    anything else. Whether the number may be bid is the referee's to say."""
    token = text.strip().lower()
    if token in PASS_WORDS:
        return PASS
    return read_number(token)


def parse_redeal(text: str) -> bool | None:
    """A redeal answer: ``True`` asks for a new deal (``s``, ``y``, ``nova``), ``False``
    keeps (``n``, ``fico``); ``None`` for anything else."""
    answer = text.strip().lower()
    if answer in REDEAL_ASK_WORDS:
        return True
    if answer in REDEAL_KEEP_WORDS:
        return False
    return None


def is_quit(text: str) -> bool:
    return text.strip().lower() in QUIT_WORDS


def parse_denounce(text: str) -> tuple[bool, int | None]:
    """Whether the line cries *renúncia* (``r``, ``renuncia``), and the seat it names, if any:
    ``r 2`` is Player 2's cry at a screen several people share (seat 1 of the engine: people
    count from 1; ``r 0`` names seat -1, which no person holds)."""
    words = text.strip().lower().split()
    if not words or words[0] not in DENOUNCE_WORDS or len(words) > 2:
        return False, None
    if len(words) == 2:
        seat = read_number(words[1])
        return (False, None) if seat is None else (True, seat - 1)
    return True, None


def refusal(error: IllegalMoveError, card: Card, info: InformationState, lang: Language,
            acting_name: str | None) -> str:
    """The engine's reason for refusing ``card``, said to the player in their language, with
    the cards the seat may play (``info``'s request). ``acting_name`` is the seat whose card it
    was when that is not the player's own (the dummy)."""
    suffix = "" if acting_name is None else "_other"
    request = info.request()
    if error.reason in (REASON_FOLLOW, REASON_TRUMP) and info.trick:
        led = card_suit(info.trick[0])
        legal = request.legal if isinstance(request, AskCard) else ()
        cards = [lang.card(c) for c in numbered(legal)]
        key = ("must_follow" if error.reason == REASON_FOLLOW else "must_trump") + suffix
        return lang.text(key, suit=lang.suit(led), cards=lang.and_list(cards), seat=acting_name)
    if error.reason == REASON_NOT_HELD:
        return lang.text("not_held" + suffix, card=lang.card(card), seat=acting_name)
    return str(error)
