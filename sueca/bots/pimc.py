"""Perfect-information Monte Carlo (PIMC): sample the hidden hands, solve each world exactly.

For each move the bot draws worlds uniformly among those consistent with what its seat knows
(:meth:`InformationState.sample_state`: exact uniform sampling that respects the voids shown
and the dealer's turned trump card), solves every world with the double-dummy solver
(:mod:`sueca.solver`), and plays the card with the best mean of its side's points over the
worlds. This is how the strongest bridge and skat programs began (GIB, Kermit); its known
flaw is that it assumes that every player will see all cards from the next card on
("strategy fusion"), which matters little in a game decided by points rather than contracts.

Budgets, per move:

- ``nodes`` (the default, 4,000,000 search nodes): worlds are solved until the next one would
  need more nodes than are left. A count of nodes, unlike a clock, gives the same play on any
  machine, so the bot is deterministic given its seed.
- ``time`` (seconds, e.g. ``pimc:time=1``): as many worlds as fit; the play then depends on
  the machine's speed.
- ``worlds``: at most this many worlds (32 by default); ``pimc:worlds=20:nodes=0`` solves
  exactly 20 worlds whatever they cost (the fixed-samples mode, for experiments).

Inference (``pimc:inference=heuristic``; ``inference=none``, the default, is the pimc of
before, move for move): each solved world is weighted by how likely it makes the cards the
other seats already played, under a model of how a player plays (:mod:`sueca.bots.inference`:
the heuristic bot's card with probability ``1 - softening`` plus an even share of
``softening`` over the legal cards; ``softening=0.5`` by default), and the cards' means are
weighted means. A world in which an opponent threw its king on an ace while it held a small
card of the suit counts less than one in which the king was forced. ``candidates=K`` (K > 1)
instead draws K × ``worlds`` candidate worlds, scores them all, and solves worlds drawn from
them by weight (sampling-importance-resampling; a world drawn again costs nothing). Scoring a
world replays the deal's plays on its hands and asks the model at each choice of another
seat: well under a millisecond late in a deal, and no search nodes, so the node budget plays
the same on any machine; under a time budget it counts against the clock like the rest.
Its strength and cost: BENCHMARKS.md, "Inference". The rollout tables (below) draw their
worlds uniformly whatever the option.

Early in a deal a single world can cost more than the budget (the first trick's ten-card
positions take a second or more); with no world solved in time the bot plays as the
heuristic bot would, and :attr:`PimcBot.last_worlds` says so (0).

Tables the solver does not play (two decks at six or eight seats, five-player Italiana) get
the same search with a different evaluation: each sampled world is played out once per legal
card by the heuristic bot in every seat (determinized Monte-Carlo rollouts), and the card with
the best mean for the seat's side in those worlds is played. The budgets keep their meaning:
a card played in a rollout counts :data:`ROLLOUT_NODE_COST` nodes (about what the C solver
searches in the time the heuristic takes to choose one card), a world is only started when its
whole cost (legal cards × cards left) fits in the nodes left, and ``time`` and ``worlds`` work
as above. The bidding is the heuristic's (:mod:`sueca.bots.bidding`).

>>> import random
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(3)))
>>> for _ in range(24):  # into trick 7, where worlds are cheap
...     state.push(state.legal_moves()[0])
>>> info = state.information_state(state.to_play)
>>> card = PimcBot(seed=1, worlds=8).choose(info)
>>> card in info.legal_moves() and card == PimcBot(seed=1, worlds=8).choose(info)
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from sueca.bots.base import Bot, BotOption, parse_options, playable
from sueca.bots.heuristic import HeuristicBot
from sueca.bots.inference import DEFAULT_SOFTENING, PlayModel, WorldScorer, play_model
from sueca.cards import DECK_SIZE, Card, card_name, one_per_face
from sueca.infostate import InformationState
from sueca.rules import Rules
from sueca.state import State
from sueca.worlds import sample_state

if TYPE_CHECKING:
    from sueca.solver import SearchCore

DEFAULT_WORLDS = 32
DEFAULT_NODES = 4_000_000
DEFAULT_MIN_WORLDS = 1
# Search nodes a second, to turn a time budget into node limits (the C core does about 10M
# alone, half that on a busy machine; a low first guess keeps the first world inside the
# budget, and the estimate is corrected after every world).
_START_RATE = 2_000_000.0
# Under a time budget: the share of it the worlds may use (sampling, the fallback and the
# answer's way back take the rest), and the most worlds a move solves.
CEILING_SHARE = 0.8
RATE_MARGIN = 0.75  # of the nodes the measured rate says fit in the time left
TIMED_WORLDS = 400
# An easy decision, under a time budget: after this many worlds, the best card ahead of
# every other by this many standard errors of the paired difference ends the search early.
SETTLE_WORLDS = 12
SETTLE_Z = 3.0
_TABLE_BITS = 17  # 4 << 17 entries, 16 MB: a bot's own table, emptied at every move
# Search nodes one card of a heuristic rollout counts for (both take about 0.1 ms).
ROLLOUT_NODE_COST = 1000
OPTIONS = (
    BotOption(("worlds", "samples"), int, 1),
    BotOption(("nodes",), int, 0),
    BotOption(("time",), float, 0, above=True),
    BotOption(("min_worlds",), int, 1),
    BotOption(("softening",), float, 0, above=True),
    BotOption(("candidates",), int, 1),
    BotOption(("spread",), float, 0),
)
# goal=match:spread=S: a doubt narrower than a card point is none, one wider than every
# point in play makes every outcome alike.
MIN_SPREAD = 0.1
MAX_SPREAD = 240.0
GOALS = ("points", "match")
INFERENCES = ("none", "heuristic")
# With inference: the candidate worlds drawn and scored per world the move may solve (its
# ``worlds``), from which the solved worlds are drawn by weight; 1: the solved worlds
# themselves are weighted.
DEFAULT_CANDIDATES = 1
# With inference under a time budget: the share of the ceiling the candidates may take.
SCORING_SHARE = 0.25


class PimcBot(Bot):
    """Sample worlds, solve each double-dummy, play the best mean."""

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = DEFAULT_WORLDS,
        nodes: int | None = DEFAULT_NODES,
        time_limit: float | None = None,
        min_worlds: int = DEFAULT_MIN_WORLDS,
    ) -> None:
        super().__init__(seed)
        self.worlds = worlds
        self.min_worlds = min_worlds
        self.nodes = nodes  # None or 0: no node budget
        self.time_limit = time_limit
        self.fallback = HeuristicBot(seed)
        self.last_worlds = 0  # worlds solved for the last move
        # What they are worth once weighted by inference (Kish's effective sample size).
        self.last_effective_worlds = 0.0
        self.last_means: dict[Card, float] = {}  # each card's mean card points, last move
        self.last_equity: dict[Card, float] = {}  # its chance of winning the match (goal=match)
        self._rate = _START_RATE
        self._core: SearchCore | None = None
        self._core_rules: Rules | None = None
        self.rollouts = False  # the last move was searched by rollouts, not by the solver
        self._worlds_set = False  # a spec set ``worlds``: a cap under a time budget too
        self.goal = "points"  # or "match": the chance of winning the match (goal=match)
        # Inference (:mod:`sueca.bots.inference`): the play model that weights the worlds by
        # the cards the other seats played; None draws them uniformly (today's pimc).
        self.play_model: PlayModel | None = None
        self.inference = "none"
        self.softening = DEFAULT_SOFTENING
        self.candidates = DEFAULT_CANDIDATES
        # Playing for the match: the card points' spread (at the deal's start) over which the
        # stake of a world's outcome is averaged; 0 takes each world's outcome as sure.
        self.spread = 0.0

    def __getstate__(self) -> dict[str, object]:
        # The search table (16 MB, a C object) is not copied: a copy (the server's bot
        # workers get one per move) builds its own at its first move. Every move empties the
        # table first, so the copy plays the same cards.
        state = self.__dict__.copy()
        state["_core"] = state["_core_rules"] = None
        return state

    def configure(self, options: Mapping[str, str]) -> None:
        """Options from a bot spec such as ``pimc:worlds=16``, ``pimc:time=1`` or
        ``pimc:nodes=0``; an unknown option or a bad value raises ``ValueError`` and changes
        nothing. A time budget replaces the default node budget; with ``nodes`` given too,
        whichever runs out first ends the move."""
        options = dict(options)
        goal = options.pop("goal", None)
        if goal is not None and goal not in GOALS:
            raise ValueError(f"pimc option goal={goal!r} is not a valid value (points or match)")
        inference = options.pop("inference", None)
        if inference is not None and inference not in INFERENCES:
            raise ValueError(f"pimc option inference={inference!r} is not a valid value "
                             "(heuristic or none)")
        values = parse_options(self.name, options, OPTIONS)
        if "softening" in values and values["softening"] > 1:
            raise ValueError(f"pimc option softening={options['softening']!r} is not a valid "
                             "value (a number above 0, at most 1)")
        if values.get("spread") and not MIN_SPREAD <= values["spread"] <= MAX_SPREAD:
            raise ValueError(f"pimc option spread={options['spread']!r} is not a valid value "
                             f"(0, or card points from {MIN_SPREAD:g} to {MAX_SPREAD:g})")
        if goal is not None:
            self.goal = goal
        if "softening" in values:
            self.softening = float(values["softening"])
        if "candidates" in values:
            self.candidates = int(values["candidates"])
        if "spread" in values:
            self.spread = float(values["spread"])
        if inference is not None:
            self.inference = inference
        self.play_model = play_model(self.inference, self.softening)
        if "time" in values:
            self.time_limit = values["time"]
            self.nodes = None  # the clock is the budget now
        if "worlds" in values:
            self.worlds = int(values["worlds"])
            self._worlds_set = True
        if "min_worlds" in values:
            self.min_worlds = int(values["min_worlds"])
        if "nodes" in values:
            self.nodes = int(values["nodes"])

    def choose(self, info: InformationState) -> Card:
        return self.explain(info)[0]

    def deal_over(self, info: InformationState, hands: tuple[int, ...]) -> None:
        self.follow_deal(info)  # the score it plays for next deal

    def close(self) -> None:
        """Let the search core go (its table is 16 MB): a server frees it when the match ends
        or the table leaves memory. Asked again, the bot builds another."""
        self._core = None
        self._core_rules = None
        self.fallback.close()

    def bid(self, info: InformationState) -> int:
        return self.fallback.bid(info)

    def call(self, info: InformationState) -> Card:
        return self.fallback.call(info)

    def explain(self, info: InformationState) -> tuple[Card, str]:
        legal = playable(info)
        if len(one_per_face(legal)) == 1:  # one card, or two copies of it
            self.last_worlds = 0
            self.last_effective_worlds = 0.0
            return legal[0], "the only legal card"
        means = self.evaluate(info)  # the goal's: card points, or the match's chance
        if self.last_worlds < self.min_worlds:
            card, reason = self.fallback.explain(info)
            return card, (f"{self.last_worlds} worlds solved within the budget, too few; "
                          f"heuristic: {reason}")
        points = info.rules.card_points
        # Ties go to the card worth fewer points, then to the lower card: stable and cheap.
        card = max(legal, key=lambda c: (means[c], -points[c], -c))
        how = ("played out by the heuristic from each card" if self.rollouts
               else "solved double-dummy")
        if self.last_equity and not self.rollouts:
            return card, (
                f"pimc: {card_name(card)} wins the match {100 * means[card]:.1f}% of the "
                f"time ({self.last_means[card]:.1f} points for our side) over "
                f"{self.last_worlds} sampled deals {how}")
        return card, (
            f"pimc: {card_name(card)} averages {means[card]:.1f} points for our side "
            f"over {self.last_worlds} sampled deals {how}"
        )

    def evaluate(self, info: InformationState) -> dict[Card, float]:
        """Each legal card's mean points for this seat's side over the worlds solved within
        the budget (empty when none was)."""
        from sueca.solver import SolverError, new_core, position_of, remaining_points

        if self._core_rules is not info.rules:
            self._core_rules = info.rules
            try:
                self._core = new_core(info.rules, table_bits=_TABLE_BITS)
            except SolverError:
                self._core = None  # a table the solver does not play: rollouts instead
        core = self._core
        self.rollouts = core is None
        if core is None:
            return self._rollouts(info)
        # Each move starts from an empty table: the nodes a world costs, and so the play under
        # a node budget, then depend on the seed and the position alone.
        core.clear()
        team = info.teams[info.seat]
        totals: dict[Card, float] = {}
        points_totals: dict[Card, int] = {}
        solved = 0
        started = time.perf_counter()
        ceiling = self._ceiling()
        # Under a time budget the worlds' cap is the larger one, unless a spec set it: the
        # clock, not a count, ends the move.
        cap = self.worlds if ceiling is None or self._worlds_set else max(
            self.worlds, TIMED_WORLDS)
        nodes_left = self.nodes or 0
        worth = self._worth(info)
        per_world: list[dict[Card, float]] = []
        # With inference, each solved world weighs its likelihood (``candidates=1``: the
        # worlds are today's, weighted); or, with more candidates, the worlds come from a pool
        # of scored ones, drawn by weight (with replacement: a world drawn again reuses its
        # solution and costs no nodes).
        pool = self._posterior(info, ceiling, started)
        solutions: dict[int, list[tuple[Card, int]]] = {}
        scorer = WorldScorer(self.play_model, info) if (
            self.play_model is not None and pool is None) else None
        logs: list[float] = []  # each solved world's log-likelihood (the scorer's)
        per_points: list[dict[Card, int]] = []
        for _ in range(cap):
            limit = 0
            if self.nodes:
                limit = nodes_left
            if ceiling is not None:
                seconds_left = ceiling - (time.perf_counter() - started)
                if seconds_left <= 0:
                    break
                # Under a margin: the rate is a wall-clock one, and a busy machine's varies.
                by_time = max(int(seconds_left * self._rate * RATE_MARGIN), 1)
                limit = min(limit, by_time) if limit else by_time
            if pool is None:
                state, pick = sample_state(info, self.rng), -1
            else:
                pick = pool.draw(self.rng)
                state = pool.worlds[pick]
            values = solutions.get(pick)
            if values is None:
                before, clock = core.nodes, time.perf_counter()
                values = core.move_values(*position_of(state), -1, limit)
                spent = core.nodes - before
                elapsed = time.perf_counter() - clock
                if elapsed > 0.01 and spent > 0:
                    self._rate = spent / elapsed
                nodes_left -= spent
                if values is None:
                    break  # the budget ran out inside this world: it does not count
                if pick >= 0:
                    solutions[pick] = values
            total = remaining_points(state)
            world: dict[Card, float] = {}
            for card, team0 in values:
                ours = team0 if team == 0 else total - team0
                points_totals[card] = points_totals.get(card, 0) + ours
                world[card] = value = worth(ours)
                totals[card] = totals.get(card, 0) + value
            per_world.append(world)
            if scorer is not None:
                logs.append(scorer.log_weight(state))
                per_points.append({card: team0 if team == 0 else total - team0
                                   for card, team0 in values})
            solved += 1
            if self.nodes and nodes_left <= 0:
                break
            if ceiling is not None and _settled(per_world, _weights(logs) if logs else None):
                break  # an easy decision: the rest of the budget is not needed
        self.last_worlds = solved
        self.last_effective_worlds = float(solved)
        if logs:
            weights = _weights(logs)
            self.last_effective_worlds = sum(weights) ** 2 / sum(w * w for w in weights)
            self.last_means = _weighted_means(per_points, weights)
            self.last_equity = _weighted_means(per_world, weights) if (
                worth is not float) else {}
            return self.last_equity or self.last_means
        if pool is not None:
            self.last_effective_worlds = pool.effective_size()
        # The card points a card averages, whatever the goal (hints and reviews show them);
        # playing for the match, the chance of winning it too.
        self.last_means = {c: v / solved for c, v in points_totals.items()} if solved else {}
        self.last_equity = {c: v / solved for c, v in totals.items()} if (
            solved and worth is not float) else {}
        return self.last_equity or self.last_means

    def _posterior(self, info: InformationState, ceiling: float | None,
                   started: float) -> _Pool | None:
        """With inference: ``candidates`` × ``worlds`` worlds drawn uniformly and each scored
        by the play model (:class:`sueca.bots.inference.WorldScorer`), fewer when a time
        budget's share for them runs out; None without inference."""
        if self.play_model is None or self.candidates == 1:
            return None
        scorer = WorldScorer(self.play_model, info)
        worlds: list[State] = []
        logs: list[float] = []
        for _ in range(self.candidates * self.worlds):
            if ceiling is not None and worlds and (
                    time.perf_counter() - started > ceiling * SCORING_SHARE):
                break
            world = sample_state(info, self.rng)
            worlds.append(world)
            logs.append(scorer.log_weight(world))
        return _Pool(worlds, logs)

    def _worth(self, info: InformationState) -> Callable[[int], float]:
        """What the side's points from the remaining tricks are worth to it: the points, or
        playing for the match (``goal=match``), its chance of winning the match once the deal
        ends with them (:func:`sueca.bots.equity.deal_worth`). The worth of every possible
        total is looked up, not computed, in the worlds loop."""
        # Imported here: ``python -m sueca.bots.equity`` runs the module as a script, which
        # must not be imported first by the package.
        from sueca.bots.equity import match_worth, plays_for_match, smoothed

        if self.goal != "match" or not plays_for_match(info.rules):
            return float
        worth = match_worth(self, info)
        if self.spread:
            # A double-dummy world's points are a guess at how the deal will end, the less
            # sure the more tricks are left: the stake is averaged over that doubt.
            tricks_left = info.rules.hand_size - len(info.trick_winners)
            left = info.rules.total_points - sum(info.seat_points)
            worth = smoothed(worth, left, self.spread * math.sqrt(
                tricks_left / info.rules.hand_size))
        return lambda remaining: worth[remaining]

    def _ceiling(self) -> float | None:
        """The seconds this move's search may take: the spec's ``time`` or the budget the
        front-end told (the smaller), less a margin for the move's other work; None when
        neither is set."""
        budgets = [b for b in (self.time_limit, self.time_budget) if b is not None]
        if not budgets:
            return None
        return min(budgets) * CEILING_SHARE

    def _rollouts(self, info: InformationState) -> dict[Card, float]:
        """Each legal card's mean points for this seat's side over sampled worlds, each world
        played out from each card by the heuristic bot in every seat (see the module)."""
        legal = info.legal_moves()
        moves = one_per_face(legal)  # two copies of a face are one move: played out once
        playout = self.fallback  # the heuristic keeps no state: one serves every seat
        totals: dict[Card, int] = {}
        solved = 0
        started = time.perf_counter()
        ceiling = self._ceiling()
        nodes_left = self.nodes or 0
        for _ in range(self.worlds):
            if ceiling is not None and time.perf_counter() - started >= ceiling:
                break
            state = sample_state(info, self.rng)
            cost = len(moves) * sum(h.bit_count() for h in state.hands) * ROLLOUT_NODE_COST
            if self.nodes and cost > nodes_left:
                break
            nodes_left -= cost
            side = state.teams[info.seat]  # this world's sides (the secret partner sampled)
            before = state.team_points()[side]
            for card in moves:
                world = state.copy()
                world.push(card)
                while not world.is_finished():
                    world.push(playout.choose(world.information_state(world.to_play)))
                totals[card] = totals.get(card, 0) + world.team_points()[side] - before
            solved += 1
        self.last_worlds = solved
        by_face = {c % DECK_SIZE: v / solved for c, v in totals.items()} if solved else {}
        self.last_means = {c: by_face[c % DECK_SIZE] for c in legal} if solved else {}
        return self.last_means


