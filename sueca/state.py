"""The play of one deal: legal moves, ``push``/``pop``, tricks, card points.

:class:`State` is the full (perfect-information) state, the one the referee holds. Actions are
card ids (0–39). ``push`` plays a card and ``pop`` takes it back, so search can walk the tree
without copying; an illegal card raises :class:`IllegalMoveError` naming the reason and leaves
the state unchanged. What one seat may see of it is :meth:`State.information_state`.

>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> import random
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=3, rng=random.Random(1)))
>>> state.to_play
0
>>> card = state.legal_moves()[0]
>>> state.push(card)
>>> state.pop() == card
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sueca.actions import Action, Bid, Call, Denounce, Denunciation, Phase, Play, Redeal
from sueca.auction import (
    PASS,
    Contract,
    bid_error,
    bidding_order,
    call_error,
    high_bidder,
    lowest_bid,
)
from sueca.cards import (
    CARDS_PER_SUIT,
    DECK_SIZE,
    SUIT_BLOCK_CARDS,
    SUIT_NAMES,
    Card,
    CardMask,
    card_name,
    card_suit,
    format_cards,
    held_copy,
    mask_cards,
)
from sueca.deal import Deal
from sueca.redeal import redeal_error, redeal_order
from sueca.rules import MAX_BID, Rules
from sueca.trick import PlayTables, Trick, play_tables, seats_of_plays

if TYPE_CHECKING:
    from sueca.infostate import InformationState


class IllegalMoveError(ValueError):
    """A card that may not be played now. ``reason`` is one of the ``REASON_*`` codes."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


REASON_OVER = "hand_over"
REASON_TURN = "not_your_turn"
REASON_NOT_HELD = "not_in_hand"
REASON_FOLLOW = "must_follow"
REASON_TRUMP = "must_trump"
REASON_AUCTION = "auction"  # a card before the contract is made, or a bid or call out of turn
REASON_BID = "bad_bid"
REASON_CALL = "bad_call"
REASON_REDEAL = "bad_redeal"  # a new deal asked for by a seat whose hand is not weak enough

REASON_DENOUNCE = "bad_denounce"  # a denunciation where the rules allow none

# What a deal is waiting for (sueca.actions.Phase; the names are kept for older imports).
PHASE_BIDDING = Phase.BIDDING
PHASE_CALLING = Phase.CALLING
PHASE_PLAY = Phase.PLAY
PHASE_OVER = Phase.OVER
# weak_hand_redeal: each seat says whether it wants a new deal before the opening lead; an ask
# ends the deal there, annulled ("redealt"), and the same dealer deals again (sueca.redeal).
PHASE_REDEAL = Phase.REDEAL
PHASE_REDEALT = Phase.REDEALT


# The suit of each card id (both decks).
_SUIT_OF = tuple(card_suit(c) for c in range(2 * DECK_SIZE))
# The single-bit mask of each card id (both decks): a tuple lookup is cheaper than ``1 << card``,
# which allocates a new int on every call.
_BIT = tuple(1 << c for c in range(2 * DECK_SIZE))
# The card tables of the four suit blocks of a one-deck mask, for the inlined ``mask_cards``.
_B0, _B1, _B2, _B3 = SUIT_BLOCK_CARDS
# The cards of every nonempty one-suit mask of one deck: the legal cards when following suit
# (or trumping under must_trump) in one dict lookup.
_SUIT_CARDS: dict[CardMask, tuple[Card, ...]] = {
    pattern << (CARDS_PER_SUIT * suit): SUIT_BLOCK_CARDS[suit][pattern]
    for suit in range(4)
    for pattern in range(1, 1 << CARDS_PER_SUIT)
}


