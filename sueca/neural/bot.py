"""``neural``: the bot that plays the network's most likely legal card.

The network (:mod:`sueca.neural.network`) has a head for the cards alone: the bids, the call
and the redeal answer are the heuristic bot's, and so is every card at a table the weights
were not trained for (another preset, other options): the bot then plays as the heuristic and
:meth:`NeuralBot.explain` says so. A lobby may seat ``neural`` at any table; it never fails for
want of weights. The shipped weights (``sueca/neural/data/standard.npz``, docs/neural.md) are
for the standard game; ``neural:weights=PATH`` plays another file (``sueca train --out``), and
a file that cannot be read, or is not a network of this sueca's, is refused when the spec is
read, with the reason.

>>> import random
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(2)))
>>> info = state.information_state(state.to_play)
>>> bot = NeuralBot(seed=1)
>>> bot.choose(info) in info.legal_moves()
True
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from sueca.bots.base import Bot, playable
from sueca.bots.heuristic import HeuristicBot
from sueca.cards import DECK_SIZE, Card, CardMask, card_name
from sueca.infostate import InformationState
from sueca.neural.encoding import ObservationEncoder
from sueca.neural.network import Network, features, legal_faces, load
from sueca.rules import Rules

log = logging.getLogger("sueca.neural")

DEFAULT_WEIGHTS = Path(__file__).resolve().parent / "data" / "standard.npz"


@functools.lru_cache(maxsize=8)  # a few files per process, each loaded once
def _cached(path: str, mtime_ns: int) -> Network:
    return load(path)


def load_weights(path: Path | str) -> Network:
    """The network of ``path``, loaded once per process (and again if the file changes)."""
    try:
        mtime = Path(path).stat().st_mtime_ns
    except OSError as error:
        raise ValueError(f"cannot read the weights file {path}: {error.strerror}") from None
    return _cached(str(path), mtime)


@functools.cache  # once per process: a broken install is logged once, not at every bot
def default_network() -> tuple[Network | None, str | None]:
    """The shipped network, or None and why it cannot be loaded (a broken install: the bots
    then play as the heuristic, and say so)."""
    try:
        return load_weights(DEFAULT_WEIGHTS), None
    except ValueError as error:
        problem = f"the shipped weights do not load ({error})"
        log.warning("neural: %s; playing as the heuristic", problem)
        return None, problem


class NetworkView:
    """A network bound to one table's encoder: the policy of an information state. ``None``
    as network, or one trained for other rules: :attr:`problem` says why it cannot play."""

    def __init__(self, network: Network | None, rules: Rules, problem: str | None = None
                 ) -> None:
        self.encoder = ObservationEncoder(rules)
        self.problem = problem or (network.fits(rules) if network is not None else
                                   "no weights")
        self.network = network if self.problem is None else None

    def policy(self, info: InformationState) -> np.ndarray:
        """Probabilities over the 40 card faces (0 for the illegal ones)."""
        assert self.network is not None
        x = features(self.encoder, info)[None, :]
        row: np.ndarray = self.network.policy(x, legal_faces(info)[None, :])[0]
        return row

    def evaluate(self, info: InformationState) -> tuple[np.ndarray, float]:
        """:meth:`policy` and the value head's answer (-1 … 1) for ``info``."""
        assert self.network is not None
        x = features(self.encoder, info)[None, :]
        policy, value = self.network.evaluate(x, legal_faces(info)[None, :])
        return policy[0], float(value[0])

    def policies(self, infos: list[InformationState]) -> np.ndarray:
        """:meth:`policy` of many positions in one pass (rows in order)."""
        assert self.network is not None
        x = np.zeros((len(infos), self.network.input_size), np.float32)
        legal = np.zeros((len(infos), DECK_SIZE), np.float32)
        for row, info in enumerate(infos):
            features(self.encoder, info, x[row])
            legal[row] = legal_faces(info)
        return self.network.policy(x, legal)

    def card_probabilities(self, info: InformationState) -> dict[Card, float]:
        """The policy over ``info``'s legal cards (with two decks a face's two copies share
        its probability)."""
        return spread(self.policy(info), info.legal_moves())


