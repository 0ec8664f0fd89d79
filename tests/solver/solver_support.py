"""Helpers of the solver tests: random positions and a brute-force minimax.

The brute force walks every line of play through the engine's own :class:`State` (its rules of
play and its scoring, bonuses included), memoising only exact trick-start positions: nothing of
the solver's search (bounds, equivalences, ordering, tables) is in it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from sueca.deal import deal_cards
from sueca.rules import STANDARD, Rules, preset
from sueca.state import State

SOLVER_RULES: dict[str, Rules] = {
    "standard": STANDARD,
    "must_trump": preset("italiana"),
    "last_trick_bonus": STANDARD.replace(last_trick_bonus=10),
    "maria_de_copas": STANDARD.replace(maria_de_copas=5),
    "everything": preset("italiana").replace(last_trick_bonus=7, maria_de_copas=3),
}
"""The options that change a position's value: trumping duty, the last-trick bonus, the queen
of hearts' bonus."""


def random_position(rules: Rules, rng: random.Random, max_cards: int) -> State:
    """A random deal played at random until each hand holds at most ``max_cards`` cards (at
    least 1), stopped anywhere in a trick."""
    state = State(rules, deal_cards(rules, rng.randrange(4), rng))
    cards = rng.randint(1, max_cards)
    plays = 40 - 4 * cards + rng.randrange(4)
    for _ in range(plays):
        state.push(rng.choice(state.legal_moves()))
    return state


def random_positions(seed: int, count: int, max_cards: int) -> Iterator[State]:
    rng = random.Random(seed)
    names = sorted(SOLVER_RULES)
    for _ in range(count):
        yield random_position(SOLVER_RULES[rng.choice(names)], rng, max_cards)


def brute_force(state: State) -> int:
    """Team 0's points from here to the end under perfect play (full minimax)."""
    return _minimax(state, {})


def brute_force_moves(state: State) -> dict[int, int]:
    """Each legal card's value (team 0's points from here, the card's trick included)."""
    memo: dict[tuple[object, ...], int] = {}
    base = state.team_points()[0]
    out = {}
    for card in state.legal_moves():
        state.push(card)
        out[card] = state.team_points()[0] - base + _minimax(state, memo)
        state.pop()
    return out


def _minimax(state: State, memo: dict[tuple[object, ...], int]) -> int:
    if state.is_finished():
        return 0
    key = None
    if not state.trick:
        key = (*state.hands, state.to_play)
        if key in memo:
            return memo[key]
    base = state.team_points()[0]
    maximizing = state.rules.teams[state.to_play] == 0
    values = []
    for card in state.legal_moves():
        state.push(card)
        values.append(state.team_points()[0] - base + _minimax(state, memo))
        state.pop()
    best = max(values) if maximizing else min(values)
    if key is not None:
        memo[key] = best
    return best
