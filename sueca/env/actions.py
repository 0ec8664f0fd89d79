"""Actions as integers: one numbering of every move of a table, shared by both environments.

The codec lives in :mod:`sueca.neural.encoding` (the players layer, where the learned bot
reads it too); this module is its name for the environments. 143 indexes at every table:
cards 0-39, pass and bids 40-100, calls 101-140, the redeal answers 141-142 (docs/env.md).

>>> from sueca.actions import Bid
>>> from sueca.rules import STANDARD
>>> codec = ActionCodec(STANDARD)
>>> codec.size, codec.action(codec.index(Bid(75)))
(143, Bid(value=75))
"""

from __future__ import annotations

from sueca.neural.encoding import BID_VALUES, ActionCodec

__all__ = ["BID_VALUES", "ActionCodec"]
