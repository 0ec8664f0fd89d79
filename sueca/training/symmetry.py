"""The suits are alike: a position with its suits renamed is as good a lesson as the original.

No rule of the game favours a suit (the trump is whichever the turned or called card names),
so renaming the four suits by a permutation (spades as hearts, …) everywhere in a position —
its hand, the cards seen, the trump, the voids, the legal cards, the label — gives another
position of the same game with the same answer. :func:`permutations` lists, for each of the 24
renamings, the columns of the network's input and the faces to read, so that a minibatch is
renamed by indexing (``x[:, columns]``); the trainer draws one per minibatch, and the network
sees 24 times the positions the records hold (the same augmentation AlphaZero's Go network
drew from the board's eight symmetries).
"""

from __future__ import annotations

import itertools

import numpy as np

from sueca.cards import CARDS_PER_SUIT, DECK_SIZE, SUITS
from sueca.neural.encoding import ObservationEncoder
from sueca.neural.features import FACE_BLOCKS, input_size, offset

SUIT_SLICES = ("trump", "voids")  # one column per suit (per seat)
CARD_SLICES = ("hand", "known", "played", "trick", "turned", "called")  # per face (per seat)


def _faces(order: tuple[int, ...]) -> np.ndarray:
    """``faces[new] = old``: the face read for each face once suit ``s`` is named
    ``order[s]``."""
    faces = np.empty(DECK_SIZE, np.int64)
    for face in range(DECK_SIZE):
        suit, rank = divmod(face, CARDS_PER_SUIT)
        faces[order[suit] * CARDS_PER_SUIT + rank] = face
    return faces


def permutations(encoder: ObservationEncoder) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each renaming of the suits as (input columns, faces): ``x[:, columns]`` and
    ``legal[:, faces]`` are the renamed rows, ``inverse[label]`` the renamed label (with
    ``inverse = argsort(faces)``)."""
    out = []
    suits = len(SUITS)
    for order in itertools.permutations(SUITS):
        faces = _faces(order)
        columns = np.arange(input_size(encoder), dtype=np.int64)
        for piece in encoder.pieces:
            if piece.name in SUIT_SLICES:
                for block in range(piece.start, piece.start + piece.size, suits):
                    for suit in SUITS:
                        columns[block + order[suit]] = block + suit
            elif piece.name in CARD_SLICES:
                for block in range(piece.start, piece.start + piece.size, DECK_SIZE):
                    columns[block:block + DECK_SIZE] = block + faces
        for name in FACE_BLOCKS:  # the legal cards, the heuristic's, …
            at = offset(encoder, name)
            columns[at:at + DECK_SIZE] = at + faces
        out.append((columns, faces))
    return out
