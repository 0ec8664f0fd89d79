"""The card-by-card review of one finished deal, for one seat (docs/review.md).

For each card the seat played: the expected final points of its side after each legal card,
*from what the seat knew then* (:mod:`sueca.review.estimate`), the best card, the points lost,
a label, the facts behind the better card (:mod:`sueca.review.facts`), and apart from all of
that the double-dummy view (every hand known), which is never used to label a card. Over the
whole deal: the double-dummy value after every card, and where the deal's result crossed a
game-point line (61, 91, 120) in that view, with the card that moved it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from sueca.actions import Denounce, Play
from sueca.cards import Card, card_name, one_per_face
from sueca.review.estimate import Estimate, estimate
from sueca.review.facts import Fact, card_facts
from sueca.rules import Rules
from sueca.scoring import level
from sueca.solver import SearchCore, SolverError, new_core, solve, value
from sueca.state import State

LABELS = ("inaccuracy", "mistake", "blunder")
"""The labels, mildest first (imprecisão, erro, erro grave)."""


class ReviewError(ValueError):
    """A deal or seat the review cannot take, and why."""


@dataclass(frozen=True)
class Thresholds:
    """The card points a card must lose for each label: an *inaccuracy* from 3, a *mistake*
    from 8, a *blunder* from 15 by default. A queen (2) lost is no label: between two cards
    that close the worlds sampled seldom agree, and it is rarely what decides a deal."""

    inaccuracy: float = 3.0
    mistake: float = 8.0
    blunder: float = 15.0

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder <= 120:
            raise ReviewError("thresholds must rise: 0 < inaccuracy <= mistake <= blunder "
                              f"<= 120, not {self.inaccuracy:g}, {self.mistake:g}, "
                              f"{self.blunder:g}")

    @classmethod
    def parse(cls, text: str) -> Thresholds:
        """``"3,8,15"``: the three thresholds in card points."""
        parts = text.split(",")
        try:
            values = [float(p) for p in parts]
        except ValueError:
            values = []
        if len(values) != 3 or len(text) > 40:
            raise ReviewError(f"thresholds are three numbers such as 3,8,15, not {text[:40]!r}")
        return cls(*values)

    def label(self, lost: float) -> str | None:
        if lost >= self.blunder:
            return "blunder"
        if lost >= self.mistake:
            return "mistake"
        if lost >= self.inaccuracy:
            return "inaccuracy"
        return None

    def certain(self, lost: float, error: float, z: float = 2.0) -> bool:
        """Whether the label is the same at both ends of the interval ``lost ± z·error``."""
        return self.label(max(lost - z * error, 0.0)) == self.label(lost + z * error)


@dataclass(frozen=True)
class Budget:
    """How many worlds a card's estimate may solve (:func:`~sueca.review.estimate.estimate`)."""

    min_worlds: int = 6
    max_worlds: int = 48
    batch: int = 6

    def __post_init__(self) -> None:
        if not 1 <= self.min_worlds <= self.max_worlds <= 1000 or self.batch < 1:
            raise ReviewError("worlds: 1 <= min_worlds <= max_worlds <= 1000, batch >= 1")


@dataclass(frozen=True)
class DoubleDummy:
    """The card with every hand known: the side's final points after the card played and
    after the best card, and every card that keeps the value. Never used for a label."""

    played: int
    best: int
    best_cards: tuple[Card, ...]

    @property
    def lost(self) -> int:
        return self.best - self.played


@dataclass(frozen=True)
class CardReview:
    """One card the seat played, judged from what it knew then."""

    index: int  # the card's place in the deal's plays, from 0
    trick: int  # from 1
    seat: int
    card: Card
    legal: tuple[Card, ...]
    forced: bool  # one legal card: nothing to judge (its estimate is the graph's point)
    estimate: Estimate
    label: str | None
    facts: tuple[Fact, ...]
    games_lost: float  # expected net game points lost (the side's less the other's)
    double_dummy: DoubleDummy

    @property
    def lost(self) -> float:
        return self.estimate.lost

    @property
    def best(self) -> Card:
        return self.estimate.best

    @property
    def expected(self) -> float:
        """The side's expected final points after the card played (from the seat's view)."""
        return self.estimate.values[self.card]


@dataclass(frozen=True)
class Crossing:
    """In the double-dummy view, the card after which a side's result crossed a game-point
    line: team ``side``'s games went from ``before`` to ``after`` (61: one, 91: two, 120:
    four)."""

    index: int
    seat: int
    card: Card
    side: int
    before: int
    after: int


@dataclass
class DealReview:
    """A deal reviewed for one seat (see the module)."""

    deal: int  # the deal's index in the record, from 0
    seat: int
    side: int
    rules: Rules
    plays: tuple[Card, ...]
    played_by: tuple[int, ...]
    cards: list[CardReview]
    double_dummy: list[int]  # the side's final points with every hand known, before each card
    final: int  # the side's points at the end
    crossings: list[Crossing]
    stopped: str | None = None  # why the review ends before the deal does, if it does
    thresholds: Thresholds = field(default_factory=Thresholds)
    hands: tuple[int, ...] = ()  # the hands as dealt (masks): the deal is over, all shown

    @property
    def total_lost(self) -> float:
        return sum(c.lost for c in self.cards)


Progress = Callable[[int, int], None]