class State:
    """One deal in play. Mutable; ``copy()`` when you need a snapshot.

    Only what cannot be recomputed cheaply is stored: the hands, the plays, whose turn it is, who
    led, where the current trick starts, who won each trick and the points it took. The state
    of the trick in progress (who is winning it, its points) is worked out when it completes,
    so that ``push`` writes no undo record and ``pop`` restores everything from the plays.
    """

    __slots__ = (
        "_auction",
        "_better",
        "_bonus",
        "_cards_in_play",
        "_led_mask",
        "_must_trump",
        "_next_seat",
        "_points",
        "_prev_seat",
        "_proven",
        "_suit_mask_of",
        "_t",
        "_trick_points",
        "_trump_mask",
        "bids",
        "contract",
        "deal",
        "denunciations",
        "first_leader",
        "hands",
        "leader",
        "players",
        "plays",
        "redeal_answers",
        "redeal_by",
        "revokes",
        "rules",
        "seat_points",
        "teams",
        "to_play",
        "trick_start",
        "trick_winners",
        "tricks_total",
        "trump",
        "turned_card",
    )

    def __new__(cls, rules: Rules, deal: Deal) -> State:
        # Two decks need the copies of a card kept anonymous as they are played (see
        # _TwoDeckState); one deck pays nothing for it.
        if cls is State and rules.decks > 1:
            cls = _TwoDeckState
        return object.__new__(cls)

    def __init__(self, rules: Rules, deal: Deal) -> None:
        self.rules = rules
        self.deal = deal
        self.turned_card = deal.trump_card  # which copy it is may change with two decks
        self.players = rules.players
        self.hands = list(deal.hands)
        self.plays: list[Card] = []
        self.bids: list[int] = []
        self.contract: Contract | None = None
        self.teams = rules.teams
        # At a bidding table no card may be played until the contract is made, and with
        # weak_hand_redeal until every seat has kept its hand: the one test they add to
        # ``push`` (the two never meet: the rules refuse a redeal at a bidding table).
        self._auction = rules.bidding or rules.weak_hand_redeal
        self.redeal_answers: list[bool] = []  # True: asked for a new deal (the last answer)
        self.redeal_by: int | None = None
        # renuncia: the indexes in ``plays`` of the cards that failed to follow suit (or to
        # trump), known to the referee alone, and every denunciation made this deal.
        self.revokes: list[int] = []
        self.denunciations: list[Denunciation] = []
        self._proven: Denunciation | None = None  # the correct one, which ended the deal
        if rules.bidding:
            self.trump = -1  # the called card decides it (see ``call``)
            trump = 0  # provisional tables, replaced at the call
            self.to_play = self.leader = self.first_leader = deal.dealer
        else:
            self.trump = trump = _SUIT_OF[deal.trump_card]  # type: ignore[index]
            self.to_play = self.leader = self.first_leader = (deal.dealer + 1) % rules.players
        self.trick_start = 0
        self.seat_points = [0] * rules.players
        self.trick_winners: list[int] = []
        self._trick_points: list[int] = []  # the points of each completed trick, for pop
        # The suit mask of the card led to the trick in progress, 0 between tricks: the one
        # fact about the trick that legal_moves and push need, kept so they need not look it up.
        self._led_mask = 0
        self.tricks_total = rules.hand_size
        self._t = t = play_tables(rules, trump)
        # The tables again as slots (the hot path saves an attribute lookup on every card),
        # unpacked in one statement because a State is made for every simulated deal.
        self._use_tables(t)

    def _use_tables(self, t: PlayTables) -> None:
        (
            self._better,
            self._bonus,
            self._cards_in_play,
            self._must_trump,
            self._next_seat,
            self._points,
            self._prev_seat,
            self._suit_mask_of,
            self._trump_mask,
        ) = t.hot

    # ---- the auction (bidding tables) ----------------------------------------------------

    @property
    def phase(self) -> Phase:
        """``bidding``, ``calling`` (the declarer names his card), ``redeal`` (each seat says
        whether it wants a new deal), ``redealt`` (one did: the deal is annulled), ``play`` or
        ``over`` (every trick taken, or a revoke proven)."""
        if self._auction:
            if self._proven is not None:
                return PHASE_OVER
            if not self.rules.bidding:
                return PHASE_REDEAL if self.redeal_by is None else PHASE_REDEALT
            return PHASE_CALLING if len(self.bids) == self.players else PHASE_BIDDING
        return PHASE_OVER if self.is_finished() else PHASE_PLAY

    def bid(self, value: int, seat: int | None = None) -> None:
        """Bid for the seat to move (0 passes); :class:`IllegalMoveError` says why not."""
        if self.phase != PHASE_BIDDING:
            raise IllegalMoveError(f"no bid is asked for now ({self.phase})", REASON_AUCTION)
        if seat is not None and seat != self.to_play:
            raise IllegalMoveError(
                f"it is seat {self.to_play}'s turn to bid, not seat {seat}'s", REASON_TURN
            )
        error = bid_error(self.rules, self.bids, value)
        if error:
            raise IllegalMoveError(error, REASON_BID)
        self.bids.append(value)
        order = bidding_order(self.rules, self.deal.dealer)
        if len(self.bids) < self.players:
            self.to_play = order[len(self.bids)]
        else:
            self.to_play = high_bidder(self.rules, self.deal.dealer, self.bids)[0]

    def call(self, card: Card, seat: int | None = None) -> None:
        """The declarer names his card: its suit is trump, its holder his secret partner."""
        if self.phase != PHASE_CALLING:
            raise IllegalMoveError(f"no card is to be called now ({self.phase})", REASON_AUCTION)
        declarer, bid = high_bidder(self.rules, self.deal.dealer, self.bids)
        if seat is not None and seat != declarer:
            raise IllegalMoveError(
                f"seat {declarer} won the bidding and calls the card, not seat {seat}",
                REASON_TURN,
            )
        error = call_error(self.rules, card)
        if error:
            raise IllegalMoveError(error, REASON_CALL)
        self._make_contract(Contract(declarer, bid, card))

    def _make_contract(self, contract: Contract) -> None:
        self.contract = contract
        self.trump = contract.trump
        self._t = t = play_tables(self.rules, self.trump)
        self._use_tables(t)
        holder = next(
            (s for s, hand in enumerate(self.hands) if hand >> contract.called_card & 1),
            contract.declarer,
        )
        self.teams = tuple(0 if s in (contract.declarer, holder) else 1
                           for s in range(self.players))
        self._auction = False
        self.to_play = self.leader = self.first_leader = contract.declarer

    @property
    def partner(self) -> int | None:
        """The declarer's partner (the called card's holder; ``None`` when he plays alone or
        before the call). Known to the referee only: see the information state."""
        contract = self.contract
        if contract is None:
            return None
        return next(
            (s for s in range(self.players)
             if s != contract.declarer and self.teams[s] == 0),
            None,
        )

    # ---- the redeal on a weak hand (weak_hand_redeal) ------------------------------------

    def may_ask_redeal(self, seat: int) -> bool:
        """Whether ``seat``'s hand as dealt is weak enough to ask for a new deal (whatever the
        phase; :meth:`answer_redeal` also wants it to be that seat's turn)."""
        return self.rules.weak_hand_redeal and redeal_error(
            self.rules, self.deal.hands[seat], seat, self.first_leader) is None

    def answer_redeal(self, ask: bool, seat: int | None = None) -> None:
        """The seat to answer keeps its hand (``False``) or asks for a new deal (``True``);
        :class:`IllegalMoveError` says why not, and changes nothing. An ask annuls the deal
        (phase ``redealt``): the match deals again with the same dealer
        (:meth:`sueca.match.Match.annul_deal`)."""
        if self.phase != PHASE_REDEAL:
            raise IllegalMoveError(f"no redeal is asked about now ({self.phase})",
                                   REASON_AUCTION)
        if seat is not None and seat != self.to_play:
            raise IllegalMoveError(
                f"it is seat {self.to_play}'s turn to keep or ask for a new deal, not seat "
                f"{seat}'s", REASON_TURN
            )
        if type(ask) is not bool:
            raise IllegalMoveError(f"{ask!r} is not an answer: true (a new deal) or false "
                                   "(keep)", REASON_REDEAL)
        seat = self.to_play
        if ask:
            error = redeal_error(self.rules, self.deal.hands[seat], seat, self.first_leader)
            if error:
                raise IllegalMoveError(error, REASON_REDEAL)
        self.redeal_answers.append(ask)
        if ask:
            self.redeal_by = seat
        elif len(self.redeal_answers) == self.players:
            self._auction = False  # every seat kept: the opening leader leads
            self.to_play = self.first_leader
        else:
            self.to_play = self._next_seat[seat]

    def unanswer_redeal(self) -> bool:
        """Take back the last redeal answer (before any card is played) and return it."""
        if self.plays or not self.redeal_answers:
            raise IndexError("no redeal answer to take back")
        ask = self.redeal_answers.pop()
        if ask:
            self.redeal_by = None
        elif len(self.redeal_answers) == self.players - 1:
            self._auction = True
            self.to_play = self._prev_seat[self.first_leader]
        else:
            self.to_play = self._prev_seat[self.to_play]
        return ask

    # ---- renúncia (renuncia) ----------------------------------------------------------------

    @property
    def proven(self) -> Denunciation | None:
        """The correct denunciation that ended the deal, if one did."""
        return self._proven

    def revoked_by(self, side: int) -> bool:
        """Whether a player of ``side`` has revoked this deal so far (the referee's fact: no
        information state holds it)."""
        seats = self.played_by()
        return any(self.teams[seats[index]] == side for index in self.revokes)

    def may_denounce(self, seat: int) -> bool:
        """Whether ``seat`` may cry *renúncia!* now: the table plays ``renuncia``, a card has
        been played, and no revoke is proven yet. Until the next deal starts: the deal just
        over may still be denounced."""
        return (self.rules.renuncia and bool(self.plays) and self.proven is None
                and self.redeal_by is None)

    def denounce(self, seat: int, correct: bool | None = None) -> Denunciation:
        """``seat`` says the other side has revoked. Correct, the deal ends at once (the
        offenders lose it: :func:`sueca.scoring.score_hand`); wrong, the deal goes on and the
        other side will score the false-denunciation penalty. :class:`IllegalMoveError` where
        the rules allow no denunciation; nothing changes then. ``correct`` is the outcome as
        the referee found it, for a mirror of the deal that cannot see the hands (the bot
        protocol's tracker, told of a denunciation); by default the hands decide."""
        if not 0 <= seat < self.players:
            raise IllegalMoveError(f"{seat!r} is not a seat", REASON_TURN)
        if not self.may_denounce(seat):
            if not self.rules.renuncia:
                why = "this table does not play renúncia (renuncia)"
            elif self.proven is not None:
                why = "a revoke is already proven: the deal is over"
            elif self.redeal_by is not None:
                why = "the deal is annulled"
            else:
                why = "no card has been played yet"
            raise IllegalMoveError(f"no denunciation now: {why}", REASON_DENOUNCE)
        if correct is None:
            correct = self.revoked_by(1 - self.teams[seat])
        found = Denunciation(len(self.plays), seat, correct)
        self.denunciations.append(found)
        if found.correct:
            self._proven = found
            self._auction = True  # nothing more is played: the deal is over
        return found

    # ---- actions: one path for every move ------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """``seat`` makes ``action`` (:mod:`sueca.actions`): the one entry point for a move
        that the referee, records' replay and every test use. ``seat`` is the seat the rules
        ask (the dummy's own seat for its cards). :class:`IllegalMoveError` says why not, and
        nothing changes then. A :class:`Play` naming a face plays the copy the hand holds."""
        if type(action) is Play:
            card = action.card
            if self.rules.decks > 1 and 0 <= seat < self.players and not (
                    self.hands[seat] >> card & 1):
                card = held_copy(self.hands[seat], card)
            self.play(card, seat)
        elif type(action) is Bid:
            self.bid(action.value, seat)
        elif type(action) is Call:
            self.call(action.card, seat)
        elif type(action) is Redeal:
            self.answer_redeal(action.ask, seat)
        elif type(action) is Denounce:
            self.denounce(seat)
        else:
            raise IllegalMoveError(f"{action!r} is not an action", REASON_AUCTION)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now: its cards, bids, call or redeal answers when the
        deal waits for it (the seat the rules ask: the dummy's own), and at a ``renuncia``
        table the cards that would revoke (a person may play them) and a denunciation."""
        out: list[Action] = []
        phase = self.phase
        if seat == self.to_play:
            if phase == PHASE_PLAY:
                legal = self.legal_mask()
                out += [Play(c) for c in self.legal_moves()]
                if self.rules.renuncia:
                    out += [Play(c) for c in mask_cards(self.hands[seat] & ~legal)]
            elif phase == PHASE_BIDDING:
                low = lowest_bid(self.rules, self.bids)
                out += [Bid(PASS), *(Bid(v) for v in range(low, MAX_BID + 1))]
            elif phase == PHASE_CALLING:
                out += [Call(c) for c in range(self.rules.deck_size)]
            elif phase == PHASE_REDEAL:
                out.append(Redeal(False))
                if self.may_ask_redeal(seat):
                    out.append(Redeal(True))
        if self.may_denounce(seat):
            out.append(Denounce())
        return tuple(out)

    @property
    def history(self) -> list[tuple[int, Action]]:
        """Every move of the deal in order, each with the seat that made it: the redeal
        answers, the bids, the call, the cards and any denunciations among them. What
        records and storage keep, and :func:`replay` plays again."""
        rules = self.rules
        out: list[tuple[int, Action]] = []
        asked = redeal_order(rules, self.first_leader)
        out += [(asked[i], Redeal(a)) for i, a in enumerate(self.redeal_answers)]
        order = bidding_order(rules, self.deal.dealer)
        out += [(order[i], Bid(v)) for i, v in enumerate(self.bids)]
        if self.contract is not None:
            out.append((self.contract.declarer, Call(self.contract.called_card)))
        denunciations = iter(self.denunciations)
        pending = next(denunciations, None)
        for index, (card, seat) in enumerate(zip(self.plays, self.played_by(), strict=True)):
            while pending is not None and pending.after == index:
                out.append((pending.seat, Denounce()))
                pending = next(denunciations, None)
            out.append((seat, Play(card)))
        while pending is not None:
            out.append((pending.seat, Denounce()))
            pending = next(denunciations, None)
        return out

    # ---- moves ---------------------------------------------------------------------------

    def legal_mask(self) -> CardMask:
        """The cards the player to move may play, as a mask (0 when the hand is over or the
        auction is on)."""
        if self._auction:
            return 0
        hand = self.hands[self.to_play]
        led = self._led_mask
        if led:
            follow = hand & led
            if follow:
                return follow
            if self._must_trump and hand & self._trump_mask:
                return hand & self._trump_mask
        return hand

    def legal_moves(self) -> tuple[Card, ...]:
        """The cards the player to move may play, suit by suit, low to high."""
        if self._auction:
            return ()
        hand = self.hands[self.to_play]
        led = self._led_mask
        if led:
            follow = hand & led
            if not follow and self._must_trump:
                follow = hand & self._trump_mask
            if follow:
                try:  # cards of one suit: a single lookup
                    return _SUIT_CARDS[follow]
                except KeyError:  # both decks of a suit
                    return mask_cards(follow)
        # mask_cards inlined: a call costs as much as these four lookups.
        try:
            return (
                _B0[hand & 1023] + _B1[hand >> 10 & 1023] + _B2[hand >> 20 & 1023] + _B3[hand >> 30]
            )
        except IndexError:  # cards of a second deck (hand >> 30 is past the last block)
            return mask_cards(hand)

    def is_legal(self, card: Card) -> bool:
        return bool(0 <= card < self.rules.deck_size and self.legal_mask() >> card & 1)

    def play(self, card: Card, seat: int | None = None) -> None:
        """Like :meth:`push`, but also refuse a card offered by a seat whose turn it is not."""
        # Before the contract no card is taken from anyone: the auction is the reason, not
        # whose turn it is; after the last trick, that the hand is over.
        if (seat is not None and seat != self.to_play and not self._auction
                and not self.is_finished()):
            raise IllegalMoveError(
                f"it is seat {self.to_play}'s turn, not seat {seat}'s", REASON_TURN
            )
        self.push(card)

    def push(self, card: Card) -> None:
        """Play ``card`` for the seat to move; raise :class:`IllegalMoveError` if it may not.

        The legality test is written out here rather than calling :meth:`legal_mask`: this is
        the innermost step of every simulation and search. Nothing is written before it passes.
        """
        if self._auction:
            if self.redeal_by is not None:
                raise IllegalMoveError(
                    f"the deal is annulled: seat {self.redeal_by} asked for a new deal",
                    REASON_OVER,
                )
            if self.proven is not None:
                raise IllegalMoveError(
                    f"the deal is over: seat {self.proven.seat} denounced a revoke",
                    REASON_OVER,
                )
            before = ("the contract is made" if self.rules.bidding
                      else "every seat has kept its hand")
            raise IllegalMoveError(
                f"no card may be played before {before} ({self.phase})", REASON_AUCTION
            )
        seat = self.to_play
        hands = self.hands
        hand = hands[seat]
        try:
            bit = _BIT[card]
        except IndexError:  # far beyond any deck: refused below as not a card
            bit = 0
        # ``card < 0`` first: _BIT[-1] is a card's bit. A hand that is over holds nothing.
        if card < 0 or not hand & bit:
            raise self._illegal(card, seat)
        plays = self.plays
        led = self._led_mask
        if not led:  # leading: any card
            hands[seat] = hand ^ bit
            plays.append(card)
            self._led_mask = self._suit_mask_of[card]
            self.to_play = self._next_seat[seat]
            return
        # Following: the suit led, else (must_trump) a trump, else anything.
        if not led & bit and (
            hand & led
            or (self._must_trump and hand & self._trump_mask and not self._trump_mask & bit)
        ):
            if not self.rules.renuncia:
                raise self._illegal(card, seat)
            self.revokes.append(len(plays))  # played as real tables allow: a revoke
        hands[seat] = hand ^ bit
        plays.append(card)
        # The trick is complete when the turn would come back to its leader: a comparison is
        # cheaper than counting the trick's cards.
        leader = self.leader
        next_seat = self._next_seat[seat]
        if next_seat != leader:
            self.to_play = next_seat
            return
        # The card completes the trick: find its winner and points, score it.
        better = self._better
        points = self._points
        start = self.trick_start
        end = len(plays)
        if end - start == 4:  # four players, unrolled: indexing beats a loop over a slice
            c0 = plays[start]
            c1 = plays[start + 1]
            c2 = plays[start + 2]
            win = better[better[better[c0][c1]][c2]][card]
            total = points[c0] + points[c1] + points[c2] + points[card]
            if win == card:
                winner = seat
            elif win == c2:
                winner = self._prev_seat[seat]
            elif win == c1:
                winner = self._prev_seat[self._prev_seat[seat]]
            else:
                winner = leader
        else:
            win = plays[start]
            total = points[win]
            for other in plays[start + 1:]:
                win = better[win][other]
                total += points[other]
            winner = (leader + plays.index(win, start) - start) % self.players
        self.trick_start = end
        if end == self._cards_in_play:  # the last trick
            total += self._bonus
        self.trick_winners.append(winner)
        self._trick_points.append(total)
        self.seat_points[winner] += total
        self.to_play = self.leader = winner
        self._led_mask = 0

    def pop(self) -> Card:
        """Take back the last card played and return it."""
        plays = self.plays
        if not plays:
            raise IndexError("pop from a deal with no card played")
        card = plays.pop()
        revokes = self.revokes
        if revokes and revokes[-1] == len(plays):
            revokes.pop()
        start = self.trick_start
        if len(plays) < start:  # that card had completed a trick: unscore it
            winners = self.trick_winners
            self.seat_points[winners.pop()] -= self._trick_points.pop()
            self.trick_start = start = start - self.players
            leader = winners[-1] if winners else self.first_leader
            self.leader = leader
            seat = self._prev_seat[leader]  # the seat before the leader played it
            self._led_mask = self._suit_mask_of[plays[start]]
        else:
            if len(plays) == start:  # that card was the lead
                self._led_mask = 0
            seat = self._prev_seat[self.to_play]
        self.hands[seat] |= _BIT[card]
        self.to_play = seat
        return card

    def _illegal(self, card: Card, seat: int) -> IllegalMoveError:
        if self.is_finished():
            return IllegalMoveError("the hand is over: no card may be played", REASON_OVER)
        if not 0 <= card < self.rules.deck_size:
            return IllegalMoveError(f"{card!r} is not a card", REASON_NOT_HELD)
        name = card_name(card)
        hand = self.hands[seat]
        if not hand >> card & 1:
            return IllegalMoveError(f"{name} is not in seat {seat}'s hand", REASON_NOT_HELD)
        led = self._t.suit[self.plays[self.trick_start]]
        follow = hand & self._t.suit_mask[led]
        if follow:
            return IllegalMoveError(
                f"must follow {SUIT_NAMES[led]}: seat {seat} holds "
                f"{format_cards(reversed(mask_cards(follow)))}",
                REASON_FOLLOW,
            )
        trumps = hand & self._t.trump_mask
        return IllegalMoveError(
            f"must trump: seat {seat} has no {SUIT_NAMES[led]} and holds "
            f"{format_cards(reversed(mask_cards(trumps)))}",
            REASON_TRUMP,
        )

    # ---- the trick in progress -----------------------------------------------------------

    @property
    def win_card(self) -> Card:
        """The card winning the trick in progress (-1 between tricks)."""
        plays = self.plays
        start = self.trick_start
        if len(plays) == start:
            return -1
        better = self._better
        win = plays[start]
        for card in plays[start + 1:]:
            win = better[win][card]
        return win

    @property
    def win_seat(self) -> int:
        """The seat winning the trick in progress (-1 between tricks)."""
        win = self.win_card
        if win < 0:
            return -1
        return (self.leader + self.plays.index(win, self.trick_start) - self.trick_start) % (
            self.players
        )

    @property
    def trick_points(self) -> int:
        """The card points in the trick in progress (0 between tricks)."""
        points = self._points
        return sum(points[card] for card in self.plays[self.trick_start:])

    # ---- what the state shows ------------------------------------------------------------

    def is_finished(self) -> bool:
        """Whether the deal is over: every trick taken, or (renuncia) a revoke proven."""
        return len(self.trick_winners) == self.tricks_total or self._proven is not None

    @property
    def trick(self) -> list[Card]:
        """The cards of the trick in progress, in play order (empty between tricks)."""
        return self.plays[self.trick_start:]

    @property
    def trick_number(self) -> int:
        """How many tricks are complete (the index of the trick in progress)."""
        return len(self.trick_winners)

    def tricks(self) -> list[Trick]:
        """Every completed trick, in order."""
        n = self.players
        out = []
        leader = self.first_leader
        for i, winner in enumerate(self.trick_winners):
            cards = tuple(self.plays[i * n:(i + 1) * n])
            points = sum(self._t.points[c] for c in cards)
            if i == self.tricks_total - 1:
                points += self.rules.last_trick_bonus
            out.append(Trick(leader, cards, winner, points))
            leader = winner
        return out

    def current_trick(self) -> Trick:
        return Trick(self.leader, tuple(self.trick), None, self.trick_points if self.trick else 0)

    def team_points(self) -> list[int]:
        """Card points (bonuses included) each side has taken so far: the partnerships, or at
        a bidding table the declarer's side (0) and the defenders (1)."""
        team = self.teams
        totals = [0, 0]
        if team:
            for seat, points in enumerate(self.seat_points):
                totals[team[seat]] += points
        return totals

    def team_tricks(self) -> list[int]:
        counts = [0, 0]
        if self.teams:
            for winner in self.trick_winners:
                counts[self.teams[winner]] += 1
        return counts

    def trump_card_held(self) -> bool:
        """Whether the turned trump card is still face up in the dealer's hand."""
        card = self.turned_card
        return card is not None and bool(self.hands[self.deal.dealer] >> card & 1)

    def played_mask(self) -> CardMask:
        mask = 0
        for card in self.plays:
            mask |= 1 << card
        return mask

    def played_by(self) -> tuple[int, ...]:
        """The seat that played each card of :attr:`plays`, in order."""
        return seats_of_plays(self.players, self.first_leader, self.trick_winners,
                              len(self.plays))

    def remaining_cards(self) -> list[tuple[Card, ...]]:
        return [mask_cards(h) for h in self.hands]

    def information_state(self, seat: int) -> InformationState:
        """What ``seat`` may know now: the one place where hidden information is filtered."""
        from sueca.infostate import InformationState

        return InformationState.of(self, seat)

    def copy(self) -> State:
        other = object.__new__(type(self))
        for name in _slots_of(type(self)):
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list) else value)
        return other

    def __repr__(self) -> str:
        return (
            f"<State trick {self.trick_number + 1}, seat {self.to_play} to play, "
            f"trick [{format_cards(self.trick)}], points {self.team_points()}>"
        )


