"""Server bots in worker processes: the bot service every table's moves are decided by.

Bot thinking is CPU work. In threads it contends with the event loop for the GIL (50 tables of
one person and three pimc bots played 33 of the person's cards in 95 s), so ``sueca serve``
decides bot moves in a pool of worker processes (:class:`BotPool`, ``--bot-workers N``,
default ``min(cores, 4)``); ``--bot-workers 0`` keeps them in a thread pool
(:class:`ThreadBots`), as tests do for speed.

**What crosses the process boundary.** A move is one job: the bot itself (pickled: its seed,
its random generator's state, whatever it learnt from the match's hooks) and the information
state of the seat asked. The worker decides with :func:`~sueca.bots.base.decide` (the one
policy for a bot's illegal answer) and sends back the action and the bot's new state, which
the server's bot object adopts. The bot objects stay where the referee holds them, in the
server: its hooks (``new_match``, ``deal_over``…) are called there as in-process (one called
while the move is out keeps its change: the bot takes on the move's state only if it is still
the bot that was sent), and a worker keeps nothing between moves. So a bot plays in the pool
exactly the card it plays in-process for the same seed and information
(tests/server/test_server_botpool.py), any idle worker may take any table's move, a worker
that dies loses nothing (the move is sent again, unchanged: the same card), and a worker's
memory is one bot for one move. What is not copied: pimc's 16 MB search table
(``PimcBot.__getstate__``), which a worker builds for the move and frees after it (every move
empties it first, so the play does not depend on it). Rules travel as their RECORD.md options
and are rebuilt once per worker (:func:`_rules_from_text`), so the engine's derived tables are
reused from move to move. A worker runs this file alone (:data:`_WORKER`), not the
``sueca.server`` package: it needs the bots, not the web server, so nothing the server's
package imports can stop a worker from starting. A bot that does not pickle (a ``cmd:``
program holds a process) is decided in the server's threads, as before.

**Limits.**

- A per-move *deadline* (``deadline`` seconds from the request, queue included): a move no
  worker has taken by then, or that a worker has not answered by twice that (it missed it by
  far), is the plain answer (:func:`~sueca.bots.base.plain_action`: what
  :meth:`~sueca.referee.Referee.play_for`'s policy plays for a broken bot), logged at most once
  a minute per table; a late answer is dropped and the bot keeps its state from before.
- A *fair queue*: one queue per table, served round-robin, so a table with many or slow moves
  cannot starve the others; at most :data:`TABLE_QUEUE` moves waiting per table.
- *Overload* is said in one log line every ten minutes at most, when a move waited more than
  ``overload_wait`` seconds for a worker: the machine has too few cores for its tables' bots.
- *Bounded memory*: a worker holds one bot for one move; one whose resident memory passes
  ``rss_limit`` after a move is recycled (a fresh process takes its slot).
- A worker that dies is replaced, and its move is sent again once (to any worker), then falls
  back; a worker busy on one move longer than ``runaway`` seconds is killed and replaced.
- *Shutdown*: :meth:`BotPool.close` (the server's lifespan, on Ctrl-C and on SIGTERM) ends
  every worker; a worker also dies with the server (``PR_SET_PDEATHSIG`` on Linux, and the end
  of its socket everywhere), so none outlives ``sueca serve``, even one killed with ``kill -9``.

Why not ``concurrent.futures.ProcessPoolExecutor``: one worker that dies breaks the whole
executor (every pending move fails and the pool must be rebuilt), it cannot kill one stuck
worker or recycle one by its memory, and its queue is one FIFO. Nor ``multiprocessing``'s
processes: spawned, they run the server's main script again (any script that forgot its
``if __name__ == "__main__"`` guard would start servers in its workers), and forking a
threaded server is unsafe. A worker here is a fresh ``python -c`` of :func:`_worker_main`
(:mod:`subprocess`), talking over a socket pair with ``multiprocessing.connection``'s framing,
and one dispatcher thread serves them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import io
import json
import logging
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache, partial
from multiprocessing.connection import Connection, wait
from typing import Any, Protocol

from sueca.actions import Action
from sueca.bots.base import Bot, decide, plain_action
from sueca.infostate import InformationState
from sueca.rules import Rules

log = logging.getLogger("sueca.server")

DEFAULT_DEADLINE = 10.0  # seconds a table waits for a bot's move before the plain answer
DEFAULT_RUNAWAY = 60.0  # seconds of one move after which its worker is killed
DEFAULT_RSS_LIMIT = 1 << 30  # bytes of resident memory past which a worker is recycled
TABLE_QUEUE = 8  # moves one table may have waiting at once
OVERLOAD_WAIT = 3.0  # seconds a move waits for a worker past which the pool is overloaded
OVERLOAD_EVERY = 600.0  # seconds between two lines saying so
LATENCY_SAMPLES = 100_000  # latencies kept for the statistics (the newest)
_LOG_EVERY = 60.0  # seconds between two fallback lines of one table
_RESPAWN_PAUSE = 1.0  # the first pause before a worker that could not start is tried again


def default_bot_workers() -> int:
    """``min(cores, 4)``: the cores this process may run on, at most four."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4))


