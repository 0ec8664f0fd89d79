"""The partner echo, the one signal the cards themselves may carry (seeds 002 and 003: "a high
card followed by a low one of a suit means 'I have a doubleton'; low then high means 'I have
three or more'. These conventions are standard in Portuguese cafés").

:class:`SignalBot` wraps any bot (``heuristic+signals``, ``ismcts+signals``) so that it

- **plays** the echo: following to a plain suit that somebody else led, with nothing to gain
  from the trick, its first card of the suit is the higher of a doubleton of blanks and the
  lowest blank of three or more; its second card, after a low start, is a higher blank;
- **reads** its partner's echo: when the partner's first two cards of a plain suit were both
  *echo cards* (blank, following suit, not taking the lead of the trick) and the first was the
  higher, the partner had a doubleton and is now void there. The bot hands its inner bot an
  information state with that void added, so the heuristic leads the suit for a ruff and a
  search bot samples only worlds where the partner holds none.

Only cards with no points are used to signal: the echo never gives away a point, and a trick
is never lost or won because of it. A reading that contradicts what the seat knows (no world
would be consistent with it) is dropped, so a partner who does not play the convention can
mislead the reader but never break it. Trumps carry no echo.

>>> from sueca.bots.heuristic import HeuristicBot
>>> SignalBot(HeuristicBot(seed=1)).name
'heuristic+signals'
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from sueca.bots.base import Bot, beats, sides, winning_index
from sueca.cards import Card, CardMask, card_points, card_rank, card_suit, mask_cards
from sueca.infostate import InformationState
from sueca.rules import Rules


@dataclass(frozen=True)
class PlayedCard:
    seat: int
    card: Card
    led_suit: int
    follows: bool  # played to a trick led by another seat
    took_lead: bool  # the trick's winning card right after it was played


def history(info: InformationState) -> list[PlayedCard]:
    """Every card of the deal so far with who played it and how it stood in its trick."""
    n = info.rules.players
    trump = info.trump
    out: list[PlayedCard] = []
    best: Card = -1
    led = -1
    for index, (card, seat) in enumerate(zip(info.plays, info.played_by(), strict=True)):
        if index % n == 0:
            best, led = card, card_suit(card)
            out.append(PlayedCard(seat, card, led, False, True))
            continue
        takes = beats(card, best, trump)
        if takes:
            best = card
        out.append(PlayedCard(seat, card, led, True, takes))
    return out


def _is_echo_card(play: PlayedCard, trump: int) -> bool:
    suit = card_suit(play.card)
    return (play.follows and suit == play.led_suit and suit != trump
            and card_points(play.card) == 0 and not play.took_lead)


def read_echoes(info: InformationState, seat: int) -> dict[int, bool]:
    """What ``seat``'s echoes say, per plain suit: ``True`` for a doubleton (now void),
    ``False`` for three or more. Suits without a complete echo are absent."""
    trump = info.trump
    by_suit: dict[int, list[PlayedCard]] = {}
    for play in history(info):
        if play.seat == seat:
            by_suit.setdefault(card_suit(play.card), []).append(play)
    out: dict[int, bool] = {}
    for suit, plays in by_suit.items():
        if suit == trump or len(plays) < 2:
            continue
        first, second = plays[0], plays[1]
        if _is_echo_card(first, trump) and _is_echo_card(second, trump):
            out[suit] = card_rank(first.card) > card_rank(second.card)
    return out


def with_partner_echoes(info: InformationState) -> InformationState:
    """``info`` with the voids that the partner's echoes announce, where they are consistent
    with everything else the seat knows; ``info`` itself when there is nothing to add."""
    voids = list(info.voids)
    for partner in sides(info)[0]:
        for suit, doubleton in read_echoes(info, partner).items():
            if doubleton:
                voids[partner] |= 1 << suit
    if tuple(voids) == info.voids:
        return info
    read = dataclasses.replace(info, voids=tuple(voids))
    try:
        read.sample_world(random.Random(0))  # builds the world counter; raises if no world
    except ValueError:
        return info
    return read


def echo_card(info: InformationState, card: Card) -> Card:
    """The card to play instead of ``card`` so as to echo, or ``card`` itself.

    Only a blank card that does not take the lead of the trick is ever swapped, and only for
    another blank of the same suit that does not take it either, so the echo costs nothing
    in this trick.
    """
    trick = info.trick
    trump = info.trump
    if not trick or card_points(card) != 0:
        return card
    led = card_suit(trick[0])
    if card_suit(card) != led or led == trump or _takes(info, card):
        return card
    suit_cards = [c for c in mask_cards(info.hand) if card_suit(c) == led]
    mine = [p for p in history(info) if p.seat == info.seat and card_suit(p.card) == led]
    blanks = [c for c in suit_cards if card_points(c) == 0 and not _takes(info, c)]
    if not mine:
        if len(suit_cards) == 2 and all(card_points(c) == 0 for c in suit_cards):
            high = max(suit_cards, key=card_rank)
            return high if high in blanks else card  # doubleton: high first
        if len(suit_cards) >= 3 and blanks:
            return min(blanks, key=card_rank)  # three or more: low first
        return card
    if len(mine) == 1 and _is_echo_card(mine[0], trump):
        higher = [c for c in blanks if card_rank(c) > card_rank(mine[0].card)]
        if higher:
            return min(higher, key=card_rank)  # then a higher one
    return card


def _takes(info: InformationState, card: Card) -> bool:
    """Whether ``card`` played now would be the trick's winning card."""
    trick = info.trick
    return beats(card, trick[winning_index(trick, info.trump)], info.trump)


class SignalBot(Bot):
    """``inner`` playing and reading the partner echo."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.name = f"{inner.name}+signals"

    def new_match(self, rules: Rules, seat: int) -> None:
        self.inner.new_match(rules, seat)

    def set_time_budget(self, seconds: float | None) -> None:
        self.inner.set_time_budget(seconds)

    def choose(self, info: InformationState) -> Card:
        return echo_card(info, self.inner.choose(with_partner_echoes(info)))

    def bid(self, info: InformationState) -> int:
        return self.inner.bid(info)  # the echo is a play convention: the auction is the inner's

    def call(self, info: InformationState) -> Card:
        return self.inner.call(info)

    def explain(self, info: InformationState) -> tuple[Card, str]:
        read = with_partner_echoes(info)
        card, reason = self.inner.explain(read)
        played = echo_card(info, card)
        if read is not info:
            reason += "; partner's echo shows a void"
        if played != card:
            reason += "; echo to partner"
        return played, reason

    def deal_over(self, info: InformationState, hands: tuple[CardMask, ...]) -> None:
        self.inner.deal_over(info, hands)

    def close(self) -> None:
        self.inner.close()
