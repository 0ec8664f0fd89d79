"""Whole deals consistent with what one seat knows: what search bots play out.

:meth:`~sueca.infostate.InformationState.sample_world` draws the hidden hands; this module
turns one into a full :class:`~sueca.state.State` at the same moment of play. It lives apart
from both so that the information state never imports the state it is computed from.
"""

from __future__ import annotations

import random

from sueca.deal import Deal
from sueca.infostate import InformationState
from sueca.state import State


def sample_state(info: InformationState, rng: random.Random) -> State:
    """A full state at this very moment of play, in a world drawn uniformly among those
    consistent with ``info``: for search bots."""
    if info.redeal_by is not None:
        # An ask ended the deal: there is nothing left to search, and the asker's hand in a
        # sampled world need not be weak enough to ask.
        raise ValueError(f"the deal is annulled: seat {info.redeal_by} asked for a new deal")
    dealt = info.hands_as_dealt(info.sample_world(rng))
    state = State(info.rules, Deal(info.dealer, tuple(dealt), info.trump_card))
    for ask in info.redeal_answers:
        state.answer_redeal(ask)  # every answer here kept: always allowed
    for bid in info.bids:
        state.bid(bid)
    if info.contract is not None:
        state.call(info.contract.called_card)
    for card in info.plays:
        state.push(card)
    return state
