"""Training examples: positions of played deals as arrays (inputs, legal faces, labels, values).

A data set of ``sueca dataset`` (``records.jsonl``) is replayed record by record through
:func:`sueca.record.replay` (every record is checked on the way); each deal's card decisions
(:func:`sueca.neural.positions.decisions`) become rows: the network's input
(:func:`sueca.neural.network.features`), the legal faces, the face played (the label, or
the expert's face where the expert relabels them: DAgger) and the deal's outcome for the
seat (the value target). A record that does not replay is skipped and counted, never a crash.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sueca.cards import DECK_SIZE, Card
from sueca.infostate import InformationState
from sueca.neural.encoding import ObservationEncoder
from sueca.neural.network import features, input_size, legal_faces
from sueca.neural.positions import decisions, outcome
from sueca.record import RecordFormatError, from_json, replay
from sueca.rules import Rules
from sueca.state import State

MAX_LINE = 4 * 1024 * 1024  # a record line longer than this is no match of ours
MAX_POSITIONS = 2_000_000  # about 5.5 GB of inputs: a bound on one run's memory
Labeller = Callable[[InformationState], Card]


@dataclass
class Examples:
    x: np.ndarray  # rows × input size, float32
    legal: np.ndarray  # rows × 40, float32 (1 for a legal face)
    label: np.ndarray  # rows, int64: the face to play
    value: np.ndarray  # rows, float32: the outcome for the seat (-1 … 1)
    skipped: int = 0  # records that did not replay

    def __len__(self) -> int:
        return int(self.label.shape[0])

    def join(self, other: Examples) -> Examples:
        return Examples(np.concatenate([self.x, other.x]),
                        np.concatenate([self.legal, other.legal]),
                        np.concatenate([self.label, other.label]),
                        np.concatenate([self.value, other.value]),
                        self.skipped + other.skipped)


def played_deals(path: Path, rules: Rules) -> Iterator[State]:
    """The played deals of a ``records.jsonl`` at ``rules``'s table (annulled deals and
    records of other rules left out); a line that is no record is skipped."""
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            if len(line) > MAX_LINE:
                continue
            try:
                record = from_json(json.loads(line))
            except (RecordFormatError, ValueError):
                continue
            result = replay(record)
            if result.error is not None or result.rules != rules:
                continue
            yield from (s for s in result.states if s.is_finished())


def examples(deals: Iterator[State], rules: Rules, label: Labeller | None = None
             ) -> Examples:
    """The rows of every card decision of ``deals``; ``label`` (the expert) relabels each
    position with its own card, else the card played is the label."""
    encoder = ObservationEncoder(rules)
    width = input_size(encoder)
    rows: list[np.ndarray] = []
    legal: list[np.ndarray] = []
    labels: list[int] = []
    values: list[float] = []
    for state in deals:
        for info, card in decisions(state):
            if len(labels) >= MAX_POSITIONS:
                break
            row = np.zeros(width, np.float32)
            rows.append(features(encoder, info, row))
            legal.append(legal_faces(info))
            labels.append((label(info) if label is not None else card) % DECK_SIZE)
            values.append(outcome(state, info.seat))
    if not rows:
        return Examples(np.zeros((0, width), np.float32), np.zeros((0, DECK_SIZE), np.float32),
                        np.zeros(0, np.int64), np.zeros(0, np.float32))
    return Examples(np.stack(rows), np.stack(legal), np.asarray(labels, np.int64),
                    np.asarray(values, np.float32))
