"""Actions as values (:mod:`sueca.actions`): their one wire form, :meth:`State.apply` as the one
entry point for a move (doing exactly what the method it stands for does), ``legal_actions`` as
exactly what ``apply`` accepts, and ``replay(rules, deal, history)`` giving back every state,
over random deals of every preset: the auction, the redeal and renúncia included."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from core_support import RENUNCIA_RULES, play_people_deal, snapshot
from hypothesis import given
from hypothesis import strategies as st

from sueca.actions import (
    ACTION_TYPES,
    Action,
    ActionError,
    Bid,
    Call,
    Denounce,
    Phase,
    Play,
    Redeal,
    action_from_dict,
)
from sueca.cards import held_copy
from sueca.deal import deal_cards
from sueca.match import Match
from sueca.referee import Event, Referee
from sueca.rules import PRESETS, STANDARD, Rules, preset
from sueca.state import IllegalMoveError, State, replay

TABLES: dict[str, Rules] = {
    **{name: preset(name) for name in sorted(PRESETS)},
    "dummy": STANDARD.replace(dummy=2),
    "redeal": preset("brazil").replace(weak_hand_redeal=True, weak_hand_limits=(15, 15)),
    "redeal_dummy": STANDARD.replace(weak_hand_redeal=True, weak_hand_limits=(15, 15),
                                     dummy=1),
    "open_dealer_dummy": STANDARD.replace(open_hands="dealer_dummy"),
    **{f"renuncia_{name}": rules for name, rules in RENUNCIA_RULES.items()},
}
"""Every preset, and the options that add a kind of action or change who makes it."""


# ---- the wire form --------------------------------------------------------------------------

any_action = st.one_of(
    st.builds(Play, st.integers(0, 39)),
    st.builds(Bid, st.integers(-10, 200)),  # the wire carries any whole number; rules judge it
    st.builds(Call, st.integers(0, 39)),
    st.builds(Redeal, st.booleans()),
    st.just(Denounce()),
)


@given(any_action)
def test_an_action_round_trips_through_its_wire_form(action: Action) -> None:
    message = action.to_dict()
    assert message["type"] in ACTION_TYPES
    assert action_from_dict(message) == action
    assert action_from_dict(json.loads(json.dumps(message))) == action


@pytest.mark.parametrize("card", [0, 17, 39])
def test_a_card_of_the_second_deck_travels_as_its_face(card: int) -> None:
    assert action_from_dict(Play(card + 40).to_dict()) == Play(card)
    assert action_from_dict(Call(card + 40).to_dict()) == Call(card)


@pytest.mark.parametrize(("message", "reason"), [
    ({}, "None is not an action (one of: play, bid, call, redeal, denounce)"),
    ({"type": "pass"}, "'pass' is not an action"),
    ({"type": "PLAY", "card": "7H"}, "'PLAY' is not an action"),
    ({"type": ["play"]}, "is not an action"),
    ({"type": "play"}, "a play needs a 'card' such as \"7H\", not None"),
    ({"type": "play", "card": 7}, "a play needs a 'card'"),
    ({"type": "play", "card": "10H"}, "a play's card:"),
    ({"type": "play", "card": ""}, "a play's card:"),
    ({"type": "call", "card": "XX"}, "a call's card:"),
    ({"type": "call", "value": "AH"}, "a call needs a 'card'"),
    ({"type": "bid"}, "a bid's 'value' must be a whole number of card points (0 passes), not "
                      "None"),
    ({"type": "bid", "value": "75"}, "not '75'"),
    ({"type": "bid", "value": 75.0}, "not 75.0"),
    ({"type": "bid", "value": True}, "not True"),
    ({"type": "bid", "bid": 75}, "a bid's 'value' must be"),  # the web's old field name
    ({"type": "redeal"}, "a redeal answer's 'ask' must be true or false, not None"),
    ({"type": "redeal", "ask": "no"}, "not 'no'"),
    ({"type": "redeal", "ask": 1}, "not 1"),
])
def test_every_bad_message_is_refused_with_a_reason(message: dict[str, Any],
                                                    reason: str) -> None:
    with pytest.raises(ActionError) as caught:
        action_from_dict(message)
    assert reason in str(caught.value)
    assert isinstance(caught.value, ValueError)  # callers that catch ValueError catch it too


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=4) | st.sampled_from(["7H", "as", "♠A", "10H", "QC", *ACTION_TYPES]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=6,
)


@given(st.dictionaries(st.sampled_from(["type", "card", "value", "ask", "seat"])
                       | st.text(max_size=3), json_values, max_size=4))
def test_any_message_is_an_action_or_refused_with_a_reason(message: dict[str, Any]) -> None:
    try:
        action = action_from_dict(message)
    except ActionError as error:
        assert str(error)
        return
    wire = action.to_dict()
    assert wire["type"] == message["type"]
    for key in ("value", "ask"):
        if key in wire:
            assert wire[key] == message[key] and type(wire[key]) is type(message[key])


def test_phases_are_values_that_read_as_the_old_names() -> None:
    state = State(STANDARD, deal_cards(STANDARD, 0, random.Random(1)))
    phase: object = state.phase  # compared as the old code compared it, with a string
    assert state.phase is Phase.PLAY and phase == "play"
    assert state.information_state(0).phase == "play"
    assert [str(p) for p in Phase] == ["bidding", "calling", "redeal", "redealt", "play", "over"]
    assert json.dumps({"phase": Phase.OVER}) == '{"phase": "over"}'


# ---- State.apply: the one entry point -------------------------------------------------------


def old_method(state: State, seat: int, action: Action) -> None:
    """The method each action stands for, called as the engine's callers called it (with two
    decks a card named by its face is the copy the hand holds, as records played it)."""
    if type(action) is Play:
        card = action.card
        if state.rules.decks > 1 and not state.hands[seat] >> card & 1:
            card = held_copy(state.hands[seat], card)
        state.play(card, seat)
    elif type(action) is Bid:
        state.bid(action.value, seat)
    elif type(action) is Call:
        state.call(action.card, seat)
    elif type(action) is Redeal:
        state.answer_redeal(action.ask, seat)
    else:
        assert type(action) is Denounce
        state.denounce(seat)


def outcome(state: State, move: Any) -> tuple[str, Any]:
    """What ``move`` does to a copy of ``state``: the state it leaves, or the refusal (and
    then the state must be as it was)."""
    copy = state.copy()
    before = snapshot(copy)
    try:
        move(copy)
    except IllegalMoveError as error:
        assert str(error) and error.reason
        assert snapshot(copy) == before, "a refused action changed the state"
        return "refused", (error.reason, str(error))
    return "made", snapshot(copy)


def universe(state: State) -> list[Action]:
    """Actions to try at any moment: every card, bids around the edges of the range, every
    card called and two that are none, both redeal answers, a denunciation."""
    rules = state.rules
    cards = range(rules.deck_size)
    bids = (0, 1, 60, 61, 62, 75, 100, 119, 120, 121, -61)
    return [*(Play(c) for c in cards), *(Bid(v) for v in bids),
            *(Call(c) for c in (-1, *cards, rules.deck_size)), Redeal(False), Redeal(True),
            Denounce()]


def walk(rules: Rules, seed: int, steps: int) -> State:
    """A random deal after ``steps`` random actions, each one of the seat to move's legal
    actions (revokes included where the table allows them), with now and then a denunciation
    by any seat that may make one."""
    rng = random.Random(seed)
    state = State(rules, deal_cards(rules, rng.randrange(rules.players), rng))
    for _ in range(steps):
        criers = [s for s in range(rules.players) if state.may_denounce(s)]
        if criers and rng.random() < 0.05:
            state.apply(rng.choice(criers), Denounce())
            continue
        moves = [a for a in state.legal_actions(state.to_play) if type(a) is not Denounce]
        if not moves:
            break
        state.apply(state.to_play, rng.choice(moves))
    return state


@pytest.mark.parametrize("name", sorted(TABLES))
def test_apply_does_what_the_old_methods_do(name: str) -> None:
    """Every legal action, and random illegal ones, of every seat along random deals: apply
    leaves the very state the old method leaves, or refuses with the same reason and words."""
    rules = TABLES[name]
    rng = random.Random(name)
    for deal in range(3):
        state = walk(rules, seed=deal, steps=0)
        actions = universe(state)
        while True:
            seat = rng.randrange(rules.players) if rng.random() < 0.3 else state.to_play
            legal = state.legal_actions(seat)
            for action in [*legal, *rng.sample(actions, 8)]:
                assert outcome(state, lambda s, a=action, t=seat: s.apply(t, a)) == outcome(
                    state, lambda s, a=action, t=seat: old_method(s, t, a)), (seat, action)
            moves = [a for a in state.legal_actions(state.to_play) if type(a) is not Denounce]
            if not moves:
                break
            state.apply(state.to_play, rng.choice(moves))


def test_apply_plays_the_copy_a_hand_holds_of_a_face_named() -> None:
    rules = preset("double8")
    state = State(rules, deal_cards(rules, 0, random.Random(4)))
    seat = state.to_play
    second = next(c for c in range(40, 80) if state.hands[seat] >> c & 1
                  and not state.hands[seat] >> (c - 40) & 1)
    copy = state.copy()
    state.apply(seat, Play(second - 40))  # the face, as notation and the wire name it
    copy.push(second)
    assert snapshot(state) == snapshot(copy)


def test_an_action_that_is_not_one_is_refused() -> None:
    state = State(STANDARD, deal_cards(STANDARD, 0, random.Random(1)))
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="is not an action"):
        state.apply(1, 7)  # type: ignore[arg-type]
    assert snapshot(state) == before


@given(name=st.sampled_from(sorted(TABLES)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 100))
def test_legal_actions_are_exactly_what_apply_accepts(name: str, seed: int, steps: int
                                                       ) -> None:
    """For every seat, every action of :func:`universe`: listed by ``legal_actions`` if and
    only if ``apply`` takes it (with two decks, a face is taken where the hand holds either
    copy); refused, it changes nothing."""
    rules = TABLES[name]
    state = walk(rules, seed, steps)
    for seat in range(rules.players):
        legal = state.legal_actions(seat)
        assert len(set(legal)) == len(legal)
        for action in universe(state):
            listed = action in legal or (
                type(action) is Play and rules.decks > 1
                and Play(held_copy(state.hands[seat], action.card)) in legal)
            made, _ = outcome(state, lambda s, a=action: s.apply(seat, a))  # noqa: B023
            assert (made == "made") == listed, (seat, action, state.phase)


# ---- one history: replay(rules, deal, history) --------------------------------------------


def public_fields(state: State) -> dict[str, Any]:
    """A state's every field but the two-deck play's undo logs (``_swapped``,
    ``_turned_moves``): they record which copy a player named, which a history of faces
    played does not keep and nothing but ``pop`` reads."""
    out = snapshot(state)
    out.pop("_swapped", None)
    out.pop("_turned_moves", None)
    return out


def assert_replays(state: State) -> None:
    history = state.history
    again = replay(state.rules, state.deal, history)
    assert public_fields(again) == public_fields(state)
    assert again.history == history
    for seat in range(state.rules.players):
        assert again.information_state(seat) == state.information_state(seat)
        assert again.legal_actions(seat) == state.legal_actions(seat)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_replaying_the_history_gives_back_every_state(name: str) -> None:
    """At every event of whole matches played by people (the auction, redeals, revokes and
    denunciations, late ones too), the deal's history replayed from its deal is the state."""
    rules = TABLES[name]
    rng = random.Random(name)
    referee = Referee(Match(rules, first_dealer=rng.randrange(rules.players)),
                      [None] * rules.players, rng=rng)
    seen: list[str] = []

    def listener(event: Event) -> None:
        assert_replays(event.state)
        seen.append(event.kind)

    referee.listen(listener)
    for _ in range(4):
        if referee.match.is_over:
            break
        play_people_deal(referee, rng, revoke=0.2, denounce=0.05, late=0.3)
    assert "played" in seen and "deal_ended" in seen


@pytest.mark.parametrize("name", sorted(TABLES))
def test_history_lists_every_move_once_in_order(name: str) -> None:
    rules = TABLES[name]
    for seed in range(3):
        state = walk(rules, seed, steps=200)
        history = state.history
        plays = [a.card for _, a in history if type(a) is Play]
        assert plays == state.plays
        assert [a.value for _, a in history if type(a) is Bid] == state.bids
        assert [a.ask for _, a in history if type(a) is Redeal] == state.redeal_answers
        assert [s for s, a in history if type(a) is Denounce] == [
            d.seat for d in state.denunciations]
        seats = [s for s, a in history if type(a) is Play]
        assert tuple(seats) == state.played_by()
        assert_replays(state)


def test_replay_stops_at_the_first_action_that_may_not_be_made() -> None:
    state = walk(STANDARD, seed=3, steps=6)
    history = state.history
    seat, action = history[4]
    wrong = [*history[:4], ((seat + 1) % 4, action), *history[5:]]
    with pytest.raises(IllegalMoveError) as caught:
        replay(STANDARD, state.deal, wrong)
    assert caught.value.reason == "not_your_turn"
