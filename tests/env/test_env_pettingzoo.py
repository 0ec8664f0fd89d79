"""The PettingZoo AEC environment passes PettingZoo's own API and seed tests at every table,
and its observations are the encoder's, from each agent's information state."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from core_support import TABLE_RULES

pettingzoo = pytest.importorskip("pettingzoo", reason="the env extra is not installed")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from sueca.cards import card_name  # noqa: E402
from sueca.env import pettingzoo as sueca_pz  # noqa: E402
from sueca.env.table import IllegalAction  # noqa: E402
from sueca.rules import Rules, preset  # noqa: E402

# PettingZoo asks for a Box or Discrete observation; a dict with an action mask is its own
# classic games' convention (chess, go), so its two reminders are noise here.
pytestmark = [pytest.mark.filterwarnings("ignore:Observation space:UserWarning"),
              pytest.mark.filterwarnings("ignore:Observation is not:UserWarning")]

TABLES: dict[str, Any] = {
    "standard": "standard",
    "pontos": "pontos",
    "weak_hand_redeal": {"variant": "brazil", "weak_hand_redeal": True},
    "renuncia": {"variant": "standard", "renuncia": True},
    **{name: rules for name, rules in TABLE_RULES.items() if "variants" not in name},
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    rules = TABLES[name]
    api_test(sueca_pz.env(rules=rules), num_cycles=100)
    seed_test(lambda: sueca_pz.env(rules=rules), num_cycles=100)


def test_observations_are_the_agents_information_states() -> None:
    environment = sueca_pz.raw_env(rules=preset("italiana5"))
    environment.reset(seed=11)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in environment.agent_iter():
        observation, _, termination, truncation, _ = environment.last()
        deal = environment.deal
        seat = int(agent.split("_")[1])
        assert np.array_equal(observation["observation"], environment.encoder.observation(
            deal.state.information_state(seat)))
        for other in environment.agents:
            if other != agent:
                assert not environment.observe(other)["action_mask"].any()
        if termination or truncation:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert sorted(legal) == deal.legal()
        environment.step(int(rng.choice(legal)))
        steps += 1
    assert steps == 5 + 1 + preset("italiana5").cards_in_play  # the bids, the call, the cards


def test_returns_are_zero_sum_and_scored_as_the_match_scores() -> None:
    for rules in (preset("standard"), preset("italiana5"), preset("standard").replace(dummy=2)):
        environment = sueca_pz.raw_env(rules=rules)
        for seed in range(5):
            environment.reset(seed=seed)
            rng = np.random.default_rng(seed)
            total = dict.fromkeys(environment.possible_agents, 0.0)
            for agent in environment.agent_iter():
                observation, reward, termination, truncation, _ = environment.last()
                total[agent] += reward
                if termination or truncation:
                    environment.step(None)
                else:
                    environment.step(int(rng.choice(np.flatnonzero(
                        observation["action_mask"]))))
            assert sum(total.values()) == pytest.approx(0.0)
            assert any(total.values())  # every table's deal here scores somebody


def test_an_illegal_action_is_refused_with_its_reason_and_changes_nothing() -> None:
    environment = sueca_pz.raw_env(rules="standard")
    environment.reset(seed=1)
    mask = environment.observe(environment.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = environment.deal.state.history
    seat = environment.agent_selection.split("_")[1]
    with pytest.raises(IllegalAction, match=rf"action {illegal} \(play \w+\) is not legal "
                       rf"for seat {seat} now"):
        environment.step(illegal)
    assert environment.deal.state.history == before
    wrapped = sueca_pz.env(rules="standard")
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    wrapped.step(illegal)  # PettingZoo's wrapper: the episode ends, the offender scores -1
    assert all(wrapped.terminations.values()) and wrapped.rewards[agent] == -1


def test_rules_are_checked_and_rendering_shows_only_public_cards() -> None:
    with pytest.raises(ValueError, match="unknown rules variant 'no-such-table'"):
        sueca_pz.raw_env(rules="no-such-table")
    environment = sueca_pz.raw_env(rules=Rules(), render_mode="ansi")
    environment.reset(seed=2)
    text = environment.render()
    assert text is not None and "hand " in text
    names = set(re.findall(r"\b(?:10|[2-7AJQK])[SHDC]\b", text))
    # Before the opening lead the only card anyone may see is the turned one.
    assert names == {card_name(environment.deal.state.deal.trump_card)}
