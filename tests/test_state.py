"""The rules of play, held to an independent reference over many random games under every rule
combination that changes the play: legality, trick winners, points, push/pop, illegal plays."""

from __future__ import annotations

import random

import pytest
from core_support import (
    RULE_SETS,
    SWEEP,
    any_rules,
    assert_refused,
    hand_cards,
    random_state,
    ref_legal,
    ref_points,
    ref_suit,
    ref_trick_winner,
    snapshot,
)
from hypothesis import given
from hypothesis import strategies as st

from sueca.cards import SUIT_LETTERS, Card, card_name, cards_mask, mask_cards, parse_card
from sueca.deal import Deal, deal_cards
from sueca.rules import STANDARD, Rules, preset
from sueca.state import State
from sueca.trick import legal_mask_for


def expected_reason(state: State, card: Card) -> str:
    """Why the reference rules refuse ``card`` from the seat to move (it must be refused)."""
    if state.is_finished():
        return "hand_over"
    hand = hand_cards(state, state.to_play)
    if card not in hand:
        return "not_in_hand"
    trick = state.trick
    if any(ref_suit(c) == ref_suit(trick[0]) for c in hand):
        return "must_follow"
    return "must_trump"


def check_move_generation(state: State, rng: random.Random) -> None:
    """legal_moves, legal_mask, legal_mask_for, is_legal, push and the reference agree."""
    rules = state.rules
    seat = state.to_play
    hand = hand_cards(state, seat)
    trump = SUIT_LETTERS[state.trump]
    reference = ref_legal(hand, state.trick, trump, rules.must_trump)
    moves = state.legal_moves()
    assert list(moves) == sorted(moves), "legal_moves must be suit by suit, low to high"
    assert set(moves) == reference
    assert len(moves) == len(set(moves))
    assert state.legal_mask() == cards_mask(reference)
    led = state.trick[0] if state.trick else None
    assert legal_mask_for(rules, state.hands[seat], led, state.trump) == cards_mask(reference)
    assert all(state.is_legal(c) == (c in reference) for c in range(rules.deck_size))
    # push refuses every other card, with the reference's reason, and changes nothing. One
    # illegal card per position keeps the sweep fast; the hypothesis tests below try them all.
    illegal = [c for c in range(rules.deck_size) if c not in reference]
    if illegal:
        card = rng.choice(illegal)
        assert_refused(state, card, expected_reason(state, card))
    # play() with the wrong seat is refused as not your turn.
    other = (seat + rng.randrange(1, rules.players)) % rules.players
    assert_refused(state, moves[0], "not_your_turn", seat=other)


def check_finished_game(state: State) -> None:
    rules = state.rules
    trump = SUIT_LETTERS[state.trump]
    n = rules.players
    assert state.is_finished()
    assert sorted(state.plays) == list(range(rules.deck_size)), "each card exactly once"
    assert all(h == 0 for h in state.hands)
    # Replay the plays with the reference: who plays each card, who wins each trick.
    hands = [set(mask_cards(h)) for h in state.deal.hands]
    leader = (state.deal.dealer + 1) % n
    tricks = state.tricks()
    assert len(tricks) == rules.hand_size
    team_points = [0] * rules.teams_count
    team_tricks = [0] * rules.teams_count
    for number, trick in enumerate(tricks):
        cards = state.plays[number * n:(number + 1) * n]
        assert trick.leader == leader
        assert list(trick.cards) == cards
        for position, card in enumerate(cards):
            seat = (leader + position) % n
            assert state.played_by()[number * n + position] == seat
            assert trick.seat_of(position, n) == seat
            assert card in ref_legal(sorted(hands[seat]), cards[:position], trump,
                                     rules.must_trump)
            hands[seat].remove(card)
        winner = ref_trick_winner(cards, leader, trump, n)
        assert trick.winner == winner
        points = sum(ref_points(c, rules) for c in cards)
        if number == rules.hand_size - 1:
            points += rules.last_trick_bonus
        assert trick.points == points
        team_points[rules.teams[winner]] += points
        team_tricks[rules.teams[winner]] += 1
        leader = winner
    assert state.team_points() == team_points
    assert state.team_tricks() == team_tricks
    assert sum(team_points) == rules.total_points
    assert rules.total_points == 120 + rules.maria_de_copas + rules.last_trick_bonus
    assert state.trick == []
    # After the last trick every card is refused as "hand over", whoever offers it.
    for card in (0, state.plays[-1], rules.deck_size - 1):
        assert_refused(state, card, "hand_over")
        assert_refused(state, card, "hand_over", seat=(state.to_play + 1) % n)
    assert state.legal_moves() == ()
    assert state.legal_mask() == 0


