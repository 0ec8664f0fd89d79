"""The solver's values against a brute-force minimax, and the C core against the Python
reference: the acceptance tests of the double-dummy solver.

The quick versions run by default; the ``slow`` ones hold the full counts (1,000 positions
against brute force, 2,000 C-against-Python), as CI runs them.
"""

from __future__ import annotations

import random

import pytest
from solver_support import SOLVER_RULES, brute_force, brute_force_moves, random_positions

from sueca.solver import C_AVAILABLE, core_for, new_core, position_of, solve, value

BACKENDS = ["c", "python"] if C_AVAILABLE else ["python"]


def check_values_against_brute_force(seed: int, count: int, max_cards: int) -> None:
    for state in random_positions(seed, count, max_cards):
        expected = brute_force(state)
        for backend in BACKENDS:
            got = value(state, backend)
            assert got[0] == expected, (backend, state.deal, state.plays, got, expected)


def test_values_equal_brute_force_quick() -> None:
    check_values_against_brute_force(seed=11, count=60, max_cards=4)


@pytest.mark.slow
def test_values_equal_brute_force_on_1000_positions() -> None:
    check_values_against_brute_force(seed=12, count=1000, max_cards=5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_move_value_equals_brute_force(backend: str) -> None:
    for state in random_positions(seed=13, count=40, max_cards=4):
        expected = brute_force_moves(state)
        solution = solve(state, backend)
        assert {card: v[0] for card, v in solution.moves.items()} == expected


def check_c_against_python(seed: int, count: int, max_cards: int) -> None:
    for state in random_positions(seed, count, max_cards):
        c_core = core_for(state.rules, "c")
        py_core = core_for(state.rules, "python")
        position = position_of(state)
        assert c_core.value(*position) == py_core.value(*position), (state.deal, state.plays)
        assert c_core.move_values(*position) == py_core.move_values(*position)


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
def test_c_core_equals_python_reference_quick() -> None:
    check_c_against_python(seed=21, count=150, max_cards=5)


@pytest.mark.slow
@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
def test_c_core_equals_python_reference_on_2000_positions() -> None:
    check_c_against_python(seed=22, count=2000, max_cards=5)


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
def test_tests_agree_with_values_at_every_target() -> None:
    """The null-window test itself (the search's one question) at targets around the value."""
    for state in random_positions(seed=23, count=40, max_cards=4):
        exact = brute_force(state)
        position = position_of(state)
        for backend in ("c", "python"):
            core = core_for(state.rules, backend)
            for target in range(exact - 3, exact + 4):
                assert core.test(*position, target) == (exact >= target)


def same_shape(hands: list[int], rng: random.Random) -> list[int]:
    """The hands with each suit's cards left replaced by as many other cards of that suit, in
    the same order: the same shape (who holds each suit's first, second, ... card left), other
    points."""
    new = [0, 0, 0, 0]
    for suit in range(4):
        held = sorted((rank, seat) for seat, hand in enumerate(hands)
                      for rank in range(10) if hand >> (10 * suit + rank) & 1)
        ranks = sorted(rng.sample(range(10), len(held)))
        for (_, seat), rank in zip(held, ranks, strict=True):
            new[seat] |= 1 << (10 * suit + rank)
    return new


def check_similar_positions(seed: int, bases: int, variants: int) -> None:
    """Trick starts of one shape solved in turn on one C core, whose table bounds each from the
    entries of the others (shifted by their point differences), against the Python reference
    solving each from an empty table."""
    rng = random.Random(seed)
    for rules in SOLVER_RULES.values():
        for _ in range(bases):
            cards = rng.sample(range(40), 4 * rng.randint(3, 5))
            hands = [sum(1 << card for card in cards[seat::4]) for seat in range(4)]
            trump, leader = rng.randrange(4), rng.randrange(4)
            c_core = new_core(rules, "c", table_bits=10)
            for _ in range(variants):
                position = (same_shape(hands, rng), trump, leader, ())
                reference = new_core(rules, "python")
                assert c_core.value(*position) == reference.value(*position), position
                assert c_core.move_values(*position) == reference.move_values(*position)


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
def test_positions_of_one_shape_bound_each_other_exactly_quick() -> None:
    check_similar_positions(seed=31, bases=4, variants=5)


@pytest.mark.slow
@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
def test_positions_of_one_shape_bound_each_other_exactly() -> None:
    check_similar_positions(seed=32, bases=25, variants=8)
