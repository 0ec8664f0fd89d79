"""The solver's values against a brute-force minimax, and the C core against the Python
reference: the acceptance tests of the double-dummy solver.

The quick versions run by default; the ``slow`` ones hold the full counts (1,000 positions
against brute force, 2,000 C-against-Python), as CI runs them.
"""

from __future__ import annotations

import random

import pytest
from solver_support import (
    SOLVER_RULES,
    brute_force,
    brute_force_moves,
    random_position,
    random_positions,
)

from sueca.deal import deal_cards
from sueca.rules import STANDARD, Rules
from sueca.solver import (  # _dds: None where the C core is not built
    C_AVAILABLE,
    _dds,
    core_for,
    new_core,
    position_of,
    solve,
    value,
)
from sueca.solver.reference import ReferenceSolver
from sueca.state import State

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


def odd_points(rng: random.Random) -> list[int]:
    """Card points no rules object gives but the C core accepts: zero-point cards above point
    cards (a short low run), points falling with rank, or at random."""
    points: list[int] = []
    for _ in range(4):
        kind = rng.choice(["gappy", "falling", "random"])
        if kind == "gappy":
            low_run = rng.randint(0, 4)
            row = [0] * low_run + [rng.choice([0, 1, 4, 9]) for _ in range(10 - low_run)]
            row[low_run] = rng.randint(1, 6)
        elif kind == "falling":
            row = sorted((rng.randint(0, 12) for _ in range(10)), reverse=True)
        else:
            row = [rng.choice([0, 0, 1, 2, 3, 5, 7, 11]) for _ in range(10)]
        points += row
    return points


def check_similar_positions_odd_points(seed: int, groups: int, variants: int) -> None:
    """As check_similar_positions, under point tables that take the C core's general path
    (a suit whose low run is not five ranks) and pair cards of unequal worth."""
    assert _dds is not None
    rng = random.Random(seed)
    for _ in range(groups):
        points = odd_points(rng)
        teams, must_trump, bonus = rng.choice([(0, 1, 0, 1), (1, 0, 1, 0)]), rng.random() < 0.5, 5
        c_core = _dds.Solver(points, teams, must_trump, bonus, 8)
        cards = rng.sample(range(40), 4 * rng.randint(3, 5))
        hands = [sum(1 << card for card in cards[seat::4]) for seat in range(4)]
        trump, leader = rng.randrange(4), rng.randrange(4)
        for _ in range(variants):
            position = (same_shape(hands, rng), trump, leader, ())
            reference = ReferenceSolver(points, teams, must_trump, bonus)
            assert c_core.value(*position) == reference.value(*position), (points, position)


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
def test_positions_of_one_shape_under_odd_points_quick() -> None:
    check_similar_positions_odd_points(seed=41, groups=30, variants=6)


@pytest.mark.slow
@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
def test_positions_of_one_shape_under_odd_points() -> None:
    check_similar_positions_odd_points(seed=42, groups=300, variants=8)


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
@pytest.mark.parametrize("teams", [(0, 0, 1, 1), (0, 1, 1, 0), (0, 1, 1, 1)])
def test_c_core_is_exact_with_partners_not_opposite(teams: tuple[int, ...]) -> None:
    """Rules may seat partners side by side (or three against one): the C core's bounds must
    not assume the partner sits opposite."""
    rules = STANDARD.replace(teams=teams)
    rng = random.Random(sum(teams))
    for _ in range(150):
        state = random_position(rules, rng, max_cards=4)
        assert value(state, "c")[0] == brute_force(state), (teams, state.deal, state.plays)


def check_value_agrees_with_its_moves(rules_list: list[Rules], seed: int, count: int,
                                     max_cards: int) -> None:
    """value() asks its tests of the whole position (near the value they walk from the end the
    side to move proves cheaply); solve() asks them of each move in turn, from its sibling's
    value. The best of the moves must be the value, at every point of a trick."""
    rng = random.Random(seed)
    for index in range(count):
        rules = rules_list[index % len(rules_list)]
        state = random_position(rules, rng, max_cards)
        assert value(state, "c") == solve(state, "c").points, (rules.teams, state.deal,
                                                                state.plays)


VALUE_RULES = [*SOLVER_RULES.values(), STANDARD.replace(teams=(0, 0, 1, 1)),
              STANDARD.replace(teams=(0, 1, 1, 1))]


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
def test_value_is_the_best_of_its_moves_quick() -> None:
    check_value_agrees_with_its_moves(VALUE_RULES, seed=5, count=60, max_cards=7)


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
@pytest.mark.slow
def test_value_is_the_best_of_its_moves() -> None:
    check_value_agrees_with_its_moves(VALUE_RULES, seed=6, count=300, max_cards=10)


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
@pytest.mark.slow
def test_full_deals_value_is_the_best_opening_lead() -> None:
    rng = random.Random(12)
    for index in range(16):
        rules = VALUE_RULES[index % len(VALUE_RULES)]
        state = State(rules, deal_cards(rules, index % 4, rng))
        assert value(state, "c") == solve(state, "c").points, (rules.teams, state.deal)
