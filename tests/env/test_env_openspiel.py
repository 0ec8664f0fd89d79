"""The OpenSpiel game passes OpenSpiel's own checks for Python games (``random_sim_test``, as
open_spiel/python/games/*_test.py run it) at every table, and OpenSpiel's algorithms and RL
environment run on it unchanged."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from core_support import TABLE_RULES, any_rules
from hypothesis import given

pyspiel = pytest.importorskip("pyspiel", reason="the env extra (open_spiel) is not installed")
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import outcome_sampling_mccfr  # noqa: E402

import sueca.env.openspiel  # noqa: E402, F401  (registers the game)
from sueca.env.observation import ObservationEncoder  # noqa: E402
from sueca.env.rules_arg import compact, rules_of  # noqa: E402
from sueca.rules import STANDARD, Rules, preset  # noqa: E402

TABLES = {
    "standard": "standard",
    "pontos": "pontos",
    "weak_hand_redeal": json.dumps({"variant": "brazil", "weak_hand_redeal": True}),
    "renuncia_open_dealer": json.dumps({"variant": "italiana", "renuncia": True,
                                        "open_hands": "dealer_dummy",
                                        "redeal_point_trump": True}),
    **{name: json.dumps(rules.to_dict()) for name, rules in TABLE_RULES.items()
       if "variants" not in name},
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_openspiel_random_simulation_checks(name: str) -> None:
    game = pyspiel.load_game("sueca", {"rules": TABLES[name]})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def play_to_end(state: pyspiel.State, rng: random.Random) -> pyspiel.State:
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_tensors_are_the_seats_information_states() -> None:
    game = pyspiel.load_game("sueca", {"rules": "italiana5"})
    encoder = ObservationEncoder(preset("italiana5"))
    assert game.information_state_tensor_size() == encoder.size + encoder.history_size
    assert game.observation_tensor_size() == encoder.size
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        player = state.current_player()
        info = state.progress.deal.state.information_state(player)
        assert np.array_equal(np.asarray(state.observation_tensor(player)),
                              encoder.observation(info))
        assert np.array_equal(np.asarray(state.information_state_tensor(player)),
                              encoder.information_state(info))
        assert state.information_state_string(player) == encoder.text(info, history=True)
        state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(0.0)


def test_the_deal_is_chance_nodes_the_turned_card_first() -> None:
    game = pyspiel.load_game("sueca", {"rules": json.dumps(
        {"variant": "standard", "redeal_point_trump": True})})
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [0, 1, 2, 3]  # the dealer
    state.apply_action(2)
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert all(STANDARD.card_points[card] == 0 for card, _ in outcomes)  # a blank turned card
    state.apply_action(outcomes[0][0])
    assert len(state.chance_outcomes()) == 39
    state = play_to_end(state, random.Random(1))
    assert state.progress.deal.state.deal.trump_card == outcomes[0][0]
    assert state.progress.deal.state.deal.dealer == 2


def test_a_clone_is_independent_of_its_original() -> None:
    game = pyspiel.load_game("sueca")
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(1 + 40 + 7):  # the dealer, the cards, seven plays
        state.apply_action(rng.choice(state.legal_actions()))
    twin = state.clone()
    assert str(twin) == str(state) and twin.history() == state.history()
    twin.apply_action(twin.legal_actions()[0])
    assert twin.history() != state.history()
    assert len(state.progress.deal.state.plays) == 7
    assert len(twin.progress.deal.state.plays) == 8


def test_openspiel_algorithms_and_rl_environment_run_unchanged() -> None:
    game = pyspiel.load_game("sueca")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    environment = rl_environment.Environment(game)
    step = environment.reset()
    rng = random.Random(0)
    moves = 0
    while not step.last():
        player = step.observations["current_player"]
        step = environment.step([rng.choice(step.observations["legal_actions"][player])])
        moves += 1
    assert moves == 40 and sum(step.rewards) == pytest.approx(0.0)


@given(any_rules)
def test_the_game_keeps_its_rules_as_text_its_game_string_carries(rules: Rules) -> None:
    text = compact(rules)
    assert "," not in text and "=" not in text and rules_of(text) == rules
    game = pyspiel.load_game("sueca", {"rules": json.dumps(rules.to_dict())})
    assert game.get_parameters() == {"rules": text}
    assert pyspiel.load_game(str(game)).rules == rules


@pytest.mark.parametrize("name", sorted(TABLE_RULES))
def test_every_table_s_rules_survive_the_game_string(name: str) -> None:
    rules = TABLE_RULES[name]
    game = pyspiel.load_game("sueca", {"rules": json.dumps(rules.to_dict())})
    state = play_to_end(game.new_initial_state(), random.Random(1))
    again_game, again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert again_game.rules == rules and again.returns() == state.returns()
    assert again.information_state_string(0) == state.information_state_string(0)


def test_bad_rules_are_refused_by_name() -> None:
    with pytest.raises(Exception, match="unknown rules option 'trumps'"):
        pyspiel.load_game("sueca", {"rules": '{"variant": "standard", "trumps": 1}'})
    with pytest.raises(Exception, match="not a JSON object"):
        pyspiel.load_game("sueca", {"rules": "{not json"})
    with pytest.raises(Exception, match="'must_trump' has no JSON value"):
        pyspiel.load_game("sueca", {"rules": "standard;must_trump:yes please"})
    with pytest.raises(Exception, match="at most 2,000"):
        pyspiel.load_game("sueca", {"rules": "standard;" + "x" * 3000})


def test_the_public_observer_shows_no_private_card() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("sueca")
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    encoder = ObservationEncoder(STANDARD)
    deal = state.progress.deal.state.deal
    for player in range(4):
        public.set_from(state, player)
        private.set_from(state, player)
        mine = public.tensor[encoder.slice("hand")]
        # Before the opening lead only the dealer's turned card is anyone's to see.
        seen = {int(c) for c in np.flatnonzero(mine)}
        assert seen == ({deal.trump_card} if player == deal.dealer else set())
        assert private.tensor[encoder.slice("hand")].sum() == 10
        assert not public.tensor[encoder.slice("known")].sum() > 1
