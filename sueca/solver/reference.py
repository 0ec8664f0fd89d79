"""The double-dummy search in pure Python: the reference the C core is tested against, and
its fallback where the core is not built.

Both solvers answer the same questions about a *position*: the four hands (card masks), the
trump suit, the seat that led the trick in progress and that trick's cards (0–3 of them).
A value is always the card points team 0 takes from the position on, the cards already on
the table included; team 1 takes the rest.

How it is fast (the ideas of the bridge double-dummy solvers, adapted to card points):

- **Null-window tests.** :meth:`ReferenceSolver.test` answers only "does team 0 take at least
  ``target``?", which cuts off as soon as one move settles it. :meth:`ReferenceSolver.value`
  finds the exact value with a few such tests, galloping out from a guess and then bisecting
  (MTD(f) with a points target).
- **A transposition table at trick starts.** From a trick start on, the value depends only on
  the hands and the leader, so it is stored there as bounds ``[lb, ub]``. The key renumbers
  each suit's zero-point cards 0, 1, 2, … in order: what matters of a 2–6 is only which cards
  it beats and who holds them, so positions that differ only in which small cards are gone
  share one entry (the "relative ranks" of bridge solvers; point cards keep their identity
  because their points differ).
- **One card of each equivalent run.** Two zero-point cards of one hand with no live card
  (in a hand or on the table) between them are interchangeable: only the lower is searched.
- **Move ordering.** The lead that last cut off here (stored in the table) first; then sure
  winners and cheap leads; when following, points onto a partner's safe trick, the cheapest
  card that wins, the cheapest discard.
- **Sure points.** The unbroken run of top trumps that one team holds can never lose a trick,
  so its points bound the value from both sides before any search.

The C core (``_dds.c``) adds things that change how fast it gets there, not where: its
tests are fail-soft (a "yes" returns a lower bound that may exceed the target, a "no" an upper
bound, which sharpens the table and narrows the next test), it bounds trick starts by the
leader's quick points too (what he can cash at once), it orders moves more finely (leads into
the partner's sure trick or ruff, cards that win the trick for sure), it does not search
dominated cards (of a run of one hand's cards in a suit, where the trick's side is settled,
only the one with the most or the fewest points), and it plays the last two tricks out
without the table (docs/solver.md). The tests hold both to the same values.
"""

from __future__ import annotations

from collections.abc import Sequence

from sueca.cards import CardMask

Position = tuple[tuple[int, int, int, int], int, int, tuple[int, ...]]
"""``(hands, trump, leader, trick)``: the arguments every solver method takes."""

