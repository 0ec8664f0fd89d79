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

**The seeds' tips, as options** (issue 20; ``heuristic:tips=all``, ``heuristic:tips=aces``,
several joined by ``/``: ``heuristic:tips=aces/count``; with none the bot plays as above, card
for card). Each is one sentence of seeds 002 and 003's "tips and strategies":

- ``aces``, *protect your partner's aces*: "if your partner leads a plain card that could be
  his singleton, play your highest card of that suit to keep the lead in the partnership" --
  the partner's first card of a plain suit that is not its master, and our highest card of it
  beats the trick: we play that card;
- ``partner``, *read the partner*: "if your partner plays third in a trick, assume he signals
  that the suit should be continued" -- leading with nothing to cash, the bot leads a blank of
  a plain suit its partner played an honour on third hand (or took the lead with), and avoids
  the plain suits its partner threw away cards of (a discard says: not this suit);
- ``count``, *count trumps*: "when fewer than 4 trumps remain in the opponents' hands, you can
  safely cash your aces and sevens" -- the trumps out of our hand and the partner's known
  cards counted, under 4 the bot cashes its plain masters before drawing trumps;
- ``capotao``, *be careful with the capotão*: "chase it only when your team already has 90+
  points and you control all the remaining high cards" -- past 90 with the opponents at 0 and
  a master in every suit where points are out, the bot takes every trick it can hold (leads its
  masters, trumps first, overtakes a partner who may be beaten); short of that it plays as
  always, which never chases the sweep.

