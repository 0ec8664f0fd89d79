"""Sueca as a PettingZoo AEC environment: ``env()`` (wrapped, the PettingZoo convention) and
``raw_env``.

One episode is one deal of any table of the rules (``rules``: a :class:`~sueca.rules.Rules`,
a preset's name or a RECORD.md rules object). Agents are ``player_<seat>`` for every seat that
decides (a three-player table's dummy is played by its partner, who then observes the dummy's
information state). Each observation is a dict: ``observation`` (the tensor of
:mod:`sueca.env.observation`, from the agent's information state only) and ``action_mask``
(1 for each legal index of :mod:`sueca.env.actions`; zeros when it is not the agent's turn).
Rewards come at the deal's end: see :mod:`sueca.env.table`. docs/env.md has the details.

>>> environment = env(rules="standard")
>>> environment.reset(seed=3)
>>> observation, reward, termination, truncation, info = environment.last()
>>> environment.agent_selection, int(observation["action_mask"].sum()) > 0
('player_2', True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from sueca.deal import deal_cards, random_dealer
from sueca.env.actions import ActionCodec
from sueca.env.observation import ObservationEncoder
from sueca.env.rules_arg import rules_of
from sueca.env.table import AgentDeal, deciders
from sueca.infostate import common_information
from sueca.rules import STANDARD, Rules


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers: an illegal action ends the episode
    with reward -1 for the agent that made it, an action outside the space is refused, and
    the AEC order (reset first) is enforced."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]  # pettingzoo's AECEnv is untyped generic
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"], "name": "sueca_v0", "is_parallelizable": False}

    def __init__(self, rules: Rules | str | Mapping[str, Any] = STANDARD,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = rules_of(rules)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of "
                             f"{self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.codec = ActionCodec(self.rules)
        self.encoder = ObservationEncoder(self.rules)
        self.seats = deciders(self.rules)
        self.possible_agents = [f"player_{seat}" for seat in self.seats]
        self._agent_seat = dict(zip(self.possible_agents, self.seats, strict=True))
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.codec.size)
                              for agent in self.possible_agents}
        self._rng = random.Random()
        self.deal: AgentDeal | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = random_dealer(self._rng, self.rules)
        self.deal = AgentDeal(self.rules, deal_cards(self.rules, dealer, self._rng),
                              self.codec)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._decider()

    def _decider(self) -> str:
        assert self.deal is not None
        asked = self.deal.asked()
        return f"player_{asked[0]}" if asked else self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.deal is not None, "reset() first"
        info, for_dummy = self.deal.view(self._agent_seat[agent])
        mask = np.zeros(self.codec.size, np.int8)
        if not self.deal.over and agent == self._decider():
            mask[self.deal.legal()] = 1
        return {"observation": self.encoder.observation(info, for_dummy), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.deal is not None
        self._clear_rewards()
        self.deal.apply(int(action) if action is not None else -1)
        if self.deal.over:
            for name, value in zip(self.possible_agents, self.deal.returns(), strict=True):
                self.rewards[name] = value
                self.terminations[name] = True
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        self.agent_selection = self._decider()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """What every seat knows (the spectator's view: no hidden card), as text."""
        if self.render_mode is None or self.deal is None:
            return None
        state = self.deal.state
        infos = [state.information_state(s) for s in range(self.rules.players)]
        return self.encoder.text(common_information(infos, state.to_play))

    def close(self) -> None:
        self.deal = None