_SUIT = tuple(c // 10 for c in range(40))
_SUIT_MASK = tuple(0x3FF << (10 * s) for s in range(4))
_LOW_RANKS_MAX = 5


def _top(mask: int) -> int:
    return mask.bit_length() - 1


class PositionError(ValueError):
    """Hands and a trick that are not a position of a deal."""


class _OutOfNodes(Exception):
    """The node limit of a call ran out: unwinds the search without storing anything."""


class ReferenceSolver:
    """Double-dummy values for one table's rules (card points, teams, ``must_trump``, bonus).

    The transposition table persists between calls: its entries stay true for as long as the
    rules do, so solving many positions of one deal (or many deals) gets faster as it fills.
    """

    def __init__(
        self,
        points: Sequence[int],
        teams: Sequence[int],
        must_trump: bool,
        last_trick_bonus: int,
        table_size: int = 1 << 20,
    ) -> None:
        if len(points) != 40 or len(teams) != 4 or any(t not in (0, 1) for t in teams):
            raise ValueError("a solver needs 40 card points and 4 seats in teams 0 and 1")
        self.points = tuple(points)
        self.teams = tuple(teams)
        self.must_trump = must_trump
        self.bonus = last_trick_bonus
        self.table_size = table_size
        # Per suit: how many of the lowest ranks score nothing (renumbered in table keys).
        self.low_run = []
        for suit in range(4):
            run = 0
            while run < _LOW_RANKS_MAX and self.points[10 * suit + run] == 0:
                run += 1
            self.low_run.append(run)
        self.table: dict[tuple[int, ...], list[int]] = {}
        self.nodes = 0
        self.threads = 1  # the C core's option; this search runs on one thread
        self._node_limit = 0
        self._trump = 0
        self._trump_mask = 0

    def clear(self) -> None:
        self.table.clear()

    # ---- the public questions ------------------------------------------------------------

    def value(self, hands: Sequence[CardMask], trump: int, leader: int,
              trick: Sequence[int], guess: int = -1, node_limit: int = 0) -> int | None:
        """Team 0's points from this position on under perfect play by both sides; ``None``
        when ``node_limit`` (if not 0) search nodes were not enough."""
        pos = self._position(hands, trump, leader, trick)
        self._start(node_limit)
        try:
            return self._solve_value(pos, guess)
        except _OutOfNodes:
            return None

    def test(self, hands: Sequence[CardMask], trump: int, leader: int,
             trick: Sequence[int], target: int) -> bool:
        """Whether team 0 takes at least ``target`` points from this position on."""
        pos = self._position(hands, trump, leader, trick)
        self._start(0)
        return self._ge(pos, target)

    def move_values(self, hands: Sequence[CardMask], trump: int, leader: int,
                    trick: Sequence[int], guess: int = -1,
                    node_limit: int = 0) -> list[tuple[int, int]] | None:
        """Each legal card of the seat to move, low to high, with team 0's points after it;
        ``None`` when ``node_limit`` (if not 0) search nodes were not enough."""
        pos = self._position(hands, trump, leader, trick)
        self._start(node_limit)
        try:
            return self._move_values(pos, guess)
        except _OutOfNodes:
            return None

    def _start(self, node_limit: int) -> None:
        if node_limit < 0:
            raise ValueError("node_limit must be >= 0")
        self._node_limit = self.nodes + node_limit if node_limit else 0

    def _move_values(self, pos: _Pos, guess: int) -> list[tuple[int, int]]:
        seat = pos.seat_to_move()
        legal = self._legal(pos, seat)
        live = pos.live()
        values: dict[int, int] = {}
        out = []
        for card in _cards(legal):
            below = self._equivalent_below(card, legal, live)
            if below >= 0:
                values[card] = values[below]
            else:
                undo = pos.play(self, card)
                if pos.n == 4:
                    won, saved = pos.close_trick(self)
                    child_guess = guess if guess < 0 else max(guess - won, 0)
                    values[card] = won + self._solve_value(pos, child_guess)
                    pos.reopen_trick(saved)
                else:
                    values[card] = self._solve_value(pos, guess)
                pos.unplay(card, undo)
                guess = values[card]
            out.append((card, values[card]))
        return out

    # ---- the search ----------------------------------------------------------------------

    def _position(self, hands: Sequence[CardMask], trump: int, leader: int,
                  trick: Sequence[int]) -> _Pos:
        if len(hands) != 4 or not 0 <= trump < 4 or not 0 <= leader < 4 or len(trick) > 3:
            raise PositionError("a position is 4 hands, a trump suit 0-3, a leader 0-3 and "
                                "a trick of at most 3 cards")
        seen = 0
        for hand in hands:
            if hand >> 40 or hand & seen:
                raise PositionError("hands must be disjoint masks of cards 0-39")
            seen |= hand
        self._trump = trump
        self._trump_mask = _SUIT_MASK[trump]
        pos = _Pos(list(hands), leader)
        for card in trick:
            if not 0 <= card < 40 or seen >> card & 1:
                raise PositionError("trick cards must be cards 0-39 not in a hand")
            seen |= 1 << card
            seat = (leader + pos.n) % 4
            if pos.n == 0 or self._beats(card, pos.win_card):
                pos.win_seat, pos.win_card = seat, card
            pos.trick_points += self.points[card]
            pos.cards.append(card)
            pos.n += 1
        size = pos.hand[pos.seat_to_move()].bit_count()
        for k in range(4):
            want = size - 1 if k < pos.n else size
            if pos.hand[(leader + k) % 4].bit_count() != want or (size == 0 and pos.n):
                raise PositionError("hand sizes do not fit the trick in progress")
        return pos

    def _beats(self, card: int, winning: int) -> bool:
        sc, sw = _SUIT[card], _SUIT[winning]
        return (sc == sw and card > winning) or (sc == self._trump and sw != self._trump)

    def _legal(self, pos: _Pos, seat: int) -> int:
        hand = pos.hand[seat]
        if pos.n == 0:
            return hand
        follow = hand & _SUIT_MASK[_SUIT[pos.cards[0]]]
        if follow:
            return follow
        if self.must_trump and hand & self._trump_mask:
            return hand & self._trump_mask
        return hand

    def _beaters(self, winning: int) -> int:
        suit = _SUIT[winning]
        above = _SUIT_MASK[suit] & ~((2 << winning) - 1)
        return above if suit == self._trump else above | self._trump_mask

    def _equivalent_below(self, card: int, legal: int, live: int) -> int:
        """The next lower live card when it is an interchangeable zero-point card of the same
        hand (then ``card`` need not be searched), else -1."""
        suit = _SUIT[card]
        if card % 10 >= self.low_run[suit]:
            return -1
        below = live & _SUIT_MASK[suit] & ((1 << card) - 1)
        if below and legal >> _top(below) & 1:
            return _top(below)
        return -1

    def _ordered_moves(self, pos: _Pos, seat: int, hint: int) -> list[int]:
        legal = self._legal(pos, seat)
        hands = pos.hand
        everything = hands[0] | hands[1] | hands[2] | hands[3]
        live = pos.live()
        mine = hands[seat]
        team = self.teams[seat]
        trump, trump_mask, points = self._trump, self._trump_mask, self.points
        beaters = 0
        partner_winning = safe = False
        last = pos.n == 3
        if pos.n:
            beaters = self._beaters(pos.win_card)
            led_mask = _SUIT_MASK[_SUIT[pos.cards[0]]]
            partner_winning = self.teams[pos.win_seat] == team
            safe = True
            for k in range(pos.n + 1, 4):
                other = (pos.leader + k) % 4
                if self.teams[other] == team:
                    continue
                h = hands[other]
                can = h & led_mask
                if not can:
                    can = h & trump_mask if self.must_trump and h & trump_mask else h
                if can & beaters:
                    safe = False
        scored = []
        for card in _cards(legal):
            if self._equivalent_below(card, legal, live) >= 0:
                continue
            suit, rank, p = _SUIT[card], card % 10, points[card]
            if card == hint:
                score = 1000
            elif pos.n == 0:
                higher = everything & ~mine & _SUIT_MASK[suit] & ~((2 << card) - 1)
                master = higher == 0
                if master and suit != trump:
                    for k in (1, 3):
                        h = hands[(seat + k) % 4]
                        if not h & _SUIT_MASK[suit] and h & trump_mask:
                            master = False
                score = 200 + p if master else 100 - p - (10 if suit == trump else 0) - rank
            elif partner_winning:
                score = 100 + p if last or safe else 50 - p - rank
            elif beaters >> card & 1:
                score = 200 + p if last else 150 - rank - (10 if suit == trump else 0)
            else:
                score = 50 - 2 * p - (10 if suit == trump else 0) - rank
            scored.append((score, card))
        # Stable on ties, low card first: the same order as the C core's insertion sort.
        scored.sort(key=lambda item: -item[0])
        return [card for _, card in scored]

    def _search(self, pos: _Pos, target: int, hint: int = -1) -> tuple[bool, int]:
        """Does team 0 take ``target`` points from here? Also the card that settled it."""
        self.nodes += 1
        if self._node_limit and self.nodes >= self._node_limit:
            raise _OutOfNodes
        seat = pos.seat_to_move()
        maximizing = self.teams[seat] == 0
        for card in self._ordered_moves(pos, seat, hint):
            undo = pos.play(self, card)
            if pos.n == 4:
                won, saved = pos.close_trick(self)
                result = self._trick_start(pos, target - won)
                pos.reopen_trick(saved)
            else:
                result = self._search(pos, target)[0]
            pos.unplay(card, undo)
            if result == maximizing:
                return result, card
        return not maximizing, -1

    def _trick_start(self, pos: _Pos, target: int) -> bool:
        hands = pos.hand
        everything = hands[0] | hands[1] | hands[2] | hands[3]
        if target <= 0:
            return True
        if not everything:
            return False
        remaining = self._mask_points(everything) + self.bonus
        if target > remaining:
            return False
        lb, ub = 0, remaining
        trumps = everything & self._trump_mask
        if trumps:
            run_team = self.teams[pos.owner(_top(trumps))]
            sure = 0
            while trumps:
                card = _top(trumps)
                if self.teams[pos.owner(card)] != run_team:
                    break
                sure += self.points[card]
                trumps ^= 1 << card
            if run_team == 0:
                lb = sure
            else:
                ub = remaining - sure
            if lb >= target:
                return True
            if ub < target:
                return False
        if hands[pos.leader].bit_count() == 1:  # the last trick plays itself
            self.nodes += 1
            win_seat, win_card = pos.leader, _top(hands[pos.leader])
            for k in range(1, 4):
                seat = (pos.leader + k) % 4
                card = _top(hands[seat])
                if self._beats(card, win_card):
                    win_seat, win_card = seat, card
            return (remaining if self.teams[win_seat] == 0 else 0) >= target
        key = self._key(pos, everything)
        entry = self.table.get(key)
        hint = -1
        if entry is not None:
            if entry[0] >= target:
                return True
            if entry[1] < target:
                return False
            lb, ub = max(lb, entry[0]), min(ub, entry[1])
            if entry[2] >= 0:
                hint = self._decanonical(everything, entry[2])
        result, best = self._search(pos, target, hint)
        if result:
            lb = max(lb, target)
        else:
            ub = min(ub, target - 1)
        if entry is None and len(self.table) >= self.table_size:
            self.table.clear()  # crude, but the table only ever speeds things up
        stored_best = self._canonical_card(everything, best) if best >= 0 else -1
        if entry is not None and stored_best < 0:
            stored_best = entry[2]
        self.table[key] = [lb, ub, stored_best]
        return result

    def _ge(self, pos: _Pos, target: int) -> bool:
        if pos.n == 0:
            return self._trick_start(pos, target)
        if target <= 0:
            return True
        return self._search(pos, target)[0]

    def _solve_value(self, pos: _Pos, guess: int) -> int:
        hands = pos.hand
        everything = hands[0] | hands[1] | hands[2] | hands[3]
        if not everything:
            return 0
        lo, hi = 0, self._mask_points(everything) + pos.trick_points + self.bonus
        target = (hi + 1) // 2 if guess < 0 else guess
        step, direction = 1, 0
        while lo < hi:
            target = min(max(target, lo + 1), hi)
            result = self._ge(pos, target)
            if result:
                lo = target
            else:
                hi = target - 1
            sign = 1 if result else -1
            if direction in (0, sign):
                direction = sign
                target = lo + step if result else hi - step + 1
                step *= 2
            else:
                direction = 2
            if direction == 2:
                target = lo + (hi - lo + 1) // 2
        return lo

    # ---- table keys ----------------------------------------------------------------------

    def _mask_points(self, mask: int) -> int:
        points = self.points
        return sum(points[c] for c in _cards(mask))

    def _key(self, pos: _Pos, everything: int) -> tuple[int, ...]:
        canon = list(pos.hand)
        for suit in range(4):
            run = self.low_run[suit]
            if not run:
                continue
            shift = 10 * suit
            low = (1 << run) - 1
            present = everything >> shift & low
            for seat in range(4):
                held = canon[seat] >> shift & low
                packed, j = 0, 0
                for rank in range(run):
                    if present >> rank & 1:
                        if held >> rank & 1:
                            packed |= 1 << j
                        j += 1
                canon[seat] = canon[seat] & ~(low << shift) | packed << shift
        return (canon[0], canon[1], canon[2], canon[3], pos.leader, self._trump)

    def _canonical_card(self, everything: int, card: int) -> int:
        suit, rank = _SUIT[card], card % 10
        if rank >= self.low_run[suit]:
            return card
        below = everything >> (10 * suit) & ((1 << rank) - 1)
        return 10 * suit + below.bit_count()

    def _decanonical(self, everything: int, card: int) -> int:
        suit, rank = _SUIT[card], card % 10
        if rank >= self.low_run[suit]:
            return card
        present = everything >> (10 * suit) & ((1 << self.low_run[suit]) - 1)
        ranks = [r for r in range(self.low_run[suit]) if present >> r & 1]
        return 10 * suit + ranks[rank] if rank < len(ranks) else -1


class _Pos:
    """A mutable position: hands, the trick in progress, who is winning it."""

    __slots__ = ("cards", "hand", "leader", "n", "trick_points", "win_card", "win_seat")

    def __init__(self, hands: list[int], leader: int) -> None:
        self.hand = hands
        self.leader = leader
        self.n = 0
        self.cards: list[int] = []
        self.win_seat = self.win_card = -1
        self.trick_points = 0

    def seat_to_move(self) -> int:
        return (self.leader + self.n) % 4

    def owner(self, card: int) -> int:
        bit = 1 << card
        return next(s for s in range(4) if self.hand[s] & bit)

    def live(self) -> int:
        live = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
        for card in self.cards:
            live |= 1 << card
        return live

    def play(self, solver: ReferenceSolver, card: int) -> tuple[int, int, int]:
        undo = (self.win_seat, self.win_card, self.trick_points)
        seat = self.seat_to_move()
        self.hand[seat] ^= 1 << card
        if self.n == 0 or solver._beats(card, self.win_card):
            self.win_seat, self.win_card = seat, card
        self.trick_points += solver.points[card]
        self.cards.append(card)
        self.n += 1
        return undo

    def unplay(self, card: int, undo: tuple[int, int, int]) -> None:
        self.n -= 1
        self.cards.pop()
        self.hand[self.seat_to_move()] ^= 1 << card
        self.win_seat, self.win_card, self.trick_points = undo

    def close_trick(self, solver: ReferenceSolver) -> tuple[int, tuple[int, list[int], int]]:
        """End the full trick so that the next one starts. Returns the points it gave team 0
        and what :meth:`reopen_trick` needs to take that back."""
        points = self.trick_points
        if not (self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]):
            points += solver.bonus
        won = points if solver.teams[self.win_seat] == 0 else 0
        saved = (self.leader, self.cards, self.trick_points)
        self.leader = self.win_seat
        self.cards = []
        self.n = 0
        self.trick_points = 0
        return won, saved

    def reopen_trick(self, saved: tuple[int, list[int], int]) -> None:
        self.leader, self.cards, self.trick_points = saved
        self.n = 4


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
