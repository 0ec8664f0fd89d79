"""Training examples: positions of played deals as arrays (inputs, legal faces, labels, values).

A data set of ``sueca dataset`` (``records.jsonl``) is replayed record by record through
:func:`sueca.record.replay` (every record is checked on the way); each deal's card decisions
(:func:`sueca.neural.positions.decisions`) become rows: the network's input
(:func:`sueca.neural.network.features`), the legal faces, the face played (the label, or
the expert's face where the expert relabels them: DAgger) and the deal's outcome for the
seat (the value target). A line that is no usable record is skipped and counted by reason
(:class:`Tally`), never a crash.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sueca.cards import DECK_SIZE, Card
from sueca.infostate import InformationState
from sueca.neural.encoding import ObservationEncoder
from sueca.neural.network import features, input_size, legal_faces
from sueca.neural.positions import decisions, outcome
from sueca.record import RecordFormatError, loads, replay
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


@dataclass
class Tally:
    """What :func:`played_deals` made of a data set: the records used, and the lines skipped
    by reason, with the first such line's number and what was wrong with it."""

    used: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    first: dict[str, tuple[int, str]] = field(default_factory=dict)

    def skip(self, kind: str, line: int, detail: str) -> None:
        self.skipped[kind] = self.skipped.get(kind, 0) + 1
        self.first.setdefault(kind, (line, detail))

    def first_problem(self) -> str:
        """The first skipped line's number and reason (or that the file held no record)."""
        if not self.first:
            return "it holds no record"
        kind, (line, detail) = min(self.first.items(), key=lambda item: item[1][0])
        return f"line {line}: {kind}: {detail}"

    def summary(self) -> str:
        """One line: the records used and the lines skipped, by reason."""
        line = f"{self.used:,} records used"
        if self.skipped:
            line += "; skipped: " + ", ".join(
                f"{count:,} {kind} (first: line {self.first[kind][0]})"
                for kind, count in self.skipped.items())
        return line


def played_deals(path: Path, rules: Rules, tally: Tally | None = None) -> Iterator[State]:
    """The played deals of a ``records.jsonl`` at ``rules``'s table (annulled deals left
    out). A line that is too long, not JSON, not a record, does not replay or is another
    table's is skipped and counted in ``tally`` by reason; no line is read past MAX_LINE."""
    tally = tally if tally is not None else Tally()
    with path.open("rb") as stream:
        number = 0
        while raw := stream.readline(MAX_LINE + 1):
            number += 1
            if len(raw) > MAX_LINE:
                while raw and not raw.endswith(b"\n"):  # the rest of the line, unkept
                    raw = stream.readline(MAX_LINE + 1)
                tally.skip("too long", number, f"over {MAX_LINE:,} bytes")
                continue
            if not raw.strip():
                continue
            try:
                record = loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                tally.skip("not UTF-8 text", number, "bytes that are not UTF-8")
                continue
            except RecordFormatError as error:
                text = str(error)
                if text.startswith("not JSON: "):
                    tally.skip("not JSON", number, text.removeprefix("not JSON: "))
                else:
                    tally.skip("not a record", number, text)
                continue
            result = replay(record)
            if result.error is not None:
                tally.skip("not replaying", number, str(result.error.get("reason")))
                continue
            if result.rules != rules:
                tally.skip("another table's rules", number,
                           "its rules are not this table's (--rules, --set)")
                continue
            tally.used += 1
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