class BotRunner(Protocol):
    """Where a table's bot decides a move: :class:`BotPool` or :class:`ThreadBots`."""

    latencies: deque[float]

    async def decide(self, bot: Bot, info: InformationState, *, table: str,
                     where: str) -> Action:
        """``bot``'s move for what ``info``'s seat is asked, never an exception for a bot's
        failure (the plain answer then)."""
        ...

    def close(self) -> None:
        ...


class ThreadBots:
    """Bots decide in the server's own threads (``--bot-workers 0``)."""

    def __init__(self, threads: int = 2) -> None:
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="sueca-bot")
        self.latencies: deque[float] = deque(maxlen=LATENCY_SAMPLES)

    async def decide(self, bot: Bot, info: InformationState, *, table: str,
                     where: str) -> Action:
        started = time.perf_counter()
        action = await asyncio.get_running_loop().run_in_executor(
            self.executor, partial(decide, bot, info, strict=False, where=where))
        self.latencies.append(time.perf_counter() - started)
        return action

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


# ---- what crosses the boundary ------------------------------------------------------------


def _rules_text(rules: Rules) -> str:
    return rules.derived(("botpool", "text"),
                         lambda: json.dumps(rules.to_dict(), sort_keys=True))


@lru_cache(maxsize=64)
def _rules_from_text(text: str) -> Rules:
    """The rules of a job, one object per worker for each: their derived tables are built
    once, not per move."""
    return Rules.from_dict(json.loads(text))


_INFO_FIELDS = tuple(f.name for f in InformationState.__dataclass_fields__.values() if f.init)


class _Pickler(pickle.Pickler):
    """Rules as their options (their derived tables hold C objects and are the other side's
    to build); an information state without its cached world sampler. (A reducer, not a
    persistent id: that is asked of every object, each int of a random generator's state.)"""

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is Rules:
            return _rules_from_text, (_rules_text(obj),)
        if type(obj) is InformationState:
            return InformationState, tuple(getattr(obj, n) for n in _INFO_FIELDS)
        return NotImplemented


def _dumps(obj: Any) -> bytes:
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return out.getvalue()


def _loads(data: bytes) -> Any:
    return pickle.loads(data)


def bot_state(bot: Bot) -> dict[str, Any]:
    """What a bot carries from move to move, as pickling sees it (``__getstate__``)."""
    state = bot.__getstate__()
    if state is None:
        return {}
    if not isinstance(state, dict):
        raise TypeError(f"bot {bot.name!r} keeps its state in slots")
    return state


def adopt(bot: Bot, state: dict[str, Any]) -> None:
    """Give the server's ``bot`` the state its copy had after deciding in a worker."""
    setstate = getattr(bot, "__setstate__", None)
    if setstate is not None:
        setstate(state)
    else:
        bot.__dict__.update(state)


# ---- the worker process -------------------------------------------------------------------


def _die_with_parent(parent: int) -> None:
    """Linux: the kernel kills this process when the thread that started it (the pool's
    dispatcher, which lives as long as the pool) ends, the server killed outright included."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(0)


def _resident_bytes() -> int:
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # peak, in KiB


def _worker_main(fd: int, parent: int) -> None:
    """A worker: decide the moves sent over the socket ``fd``, one at a time, until it
    closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    _die_with_parent(parent)
    conn = Connection(fd)
    try:
        conn.send_bytes(_READY)  # imported and listening: moves may come
    except (EOFError, OSError):
        return
    while True:
        try:
            raw = conn.recv_bytes()
        except (EOFError, OSError):
            return
        job_id = -1
        try:
            job_id, pickled_bot, info, where = _loads(raw)
            bot = _loads(pickled_bot)
            started, cpu = time.perf_counter(), time.process_time()
            action = decide(bot, info, strict=False, where=where)
            think = (time.perf_counter() - started, time.process_time() - cpu)
            reply = _dumps((job_id, action, bot_state(bot), think, _resident_bytes(), None))
        except Exception as error:  # a job that does not load or decide: the server falls back
            reply = _dumps((job_id, None, None, (0.0, 0.0), _resident_bytes(),
                            f"{type(error).__name__}: {error}"))
        del raw
        try:
            conn.send_bytes(reply)
        except (EOFError, OSError):
            return


