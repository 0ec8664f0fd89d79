"""The network's input: the observation tensor, then what a player reads off the trick.

The observation (:class:`~sueca.neural.encoding.ObservationEncoder`) holds every fact a seat
knows; a small network trained on a few thousand deals does not learn from it alone what
every player sees at a glance. So the input adds, per card face (0-39):

- ``legal``: the cards it may play;
- ``heuristic``: the heuristic bot's card (:mod:`sueca.bots.heuristic`): the network learns
  when the expert departs from the rules of thumb, a correction rather than the game from
  nothing (hand-made features beside the raw board, as AlphaGo's first policy network had);
- ``wins``: the legal cards that would take the trick's lead now;
- ``masters``: the cards of the hand that no unseen card of their suit beats;

and two numbers: whether the seat's side holds the trick now, and the trick's points so far
(over the deck's). Every one is read from the seat's information state alone.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sueca.bots.base import beats, winning_index
from sueca.bots.heuristic import HeuristicBot
from sueca.cards import CARDS_PER_SUIT, DECK_SIZE, card_points, mask_cards
from sueca.infostate import InformationState
from sueca.neural.encoding import ObservationEncoder

Array = npt.NDArray[np.float32]
# After the observation: (name, columns); the blocks of DECK_SIZE are per card face.
EXTRA = (("legal", DECK_SIZE), ("heuristic", DECK_SIZE), ("wins", DECK_SIZE),
         ("masters", DECK_SIZE), ("side_holds_trick", 1), ("trick_points", 1))
FACE_BLOCKS = tuple(name for name, size in EXTRA if size == DECK_SIZE)
# Names the input layout in a weights file's metadata: a network of another input is refused.
INPUT_LAYOUT = "observation+" + "+".join(name for name, _ in EXTRA)
_HEURISTIC = HeuristicBot(0)  # keeps no state between cards and draws no numbers


def input_size(encoder: ObservationEncoder) -> int:
    return encoder.size + sum(size for _, size in EXTRA)


def offset(encoder: ObservationEncoder, name: str) -> int:
    at = encoder.size
    for piece, size in EXTRA:
        if piece == name:
            return at
        at += size
    raise KeyError(name)


def legal_faces(info: InformationState) -> Array:
    mask = np.zeros(DECK_SIZE, np.float32)
    for card in info.legal_moves():
        mask[card % DECK_SIZE] = 1.0
    return mask


def features(encoder: ObservationEncoder, info: InformationState, out: Array | None = None
             ) -> Array:
    """The network's input for ``info`` (its seat to play). Written into ``out`` (a zeroed
    row) when given."""
    row = np.zeros(input_size(encoder), np.float32) if out is None else out
    encoder.write(info, row)
    base = encoder.size
    legal = info.legal_moves()
    for card in legal:
        row[base + card % DECK_SIZE] = 1.0
    base += DECK_SIZE
    row[base + _HEURISTIC.choose(info) % DECK_SIZE] = 1.0
    base += DECK_SIZE
    trick, trump = info.trick, info.trump
    if trick:
        best = trick[winning_index(trick, trump)]
        for card in legal:
            if beats(card, best, trump):
                row[base + card % DECK_SIZE] = 1.0
    base += DECK_SIZE
    hand_faces = {c % DECK_SIZE for c in mask_cards(info.hand)}
    seen = hand_faces | {c % DECK_SIZE for c in info.plays}
    for face in hand_faces:
        suit_start = face - face % CARDS_PER_SUIT
        if all(f in seen for f in range(face + 1, suit_start + CARDS_PER_SUIT)):
            row[base + face] = 1.0
    base += DECK_SIZE
    if trick:
        seats = info.played_by()[-len(trick):]
        holder = seats[winning_index(trick, trump)]
        row[base] = float(holder == info.seat or holder in info.partners())
        row[base + 1] = sum(card_points(c) for c in trick) / info.rules.total_points
    return row