def review_deal(state: State, seat: int, deal_index: int = 0, seed: int = 0,
                thresholds: Thresholds | None = None, budget: Budget | None = None,
                progress: Progress | None = None, core: SearchCore | None = None) -> DealReview:
    """Review ``seat``'s cards in the finished deal ``state``. ``progress(done, total)`` is
    told after each card. Each card's worlds are drawn by a generator seeded from ``seed``,
    the deal and the cards played before it: what the seat knew, nothing hidden."""
    thresholds = thresholds or Thresholds()
    budget = budget or Budget()
    rules = state.rules
    _check(state, seat)
    if core is None:
        try:
            core = new_core(rules)
        except SolverError as error:
            raise ReviewError(f"the review needs the solver's table: {error}") from None
    side = rules.teams[seat]
    moves = state.history
    stopped = None
    stop_at = len(state.plays)
    if state.revokes:
        stop_at = state.revokes[0]
        stopped = "revoke"
    if state.denunciations:
        first = state.denunciations[0].after
        if first < stop_at:
            stop_at, stopped = first, "denunciation"
    if stopped is None and not state.is_finished():
        raise ReviewError("only a finished deal can be reviewed")
    walk = State(rules, state.deal)
    plays_done = 0
    todo = sum(1 for who in state.played_by()[:stop_at] if who == seat)
    cards: list[CardReview] = []
    dd_line: list[int] = []
    for actor, action in moves:
        if type(action) is Denounce:
            break
        if type(action) is not Play:
            walk.apply(actor, action)
            continue
        if plays_done >= stop_at:
            break
        dd_line.append(_dd_final(walk, side))
        if actor == seat:
            cards.append(review_card(walk, seat, action.card, plays_done, deal_index, seed,
                                     thresholds, budget, core))
            if progress is not None:
                progress(len(cards), todo)
        walk.apply(actor, action)
        plays_done += 1
    final = walk.team_points()[side] if walk.is_finished() else state.team_points()[side]
    dd_line.append(_dd_final(walk, side) if not walk.is_finished() else final)
    plays = tuple(state.plays[:plays_done])
    played_by = state.played_by()[:plays_done]
    return DealReview(deal_index, seat, side, rules, plays, played_by, cards, dd_line, final,
                      _crossings(rules, side, dd_line, plays, played_by), stopped, thresholds,
                      tuple(state.deal.hands))


def _check(state: State, seat: int) -> None:
    rules = state.rules
    if not 0 <= seat < rules.players:
        raise ReviewError(f"seat {seat} is not a seat of this table (0-{rules.players - 1})")
    if rules.bidding or rules.players != 4 or rules.decks != 1:
        raise ReviewError("the review needs the solver's table: four seats in two teams, "
                          "one deck (this table is not one)")
    if rules.dummy is not None and seat == rules.dummy:
        raise ReviewError(f"seat {seat} is the dummy: its partner, seat "
                          f"{rules.partner_of(seat)}, plays its cards (review that seat)")
    if state.redeal_by is not None:
        raise ReviewError("this deal was annulled (a weak hand asked for a new deal): no card "
                          "was played")


def _dd_final(state: State, side: int) -> int:
    """The side's final points with every hand known and perfect play from here."""
    if state.is_finished():
        return state.team_points()[side]
    return state.team_points()[side] + value(state)[side]


def review_card(walk: State, seat: int, card: Card, index: int, deal_index: int = 0,
                seed: int = 0, thresholds: Thresholds | None = None,
                budget: Budget | None = None, core: SearchCore | None = None) -> CardReview:
    """Judge ``card``, which ``seat`` is about to play in ``walk`` (the deal's ``index``-th
    card): the first line from ``seat``'s information state alone, the double-dummy line
    from ``walk``."""
    thresholds = thresholds or Thresholds()
    budget = budget or Budget()
    core = core or new_core(walk.rules)
    info = walk.information_state(seat)
    legal = info.legal_moves()
    side = walk.rules.teams[seat]
    solution = solve(walk)
    taken = walk.team_points()[side]
    dd_values = {c: taken + v[side] for c, v in solution.moves.items()}
    dd = DoubleDummy(dd_values[card], max(dd_values.values()),
                     tuple(sorted(c for c, v in dd_values.items()
                                  if v == max(dd_values.values()))))
    trick = len(walk.trick_winners) + 1
    forced = len(one_per_face(legal)) == 1
    # The generator's seed: the deal, the card's place and the cards before it, all known to
    # the seat; never a hidden card.
    rng = random.Random(f"review:{seed}:{deal_index}:{seat}:"
                        + ",".join(map(card_name, info.plays)))
    found = estimate(info, card, core, rng, thresholds.certain, budget.min_worlds,
                     budget.max_worlds, budget.batch)
    label = thresholds.label(found.lost)
    games = _games(walk.rules, found.samples[found.best]) - _games(walk.rules,
                                                                    found.samples[card])
    facts = card_facts(info, found.best, card if found.best != card else None)
    return CardReview(index, trick, seat, card, legal, forced, found, label, tuple(facts),
                      games, dd)


def _games(rules: Rules, finals: list[int]) -> float:
    """The side's expected net game points (its games less the other side's) over worlds."""
    total = rules.total_points
    return sum(level(rules, p, total) - level(rules, total - p, total) for p in finals) / len(
        finals)


def _crossings(rules: Rules, side: int, line: list[int], plays: tuple[Card, ...],
               played_by: tuple[int, ...]) -> list[Crossing]:
    """Where, card by card, a side's games in the double-dummy view changed."""
    total = rules.total_points
    out: list[Crossing] = []
    for index in range(len(line) - 1):
        if index >= len(plays):
            break
        before, after = line[index], line[index + 1]
        for which, (b, a) in enumerate(((before, after), (total - before, total - after))):
            lb, la = level(rules, b, total), level(rules, a, total)
            if lb != la:
                team = side if which == 0 else 1 - side
                out.append(Crossing(index, played_by[index], plays[index], team, lb, la))
    return out