def check_undo(state: State, history: list[dict[str, object]], rng: random.Random) -> None:
    """pop back to a random earlier point restores that exact state; pushing again restores
    the present."""
    target = rng.randrange(len(history))
    plays = list(state.plays)
    now = snapshot(state)
    for index in range(len(plays) - 1, target - 1, -1):
        assert state.pop() == plays[index]
        assert snapshot(state) == history[index]
    for card in plays[target:]:
        state.push(card)
    assert snapshot(state) == now


def play_checked_game(rules: Rules, rng: random.Random) -> State:
    state = State(rules, deal_cards(rules, rng.randrange(rules.players), rng))
    assert state.to_play == state.leader == (state.deal.dealer + 1) % rules.players
    while state.phase == "redeal":  # weak_hand_redeal: every seat keeps, then the play
        state.answer_redeal(False)
    assert state.to_play == state.leader
    history = []
    while not state.is_finished():
        check_move_generation(state, rng)
        history.append(snapshot(state))
        seat = state.to_play
        card = rng.choice(state.legal_moves())
        trick_before = list(state.trick)
        state.play(card, seat)
        if len(trick_before) == rules.players - 1:  # that card completed a trick
            cards = [*trick_before, card]
            leader = (seat + 1) % rules.players
            assert state.to_play == state.leader == ref_trick_winner(
                cards, leader, SUIT_LETTERS[state.trump], rules.players
            )
        else:
            assert state.to_play == (seat + 1) % rules.players
        if rng.random() < 0.1:
            check_undo(state, [*history, snapshot(state)], rng)
    check_undo(state, [*history, snapshot(state)], rng)
    check_finished_game(state)
    return state


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_random_games_obey_the_rules(name: str) -> None:
    rng = random.Random(f"games:{name}")
    for _ in range(12):
        play_checked_game(RULE_SETS[name], rng)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_many_random_games_obey_the_rules(name: str) -> None:
    rng = random.Random(f"many games:{name}")
    for _ in range(100 * SWEEP):
        play_checked_game(RULE_SETS[name], rng)


@pytest.mark.slow
def test_thousands_of_fast_random_games() -> None:
    """Without the per-move checks: only the end-of-game invariants, over thousands of games
    under every rule set."""
    rng = random.Random("fast sweep")
    for rules in RULE_SETS.values():
        for _ in range(250 * SWEEP):
            state = random_state(rules, rng, plays=rules.deck_size)
            check_finished_game(state)


@given(rules=any_rules, seed=st.integers(0, 2**32))
def test_any_combination_of_options_obeys_the_rules(rules: Rules, seed: int) -> None:
    play_checked_game(rules, random.Random(seed))


# ---- illegal plays, exhaustively at hypothesis-chosen positions ---------------------------

rule_names = st.sampled_from(sorted(RULE_SETS))


@given(name=rule_names, seed=st.integers(0, 2**32), plays=st.integers(0, 40))
def test_every_card_is_taken_or_refused_with_its_reason(name: str, seed: int, plays: int) -> None:
    rules = RULE_SETS[name]
    state = random_state(rules, random.Random(seed), plays=plays)
    legal = set(state.legal_moves())
    for card in range(rules.deck_size):
        if card not in legal:
            assert_refused(state, card, expected_reason(state, card))
    for card in (-1, -40, rules.deck_size, 1000):
        assert_refused(state, card, "hand_over" if state.is_finished() else "not_in_hand")
    # And push takes every legal card (pop puts it back exactly).
    before = snapshot(state)
    for card in legal:
        state.push(card)
        assert state.plays[-1] == card and not state.hands[state.played_by()[-1]] >> card & 1
        assert state.pop() == card
        assert snapshot(state) == before


@given(name=rule_names, seed=st.integers(0, 2**32), plays=st.integers(0, 39))
def test_play_refuses_the_wrong_seat(name: str, seed: int, plays: int) -> None:
    rules = RULE_SETS[name]
    state = random_state(rules, random.Random(seed), plays=plays)
    card = state.legal_moves()[0]
    for seat in range(rules.players):
        if seat != state.to_play:
            assert_refused(state, card, "not_your_turn", seat=seat)
    state.play(card, state.to_play)
    assert state.plays[-1] == card


@given(name=rule_names, seed=st.integers(0, 2**32), plays=st.integers(0, 40))
def test_push_pop_and_copy_restore_every_field(name: str, seed: int, plays: int) -> None:
    rng = random.Random(seed)
    state = random_state(RULE_SETS[name], rng, plays=plays)
    before = snapshot(state)
    copy = state.copy()
    assert snapshot(copy) == before
    back = rng.randrange(len(state.plays) + 1)
    popped = [state.pop() for _ in range(back)]
    assert snapshot(copy) == before, "a copy must not share mutable parts with its original"
    for card in reversed(popped):
        state.push(card)
    assert snapshot(state) == before
    if not copy.is_finished():
        copy.push(copy.legal_moves()[0])
        assert snapshot(state) == before