BENCHMARKS.md ("The seeds' tips") measures each alone against the plain heuristic: ``aces``
and ``partner`` win (the intermediate level plays ``heuristic:tips=aces/partner``), ``count``
and ``capotao`` seldom change a card.
"""

from __future__ import annotations

from collections.abc import Mapping

from sueca.bots.base import Bot, beats, playable, sides, winning_index
from sueca.bots.bidding import choose_bid, choose_call
from sueca.bots.signals import history
from sueca.cards import (
    Card,
    CardMask,
    card_rank,
    card_suit,
    mask_cards,
)
from sueca.infostate import InformationState
from sueca.scoring import level

ACE, SEVEN = 9, 8
# Play the odds for a trick only when this likely to hold it, with this many opponents to come.
LIKELY_HOLD = 0.5
MANY_LATER_OPPONENTS = 2
# Feed points to a partner's winning card when it holds the trick this likely.
SURE_ENOUGH = 0.8
# The seeds' tips (see the module), by option name; "all" is every one of them.
TIPS = ("aces", "partner", "count", "capotao")
# Count trumps: fewer than this many in the opponents' hands and the aces and sevens are safe.
FEW_TRUMPS = 4


def parse_tips(text: str) -> frozenset[str]:
    """The tips a ``tips=`` option names: ``all``, ``none`` or names joined by ``/``; an unknown
    name raises ``ValueError`` naming it and the known ones."""
    known = f"tips: {', '.join(TIPS)}, all, none; several joined by /"
    text = text.strip()
    if text == "all":
        return frozenset(TIPS)
    if text == "none":
        return frozenset()
    # An empty list or a tip named twice is a typing slip (``tips=``, ``aces//count``,
    # ``aces/aces``): refused, so that a spec never means something other than it says.
    if not text:
        raise ValueError(f"heuristic option tips is empty (write tips=none for no tip; {known})")
    names = [name.strip() for name in text.split("/")]
    if "" in names:
        raise ValueError(f"heuristic option tips={text!r} has an empty tip name ({known})")
    unknown = [name for name in names if name not in TIPS]
    if unknown:
        raise ValueError(f"heuristic option tips: unknown tip {unknown[0]!r} ({known})")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"heuristic option tips={text!r} names the tip {repeated[0]!r} "
                         f"more than once")
    return frozenset(names)


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, seed: int | None = None, tips: frozenset[str] = frozenset()) -> None:
        super().__init__(seed)
        self.tips = tips

    def configure(self, options: Mapping[str, str]) -> None:
        """``heuristic:tips=all`` (or ``tips=aces/count``...): follow the seeds' tips (see the
        module); without the option the bot plays as it always has."""
        unknown = sorted(set(options) - {"tips"})
        if unknown:
            raise ValueError(f"heuristic has no option {unknown[0]!r} (options: tips)")
        if "tips" in options:
            self.tips = parse_tips(options["tips"])

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
        view = _View(info, self.tips)
        if not info.trick:
            return view.lead(legal)
        return view.follow(legal)


class _View:
    """What the heuristic reads off an information state."""

    def __init__(self, info: InformationState, tips: frozenset[str] = frozenset()) -> None:
        self.info = info
        self.tips = tips
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
        if "capotao" in self.tips and self.chasing_sweep():
            pressed = self.sweep_lead(legal)
            if pressed is not None:
                return pressed, "past 90 with every high card: press for the capotão"
        if "count" in self.tips and self.opponent_trumps() < FEW_TRUMPS:
            counted = [
                c for c in legal
                if card_suit(c) != self.trump and self.is_master(c) and self.card_points(c) >= 10
                and not any(self.opponent_may_ruff(o, card_suit(c)) for o in self.opponents)
            ]
            if counted:
                card = max(counted, key=self.card_points)
                return card, "fewer than 4 trumps left with the opponents: cash the masters"
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
        # From the longest side suit, lowest first: keeps honours guarded.
        length = {s: len(self.suit_cards(hand, s)) for s in range(4)}
        if "partner" in self.tips and safe:
            encouraged, discarded = self.partner_signals()
            asked = [c for c in safe if card_suit(c) in encouraged - discarded
                     and not any(self.may_ruff(o, card_suit(c)) for o in self.opponents)]
            if asked:
                card = min(asked, key=lambda c: (-length[card_suit(c)], card_rank(c)))
                return card, "partner played high third hand in this suit: continue it"
            kept = [c for c in safe if card_suit(c) not in discarded]
            if kept and len(kept) < len(safe):
                card = min(kept, key=lambda c: (-length[card_suit(c)], card_rank(c)))
                return card, "a blank card, not of a suit partner threw away"
        if safe:
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

        if "aces" in self.tips:
            high = self.cover_partner_lead(legal, best)
            if high is not None:
                return high, "partner's lead may be a singleton: play high to keep the lead"
        sweep = "capotao" in self.tips and self.chasing_sweep()

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
            if sweep:
                over = self.holding_winners(legal, best, later_opponents, led)
                if over:
                    card = min(over, key=lambda c: (self.card_points(c), card_rank(c)))
                    return card, "pressing for the capotão: make sure of partner's trick"
            return self.cheapest(legal), "partner is winning but may be beaten: play low"

        winners = [c for c in legal if beats(c, best, self.trump)]
        holding = self.holding_winners(legal, best, later_opponents, led)
        if holding and (points > 0 or self.card_points(min(holding, key=self.card_points)) == 0
                        or not later_opponents or sweep):
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

    def holding_winners(self, legal: tuple[Card, ...], best: Card, later_opponents: list[int],
                        led: int) -> list[Card]:
        """Our cards that beat ``best`` and that no opponent still to play can beat."""
        return [
            c for c in legal
            if beats(c, best, self.trump) and (not later_opponents or (
                self.is_master(c) if card_suit(c) == self.trump
                else self.is_master(c) and not any(self.may_ruff(o, led) for o in later_opponents)
            ))
        ]

    # ---- the seeds' tips (options; see the module) ---------------------------------------

    def opponent_trumps(self) -> int:
        """Trumps that may be in the opponents' hands: out of ours, not played, and not known
        to be in a partner's (the turned trump, a card the partner showed)."""
        partners = 0
        for partner in self.partners:
            partners |= self.info.known[partner]
        return len(self.suit_cards(self.outside & ~partners, self.trump))

    def opponent_may_ruff(self, seat: int, suit: int) -> bool:
        """:meth:`may_ruff`, with the trumps counted: none left with the opponents, none ruffs."""
        return self.may_ruff(seat, suit) and self.opponent_trumps() > 0

    def cover_partner_lead(self, legal: tuple[Card, ...], best: Card) -> Card | None:
        """Protect the partner's aces: the partner led his first card of a plain suit (it may
        be his singleton) and it is not that suit's highest card still out; our highest card
        of the suit beats the trick, so we play it and the lead stays with our side."""
        info = self.info
        lead = info.trick[0]
        suit = card_suit(lead)
        if info.leader not in self.partners or suit == self.trump:
            return None
        if all(card_rank(c) < card_rank(lead)
               for c in self.suit_cards(self.outside | info.hand, suit)):
            return None  # his card is the suit's master: it needs no help
        led_before = [p for p in history(info)[:-len(info.trick)]
                      if p.seat == info.leader and card_suit(p.card) == suit]
        if led_before:
            return None  # not his first card of the suit: no singleton
        ours = [c for c in legal if card_suit(c) == suit]
        if not ours:
            return None
        top = max(ours, key=card_rank)
        return top if beats(top, best, self.trump) else None

    def partner_signals(self) -> tuple[set[int], set[int]]:
        """What the partner's cards said, per plain suit: the suits he played a high card of
        third hand (an honour, or a card that took the lead: continue the suit), and the suits
        he threw a card of when he could not follow (not this suit)."""
        info = self.info
        n = info.rules.players
        encouraged: set[int] = set()
        discarded: set[int] = set()
        for index, play in enumerate(history(info)):
            if play.seat not in self.partners:
                continue
            suit = card_suit(play.card)
            if suit == self.trump:
                continue
            if index % n == 2 and suit == play.led_suit and (
                    self.card_points(play.card) > 0 or play.took_lead):
                encouraged.add(suit)
            elif play.follows and suit != play.led_suit:
                discarded.add(suit)
        return encouraged, discarded

    def chasing_sweep(self) -> bool:
        """The capotão tip's moment: our side has taken more than 90 (the two games are
        banked), the opponents nothing, and in every suit where cards with points (or, for
        trumps, any cards) are still out we hold a card above all of them."""
        info = self.info
        rules = info.rules
        if rules.scoring != "games" or rules.bidding or rules.set_aside or not info.seat_points:
            return False
        ours = info.seat_points[self.seat] + sum(info.seat_points[p] for p in self.partners)
        theirs = sum(info.seat_points[o] for o in self.opponents)
        if theirs or level(rules, ours) < 2:
            return False
        for suit in range(4):
            out = self.suit_cards(self.outside, suit)
            if not out or (suit != self.trump and not any(self.card_points(c) for c in out)):
                continue
            top = max(card_rank(c) for c in out)
            if not any(card_rank(c) > top for c in self.suit_cards(self.info.hand, suit)):
                return False
        return True

    def sweep_lead(self, legal: tuple[Card, ...]) -> Card | None:
        """Pressing for the capotão: draw the trumps out with the master trump, then cash the
        plain masters, the richest first."""
        masters = [c for c in legal if self.is_master(c)]
        if self.trumps_outside() > 0:
            trumps = [c for c in masters if card_suit(c) == self.trump]
            if trumps:
                return max(trumps, key=card_rank)
        plain = [c for c in masters if card_suit(c) != self.trump
                 and not any(self.may_ruff(o, card_suit(c)) for o in self.opponents)]
        if plain:
            return max(plain, key=lambda c: (self.card_points(c), card_rank(c)))
        return None

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

