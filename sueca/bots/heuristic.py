"""A rule-based player built on the strategy tips of the sources (see docs/rules.md):

- count trumps, and lead trumps when long in them with the ace or the seven;
- keep aces and sevens for the tricks that matter: cash a card only when it is the master;
- do not lead a king (or a jack) while that suit's ace and seven are out;
- track the sevens: a seven is the master once its ace has gone;
- feed points to a trick your partner is sure to win, throw nothing to the opponents;
- win cheaply, overtrump only when it pays, and discard queens and blanks from long suits;
- with ``weak_hand_redeal``, ask for a new deal whenever the hand is weak enough to
  (:meth:`Bot.redeal`'s default, which it keeps: such a hand is worth less than a fresh deal).

At the larger tables (five, six or eight seats) a card is seldom the master of its suit while
several opponents are still to play, so waiting for masters means never winning a trick: there
the bot also plays the odds (:meth:`_View.hold_chance`: the chance that no opponent still to
play holds a higher card, the unseen cards spread at random) and wins a trick with the cheapest
card likely to hold it. With at most one opponent to play after it (every four-seat table) the
rules above are unchanged. At a bidding table the partner may be secret: a seat in doubt is
counted as an opponent (see :func:`sueca.bots.base.sides`).
"""

from __future__ import annotations

from sueca.bots.base import Bot, beats, playable, sides, winning_index
from sueca.bots.bidding import choose_bid, choose_call
from sueca.cards import (
    Card,
    CardMask,
    card_rank,
    card_suit,
    mask_cards,
)
from sueca.infostate import InformationState

ACE, SEVEN = 9, 8
# Play the odds for a trick only when this likely to hold it, with this many opponents to come.
LIKELY_HOLD = 0.5
MANY_LATER_OPPONENTS = 2
# Feed points to a partner's winning card when it holds the trick this likely.
SURE_ENOUGH = 0.8


class HeuristicBot(Bot):
    name = "heuristic"

    def choose(self, info: InformationState) -> Card:
        return self.explain(info)[0]

    def bid(self, info: InformationState) -> int:
        """The bid the hand's calibrated evaluation supports (:mod:`sueca.bots.bidding`)."""
        return choose_bid(info)

    def call(self, info: InformationState) -> Card:
        return choose_call(info)

    def explain(self, info: InformationState) -> tuple[Card, str]:
        legal = playable(info)
        if len(legal) == 1:
            return legal[0], "the only legal card"
        view = _View(info)
        if not info.trick:
            return view.lead(legal)
        return view.follow(legal)