class _Pool:
    """Scored candidate worlds, to draw from in proportion to their likelihood."""

    def __init__(self, worlds: list[State], logs: list[float]) -> None:
        self.worlds = worlds
        top = max(logs)
        total = 0.0
        self._cumulative: list[float] = []
        for value in logs:  # relative to the likeliest: no underflow to an all-zero pool
            total += math.exp(value - top)
            self._cumulative.append(total)
        self._indexes = range(len(worlds))

    def draw(self, rng: random.Random) -> int:
        return rng.choices(self._indexes, cum_weights=self._cumulative)[0]

    def effective_size(self) -> float:
        """Kish's effective sample size of the weights: how many equal worlds they are worth."""
        weights = [b - a for a, b in zip([0.0, *self._cumulative], self._cumulative, strict=False)]
        return sum(weights) ** 2 / sum(w * w for w in weights)


def _weights(logs: list[float]) -> list[float]:
    """Likelihoods from their logarithms, relative to the likeliest (none underflows to 0)."""
    top = max(logs)
    return [math.exp(value - top) for value in logs]


def _weighted_means(per_world: Sequence[Mapping[Card, float]],
                    weights: list[float]) -> dict[Card, float]:
    total = sum(weights)
    return {card: sum(w * world[card] for w, world in zip(weights, per_world, strict=True))
            / total for card in per_world[0]}