_READY = b"ready"
_START_LIMIT = 60.0  # seconds a new worker has to say it is ready


# What a worker runs (``python -c``): the server's import path, as multiprocessing's spawn
# passes it (a worker unpickles every bot class the server can import: a plugin's, a test's),
# and this file alone, not the sueca.server package, under its own name (a job's rules name
# _rules_from_text, found then without importing the package).
_WORKER = """\
import importlib.util, sys
sys.path[:] = {path!r}
spec = importlib.util.spec_from_file_location("sueca.server.botpool", {file!r})
module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
module._worker_main({fd}, {parent})
"""


# ---- the server side ----------------------------------------------------------------------


class WorkerLost(RuntimeError):
    """The move could not be decided by a worker (it died twice, ran away, or the pool
    closed)."""


@dataclass
class _Job:
    id: int
    table: str
    payload: bytes
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[tuple[Action, dict[str, Any]]]
    submitted: float
    attempts: int = 0
    abandoned: bool = False  # the table stopped waiting (deadline, closed): skip it
    running: bool = False  # a worker has it


@dataclass
class _Worker:
    slot: int
    process: subprocess.Popen[bytes]
    conn: Connection
    started: float
    job: _Job | None = None
    job_started: float = 0.0
    ready: bool = False  # it said so: it has started


@dataclass
class PoolStats:
    moves: int = 0  # answered by a worker
    fallbacks: int = 0  # played the plain answer (deadline, lost worker, bad job)
    retries: int = 0  # moves sent again after their worker died
    replaced: int = 0  # workers that died or ran away and were replaced
    recycled: int = 0  # workers retired past the memory limit
    local: int = 0  # moves of bots that do not pickle, decided in threads
    # Per move answered, in seconds: its wait for a worker, its time there, the CPU time of it.
    queue_wait: deque[float] = field(default_factory=lambda: deque(maxlen=LATENCY_SAMPLES))
    think: deque[float] = field(default_factory=lambda: deque(maxlen=LATENCY_SAMPLES))
    cpu: deque[float] = field(default_factory=lambda: deque(maxlen=LATENCY_SAMPLES))


