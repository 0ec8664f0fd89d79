"""Alpha-mu: PIMC's sampled worlds, searched so that this seat chooses once for all of them.

PIMC (:mod:`sueca.bots.pimc`) solves each sampled world double-dummy and averages, so every
later card of every seat is chosen *knowing the world*: where this seat will have to guess
(which opponent holds the ace, which suit to keep), each world's solution guesses right, and
the card that leads into the guess is overrated. This is *strategy fusion* (Frank and Basin,
"Search in games with incomplete information", 1998). Alpha-mu (Cazenave and Ventos, "The
alpha-mu search algorithm for the game of bridge", 2019) removes it for the next ``M`` moves
of the side that searches: it searches the game tree of the sampled worlds *together*, a
node's value being a set of vectors of per-world outcomes.

- At this seat's own moves (the max player), the card played is the same in every world:
  this seat's information there is the same in all of them (its hand, and every card played
  since, which the tree branches on). The node's value is the union of its cards' values.
- At every other seat's move (partner and opponents alike), as in PIMC, the player is
  assumed to see the world: in each world it picks the card that is best for its side (the
  partner the highest outcome, an opponent the lowest). The node's value is every
  combination of one vector from each card's value, taken world by world through max (the
  partner) or min (an opponent): this seat's later choices below different cards are choices
  at different information sets, so they combine freely.
- After this seat's ``M``-th move from here, or where the deal ends, each world is solved
  double-dummy (:func:`sueca.solver.new_core`'s ``move_values``: one call gives every card of
  the ``M``-th move).
- A set keeps only its Pareto front (a vector no better than another in every world adds no
  strategy) and at most :data:`FRONT_CAP` vectors (the best means), which bounds the cost and
  can only understate a card.

A card's value is the best weighted mean (identical worlds drawn twice weigh twice) over the
vectors of its set; the bot plays the best card. With ``depth=1`` this is exactly PIMC's mean
over the same worlds. The partner is treated as in PIMC rather than as a second max player:
in Sueca the partners see different hands, and a joint max over both would let this seat
"know" its partner's cards; alpha-mu's point is only that *this* seat cannot see the world.

The search is exponential in ``M`` and in the cards left, so it runs from trick ``from_trick``
on (7 by default: the last four tricks, where a world's solution costs microseconds); before
it, the bot plays as ``pimc`` (its default budgets). Options (``alphamu:depth=2:worlds=24``):

- ``depth`` (M, 2 by default, at most :data:`MAX_DEPTH`): this seat's own moves searched as
  one strategy;
- ``worlds`` (24, at most :data:`MAX_WORLDS`): worlds sampled as PIMC samples them
  (:func:`sueca.worlds.sample_state`);
- ``from_trick`` (7): the first trick (1–10) searched this way;
- ``nodes`` (2,000,000): solver nodes for the whole search; past them, or past
  :data:`LEAF_LIMIT` solver calls, the move is pimc's (deterministic: the same seed plays the
  same cards on any machine);
- ``pimc_worlds``, ``pimc_nodes``: pimc's ``worlds`` and ``nodes`` where it plays as pimc;
- ``time`` (seconds) or the front-end's budget (``set_time_budget``, the protocol's
  ``time_ms``): a hard ceiling; alpha-mu may use half of it, and when it runs out the rest
  goes to pimc, whose answer is played. Every loop that grows with the options (the
  sampling, which stops at half of alpha-mu's share and searches the worlds drawn so far;
  the solver calls; the merging of fronts) looks at the clock.

Measured in BENCHMARKS.md ("Strategy fusion: alpha-mu"): in 1,500 duplicate endgames from
trick 7 against ``pimc`` it gained +0.02 card points a deal (95% interval −0.19 to +0.23) and
+0.002 game points (−0.008 to +0.012), and −0.52 (−2.79 to +1.75) in 150 pairs of whole deals:
not shown to win, so it is an option, not a level.

>>> import random
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(3)))
>>> for _ in range(26):  # into trick 7
...     state.push(state.legal_moves()[0])
>>> info = state.information_state(state.to_play)
>>> card = AlphaMuBot(seed=1, worlds=8).choose(info)
>>> card in info.legal_moves() and card == AlphaMuBot(seed=1, worlds=8).choose(info)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from operator import ge
from typing import TYPE_CHECKING

from sueca.bots.base import Bot, BotOption, parse_options, playable
from sueca.bots.pimc import CEILING_SHARE, PimcBot
from sueca.cards import Card, card_name, one_per_face
from sueca.infostate import InformationState
from sueca.rules import Rules
from sueca.state import State
from sueca.worlds import sample_state

if TYPE_CHECKING:
    from sueca.solver import SearchCore

DEFAULT_DEPTH = 2
DEFAULT_WORLDS = 24
DEFAULT_FROM_TRICK = 7
DEFAULT_NODES = 2_000_000
FRONT_CAP = 24  # vectors a node's set keeps (the best weighted means)
LEAF_LIMIT = 20_000  # solver calls a move may make
# Under a time budget: alpha-mu's share of the ceiling (pimc has the rest when it runs out),
# and the solver's nodes a second assumed when turning seconds into a node limit (low: a call
# that overruns cannot be stopped).
ALPHAMU_SHARE = 0.5
SAMPLING_SHARE = 0.5  # of alpha-mu's share, the most the sampling may take
# The largest options taken: this seat has at most ten cards to choose, and past a thousand
# worlds a front's merging (FRONT_CAP squared vectors of one outcome per world) costs
# seconds a node, for nothing the budgets would let it finish.
MAX_DEPTH = 10
MAX_WORLDS = 1000
_RATE = 2_000_000.0
_TABLE_BITS = 16  # 4 << 16 entries, 8 MB, emptied at every move
OPTIONS = (
    BotOption(("depth", "m"), int, 1),
    BotOption(("worlds", "samples"), int, 1),
    BotOption(("from_trick",), int, 1),
    BotOption(("nodes",), int, 1),
    BotOption(("time",), float, 0, above=True),
)
# Options handed to the pimc it plays as before ``from_trick`` and out of budget
# (``alphamu:pimc_worlds=8:pimc_nodes=500000`` plays like ``pimc:worlds=8:nodes=500000``
# there).
PIMC_OPTIONS = {"pimc_worlds": "worlds", "pimc_nodes": "nodes"}

Vector = tuple[float, ...]


class OutOfBudget(Exception):
    """The search ran out of nodes, solver calls or time: the move is pimc's."""


