"""Type stub of the C search core (sueca/solver/_dds.c); see sueca.solver.reference."""

from collections.abc import Sequence

MAX_THREADS: int

class Solver:
    nodes: int
    threads: int
    threaded_tests: int

    def __init__(
        self,
        points: Sequence[int],
        teams: Sequence[int],
        must_trump: bool,
        last_trick_bonus: int,
        table_bits: int = ...,
        threads: int = ...,
        solo_nodes: int = ...,
    ) -> None: ...
    def value(
        self,
        hands: Sequence[int],
        trump: int,
        leader: int,
        trick: Sequence[int],
        guess: int = ...,
        node_limit: int = ...,
    ) -> int | None: ...
    def test(
        self, hands: Sequence[int], trump: int, leader: int, trick: Sequence[int], target: int
    ) -> bool: ...
    def move_values(
        self,
        hands: Sequence[int],
        trump: int,
        leader: int,
        trick: Sequence[int],
        guess: int = ...,
        node_limit: int = ...,
    ) -> list[tuple[int, int]] | None: ...
    def clear(self) -> None: ...