def _settled(per_world: list[dict[Card, float]], weights: list[float] | None = None) -> bool:
    """Whether the worlds solved so far single out one card: its mean ahead of every other
    card's by :data:`SETTLE_Z` standard errors of their paired difference (the same worlds),
    after :data:`SETTLE_WORLDS` worlds. A card always best by the same margin settles at
    once; a close call runs to the budget. With ``weights`` (inference), the means and the
    spread are weighted and the count is the weights' effective sample size."""
    if weights is not None:
        return _settled_weighted(per_world, weights)
    n = len(per_world)
    if n < SETTLE_WORLDS:
        return False
    cards = per_world[0].keys()
    best = max(cards, key=lambda c: sum(w[c] for w in per_world))
    for other in cards:
        if other == best:
            continue
        diffs = [w[best] - w[other] for w in per_world]
        mean = sum(diffs) / n
        spread = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean <= 0 or mean * mean * n <= SETTLE_Z * SETTLE_Z * spread:
            return False
    return True


def _settled_weighted(per_world: list[dict[Card, float]], weights: list[float]) -> bool:
    total = sum(weights)
    n = total * total / sum(w * w for w in weights)  # Kish's effective sample size
    if n < SETTLE_WORLDS:
        return False
    means = _weighted_means(per_world, weights)
    best = max(means, key=lambda c: means[c])
    for other in means:
        if other == best:
            continue
        diffs = [w[best] - w[other] for w in per_world]
        mean = sum(wt * d for wt, d in zip(weights, diffs, strict=True)) / total
        spread = sum(wt * (d - mean) ** 2 for wt, d in zip(weights, diffs, strict=True)) / total
        spread *= n / (n - 1)
        if mean <= 0 or mean * mean * n <= SETTLE_Z * SETTLE_Z * spread:
            return False
    return True