class _View:
    """What the heuristic reads off an information state."""

    def __init__(self, info: InformationState) -> None:
        self.info = info
        self.trump = info.trump
        self.seat = info.seat
        rules = info.rules
        # From the information state only: at a bidding table the partner may be unknown, and
        # a seat in doubt counts as an opponent (see ``sides``).
        partners, opponents = sides(info)
        self.partners = list(partners)
        self.opponents = list(opponents)
        # Cards that may still beat ours: in nobody's known hand of ours, not yet played.
        self.outside = ((1 << rules.deck_size) - 1) & ~info.played & ~info.hand
        self.points = rules.card_points  # the rules' (a Maria de Copas bonus included)

    def card_points(self, card: Card) -> int:
        return self.points[card]

    # ---- knowledge ---------------------------------------------------------------------

    def suit_cards(self, mask: CardMask, suit: int) -> list[Card]:
        return [c for c in mask_cards(mask) if card_suit(c) == suit]

    def is_master(self, card: Card) -> bool:
        """No card still out there beats this one in its own suit."""
        suit = card_suit(card)
        return all(card_rank(c) < card_rank(card) for c in self.suit_cards(self.outside, suit))

    def trumps_outside(self) -> int:
        return len(self.suit_cards(self.outside, self.trump))

    def may_ruff(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` may be void in ``suit`` and still hold a trump."""
        info = self.info
        return info.is_void(seat, suit) and not info.is_void(seat, self.trump) and (
            self.trumps_outside() > 0
        )

    def trick_state(self) -> tuple[Card, int, int]:
        """The winning card of the trick in progress, its seat, and the points in it."""
        trick = self.info.current_trick()
        index = winning_index(trick.cards, self.trump)
        return (trick.cards[index], trick.seat_of(index, self.info.rules.players),
                sum(self.card_points(c) for c in trick.cards))

    def still_to_play(self) -> list[int]:
        info = self.info
        n = info.rules.players
        return [(info.seat + k) % n for k in range(1, n - len(info.trick))]

    # ---- leading -----------------------------------------------------------------------

    def lead(self, legal: tuple[Card, ...]) -> tuple[Card, str]:
        hand = self.info.hand
        trumps = self.suit_cards(hand, self.trump)
        high_trump = any(card_rank(c) in (ACE, SEVEN) for c in trumps)
        # Long in trumps: four of ten cards; five of the thirteen of the six-seat table.
        long_trumps = 4 if self.info.rules.hand_size <= 10 else 5
        if len(trumps) >= long_trumps and high_trump and self.trumps_outside() > 0:
            masters = [c for c in trumps if self.is_master(c)]
            card = max(masters, key=card_rank) if masters else min(trumps, key=card_rank)
            return card, "long in trumps with the ace or seven: draw the opponents' trumps"
        cashable = [
            c for c in legal
            if card_suit(c) != self.trump and self.is_master(c) and self.card_points(c) >= 10
            and not any(self.may_ruff(o, card_suit(c)) for o in self.opponents)
        ]
        if cashable:
            card = max(cashable, key=self.card_points)
            return card, "the master of its suit, and no opponent is known to ruff it"
        for partner in self.partners:
            side = [
                c for c in legal
                if card_suit(c) != self.trump and self.may_ruff(partner, card_suit(c))
                and not any(self.may_ruff(o, card_suit(c)) for o in self.opponents)
            ]
            if side:
                return min(side, key=card_rank), "partner is void in this suit and can ruff"
        side = [c for c in legal if card_suit(c) != self.trump]
        safe = [c for c in side if self.card_points(c) == 0]
        if safe:
            # From the longest side suit, lowest first: keeps honours guarded.
            length = {s: len(self.suit_cards(hand, s)) for s in range(4)}
            card = min(safe, key=lambda c: (-length[card_suit(c)], card_rank(c)))
            return card, "a blank card from a long suit: give nothing away"
        if side:
            # Only honours left in side suits: lead the one least likely to be caught.
            card = max(side, key=lambda c: (self.is_master(c), -self.card_points(c)))
            return card, "no blank cards left: lead the safest honour"
        return min(legal, key=card_rank), "only trumps left: lead the lowest"

    # ---- following ---------------------------------------------------------------------

    def follow(self, legal: tuple[Card, ...]) -> tuple[Card, str]:
        best, best_seat, points = self.trick_state()
        later = self.still_to_play()
        partner_winning = best_seat in self.partners
        later_opponents = [s for s in later if s not in self.partners]
        led = card_suit(self.info.trick[0])

        if partner_winning:
            safe = not later_opponents or (
                self.is_master(best) and not (
                    card_suit(best) != self.trump
                    and any(self.may_ruff(o, card_suit(best)) for o in later_opponents)
                )
            )
            if not safe and len(later_opponents) >= MANY_LATER_OPPONENTS:
                safe = self.hold_chance(best, later_opponents) >= SURE_ENOUGH
            if safe:
                card = max(legal, key=lambda c: (self.card_points(c) if card_suit(c) != self.trump
                                                 else -1, -card_rank(c)))
                return card, "partner has this trick: feed it points"
            return self.cheapest(legal), "partner is winning but may be beaten: play low"

        winners = [c for c in legal if beats(c, best, self.trump)]
        holding = [
            c for c in winners
            if not later_opponents or (
                self.is_master(c) if card_suit(c) == self.trump
                else self.is_master(c) and not any(self.may_ruff(o, led) for o in later_opponents)
            )
        ]
        if holding and (points > 0 or self.card_points(min(holding, key=self.card_points)) == 0
                        or not later_opponents):
            card = min(holding, key=lambda c: (self.card_points(c), card_rank(c)))
            return card, "win the trick with the cheapest card that holds it"
        if len(later_opponents) >= MANY_LATER_OPPONENTS and winners:
            # Many opponents to come: no card is sure, so take the likeliest cheap winner when
            # the trick is worth it (the seats to come add points too).
            likely = [c for c in winners
                      if self.hold_chance(c, later_opponents) >= LIKELY_HOLD
                      and (self.card_points(c) == 0 or points + self.card_points(c) >= 10
                           or card_suit(c) != self.trump)]
            if likely:
                card = min(likely, key=lambda c: (card_suit(c) == self.trump, self.card_points(c),
                                                  card_rank(c)))
                return card, "many seats still to play: the cheapest card likely to hold"
        if winners and not later_opponents:
            card = min(winners, key=lambda c: (card_suit(c) == self.trump, self.card_points(c),
                                               card_rank(c)))
            if points + self.card_points(card) >= 4 or self.card_points(card) == 0:
                return card, "last to play: take the points"
        return self.cheapest(legal), "the opponents have this trick: give them nothing"

    def hold_chance(self, card: Card, later_opponents: list[int]) -> float:
        """The chance that none of ``later_opponents`` beats ``card`` in this trick: 0 when
        one is known to hold a higher card or to ruff, else the chance that none of the unseen
        higher cards of its suit lies in their hands (each unseen card in their hands with
        the share of the unseen cards they hold)."""
        info = self.info
        suit = card_suit(card)
        led = card_suit(info.trick[0]) if info.trick else suit
        if suit != self.trump and any(self.may_ruff(o, led) for o in later_opponents):
            return 0.0
        higher = [c for c in self.suit_cards(self.outside, suit) if card_rank(c) > card_rank(card)]
        if any(info.known[o] >> c & 1 for o in later_opponents for c in higher):
            return 0.0
        unseen = info.unseen
        pool = unseen.bit_count()
        theirs = sum(info.hand_sizes[o] - info.known[o].bit_count() for o in later_opponents)
        if not pool:
            return 1.0
        share = min(1.0, theirs / pool)
        return float((1 - share) ** sum(1 for c in higher if unseen >> c & 1))

    def cheapest(self, legal: tuple[Card, ...]) -> Card:
        """The card that costs least to give away: blanks, then queens from long suits; never
        a trump when something else will do."""
        hand = self.info.hand
        length = {s: len(self.suit_cards(hand, s)) for s in range(4)}
        return min(legal, key=lambda c: (
            card_suit(c) == self.trump,
            self.card_points(c),
            -length[card_suit(c)],
            card_rank(c),
        ))