class StrategySearch:
    """One alpha-mu search over a fixed list of worlds (full states at this seat's turn, one
    public history): :meth:`card_values` gives each legal card's value. Tests and
    benchmarks give it worlds of their own choosing; the bot gives it sampled ones."""

    def __init__(self, core: SearchCore, worlds: Sequence[State], seat: int,
                 weights: Sequence[float] | None = None, nodes: int = 0,
                 leaf_limit: int = LEAF_LIMIT, deadline: float | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if not worlds:
            raise ValueError("alpha-mu needs at least one world")
        self.core = core
        self.states = list(worlds)
        self.seat = seat
        self.team = worlds[0].teams[seat]
        self.weights = list(weights) if weights is not None else [1.0] * len(worlds)
        self.nodes_left = nodes  # 0: no node budget
        self.leaf_limit = leaf_limit
        self.deadline = deadline
        self.clock = clock  # the deadline's clock (tests give one of their own)
        self.leaves = 0  # solver calls made
        rules = worlds[0].rules
        self.total = sum(rules.card_points[:rules.deck_size]) + rules.last_trick_bonus

    def card_values(self, depth: int) -> dict[Card, float]:
        """Each legal card's value: the best weighted mean this seat's side can be sure of
        with one strategy for its next ``depth`` moves (this one included) over all the
        worlds, the other seats seeing the world. Raises :class:`OutOfBudget`."""
        if depth < 1:
            raise ValueError(f"alpha-mu's depth is at least 1, not {depth}")
        everyone = list(range(len(self.states)))
        fronts = self._own_move(everyone, depth)
        return {card: max(self._mean(everyone, v) for v in front)
                for card, front in fronts.items()}

    def _check_time(self) -> None:
        if self.deadline is not None and self.clock() >= self.deadline:
            raise OutOfBudget("out of time")

    def _mean(self, worlds: Sequence[int], vector: Vector) -> float:
        weights = self.weights
        total = sum(weights[w] for w in worlds)
        return sum(weights[w] * x for w, x in zip(worlds, vector, strict=True)) / total

    def _own_move(self, worlds: list[int], left: int) -> dict[Card, list[Vector]]:
        """Each card's set at this seat's move: one card for every world."""
        states = self.states
        if left == 1:
            columns: dict[Card, list[float]] = {}
            for w in worlds:
                for card, ours in self._solve(states[w]).items():
                    columns.setdefault(card, []).append(ours)
            return {card: [tuple(column)] for card, column in columns.items()}
        fronts: dict[Card, list[Vector]] = {}
        for card in one_per_face(states[worlds[0]].legal_moves()):
            for w in worlds:
                states[w].push(card)
            fronts[card] = self._node(worlds, left - 1)
            for w in worlds:
                states[w].pop()
        return fronts

    def _node(self, worlds: list[int], left: int) -> list[Vector]:
        """The set of vectors (one outcome per world of ``worlds``, in that order) that this
        seat's strategies from here can reach."""
        states = self.states
        first = states[worlds[0]]
        if first.is_finished():  # every world at once: they share the public history
            return [tuple(float(states[w].team_points()[self.team]) for w in worlds)]
        if len(worlds) == 1:
            # One world left below here: this seat's information singles it out, so the
            # search is the world's double-dummy value.
            return [(self._solve(first, each_card=False)[-1],)]
        if first.to_play == self.seat:
            union = [v for front in self._own_move(worlds, left).values() for v in front]
            return self._front(worlds, union)
        # Another seat, seeing the world: in each world its best card for its side.
        seat = first.to_play
        ours = [states[w].teams[seat] == self.team for w in worlds]
        by_card: dict[Card, list[int]] = {}
        for position, w in enumerate(worlds):
            for card in states[w].legal_moves():
                by_card.setdefault(card, []).append(position)
        empty = tuple(float("-inf") if mine else float("inf") for mine in ours)
        combined: list[Vector] = [empty]
        for card, positions in by_card.items():
            self._check_time()
            below = [worlds[p] for p in positions]
            for w in below:
                states[w].push(card)
            child = self._node(below, left)
            for w in below:
                states[w].pop()
            joined = []
            for vector in combined:
                for other in child:
                    values = list(vector)
                    for p, x in zip(positions, other, strict=True):
                        values[p] = max(values[p], x) if ours[p] else min(values[p], x)
                    joined.append(tuple(values))
            combined = self._front(worlds, joined)
        return combined

    def _front(self, worlds: Sequence[int], vectors: list[Vector]) -> list[Vector]:
        """The vectors no other one matches or beats in every world, the best means first,
        at most :data:`FRONT_CAP` of them."""
        weights = [self.weights[w] for w in worlds]

        def mean(v: Vector) -> float:  # a world not yet filled in counts 0 (a partial set)
            return sum(q * x for q, x in zip(weights, v, strict=True) if abs(x) != float("inf"))

        kept: list[Vector] = []
        for vector in sorted(set(vectors), key=mean, reverse=True):
            self._check_time()  # each step costs up to FRONT_CAP times the worlds
            # Sorted by mean: a vector can only be dominated by one already kept.
            if not any(all(map(ge, keep, vector)) for keep in kept):
                kept.append(vector)
                if len(kept) == FRONT_CAP:
                    break
        return kept

    def _solve(self, state: State, each_card: bool = True) -> dict[Card, float]:
        """This seat's side's points in the end after each legal card of this world's seat
        to move: the points taken, and the double-dummy value of the rest; with
        ``each_card=False``, the position's value alone, under the key -1."""
        from sueca.solver import position_of

        self.leaves += 1
        if self.leaves > self.leaf_limit:
            raise OutOfBudget(f"more than {self.leaf_limit} solver calls")
        limit = self.nodes_left
        if self.deadline is not None:
            seconds = self.deadline - self.clock()
            if seconds <= 0:
                raise OutOfBudget("out of time")
            by_time = max(int(seconds * _RATE), 1)
            limit = min(limit, by_time) if limit else by_time
        before = self.core.nodes
        position = position_of(state)
        if each_card:
            values = self.core.move_values(*position, -1, limit)
        else:
            value = self.core.value(*position, -1, limit)
            values = None if value is None else [(-1, value)]
        if self.nodes_left:
            self.nodes_left -= self.core.nodes - before
            if self.nodes_left <= 0 and values is not None:
                self.nodes_left = 1  # this answer counts; the next call stops at once
        if values is None:
            raise OutOfBudget("out of solver nodes")
        # Team 0's points in the end are what it took and what the solver gives it (one deck,
        # every card dealt: team 1 has the rest).
        taken = state.team_points()[0]
        if self.team == 0:
            return {card: float(taken + v) for card, v in values}
        return {card: float(self.total - taken - v) for card, v in values}


class AlphaMuBot(Bot):
    """PIMC's worlds, searched with one strategy for this seat's next moves (see the
    module); before ``from_trick``, or out of budget, it plays as pimc."""

    name = "alphamu"

    def __init__(self, seed: int | None = None, depth: int = DEFAULT_DEPTH,
                 worlds: int = DEFAULT_WORLDS, from_trick: int = DEFAULT_FROM_TRICK,
                 nodes: int = DEFAULT_NODES, time_limit: float | None = None) -> None:
        super().__init__(seed)
        for key, value, most in (("depth", depth, MAX_DEPTH), ("worlds", worlds, MAX_WORLDS)):
            if not 1 <= value <= most:
                raise ValueError(f"alphamu's {key} is a whole number from 1 to {most}, not "
                                 f"{value}")
        self.depth = depth
        self.worlds = worlds
        self.from_trick = from_trick
        self.nodes = nodes
        self.time_limit = time_limit
        self.pimc = PimcBot(seed)
        self.last_values: dict[Card, float] = {}  # each card's value, the last alpha-mu move
        self.last_worlds = 0  # distinct worlds the last alpha-mu move searched (0: pimc's)
        self.last_fallback = ""  # why the last move was pimc's, when it was
        self._core: SearchCore | None = None
        self._core_rules: Rules | None = None
        self.last_sampled = 0  # worlds drawn by the last alpha-mu move, repeats included
        self.clock: Callable[[], float] = time.perf_counter  # the budget's clock

    def __getstate__(self) -> dict[str, object]:
        state = self.__dict__.copy()  # the solver's table (a C object) is built again
        state["_core"] = state["_core_rules"] = None
        return state

    def configure(self, options: Mapping[str, str]) -> None:
        """Options from a spec such as ``alphamu:depth=3:worlds=16`` (see the module); a bad
        one raises ``ValueError`` and changes nothing."""
        options = dict(options)
        for_pimc = {PIMC_OPTIONS[k]: options.pop(k) for k in list(options) if k in PIMC_OPTIONS}
        values = parse_options(self.name, options, OPTIONS)
        if "from_trick" in values and values["from_trick"] > 10:
            raise ValueError(f"alphamu option from_trick={options['from_trick']!r} is not a "
                             "valid value (a trick from 1 to 10)")
        for key, most in (("depth", MAX_DEPTH), ("worlds", MAX_WORLDS)):
            if key in values and values[key] > most:
                given = options.get(key, options.get("m" if key == "depth" else "samples"))
                raise ValueError(f"alphamu option {key}={given!r} is too large (a whole "
                                 f"number from 1 to {most})")
        if for_pimc:
            pimc = PimcBot(self.seed)
            try:
                pimc.configure(for_pimc)
            except ValueError as error:
                raise ValueError(f"alphamu: {error}") from None
            pimc.set_time_budget(self.time_budget)
            self.pimc = pimc
        self.depth = int(values.get("depth", self.depth))
        self.worlds = int(values.get("worlds", self.worlds))
        self.from_trick = int(values.get("from_trick", self.from_trick))
        self.nodes = int(values.get("nodes", self.nodes))
        if "time" in values:
            self.time_limit = float(values["time"])

    def set_time_budget(self, seconds: float | None) -> None:
        super().set_time_budget(seconds)
        self.pimc.set_time_budget(seconds)

    def new_match(self, rules: Rules, seat: int) -> None:
        super().new_match(rules, seat)
        self.pimc.new_match(rules, seat)

    def close(self) -> None:
        self._core = None
        self._core_rules = None
        self.pimc.close()

    def bid(self, info: InformationState) -> int:
        return self.pimc.bid(info)

    def call(self, info: InformationState) -> Card:
        return self.pimc.call(info)

    def choose(self, info: InformationState) -> Card:
        return self.explain(info)[0]

    def explain(self, info: InformationState) -> tuple[Card, str]:
        legal = playable(info)
        self.last_values = {}
        self.last_worlds = 0
        self.last_sampled = 0
        if len(one_per_face(legal)) == 1:
            self.last_fallback = ""
            return legal[0], "the only legal card"
        started = self.clock()
        ceiling = self._ceiling()
        deadline = None if ceiling is None else started + ceiling * ALPHAMU_SHARE
        try:
            values = self._search(info, started, deadline)
        except OutOfBudget as why:
            self.last_fallback = str(why)
            return self._pimc(info, ceiling, started)
        self.last_fallback = ""
        self.last_values = values
        points = info.rules.card_points
        card = max(legal, key=lambda c: (values[c], -points[c], -c))  # ties as pimc's
        return card, (f"alphamu: {card_name(card)} is worth {values[card]:.1f} points to our "
                      f"side with one strategy for our next {self.depth} cards over "
                      f"{self.last_worlds} sampled deals")

    def _search(self, info: InformationState, started: float, deadline: float | None
                ) -> dict[Card, float]:
        from sueca.solver import SolverError, new_core

        if info.trick_number + 1 < self.from_trick:
            raise OutOfBudget(f"before trick {self.from_trick}")
        if not info.teams or info.teams[info.seat] is None:
            raise OutOfBudget("this seat's side is not known")
        if self._core_rules is not info.rules:
            self._core_rules = info.rules
            try:
                self._core = new_core(info.rules, table_bits=_TABLE_BITS)
            except SolverError:
                self._core = None
        if self._core is None:
            raise OutOfBudget("a table the solver does not play")
        self._core.clear()  # the nodes a move costs depend on the seed and position alone
        # A world drawn twice is searched once and weighs twice. Under a budget the drawing
        # stops at its share of the time, and the worlds drawn by then are searched.
        stop = None if deadline is None else started + (deadline - started) * SAMPLING_SHARE
        index: dict[tuple[int, ...], int] = {}
        states: list[State] = []
        weights: list[float] = []
        for drawn in range(self.worlds):
            if stop is not None and drawn and self.clock() >= stop:
                break
            self.last_sampled = drawn + 1
            state = sample_state(info, self.rng)
            key = tuple(state.hands)
            if key in index:
                weights[index[key]] += 1
            else:
                index[key] = len(states)
                states.append(state)
                weights.append(1.0)
        self.last_worlds = len(states)
        search = StrategySearch(self._core, states, info.seat, weights=weights,
                                nodes=self.nodes, deadline=deadline, clock=self.clock)
        return search.card_values(self.depth)

    def _pimc(self, info: InformationState, ceiling: float | None, started: float
              ) -> tuple[Card, str]:
        """Pimc's card, inside what is left of the ceiling."""
        if ceiling is None:
            card, reason = self.pimc.explain(info)
        else:
            left = max(ceiling - (self.clock() - started), 0.001)
            self.pimc.set_time_budget(left / CEILING_SHARE)
            try:
                card, reason = self.pimc.explain(info)
            finally:
                self.pimc.set_time_budget(self.time_budget)
        return card, f"{reason} ({self.last_fallback})"

    def _ceiling(self) -> float | None:
        budgets = [b for b in (self.time_limit, self.time_budget) if b is not None]
        return min(budgets) * CEILING_SHARE if budgets else None