def _resolve(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


class BotPool:
    """Bot moves decided in ``workers`` worker processes (see the module)."""

    def __init__(self, workers: int | None = None, *, deadline: float = DEFAULT_DEADLINE,
                 runaway: float = DEFAULT_RUNAWAY, rss_limit: int = DEFAULT_RSS_LIMIT,
                 threads: int = 2) -> None:
        self.size = default_bot_workers() if workers is None else workers
        if self.size < 1:
            raise ValueError("a bot pool has at least one worker")
        self.deadline = deadline
        self.runaway = runaway
        self.rss_limit = rss_limit
        self.latencies: deque[float] = deque(maxlen=LATENCY_SAMPLES)
        self.stats = PoolStats()
        self._local = ThreadBots(threads)  # bots that do not pickle
        self._lock = threading.Lock()
        self._queues: dict[str, deque[_Job]] = {}  # per table, its moves waiting
        self._order: deque[str] = deque()  # tables with moves waiting, in serving order
        self._workers: list[_Worker | None] = [None] * self.size
        self._respawn_at = [0.0] * self.size
        self._young = [0] * self.size  # per slot: workers in a row that died unused
        # A byte on this socket pair wakes the dispatcher; never blocking the loop that sends
        # it (a full buffer already holds a wake-up).
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._ids = iter(range(1, sys.maxsize))
        self._logged: dict[str, tuple[float, int]] = {}  # table -> (last line, moves since)
        # A move that waited this long for a worker means the bots cannot keep their pace:
        # the operator is told, once every OVERLOAD_EVERY seconds at most.
        self.overload_wait = OVERLOAD_WAIT
        self._overload_said = -OVERLOAD_EVERY
        self._closed = False
        self._thread: threading.Thread | None = None

    # ---- the table's side ------------------------------------------------------------------

    def start(self) -> None:
        """Start the workers now (else at the first move)."""
        with self._lock:
            if self._thread is None and not self._closed:
                self._thread = threading.Thread(target=self._dispatch, name="sueca-bot-pool",
                                                daemon=True)
                self._thread.start()

    def pids(self) -> list[int]:
        """The worker processes running now."""
        with self._lock:
            return [w.process.pid for w in self._workers if w is not None]

    async def decide(self, bot: Bot, info: InformationState, *, table: str,
                     where: str) -> Action:
        started = time.perf_counter()
        job_id = next(self._ids)
        try:
            pickled_bot = _dumps(bot)
            payload = _dumps((job_id, pickled_bot, info, where))
        except (pickle.PicklingError, TypeError, AttributeError):
            self.stats.local += 1  # a bot holding a process or a file: decided here
            return await self._local.decide(bot, info, table=table, where=where)
        loop = asyncio.get_running_loop()
        job = _Job(job_id, table, payload, loop, loop.create_future(), started)
        reason = self._submit(job)
        if reason is None:
            try:
                action, state = await self._answer_of(job)
            except TimeoutError:
                self._withdraw(job)
                reason = (f"no answer within {2 * self.deadline:g} s" if job.running else
                          f"no worker free within {self.deadline:g} s")
            except WorkerLost as error:
                reason = str(error)
            except asyncio.CancelledError:
                self._withdraw(job)  # the table closed: nobody waits for this move
                raise
            else:
                # A hook the referee called while the bot thought (a cry ended the deal:
                # deal_over) changed the bot here; that change stands, and the move, which
                # the room drops then, teaches it nothing.
                if _dumps(bot) == pickled_bot:
                    adopt(bot, state)
                self.latencies.append(time.perf_counter() - started)
                return action
        return self._fallback(bot, info, table, where, reason, started)

    async def _answer_of(self, job: _Job) -> tuple[Action, dict[str, Any]]:
        """The job's answer within the deadline; one a worker is thinking over by then may
        take as long again (a worker that is late, not one that misses it by far: dropping
        its answer would waste the thinking when the machine is busiest)."""
        try:
            return await asyncio.wait_for(asyncio.shield(job.future), self.deadline)
        except TimeoutError:
            if not job.running:
                raise
        return await asyncio.wait_for(asyncio.shield(job.future), self.deadline)

    def _fallback(self, bot: Bot, info: InformationState, table: str, where: str,
                  reason: str, started: float) -> Action:
        self.stats.fallbacks += 1
        now = time.monotonic()
        last, since = self._logged.get(table, (-_LOG_EVERY, 0))
        if now - last >= _LOG_EVERY:
            more = f" ({since} more since the last line)" if since else ""
            log.warning("%s: bot %r at seat %d: %s; a plain %s is played instead%s",
                        where, bot.name, info.seat, reason, info.phase, more)
            self._logged[table] = (now, 0)
            if len(self._logged) > 10_000:  # bounded: forget the oldest tables
                for key in list(self._logged)[:5_000]:
                    del self._logged[key]
        else:
            self._logged[table] = (last, since + 1)
        request = info.request()
        if request is None:
            raise ValueError(f"seat {info.seat} is asked nothing now ({info.phase})")
        action = plain_action(bot, info, request)
        self.latencies.append(time.perf_counter() - started)
        return action

    def _submit(self, job: _Job) -> str | None:
        """Queue ``job``; why not, if it cannot be."""
        with self._lock:
            if self._closed:
                return "the bot pool is closed"
            queue = self._queues.get(job.table)
            if queue is None:
                queue = self._queues[job.table] = deque()
                self._order.append(job.table)
            if len(queue) >= TABLE_QUEUE:
                return f"{TABLE_QUEUE} moves of this table are already waiting"
            queue.append(job)
        self.start()
        self._wake()
        return None

    def _wake(self) -> None:
        with contextlib.suppress(OSError):  # full (a wake-up is pending) or closed
            self._wake_w.send(b"x")

    def _withdraw(self, job: _Job) -> None:
        """Take a move nobody waits for any more out of its table's queue, so that it does
        not hold a place there."""
        job.abandoned = True
        with self._lock:
            queue = self._queues.get(job.table)
            if queue is not None and job in queue:
                queue.remove(job)
                if not queue:
                    del self._queues[job.table]
                    self._order.remove(job.table)

    # ---- the dispatcher thread -------------------------------------------------------------

    def _next_job(self) -> _Job | None:
        """The next move to decide: the first waiting of the next table in turn (the lock
        held)."""
        while self._order:
            table = self._order.popleft()
            queue = self._queues[table]
            job = queue.popleft()
            if queue:
                self._order.append(table)  # round-robin: this table waits its turn again
            else:
                del self._queues[table]
            if not job.abandoned:
                return job
        return None

    def _requeue(self, job: _Job) -> None:
        """A move whose worker died goes first in its table's queue (the lock held)."""
        queue = self._queues.get(job.table)
        if queue is None:
            queue = self._queues[job.table] = deque()
            self._order.appendleft(job.table)
        queue.appendleft(job)
        job.running = False

    def _spawn(self, slot: int) -> None:
        """A new worker in ``slot``; if none can be started, another try in a moment (the
        lock held)."""
        ours, theirs = socket.socketpair()
        # The server's import path, as multiprocessing's spawn passes it: a worker unpickles
        # every bot class the server can import (a plugin's, a test's).
        code = _WORKER.format(path=sys.path, file=__file__, fd=theirs.fileno(),
                              parent=os.getpid())
        try:
            process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                                       pass_fds=(theirs.fileno(),))
        except OSError as error:
            ours.close()
            self._respawn_at[slot] = time.monotonic() + _RESPAWN_PAUSE
            log.warning("bot worker %d could not start: %s", slot, error)
            return
        finally:
            theirs.close()  # the worker's end is the worker's: its death ends the socket here
        self._workers[slot] = _Worker(slot, process, Connection(ours.detach()),
                                      time.monotonic())

    def _retire(self, worker: _Worker, *, kill: bool) -> None:
        """End a worker's process and free its slot (the lock held)."""
        self._workers[worker.slot] = None
        worker.conn.close()
        if kill:
            worker.process.kill()
        else:
            worker.process.terminate()
        try:
            worker.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            worker.process.kill()
            worker.process.wait(timeout=5)

    def _answer(self, job: _Job, value: Any, error: BaseException | None) -> None:
        """Hand the table's loop the move's answer (or why there is none)."""
        with contextlib.suppress(RuntimeError):  # the table's loop is closed: nobody waits
            job.loop.call_soon_threadsafe(_resolve, job.future, value, error)

    def _fail(self, job: _Job, message: str) -> None:
        self._answer(job, None, WorkerLost(message))

    def _lost(self, worker: _Worker, how: str) -> None:
        """A worker died or ran away: its slot gets a new one; its move is sent again once
        (the lock held)."""
        job = worker.job
        worker.job = None
        self._retire(worker, kill=True)
        self.stats.replaced += 1
        # Workers that never get ready (they cannot start: a broken install, no memory) are
        # replaced after a pause that doubles each time, up to a minute: no busy loop of
        # processes, no flood of lines. One that dies on a move is replaced at once: that
        # move is the suspect, sent again once only.
        slot = worker.slot
        if worker.ready:
            self._young[slot] = 0
        else:
            self._young[slot] += 1
            pause = min(60.0, _RESPAWN_PAUSE * 2 ** (self._young[slot] - 1))
            self._respawn_at[slot] = time.monotonic() + pause
        log.warning("bot worker %d (pid %s) %s; a new one takes its place", worker.slot,
                    worker.process.pid, how)
        if job is None or job.abandoned:
            return
        job.attempts += 1
        if job.attempts < 2 and how != "ran away":
            self.stats.retries += 1
            self._requeue(job)
        else:
            self._fail(job, f"its worker {how}")

    def _reply(self, worker: _Worker, raw: bytes) -> None:
        """A worker's answer (the lock held)."""
        job = worker.job
        worker.job = None
        job_id, action, state, think, resident, error = _loads(raw)
        if job is not None and job.id == job_id:
            if error is None:
                self.stats.moves += 1
                self.stats.think.append(think[0])
                self.stats.cpu.append(think[1])
                waited = max(0.0, worker.job_started - job.submitted)
                self.stats.queue_wait.append(waited)
                self._answer(job, (action, state), None)
                self._check_load(waited)
            else:
                self._fail(job, f"its job failed in the worker: {error}")
        if resident > self.rss_limit:
            self.stats.recycled += 1
            log.info("bot worker %d recycled: %d MiB resident (limit %d MiB)", worker.slot,
                     resident >> 20, self.rss_limit >> 20)
            self._retire(worker, kill=False)

    def _check_load(self, waited: float) -> None:
        """Say so when moves wait for a worker longer than a bot's pace allows (the lock
        held): the machine has too few cores for these tables' bots."""
        now = time.monotonic()
        if waited > self.overload_wait and now - self._overload_said >= OVERLOAD_EVERY:
            self._overload_said = now
            busy = len(self._queues)
            log.warning("bot moves wait %.1f s for one of the %d bot workers (%d tables "
                        "waiting): the bots cannot keep their pace; give the server more "
                        "cores and --bot-workers, or seat lighter bot levels", waited,
                        self.size, busy)

    def _step(self) -> float:
        """Fill the empty slots, give idle workers moves, kill runaways; the seconds until
        the next check (the lock held)."""
        now = time.monotonic()
        timeout = 1.0
        for slot, worker in enumerate(self._workers):
            if worker is None:
                if now < self._respawn_at[slot]:
                    timeout = min(timeout, self._respawn_at[slot] - now)
                    continue
                self._spawn(slot)
                worker = self._workers[slot]
                if worker is None:
                    timeout = min(timeout, _RESPAWN_PAUSE)
                    continue
            if not worker.ready:
                if now - worker.started > _START_LIMIT:
                    self._lost(worker, f"did not start within {_START_LIMIT:g} s")
                elif worker.process.poll() is not None:
                    self._lost(worker, f"exited ({worker.process.returncode}) as it started")
                continue
            if worker.job is None:
                job = self._next_job()
                if job is None:
                    continue
                try:
                    worker.conn.send_bytes(job.payload)
                except (OSError, ValueError):
                    self._requeue(job)
                    self._lost(worker, "closed its pipe")
                    continue
                worker.job, worker.job_started = job, time.perf_counter()
                job.running = True
            elif time.perf_counter() - worker.job_started > self.runaway:
                self._lost(worker, "ran away")
                continue
            elif worker.process.poll() is not None:
                self._lost(worker, f"exited ({worker.process.returncode})")
                continue
            if worker.job is not None:
                left = self.runaway - (time.perf_counter() - worker.job_started)
                timeout = min(timeout, max(0.01, left))
        return timeout

    def _dispatch(self) -> None:
        try:
            while True:
                try:
                    if not self._serve_once():
                        return
                except Exception:  # a bug here must not stop every table's bots
                    log.exception("the bot pool's dispatcher failed; it goes on")
                    time.sleep(_RESPAWN_PAUSE)
        finally:
            self._shutdown()

    def _serve_once(self) -> bool:
        """One turn of the dispatcher: hand out moves, wait for answers; False once closed."""
        with self._lock:
            if self._closed:
                return False
            timeout = self._step()
            by_conn = {w.conn: w for w in self._workers if w is not None}
        ready = wait([self._wake_r, *by_conn], timeout)
        with self._lock:
            for conn in ready:
                if conn is self._wake_r:
                    with contextlib.suppress(OSError):  # drained
                        while self._wake_r.recv(4096):
                            pass
                    continue
                worker = by_conn[conn]  # type: ignore[index]
                if self._workers[worker.slot] is not worker:
                    continue
                try:
                    raw = worker.conn.recv_bytes()
                except (EOFError, OSError):
                    self._lost(worker, f"exited ({worker.process.poll()})")
                    continue
                if not worker.ready:
                    worker.ready = raw == _READY
                    if not worker.ready:
                        self._lost(worker, "said something else than that it is ready")
                    continue
                self._reply(worker, raw)
        return True

    def _shutdown(self) -> None:
        with self._lock:
            self._closed = True
            for worker in self._workers:
                if worker is not None:
                    if worker.job is not None:
                        self._fail(worker.job, "the bot pool closed")
                    self._retire(worker, kill=False)
            for queue in self._queues.values():
                for job in queue:
                    self._fail(job, "the bot pool closed")
            self._queues.clear()
            self._order.clear()

    def close(self) -> None:
        """End every worker (waits a few seconds at most) and the dispatcher."""
        with self._lock:
            self._closed = True
            thread = self._thread
        self._wake()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)
        self._shutdown()  # never started, or the dispatcher is stuck: end the workers here
        self._local.close()
        for end in (self._wake_r, self._wake_w):
            end.close()

    def __enter__(self) -> BotPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