def spread(face_probabilities: np.ndarray, legal: tuple[Card, ...]) -> dict[Card, float]:
    copies: dict[int, int] = {}
    for card in legal:
        copies[card % DECK_SIZE] = copies.get(card % DECK_SIZE, 0) + 1
    return {card: float(face_probabilities[card % DECK_SIZE]) / copies[card % DECK_SIZE]
            for card in legal}


class NeuralBot(Bot):
    """Plays the network's most likely legal card; the heuristic decides everything else."""

    name = "neural"

    def __init__(self, seed: int | None = None, weights: Path | str | None = None) -> None:
        super().__init__(seed)
        self.fallback = HeuristicBot(seed)
        self.weights_path = Path(weights) if weights is not None else DEFAULT_WEIGHTS
        self.network: Network | None
        self.load_problem: str | None = None
        if weights is not None:
            self.network = load_weights(weights)  # a bad file named by the user: refused
        else:
            self.network, self.load_problem = default_network()
        self._views: dict[str, NetworkView] = {}

    def configure(self, options: Mapping[str, str]) -> None:
        unknown = sorted(set(options) - {"weights"})
        if unknown:
            raise ValueError(f"neural has no option {unknown[0]!r} (options: weights)")
        if "weights" in options:
            path = options["weights"]
            if not path:
                raise ValueError("neural option weights= needs a file (sueca train --out)")
            self.network = load_weights(path)
            self.weights_path = Path(path)
            self.load_problem = None
            self._views.clear()

    def view(self, rules: Rules) -> NetworkView:
        """The network bound to ``rules``'s table (one per table kind, kept)."""
        key = repr(rules)
        view = self._views.get(key)
        if view is None:
            if len(self._views) >= 8:  # a bot moved across many tables: forget the oldest
                self._views.pop(next(iter(self._views)))
            view = self._views[key] = NetworkView(self.network, rules, self.load_problem)
        return view

    # ---- the game ------------------------------------------------------------------------

    def new_match(self, rules: Rules, seat: int) -> None:
        super().new_match(rules, seat)
        self.fallback.new_match(rules, seat)

    def set_time_budget(self, seconds: float | None) -> None:
        super().set_time_budget(seconds)
        self.fallback.set_time_budget(seconds)

    def choose(self, info: InformationState) -> Card:
        return self.explain(info)[0]

    def explain(self, info: InformationState) -> tuple[Card, str]:
        legal = playable(info)
        view = self.view(info.rules)
        if view.network is None:
            card, reason = self.fallback.explain(info)
            return card, f"no network for this table ({view.problem}): as the heuristic, " \
                         f"{reason}"
        if len(legal) == 1:
            return legal[0], "the only legal card"
        probabilities, value = view.evaluate(info)
        ranked = sorted(legal, key=lambda c: (-probabilities[c % DECK_SIZE], c))
        best = ranked[0]
        second = next((c for c in ranked if c % DECK_SIZE != best % DECK_SIZE), None)
        reason = f"the network's likeliest card ({probabilities[best % DECK_SIZE]:.0%})"
        if second is not None:
            reason += f"; next {card_name(second)} ({probabilities[second % DECK_SIZE]:.0%})"
        # The value head: the side's points less the others' at the deal's end, expected.
        reason += f"; it expects the deal to end {value * info.rules.total_points:+.0f} " \
                  "card points for its side"
        return best, reason

    def bid(self, info: InformationState) -> int:
        return self.fallback.bid(info)

    def call(self, info: InformationState) -> Card:
        return self.fallback.call(info)

    def redeal(self, info: InformationState) -> bool:
        return self.fallback.redeal(info)

    def denounce(self, info: InformationState) -> bool:
        return self.fallback.denounce(info)

    def deal_annulled(self, info: InformationState) -> None:
        self.fallback.deal_annulled(info)

    def deal_over(self, info: InformationState, hands: tuple[CardMask, ...]) -> None:
        self.fallback.deal_over(info, hands)


__all__ = ["DEFAULT_WEIGHTS", "NetworkView", "NeuralBot", "default_network", "load_weights",
           "spread"]
