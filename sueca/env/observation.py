"""The observation tensor: one seat's information state as numbers, and nothing else.

The encoder lives in :mod:`sueca.neural.encoding` (the players layer, so that the learned bot
reads the very tensor an agent is handed here); this module is its name for the environments.
docs/env.md lists every slice.

>>> import random
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(1)))
>>> encoder = ObservationEncoder(STANDARD)
>>> vector = encoder.observation(state.information_state(1))
>>> vector.shape, int(vector[encoder.slice("hand")].sum())
((652,), 10)
"""

from __future__ import annotations

from sueca.neural.encoding import PHASES, ObservationEncoder, Piece, Vector

__all__ = ["PHASES", "ObservationEncoder", "Piece", "Vector"]
