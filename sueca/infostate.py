"""What one seat may know: its information state, and worlds consistent with it.

This module is the one place where hidden information is filtered. Bots, the bot protocol, the
terminal and the web table all receive an :class:`InformationState`, never the full
:class:`~sueca.state.State`, so none of them can show or use a card the rules hide.

A seat knows its own hand; the turned trump card while the dealer holds it; every card played
and by whom (:meth:`InformationState.played_by`); the suits each seat has shown it lacks; with
open hands, every hand; at a three-player table, the dummy's hand once the opening lead is
made; and at a bidding table the bids and the called card, but not who holds it: the declarer's
partner is known to himself alone until the called card is played
(:attr:`InformationState.teams`). With ``weak_hand_redeal`` every seat hears each answer to the
redeal question (:attr:`InformationState.redeal_answers`): who asked, never a card of his hand.

Players may remember the play, but they may not *look at* taken tricks again (RULES.md), and
a front-end shows no running count of points: :attr:`~InformationState.past_tricks` and
:attr:`~InformationState.points_taken` are both empty unless the rules allow reviewing
(``review_tricks``) or the deal is over (the sides count their tricks then). This module
applies that one rule; front-ends show what they get.

>>> import random
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(2)))
>>> info = state.information_state(1)
>>> info.hand == state.hands[1], info.known[3]
(True, 0)
>>> world = info.sample_world(random.Random(0))
>>> world[1] == state.hands[1] and sum(h.bit_count() for h in world) == 40
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import factorial
from typing import TYPE_CHECKING

from sueca.actions import (
    AskBid,
    AskCall,
    AskCard,
    AskRedeal,
    Denunciation,
    Phase,
    Request,
)
from sueca.auction import Contract, lowest_bid
from sueca.cards import SUITS, Card, CardMask, card_suit, cards_mask, mask_cards
from sueca.redeal import hand_points, may_ask, redeal_limit
from sueca.rules import MAX_BID, Rules
from sueca.trick import Trick, legal_mask_for, seats_of_plays

if TYPE_CHECKING:  # annotations only: the state imports this module, not the other way
    from sueca.state import State



@dataclass(frozen=True)
class InformationState:
    """Everything ``seat`` may know at one moment of a deal, and nothing more."""

    rules: Rules
    seat: int
    dealer: int
    trump_card: Card | None  # the turned card; None at a bidding table
    hand: CardMask
    to_play: int  # whose turn it is to play, bid or call
    leader: int  # who led the trick in progress
    trick: tuple[Card, ...]  # the trick in progress, in play order
    plays: tuple[Card, ...]  # every card played this deal, in order (what a player remembers)
    trick_winners: tuple[int, ...]
    known: tuple[CardMask, ...]  # cards known to be in each seat's hand now
    hand_sizes: tuple[int, ...]
    voids: tuple[int, ...]  # per seat, a bit per suit that seat has shown it cannot hold
    # Where the rules allow reviewing, or once the deal is over (else empty, see the module):
    past_tricks: tuple[Trick, ...]  # the completed tricks
    points_taken: tuple[int, ...]  # card points per side, of the seats whose side it knows
    phase: str = Phase.PLAY  # bidding, calling, redeal, redealt, play or over (State.phase)
    first_leader: int = -1  # who led the first trick (-1: the seat after the dealer)
    bids: tuple[int, ...] = ()  # the auction so far, in bidding order (bidding tables)
    contract: Contract | None = None  # declarer, bid and called card, once called
    # Each seat's side as far as this seat knows it: 0 the declarer's (or team 0), 1 the other,
    # None not known yet (a bidding table, before the called card is played).
    teams: tuple[int | None, ...] = ()
    seat_points: tuple[int, ...] = ()  # card points each seat has taken (public: the plays)
    # weak_hand_redeal: the answers so far, in asking order from the opening leader (False
    # kept, True asked for a new deal: the last answer then), and who asked. Public: every seat
    # hears every answer, and keeping is always allowed, so a keep tells nothing of a hand.
    redeal_answers: tuple[bool, ...] = ()
    redeal_by: int | None = None
    # renuncia: every denunciation so far and its outcome (public: the whole table hears the
    # cry). Revokes themselves are the referee's alone: nobody is told of one.
    denunciations: tuple[Denunciation, ...] = ()
    _sampler: list[_WorldSampler] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    @classmethod
    def of(cls, state: State, seat: int) -> InformationState:
        rules = state.rules
        deal = state.deal
        n = rules.players
        known = [0] * n
        known[seat] = state.hands[seat]
        if rules.open_hands is True:
            known = list(state.hands)
        elif rules.open_hands == "dealer_dummy":
            # The seeds' à Descoberta: the dealer and his partner play with open hands.
            for open_seat in (deal.dealer, rules.partner_of(deal.dealer)):
                known[open_seat] = state.hands[open_seat]
        dummy = rules.dummy
        if dummy is not None:
            controller = rules.partner_of(dummy)
            if seat in (dummy, controller):
                # The partner plays the dummy's cards and so sees them; the dummy's own
                # decisions are the partner's, made knowing the partner's hand.
                known[dummy] = state.hands[dummy]
                known[controller] = state.hands[controller]
            elif state.plays:
                known[dummy] = state.hands[dummy]  # face up after the opening lead
        turned = state.turned_card
        if turned is not None and state.trump_card_held():
            known[deal.dealer] |= 1 << turned
        teams = cls._known_teams(state, seat)
        reviewable = rules.review_tricks or state.is_finished()
        voids = [0] * n
        for index, (card, player) in enumerate(zip(state.plays, state.played_by(), strict=True)):
            if index % n == 0:
                led = card_suit(card)
                continue
            suit = card_suit(card)
            if suit != led:
                voids[player] |= 1 << led
                # The trump is the state's: at a bidding table the deal turns none.
                if rules.must_trump and suit != state.trump:
                    voids[player] |= 1 << state.trump
        return cls(
            rules=rules,
            seat=seat,
            dealer=deal.dealer,
            trump_card=state.turned_card,
            hand=state.hands[seat],
            to_play=state.to_play,
            leader=state.leader,
            trick=tuple(state.trick),
            plays=tuple(state.plays),
            trick_winners=tuple(state.trick_winners),
            known=tuple(known),
            hand_sizes=tuple(h.bit_count() for h in state.hands),
            voids=tuple(voids),
            past_tricks=tuple(state.tricks()) if reviewable else (),
            points_taken=_side_points(state.seat_points, teams) if reviewable else (),
            phase=state.phase,
            first_leader=state.first_leader,
            bids=tuple(state.bids),
            contract=state.contract,
            teams=teams,
            seat_points=tuple(state.seat_points),
            redeal_answers=tuple(state.redeal_answers),
            redeal_by=state.redeal_by,
            denunciations=tuple(state.denunciations),
        )

    @staticmethod
    def _known_teams(state: State, seat: int) -> tuple[int | None, ...]:
        """The sides as ``seat`` knows them. At a bidding table the declarer's side is public,
        the partner's identity is not: the called card's holder knows it, the declarer knows
        only whether he holds it himself, and everybody learns it when the card is played."""
        contract = state.contract
        if not state.rules.bidding:
            return tuple(state.teams)
        n = state.players
        if contract is None:
            return (None,) * n
        called = contract.called_card
        if called in state.plays or state.rules.open_hands is True or seat == state.partner or (
            seat == contract.declarer and state.hands[seat] >> called & 1
        ):
            return tuple(state.teams)
        known: list[int | None] = [None] * n
        known[contract.declarer] = 0
        if seat != contract.declarer:
            known[seat] = 1  # he does not hold the called card: a defender
        return tuple(known)

    # ---- derived knowledge ---------------------------------------------------------------

    @property
    def trump(self) -> int:
        """The trump suit: the turned card's, or the called card's (-1 before the call)."""
        if self.trump_card is not None:
            return card_suit(self.trump_card)
        return self.contract.trump if self.contract is not None else -1

    @property
    def trump_card_held(self) -> bool:
        card = self.trump_card
        return card is not None and bool(self.known[self.dealer] >> card & 1)

    @property
    def opening_leader(self) -> int:
        """Who leads (or led) the first trick: the seat after the dealer, or the declarer."""
        return self.first_leader if self.first_leader >= 0 else (self.dealer + 1) % (
            self.rules.players
        )

    def partners(self) -> tuple[int, ...]:
        """The other seats this seat knows to be on its side."""
        mine = self.teams[self.seat] if self.teams else None
        if mine is None:
            return ()
        return tuple(s for s, t in enumerate(self.teams) if s != self.seat and t == mine)

    def opponents(self) -> tuple[int, ...]:
        """The seats this seat knows to be on the other side."""
        mine = self.teams[self.seat] if self.teams else None
        if mine is None:
            return ()
        return tuple(s for s, t in enumerate(self.teams) if t is not None and t != mine)

    @property
    def trick_number(self) -> int:
        return len(self.trick_winners)

    def may_ask_redeal(self) -> bool:
        """Whether this seat may ask for a new deal now (``weak_hand_redeal``): its turn to
        answer, and its hand weak enough (:mod:`sueca.redeal`). Keeping is always allowed."""
        return (self.phase == "redeal" and self.to_play == self.seat
                and may_ask(self.rules, self.hand, self.seat, self.opening_leader))

    def redeal_answers_allowed(self) -> tuple[bool, ...]:
        """The answers this seat may give now: keep (``False``), and ask (``True``) where its
        hand is weak enough; empty when it is not this seat's turn to answer."""
        if self.phase != "redeal" or self.to_play != self.seat:
            return ()
        return (False, True) if self.may_ask_redeal() else (False,)

    @property
    def played(self) -> CardMask:
        return cards_mask(self.plays)

    @property
    def unseen(self) -> CardMask:
        """Cards whose place this seat does not know: in some other hand, but whose?"""
        deck = (1 << self.rules.deck_size) - 1
        known = 0
        for mask in self.known:
            known |= mask
        return deck & ~known & ~self.played

    def legal_moves(self) -> tuple[Card, ...]:
        """The cards this seat may play now (empty when it is not this seat's turn)."""
        if (
            self.to_play != self.seat
            or self.phase != "play"
            or len(self.trick_winners) == self.rules.hand_size
        ):
            return ()
        led = self.trick[0] if self.trick else None
        return mask_cards(legal_mask_for(self.rules, self.hand, led, self.trump))

    def request(self) -> Request | None:
        """What this seat is asked now, or ``None``: the one place a card list, a bid range
        or the redeal question is worked out. The bot protocol's turns, the web view, the
        terminal's prompts and the bots' checks render or check this value."""
        if self.to_play != self.seat:
            return None
        rules = self.rules
        phase = self.phase
        if phase == Phase.PLAY:
            legal = self.legal_moves()
            if not legal:
                return None
            revokes = (mask_cards(self.hand & ~cards_mask(legal)) if rules.renuncia else ())
            return AskCard(self.seat, legal, revokes)
        if phase == Phase.BIDDING:
            return AskBid(self.seat, lowest_bid(rules, self.bids), MAX_BID)
        if phase == Phase.CALLING:
            return AskCall(self.seat, rules.deck_size)
        if phase == Phase.REDEAL:
            return AskRedeal(self.seat, self.may_ask_redeal(), hand_points(rules, self.hand),
                             redeal_limit(rules, self.seat, self.opening_leader))
        return None

    def may_denounce(self) -> bool:
        """Whether this seat may cry *renúncia!* now (``renuncia``: a card has been played and
        no revoke is proven yet), as :meth:`State.may_denounce` says it from public facts."""
        return (self.rules.renuncia and bool(self.plays) and self.redeal_by is None
                and not any(d.correct for d in self.denunciations))

    def provable_revokes(self) -> tuple[int, ...]:
        """The seats this seat can *prove* have revoked from what it has seen: a seat that
        failed to follow a suit (or to trump, under ``must_trump``) and is known to have held a
        card that would have done, because it played one later or this seat can see one in
        its hand. What a bot denounces; a guess is never a proof."""
        if not self.rules.renuncia:
            return ()
        n = self.rules.players
        seats = self.played_by()
        later: list[int] = list(self.known)  # per seat, cards known held at some later time
        proven: set[int] = set()
        for index in range(len(self.plays) - 1, -1, -1):
            card, seat = self.plays[index], seats[index]
            lead_index = index - index % n
            if index != lead_index:
                led = card_suit(self.plays[lead_index])
                suit = card_suit(card)
                held = later[seat]
                if suit != led and held & _SUIT_MASKS[led]:
                    proven.add(seat)
                trump = self.trump
                if (self.rules.must_trump and suit != led and suit != trump and trump >= 0
                        and held & _SUIT_MASKS[trump]):
                    proven.add(seat)
            later[seat] |= 1 << card
        return tuple(sorted(proven))

    def last_trick(self) -> Trick | None:
        """The trick just gathered, still on the cloth until the next card is led (a player has
        just seen it: it is not a past trick looked at again); its points count the last-trick
        bonus when it is the deal's last trick, as :meth:`State.tricks` does. ``None`` at a
        table playing ``no_looking_back``: there a trick is gathered the moment it is taken."""
        n = self.rules.players
        if self.trick or not self.trick_winners or self.rules.no_looking_back:
            return None
        cards = self.plays[-n:]
        points = sum(self.rules.card_points[c] for c in cards)
        if len(self.trick_winners) == self.rules.hand_size:
            points += self.rules.last_trick_bonus
        return Trick(self.played_by()[-n], cards, self.trick_winners[-1], points)

    def current_trick(self) -> Trick:
        """The trick in progress (no winner yet; empty between tricks), as
        :meth:`State.current_trick` gives it."""
        points = sum(self.rules.card_points[c] for c in self.trick)
        return Trick(self.leader, self.trick, None, points)

    def played_by(self) -> tuple[int, ...]:
        """The seat that played each card of :attr:`plays`, worked out from public facts only
        (who led first and who won each trick), as :meth:`State.played_by` gives it."""
        return seats_of_plays(self.rules.players, self.opening_leader, self.trick_winners,
                              len(self.plays))

    def hands_as_dealt(self, hands: Sequence[CardMask]) -> list[CardMask]:
        """``hands`` (each seat's cards now, as far as they are known or sampled) with the
        cards each seat has played put back: the hands as dealt. Once the deal is over every
        hand is empty and every card played, so all of them are public."""
        dealt = list(hands)
        for card, seat in zip(self.plays, self.played_by(), strict=True):
            dealt[seat] |= 1 << card
        return dealt

    def is_void(self, seat: int, suit: int) -> bool:
        return bool(self.voids[seat] >> suit & 1)

    # ---- worlds consistent with what this seat knows -------------------------------------

    def sample_world(self, rng: random.Random) -> tuple[CardMask, ...]:
        """The hands every seat holds now, drawn uniformly among the worlds consistent with
        this information state (own hand, known cards, hand sizes, voids)."""
        if not self._sampler:
            self._sampler.append(_WorldSampler(self))
        try:
            return self._sampler[0].sample(rng)
        except ValueError:
            if not self.rules.renuncia:
                raise
            # A revoke makes a seat look void in a suit it holds, and may leave no world
            # with those voids: at a renuncia table a void is a hint, not a fact.
            self._sampler[0] = _WorldSampler(dataclasses.replace(
                self, voids=(0,) * self.rules.players))
            return self._sampler[0].sample(rng)


