"""Where the arena's boards are played: on this machine's cores, or on a Ray cluster.

A board is one job, ``play_task(task)``: the pair, the board's index and the series' seed say
everything about it, so a board played in another process, or on another machine, is the same
board. A pool takes jobs and hands back, for each, a call that waits for its result; the arena
reads results back in board order (:func:`sueca.arena.tournament.run_arena`), so its figures
do not depend on where, or on how many workers, the boards were played.

- ``local`` (the default): a pool of worker processes on this machine, from a fork server (or
  spawned: forking the arena could copy a lock held by one of its threads).
- ``ray``: Ray tasks, one per board, on the cluster at ``address`` (``ray start --head`` on
  one machine and ``ray start --address HEAD:6379`` on the others; ``auto`` finds the local
  one; ``None`` starts a Ray instance on this machine for the command's life). Every node needs
  the same ``sueca`` installed (``pip install 'sueca[ray]'``). docs/arena.md.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from sueca.arena.play import BoardResult, play_board, play_match_board
from sueca.rules import Rules

BACKENDS = ("local", "ray")

# rules, bot A, bot B, board, seed, records, and whether a board is a pair of whole matches
Task = tuple[str, str, str, int, int, str | None, bool]


@lru_cache(maxsize=8)
def _rules(text: str) -> Rules:
    """One Rules object per worker and table: the engine's lookup tables hang off it."""
    return Rules.from_dict(json.loads(text))


def play_task(task: Task) -> BoardResult:
    """A worker's job: one board of one pair (a top-level function, so a pool can send it)."""
    rules_text, bot_a, bot_b, index, seed, records, matches = task
    play = play_match_board if matches else play_board
    return play(_rules(rules_text), bot_a, bot_b, index, seed,
                Path(records) if records else None)


class BoardPool(Protocol):
    workers: int

    def submit(self, task: Task) -> Callable[[], BoardResult]:
        """Start ``task``; the call returned waits for its result (and raises its error)."""


class _LocalPool:
    def __init__(self, pool: Any, workers: int) -> None:
        self._pool = pool
        self.workers = workers

    def submit(self, task: Task) -> Callable[[], BoardResult]:
        future = self._pool.apply_async(play_task, (task,))
        return future.get  # type: ignore[no-any-return]


class _RayPool:
    def __init__(self, ray: Any, workers: int) -> None:
        self._ray = ray
        self._play = ray.remote(play_task)
        self.workers = workers

    def submit(self, task: Task) -> Callable[[], BoardResult]:
        ref = self._play.remote(task)
        return lambda: self._ray.get(ref)


@contextmanager
def open_pool(backend: str, workers: int | None = None,
              address: str | None = None) -> Iterator[BoardPool]:
    """A pool of ``workers`` (default: every core here, or every CPU of the Ray cluster).
    :class:`ValueError` names a backend that is unknown, not installed or not reachable."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown arena backend {backend!r} (known: {', '.join(BACKENDS)})")
    if backend == "local":
        if address is not None:
            raise ValueError("--address is the Ray cluster's: it needs --backend ray")
        count = max(1, workers if workers is not None else os.cpu_count() or 1)
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods
                                              else "spawn")
        if "forkserver" in methods:
            context.set_forkserver_preload(["sueca.arena.backends"])
        with context.Pool(count) as pool:
            yield _LocalPool(pool, count)
        return
    with _ray_session(workers, address) as ray:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        yield _RayPool(ray, max(1, workers if workers is not None else cpus))


@contextmanager
def _ray_session(workers: int | None, address: str | None) -> Iterator[Any]:
    """Ray, connected: to ``address``, or to a Ray instance started here (and stopped after)
    unless this process is connected already (a test's ``ray.init(num_cpus=2)``)."""
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'sueca[ray]'") from None
    if ray.is_initialized():
        yield ray
        return
    options: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.WARNING,
                               "log_to_driver": False}
    if address is None and workers is not None:
        options["num_cpus"] = workers
    try:
        ray.init(address=address, **options)
    except (ConnectionError, ValueError, RuntimeError) as error:
        where = f"at {address}" if address else "here"
        raise ValueError(f"cannot start or reach a Ray cluster {where}: "
                         f"{str(error).splitlines()[0][:200]}") from None
    try:
        yield ray
    finally:
        ray.shutdown()