def replay(rules: Rules, deal: Deal, actions: Iterable[tuple[int, Action]]) -> State:
    """The deal ``deal`` with ``actions`` (seat and action, as :attr:`State.history` lists
    them) applied in order; :class:`IllegalMoveError` at the first that may not be made."""
    state = State(rules, deal)
    for seat, action in actions:
        state.apply(seat, action)
    return state


class _TwoDeckState(State):
    """A deal with two decks, whose two copies of a card stay anonymous as they are played.

    Which copy a player holds is a coin toss (:func:`sueca.deal.number_copies`), but which copy
    he *plays* would tell the table something: a player who always plays his first-deck copy
    first shows, by playing a second-deck one, that he holds no other. So plays are numbered by
    play order: the first copy of a face played is always ``c`` and the second ``c + 40``. When
    a player plays ``c + 40`` while ``c`` is unplayed, the two ids are exchanged wherever they
    are (his hand, another hand, the set-aside pile, the turned card) before the card goes to
    the trick; :meth:`pop` exchanges them back. Identical cards are identical in play, so only
    the numbering changes, and every information state shows plays in that anonymous order.

    Likewise the dealer holding the turned card and its twin: whichever he plays, the table
    sees the turned card go (nobody can tell the two apart), so the card played becomes the
    turned card and the twin he keeps stays hidden. Were the turned card left in his hand, every
    seat would learn that he held two.
    """

    __slots__ = ("_swapped", "_turned_moves")

    def __init__(self, rules: Rules, deal: Deal) -> None:
        super().__init__(rules, deal)
        self._swapped: list[int] = []  # the play indexes at which the copies were exchanged
        # (play index, the turned card's id before it) where a play became the turned card
        self._turned_moves: list[tuple[int, Card]] = []

    def _exchange(self, face: Card) -> None:
        low = _BIT[face]
        both = low | _BIT[face + DECK_SIZE]
        hands = self.hands
        for seat, hand in enumerate(hands):
            held = hand & both
            if held and held != both:
                hands[seat] = hand ^ both
        turned = self.turned_card
        if turned is not None and turned % DECK_SIZE == face:
            self.turned_card = turned ^ face ^ (face + DECK_SIZE)

    def push(self, card: Card) -> None:
        turned = self.turned_card
        hand = self.hands[self.to_play]
        twins = _BIT[card % DECK_SIZE] | _BIT[card % DECK_SIZE + DECK_SIZE]
        holds_turned_and_twin = (turned is not None and turned % DECK_SIZE == card % DECK_SIZE
                                 and hand & twins == twins)
        face = card - DECK_SIZE
        if (
            0 <= face < DECK_SIZE
            and not self._auction
            and hand >> card & 1
            and not self.played_mask() >> face & 1
        ):
            self._exchange(face)
            try:
                super().push(face)
            except IllegalMoveError:
                self._exchange(face)
                raise
            self._swapped.append(len(self.plays) - 1)
        else:
            super().push(card)
        played = self.plays[-1]
        now_turned = self.turned_card
        if holds_turned_and_twin and now_turned is not None and now_turned != played:
            self._turned_moves.append((len(self.plays) - 1, now_turned))
            self.turned_card = played

    def pop(self) -> Card:
        moves = self._turned_moves
        if moves and moves[-1][0] == len(self.plays) - 1:
            self.turned_card = moves.pop()[1]
        card = super().pop()
        swapped = self._swapped
        if swapped and swapped[-1] == len(self.plays):
            swapped.pop()
            self._exchange(card)
            return card + DECK_SIZE
        return card


_SLOTS: dict[type, tuple[str, ...]] = {}


def _slots_of(cls: type) -> tuple[str, ...]:
    """Every slot of a State class, its bases' included (worked out once per class: search
    copies states by the thousand)."""
    try:
        return _SLOTS[cls]
    except KeyError:
        names = tuple(n for klass in cls.__mro__ for n in getattr(klass, "__slots__", ()))
        _SLOTS[cls] = names
        return names