# Every card of each suit, of both decks.
_SUIT_MASKS = tuple(sum(1 << c for c in range(80) if card_suit(c) == suit) for suit in SUITS)


def common_knowledge(infos: Sequence[InformationState]) -> tuple[CardMask, ...]:
    """Per seat, the cards of its hand that every seat knows, given every seat's information
    state in seat order: what a spectator or a screen nobody faces may show."""
    known = []
    for seat in range(len(infos)):
        mask = -1
        for info in infos:
            mask &= info.known[seat]
        known.append(mask)
    return tuple(known)


def common_teams(infos: Sequence[InformationState]) -> tuple[int | None, ...]:
    """Each seat's side where every seat knows it, else ``None`` (given every seat's
    information state in seat order): at a bidding table the declarer's side is public, his
    partner is not until the called card is played."""
    return tuple(
        sides.pop() if len(sides := {info.teams[seat] for info in infos}) == 1 else None
        for seat in range(len(infos))
    )


def common_information(infos: Sequence[InformationState], seat: int) -> InformationState:
    """What every seat knows, drawn from ``seat``'s place (given every seat's information
    state in seat order): the view of a spectator, or of a screen nobody in particular faces.
    The cards every seat knows (``seat``'s own only where all know them), the sides every seat
    knows, and the points those sides have taken where they may be counted."""
    known = common_knowledge(infos)
    teams = common_teams(infos)
    mine = infos[seat]
    taken = _side_points(mine.seat_points, teams) if mine.points_taken else ()
    return dataclasses.replace(mine, hand=known[seat], known=known, teams=teams,
                               points_taken=taken)


