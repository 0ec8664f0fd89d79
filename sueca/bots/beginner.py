"""A beginner: plays as someone who has just learnt the rules, not as a random card.

The heuristic bot's rules of thumb (:mod:`sueca.bots.heuristic`) are what a club player
knows; a new player knows the rules and wants tricks, and makes the mistakes teachers warn
of. This bot plays the heuristic's card except where one of those mistakes is at hand, and
then makes it (each time it could, with the chance ``mistakes``, 0.7 by default):

- **leads its honours early**: leads a king, jack or queen while that suit's ace or seven is
  still out (so the opponents catch it), rather than a blank card;
- **forgets the trumps**: void in the suit led, throws a small card of another suit instead
  of ruffing a trick worth points; and leads an ace or seven into a suit an opponent has
  shown void in (he had forgotten who can ruff);
- **plays to win every trick**: follows with its highest card that beats the trick even when
  its partner already holds it, or when a cheaper card would do.

Every card it plays has a reason a person would give; the mistakes are chosen by the bot's
seeded generator, so it is deterministic given its seed.

>>> import random
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(3)))
>>> info = state.information_state(state.to_play)
>>> card = BeginnerBot(seed=1).choose(info)
>>> card in info.legal_moves() and card == BeginnerBot(seed=1).choose(info)
True
"""

from __future__ import annotations

from collections.abc import Mapping

from sueca.bots.base import BotOption, beats, parse_options, playable
from sueca.bots.heuristic import ACE, SEVEN, HeuristicBot, _View
from sueca.cards import Card, card_name, card_rank, card_suit
from sueca.infostate import InformationState

DEFAULT_MISTAKES = 0.7
OPTIONS = (BotOption(("mistakes",), float, 0),)


class BeginnerBot(HeuristicBot):
    """The heuristic, with a new player's mistakes where they are at hand."""

    name = "novice"

    def __init__(self, seed: int | None = None, mistakes: float = DEFAULT_MISTAKES) -> None:
        super().__init__(seed)
        self.mistakes = mistakes

    def configure(self, options: Mapping[str, str]) -> None:
        """``beginner:mistakes=0.5``: the chance of making a mistake where one is at hand
        (0 plays as the heuristic, 1 always errs)."""
        values = parse_options(self.name, options, OPTIONS)
        if "mistakes" in values:
            if values["mistakes"] > 1:
                raise ValueError("beginner option mistakes must be from 0 to 1")
            self.mistakes = values["mistakes"]

    def explain(self, info: InformationState) -> tuple[Card, str]:
        legal = playable(info)
        if len(legal) > 1:
            mistake = self._mistake(info, legal)
            if mistake is not None and self.rng.random() < self.mistakes:
                return mistake
        return super().explain(info)

    def _mistake(self, info: InformationState, legal: tuple[Card, ...]
                 ) -> tuple[Card, str] | None:
        """The mistake a new player would make here, if one is at hand."""
        view = _View(info)
        trump = view.trump
        if not info.trick:
            # An honour led into a suit whose ace or seven is out: caught by it.
            exposed = [c for c in legal if card_suit(c) != trump
                       and card_rank(c) < SEVEN and view.card_points(c) > 0
                       and any(card_rank(o) in (ACE, SEVEN)
                               for o in view.suit_cards(view.outside, card_suit(c)))]
            if exposed:
                card = max(exposed, key=card_rank)
                return card, (f"beginner: leads the {card_name(card)} for its points, with "
                              "its suit's ace or seven still out")
            # An ace or seven led where an opponent has shown he can ruff it.
            ruffed = [c for c in legal if card_suit(c) != trump
                      and card_rank(c) in (ACE, SEVEN)
                      and any(view.may_ruff(o, card_suit(c)) for o in view.opponents)]
            if ruffed:
                card = max(ruffed, key=card_rank)
                return card, (f"beginner: cashes the {card_name(card)}, forgetting that an "
                              "opponent can ruff it")
            return None
        best, best_seat, points = view.trick_state()
        led = card_suit(info.trick[0])
        if all(card_suit(c) != led for c in legal):
            # Void: the trumps forgotten, a small card thrown on a trick worth points.
            others = [c for c in legal if card_suit(c) != trump]
            if (best_seat not in view.partners and points >= 10 and others
                    and any(card_suit(c) == trump for c in legal)):
                card = min(others, key=lambda c: (view.card_points(c), card_rank(c)))
                return card, (f"beginner: throws the {card_name(card)}, forgetting to ruff "
                              f"a trick of {points} points")
            return None
        # Following suit: the highest card that takes the trick, whoever holds it.
        winners = [c for c in legal if card_suit(c) == led and beats(c, best, trump)]
        if winners:
            card = max(winners, key=card_rank)
            cheaper = [c for c in winners if c != card]
            if best_seat in view.partners or cheaper:
                return card, (f"beginner: plays the {card_name(card)} to win the trick, "
                              "though its partner or a smaller card would do")
        return None