def test_pop_with_nothing_played_raises() -> None:
    state = random_state(STANDARD, random.Random(1), plays=0)
    with pytest.raises(IndexError):
        state.pop()


# ---- hand-built positions -----------------------------------------------------------------


def fixed_deal(dealer: int = 3) -> Deal:
    """Seat 0 holds every spade and leads; hearts are seat 1's, diamonds seat 2's, clubs
    seat 3's but for 2C, which is seat 0's; the dealer's cards include the trump card."""
    hands = [
        "AS 7S KS JS QS 6S 5S 4S 3S 2C",
        "AH 7H KH JH QH 6H 5H 4H 3H 2S",
        "AD 7D KD JD QD 6D 5D 4D 3D 2H",
        "AC 7C KC JC QC 6C 5C 4C 3C 2D",
    ]
    cards = [[parse_card(t) for t in h.split()] for h in hands]
    trump = {0: "2C", 1: "2S", 2: "2H", 3: "2D"}[dealer]
    return Deal.from_cards(dealer, cards, parse_card(trump))


def names(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [card_name(c) for c in cards]


def test_follow_suit_and_free_discard() -> None:
    state = State(STANDARD, fixed_deal())  # trump diamonds
    assert state.to_play == 0
    state.push(parse_card("3S"))
    # Seat 1 holds one spade: it must play it.
    assert names(state.legal_moves()) == ["2S"]
    assert_refused(state, parse_card("AH"), "must_follow")
    state.push(parse_card("2S"))
    # Seat 2 has no spade: anything, a trump included, and trumping is not compulsory.
    assert len(state.legal_moves()) == 10
    state.push(parse_card("2H"))
    state.push(parse_card("AC"))
    assert state.trick_winners == [0]  # 3S beats 2S; no trump was played
    assert state.tricks()[0].points == 11


def test_must_trump_obliges_a_void_player_with_trumps() -> None:
    state = State(preset("italiana"), fixed_deal())  # trump diamonds
    state.push(parse_card("3S"))
    state.push(parse_card("2S"))
    # Seat 2 is void in spades and holds diamonds (trumps): it must play one.
    assert {ref_suit(c) for c in state.legal_moves()} == {"D"}
    assert_refused(state, parse_card("2H"), "must_trump")
    state.push(parse_card("3D"))
    # Seat 3 is void in spades and holds one trump, 2D.
    assert names(state.legal_moves()) == ["2D"]
    assert_refused(state, parse_card("AC"), "must_trump")
    state.push(parse_card("2D"))
    assert state.trick_winners == [2]  # 3D is the highest trump


def test_a_void_player_without_trumps_may_play_anything_under_must_trump() -> None:
    state = State(preset("italiana"), fixed_deal(dealer=2))  # trump hearts; seat 3 leads
    state.push(parse_card("AC"))
    # Seat 0 is void in clubs but for 2C, which it must play.
    assert names(state.legal_moves()) == ["2C"]
    state.push(parse_card("2C"))
    # Seat 1 holds no clubs and every heart but 2H: it must trump.
    assert {ref_suit(c) for c in state.legal_moves()} == {"H"}
    state.push(parse_card("3H"))
    # Seat 2 holds 2H (a trump) and no club: must trump with it.
    assert names(state.legal_moves()) == ["2H"]
    state.push(parse_card("2H"))
    assert state.trick_winners == [1]


def test_trump_card_is_held_until_played() -> None:
    state = State(STANDARD, fixed_deal())
    assert state.trump_card_held()
    state.push(parse_card("3S"))
    state.push(parse_card("2S"))
    state.push(parse_card("2H"))
    state.push(parse_card("2D"))  # the dealer plays the turned card
    assert not state.trump_card_held()
    assert state.trick_winners == [3]  # and it trumps the spade
    state.pop()
    assert state.trump_card_held()


def test_current_trick_and_repr() -> None:
    state = State(STANDARD, fixed_deal())
    state.push(parse_card("AS"))
    trick = state.current_trick()
    assert trick.leader == 0 and trick.cards == (parse_card("AS"),) and trick.winner is None
    assert trick.points == 11
    assert "seat 1 to play" in repr(state)


@pytest.mark.parametrize("dealer", range(4))
def test_the_player_after_the_dealer_leads(dealer: int) -> None:
    rules = STANDARD
    state = State(rules, deal_cards(rules, dealer, random.Random(dealer)))
    assert state.to_play == (dealer + 1) % 4