def _side_points(seat_points: Sequence[int], teams: Sequence[int | None]) -> tuple[int, ...]:
    """Card points per side (0 and 1), counting the seats whose side is known."""
    taken = [0, 0]
    for side, points in zip(teams, seat_points, strict=True):
        if side is not None:
            taken[side] += points
    return tuple(taken)


class _WorldSampler:
    """Exact uniform sampling of the hidden hands.

    Seats that have shown the same voids are interchangeable for every card, so they are
    pooled into one *group* (the cards set aside unseen at the six-player table are one more
    holder, void in nothing). Every card of one suit has the same set of possible groups, so a
    world is a table of counts (how many cards of each suit each group holds), a random split of
    each suit by those counts, and a random split of each group's cards among its seats by their
    hand sizes. The number of worlds behind each count table is a product of multinomials (the
    split inside a group is the same number for any cards), so a dynamic programme over suits
    counts them all, and sampling walks the programme choosing each suit's split with
    probability proportional to the worlds below it. The result is uniform over every
    consistent world, not just plausible; pooling keeps the programme small at eight seats.
    """

    def __init__(self, info: InformationState) -> None:
        self.info = info
        n = info.rules.players
        need = [info.hand_sizes[s] - info.known[s].bit_count() for s in range(n)]
        signature = [info.voids[s] for s in range(n)]
        need.append(info.rules.set_aside)
        signature.append(0)
        self.known = info.known
        groups: dict[int, list[int]] = {}
        for holder in range(n + 1):
            if need[holder] > 0:
                groups.setdefault(signature[holder], []).append(holder)
        self.groups = list(groups.values())  # holders of each group; n is the set-aside pile
        self.seat_need = need
        self.need = tuple(sum(need[h] for h in members) for members in self.groups)
        unseen = mask_cards(info.unseen)
        self.suit_cards = [[c for c in unseen if card_suit(c) == suit] for suit in SUITS]
        self.holders = [
            tuple(g for g, members in enumerate(self.groups)
                  if not signature[members[0]] >> suit & 1)
            for suit in SUITS
        ]
        # later[suit][group]: how many unseen cards of the suits after ``suit`` the group may
        # still take. A split that leaves a group more to fill than that leads to no world,
        # so ``_splits`` never lists it (the pruning keeps 6 and 8 seats fast).
        sizes = [len(cards) for cards in self.suit_cards]
        self.later = [
            [sum(sizes[t] for t in range(suit + 1, len(SUITS)) if g in self.holders[t])
             for g in range(len(self.groups))]
            for suit in SUITS
        ]
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._split_memo: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int]]] = {}
        if self._count(0, self.need) == 0:
            raise ValueError("no world is consistent with this information state")

    def _splits(self, suit: int, need: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Each way to share this suit's unseen cards among its possible groups, with the
        number of card assignments it stands for (a multinomial)."""
        key = (suit, need)
        if key in self._split_memo:
            return self._split_memo[key]
        count = len(self.suit_cards[suit])
        holders = self.holders[suit]
        later = self.later[suit]
        out: list[tuple[tuple[int, ...], int]] = []
        self._split_memo[key] = out
        # Each group must take at least what the later suits cannot give it: a group void in
        # this suit that needs more than they hold makes this need vector a dead end.
        least = [max(0, need[g] - later[g]) for g in range(len(need))]
        if any(least[g] for g in range(len(need)) if g not in holders):
            return out
        # room[i]: the most that holders i, i+1, … can take of this suit.
        room = [0] * (len(holders) + 1)
        for i in range(len(holders) - 1, -1, -1):
            room[i] = room[i + 1] + need[holders[i]]

        def rec(i: int, left: int, split: list[int], weight: int) -> None:
            if i == len(holders):
                out.append((tuple(split), weight))
                return
            group = holders[i]
            for k in range(max(least[group], left - room[i + 1]), min(left, need[group]) + 1):
                split[group] = k
                rec(i + 1, left - k, split, weight // factorial(k))
            split[group] = 0

        if sum(least[g] for g in holders) <= count <= room[0]:
            rec(0, count, [0] * len(need), factorial(count))
        return out

    def _count(self, suit: int, need: tuple[int, ...]) -> int:
        if suit == len(SUITS):
            return 1 if not any(need) else 0
        key = (suit, need)
        if key not in self._memo:
            total = 0
            for split, weight in self._splits(suit, need):
                rest = tuple(a - b for a, b in zip(need, split, strict=True))
                total += weight * self._count(suit + 1, rest)
            self._memo[key] = total
        return self._memo[key]

    def sample(self, rng: random.Random) -> tuple[CardMask, ...]:
        pooled: list[list[Card]] = [[] for _ in self.groups]
        need = self.need
        for suit in SUITS:
            options = []
            for split, weight in self._splits(suit, need):
                rest = tuple(a - b for a, b in zip(need, split, strict=True))
                worlds = weight * self._count(suit + 1, rest)
                if worlds:
                    options.append((split, rest, worlds))
            pick = rng.randrange(sum(w for _, _, w in options))
            chosen = options[-1]
            for option in options:
                if pick < option[2]:
                    chosen = option
                    break
                pick -= option[2]
            split, rest, _ = chosen
            cards = self.suit_cards[suit][:]
            rng.shuffle(cards)
            for group, k in enumerate(split):
                pooled[group] += cards[:k]
                cards = cards[k:]
            need = rest
        hands = [*self.known, 0]
        for members, cards in zip(self.groups, pooled, strict=True):
            if len(members) > 1:
                rng.shuffle(cards)
            for holder in members:
                k = self.seat_need[holder]
                hands[holder] |= cards_mask(cards[:k])
                cards = cards[k:]
        return tuple(hands[:-1])
