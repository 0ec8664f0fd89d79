"""The registry's way to the learned bots, which live in :mod:`sueca.neural` (the network, its
encoder and its weights): ``neural`` and ``neural+search``. NumPy and the weights are loaded
only when one of them is made, so ``import sueca.bots`` stays as light as before."""

from __future__ import annotations

from sueca.bots.base import Bot


def neural(seed: int | None) -> Bot:
    from sueca.neural.bot import NeuralBot

    return NeuralBot(seed)


def neural_search(seed: int | None) -> Bot:
    from sueca.neural.search import NeuralSearchBot

    return NeuralSearchBot(seed)
