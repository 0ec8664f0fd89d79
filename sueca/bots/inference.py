"""Inference: how likely a sampled world makes the cards the other seats have already played.

A search bot samples the hidden hands uniformly among those consistent with what its seat
knows (:meth:`~sueca.infostate.InformationState.sample_world`): a world in which an opponent
threw away an ace while holding a small card of that suit counts as much as one in which it
had nothing else. The best Skat programs (Buro, Long, Furtak and Sturtevant 2009; Solinas,
Rebstock and Buro 2019) weight each world by the probability, under a model of how people
play, that the seats would have played the cards they did had the world been the true one.

A **play model** is the one thing this takes: anything with

    def likelihoods(self, info: InformationState) -> Mapping[Card, float]

the probability that the seat of ``info`` plays each of its legal cards
(``info.legal_moves()``), summing to 1. :class:`HeuristicPlayModel` is the first: the
heuristic bot's card (:mod:`sueca.bots.heuristic`) with most of the mass, the rest spread
evenly over every legal card. A learned model (a network's policy) implements the same
method and plugs in unchanged.

:func:`world_weight` scores one world: it replays the deal's plays on the world's hands
(:attr:`State.history` applied to a fresh :class:`State` of the world's deal), and before
each card a seat other than ``info.seat`` chose between two or more legal faces it rebuilds
that seat's information state as it was in that world and multiplies in the model's
probability of the card played. The answer is a logarithm (products of forty small numbers
underflow nothing that way); only differences between worlds mean anything, so a factor
common to every world (a play the model reads the same whatever the hidden hands) cancels.
The cost is one information state and one model call per such play: 0.2 to 0.6 ms a world
(``benchmarks/bench_inference.py``), 1.8 ms on average over the moves of pimc's own deals on a
loaded machine (BENCHMARKS.md, "Inference and the budget"): no search nodes, but several times
what solving the world costs late in a deal. :class:`WorldScorer` keeps, for one move, the
model's answer per decision and per hand, which different worlds often share.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Protocol

from sueca.actions import Play
from sueca.bots.heuristic import HeuristicBot
from sueca.cards import DECK_SIZE, Card, one_per_face
from sueca.infostate import InformationState
from sueca.state import State

# The heuristic's card gets 1 - SOFTENING of the mass plus its even share of the rest; a
# player who follows the heuristic nine times in ten, and plays anything legal otherwise.
DEFAULT_SOFTENING = 0.5
# Distinct (decision, knowledge) answers one move keeps: a bound on the cache, far above the
# few thousand a move of a few hundred worlds asks for.
CACHE_LIMIT = 50_000


class PlayModel(Protocol):
    """How a player plays: the probability of each of the legal cards of ``info``'s seat."""

    def likelihoods(self, info: InformationState) -> Mapping[Card, float]:
        ...  # pragma: no cover - a protocol's signature


class HeuristicPlayModel:
    """The heuristic bot's card with probability ``1 - softening`` plus its share of
    ``softening``, which is spread evenly over every legal card (so every card is possible,
    and the model is never certain that a world is wrong)."""

    def __init__(self, softening: float = DEFAULT_SOFTENING) -> None:
        if not 0 < softening <= 1:
            raise ValueError(f"softening={softening!r} must be in (0, 1]")
        self.softening = softening
        self._heuristic = HeuristicBot(0)  # keeps no state between cards, draws no numbers

    def likelihoods(self, info: InformationState) -> Mapping[Card, float]:
        legal = info.legal_moves()
        if not legal:
            return {}
        share = self.softening / len(legal)
        out = dict.fromkeys(legal, share)
        out[self._heuristic.choose(info)] += 1 - self.softening
        return out


class WorldScorer:
    """Scores the worlds of one move (:func:`world_weight`), keeping the model's answers: two
    worlds in which a seat held the same cards at a decision ask the model the same question."""

    def __init__(self, model: PlayModel, info: InformationState) -> None:
        self.model = model
        self.info = info
        self._cache: dict[tuple[int, tuple[int, ...], tuple[int | None, ...]], float] = {}

    def log_weight(self, world: State) -> float:
        """The log-likelihood of the cards the other seats played, in ``world`` (a full state
        at this moment of play, as :func:`sueca.worlds.sample_state` makes one)."""
        info = self.info
        me = info.seat
        rules = world.rules
        # Cards a seat of mine decides: my own, and a dummy's when I am its controller.
        mine = {me}
        if rules.dummy is not None and me == rules.partner_of(rules.dummy):
            mine.add(rules.dummy)
        replay = State(rules, world.deal)
        total = 0.0
        index = 0
        for seat, action in world.history:
            if type(action) is Play:
                player = replay.to_play
                if player not in mine and len(one_per_face(replay.legal_moves())) > 1:
                    total += self._log_likelihood(replay, player, index, action.card)
                index += 1
            replay.apply(seat, action)
        return total

    def _log_likelihood(self, state: State, player: int, index: int, card: Card) -> float:
        decision = state.information_state(player)
        key = (index, decision.known, decision.teams)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        probabilities = self.model.likelihoods(decision)
        # A copy of a face (two decks) is the same card to the player: the face's mass.
        face = card % DECK_SIZE
        mass = sum(p for c, p in probabilities.items() if c % DECK_SIZE == face)
        # A card the model gives nothing (a revoke at a renuncia table): no evidence either way.
        value = math.log(mass) if mass > 0 else 0.0
        if len(self._cache) < CACHE_LIMIT:
            self._cache[key] = value
        return value


def world_weight(model: PlayModel, info: InformationState, world: State) -> float:
    """The log-likelihood, under ``model``, of the cards the seats other than ``info.seat``
    played, had ``world`` been the deal (see the module)."""
    return WorldScorer(model, info).log_weight(world)


def play_model(name: str, softening: float = DEFAULT_SOFTENING) -> PlayModel | None:
    """The play model a bot spec names (``inference=heuristic``), or None for ``none``; a
    ``ValueError`` naming the choices otherwise."""
    if name == "none":
        return None
    if name == "heuristic":
        return HeuristicPlayModel(softening)
    raise ValueError(f"inference={name!r} is not a valid value (heuristic or none)")


__all__ = [
    "DEFAULT_SOFTENING",
    "HeuristicPlayModel",
    "PlayModel",
    "WorldScorer",
    "play_model",
    "world_weight",
]
