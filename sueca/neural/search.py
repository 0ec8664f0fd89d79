"""``neural+search``: pimc whose sampled worlds are weighted by the network's play model.

pimc (:mod:`sueca.bots.pimc`) draws the hidden hands uniformly; with a play model
(:mod:`sueca.bots.inference`) each world weighs how likely it makes the cards the other seats
already played. :class:`NeuralPlayModel` is that model with the network's policy
(:mod:`sueca.neural.network`): before each past card, the seat's information state as it was
in the world goes through the network, and the card it played gets the network's probability,
mixed with an even share over the legal cards (pimc's ``softening``, so that no world is ever
ruled out by a network's certainty). The search itself, its budgets and options are pimc's:
``neural+search:worlds=32:candidates=4`` passes them on, ``weights=PATH`` picks the network.
At a table the weights were not trained for, the heuristic's play model stands in
(``pimc:inference=heuristic``).

>>> import random
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(3)))
>>> for _ in range(25):
...     state.push(state.legal_moves()[0])
>>> info = state.information_state(state.to_play)
>>> bot = NeuralSearchBot(seed=1)
>>> bot.configure({"worlds": "8"})
>>> bot.choose(info) in info.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from sueca.bots.inference import DEFAULT_SOFTENING, HeuristicPlayModel
from sueca.bots.pimc import PimcBot
from sueca.cards import Card
from sueca.infostate import InformationState
from sueca.neural.bot import DEFAULT_WEIGHTS, NetworkView, default_network, load_weights
from sueca.neural.network import Network
from sueca.rules import Rules


class NeuralPlayModel:
    """The network's policy as a play model (:class:`sueca.bots.inference.PlayModel`): the
    probability of each legal card of ``info``'s seat, ``softening`` of the mass spread evenly
    over them. With no network for the table, the heuristic's model."""

    def __init__(self, network: Network | None, softening: float = DEFAULT_SOFTENING,
                 problem: str | None = None) -> None:
        if not 0 < softening <= 1:
            raise ValueError(f"softening={softening!r} must be in (0, 1]")
        self.network = network
        self.softening = softening
        self.problem = problem
        self.fallback = HeuristicPlayModel(softening)
        self._views: dict[str, NetworkView] = {}

    def view(self, rules: Rules) -> NetworkView:
        key = repr(rules)
        view = self._views.get(key)
        if view is None:
            if len(self._views) >= 8:
                self._views.pop(next(iter(self._views)))
            view = self._views[key] = NetworkView(self.network, rules, self.problem)
        return view

    def likelihoods(self, info: InformationState) -> Mapping[Card, float]:
        legal = info.legal_moves()
        if not legal:
            return {}
        view = self.view(info.rules)
        if view.network is None:
            return self.fallback.likelihoods(info)
        share = self.softening / len(legal)
        keep = 1 - self.softening
        return {card: keep * p + share for card, p in view.card_probabilities(info).items()}


class NeuralSearchBot(PimcBot):
    """pimc with the network's play model weighting its worlds (``neural+search``)."""

    name = "neural+search"

    def __init__(self, seed: int | None = None, weights: Path | str | None = None) -> None:
        super().__init__(seed)
        self.weights_path = Path(weights) if weights is not None else DEFAULT_WEIGHTS
        self.network: Network | None
        self.load_problem: str | None = None
        if weights is not None:
            self.network = load_weights(weights)
        else:  # a broken install: the heuristic's model stands in
            self.network, self.load_problem = default_network()
        self.inference = "neural"
        self._install_model()

    def _install_model(self) -> None:
        self.play_model = NeuralPlayModel(self.network, self.softening, self.load_problem)

    def configure(self, options: Mapping[str, str]) -> None:
        """pimc's options (``worlds``, ``nodes``, ``time``, ``softening``, ``candidates``…)
        and ``weights=PATH``; ``inference`` is the network's, and not an option here."""
        options = dict(options)
        if "inference" in options:
            raise ValueError("neural+search's inference is the network's: it has no option "
                             "inference (use pimc:inference=… for another)")
        path = options.pop("weights", None)
        if path is not None:
            if not path:
                raise ValueError("neural+search option weights= needs a file (sueca train "
                                 "--out)")
            network = load_weights(path)  # refused before anything changes
        # pimc's configure builds its own model from ``inference``: none here, ours after.
        self.inference = "none"
        try:
            super().configure(options)
        finally:
            self.inference = "neural"
        if path is not None:
            self.network, self.weights_path, self.load_problem = network, Path(path), None
        self._install_model()

    def explain(self, info: InformationState) -> tuple[Card, str]:
        card, reason = super().explain(info)
        assert isinstance(self.play_model, NeuralPlayModel)
        view = self.play_model.view(info.rules)
        if view.network is None:
            reason += f" (no network for this table ({view.problem}): the heuristic's " \
                      "play model weighs the worlds)"
        return card, reason


__all__ = ["NeuralPlayModel", "NeuralSearchBot"]
