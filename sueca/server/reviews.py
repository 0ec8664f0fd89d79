"""Reviews on the web: a finished deal reviewed card by card in a worker process, its progress
polled, the result kept beside the database (docs/review.md, docs/server.md).

- **Never on the event loop.** A review is CPU work of a second or several: it runs in a
  :class:`concurrent.futures.ProcessPoolExecutor` of one worker (``max_workers``), started
  on the first review asked for. At most :data:`MAX_PENDING` reviews wait or run at once;
  one more is refused (503 ``busy``) and nothing else changes; and one client address has at
  most :data:`MAX_PENDING_PER_ADDRESS` of them (so that nobody alone fills the queue for
  everyone) and starts reviews at a bounded rate (``sueca serve``: 429 ``rate_limited``,
  :class:`~sueca.server.limits.Limits`). A worker that dies breaks
  that executor only: its reviews fail (``failed``, with the reason) and the next request
  starts a fresh one.
- **Progress.** The worker reports each card reviewed on a queue; a thread of the server
  reads it into the job, and ``GET /api/reviews/{m}/{d}/{s}`` says ``queued``, ``running``
  (cards done of the total) or ``done`` with the review.
- **Who may see it.** A deal of a match in play is the table's: its summary shows every hand
  to whoever watches. A finished match's follows the History's rule
  (:func:`sueca.server.views.history_visible`): a private table's to its players only, who
  send their seat tokens (``X-Sueca-Seats``); to anyone else it is no match (404).
- **Only finished deals, ever.** A deal is reviewed only once it has been played to its last
  card (every hand is then shown to every seat in the deal's summary), or at a match that is
  over, whose record anyone may download. A deal in play, or one a proven revoke ended
  before its last card while the match is on (its unplayed cards stay hidden), is refused.
- **Kept with the match, bounded.** A review is a JSON file (docs/review.md's deal entry,
  no words of any language) in a directory beside the database (``<db>.reviews/``), named by
  match, deal and seat, holding the record's fingerprint (so a review of another database's
  match of the same id is never shown); the oldest files beyond :data:`MAX_FILES` are removed.
  An in-memory database keeps its reviews in memory (:data:`MAX_MEMORY`, least recently
  used first out). A file beside the database rather than a table in it: a review is derived
  data, rebuilt at will, and so stays out of the store's schema, its migrations and its
  write path (the storage serves every move of every table).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sueca.jsontext import NotJsonError, parse_json
from sueca.record import GameRecord, dumps, loads
from sueca.review import Fact, ReviewError, finished_deals
from sueca.review.svg import graph_svg
from sueca.server.limits import AddressLimiter
from sueca.server.responses import JSONResponse, html_page
from sueca.server.tables import UNNAMED_SEAT
from sueca.server.writer import StorageUnavailable
from sueca.terminal.i18n import LANGUAGES, Language, language

log = logging.getLogger("sueca.server.reviews")

MAX_PENDING = 4
"""Reviews waiting or running at once; one more is refused (``busy``)."""
MAX_PENDING_PER_ADDRESS = 1
"""Reviews one client address may have waiting or running; one more is refused (``busy``)."""
MAX_FILES = 2000
"""Review files kept beside a database (about 10 KB each); the oldest go first."""
MAX_MEMORY = 200
"""Reviews kept in memory (an in-memory database's, and the most recent of any)."""
MAX_FAILED = 100
MAX_WORKERS = 1
SEED = 0  # the worlds' seed: one review per deal and seat, the same on every server

Key = tuple[int, int, int]  # match, deal, seat


# ---- the worker ---------------------------------------------------------------------------

_progress: Any = None  # the worker's end of the progress queue (set by _init_worker)


def _init_worker(queue: Any) -> None:
    global _progress
    _progress = queue


def _review_job(key: Key, text: str) -> dict[str, Any]:
    """In the worker: review deal ``key[1]`` of the record ``text`` for seat ``key[2]``."""
    from sueca.review import deal_json, review_deal

    states = finished_deals(loads(text))
    _, deal, seat = key

    def told(done: int, total: int) -> None:
        if _progress is not None:
            with contextlib.suppress(Exception):  # progress is a courtesy: never fatal
                _progress.put((key, done, total))

    return deal_json(review_deal(states[deal], seat, deal, SEED, progress=told))


# ---- the jobs -----------------------------------------------------------------------------


class Unreadable(Exception):
    """The store could not be read (the request may be made again)."""


class Busy(Exception):
    """Too many reviews waiting: try again shortly."""


@dataclass
class Job:
    key: Key
    fingerprint: str
    status: str = "queued"  # queued, running, done, failed
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    started: float = field(default_factory=time.time)
    names: list[str] = field(default_factory=list)  # the players, seat by seat
    asker: str | None = None  # the client address that started it (its pending share)


def fingerprint(record: GameRecord, deal: int) -> str:
    """What a review depends on: the rules, the first dealer and the deal itself (the moves
    after it change nothing), hashed."""
    data = record.to_json()
    text = json.dumps([data.get("rules"), data.get("first_dealer"), data["deals"][deal]],
                      sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class ReviewService:
    """The worker, the jobs in flight and the reviews kept (see the module)."""

    def __init__(self, directory: Path | None, max_workers: int = MAX_WORKERS,
                 max_pending: int = MAX_PENDING, max_files: int = MAX_FILES,
                 max_per_asker: int = MAX_PENDING_PER_ADDRESS) -> None:
        self.directory = directory
        self.max_workers = max_workers
        self.max_pending = max_pending
        self.max_per_asker = max_per_asker
        self.max_files = max_files
        self._lock = threading.Lock()
        self._jobs: dict[Key, Job] = {}
        self._memory: OrderedDict[Key, Job] = OrderedDict()
        self._failed: OrderedDict[Key, Job] = OrderedDict()
        self._executor: ProcessPoolExecutor | None = None
        self._queue: Any = None
        self._reader: threading.Thread | None = None
        self._closed = False

    # -- asking

    def lookup(self, key: Key, print_: str | None = None) -> Job | None:
        """The job or the kept review of ``key``: of the deal ``print_`` (read from the files
        too), or without it what this server holds in memory (a page polling a review it
        asked for)."""
        with self._lock:
            job = self._jobs.get(key) or self._memory.get(key) or self._failed.get(key)
            if job is not None and (print_ is None or job.fingerprint == print_):
                if key in self._memory:
                    self._memory.move_to_end(key)
                return job
        if print_ is None:
            return None
        kept = self._read(key)
        if kept is not None and (print_ is None or kept.fingerprint == print_):
            self._remember(kept)
            return kept
        return None

    def request(self, key: Key, record: GameRecord, names: list[str] | None = None,
                asker: str | None = None) -> Job:
        """The review of ``key``: kept, in flight, or started now (:class:`Busy` when too
        many are waiting, or ``asker``, a client address, has its share waiting already)."""
        print_ = fingerprint(record, key[1])
        record_text = dumps(record)
        found = self.lookup(key, print_)
        if found is not None and found.status != "failed":
            found.names = names or found.names
            return found
        with self._lock:
            if self._closed:
                raise Busy("the server is stopping")
            if len(self._jobs) >= self.max_pending:
                raise Busy(f"{len(self._jobs)} reviews are waiting already; try again "
                           "in a moment")
            if asker is not None and sum(j.asker == asker for j in self._jobs.values()) \
                    >= self.max_per_asker:
                raise Busy(f"this address has {self.max_per_asker} review(s) under way "
                           "already; ask again when it is done")
            self._failed.pop(key, None)
            job = Job(key, print_, names=names or [], asker=asker)
            self._jobs[key] = job
            executor = self._start()
        try:
            future = executor.submit(_review_job, key, record_text)
        except Exception as error:  # a broken pool: the next request starts a fresh one
            self._fail(job, f"the review worker could not start: {error}")
            self._drop_executor(executor)
            return job
        future.add_done_callback(lambda f: self._finished(job, f, executor))
        return job

    # -- the worker

    def _start(self) -> ProcessPoolExecutor:
        """The executor (started now if there is none); the caller holds the lock."""
        if self._executor is None:
            context = multiprocessing.get_context("spawn")  # never fork a threaded server
            self._queue = context.Queue(1000)
            self._executor = ProcessPoolExecutor(self.max_workers, mp_context=context,
                                                 initializer=_init_worker,
                                                 initargs=(self._queue,))
            self._reader = threading.Thread(target=self._read_progress, args=(self._queue,),
                                            name="review-progress", daemon=True)
            self._reader.start()
        return self._executor

    def _drop_executor(self, broken: ProcessPoolExecutor | None) -> None:
        """Forget the pool ``broken`` if it is still the one in use (its progress thread
        ends with it); a fresh one may have replaced it already."""
        with self._lock:
            if broken is None or self._executor is not broken:
                return
            executor, self._executor = self._executor, None
            queue, self._queue = self._queue, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        if queue is not None:
            with contextlib.suppress(Exception):
                queue.put_nowait(None)

    def _read_progress(self, queue: Any) -> None:
        while True:
            try:
                item = queue.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            key, done, total = item
            with self._lock:
                job = self._jobs.get(key)
                if job is not None and job.status in ("queued", "running"):
                    job.status, job.done, job.total = "running", done, total

    def _finished(self, job: Job, future: Future[dict[str, Any]],
                  executor: ProcessPoolExecutor | None = None) -> None:
        try:
            result = future.result()
        except ReviewError as error:
            self._fail(job, str(error))
            return
        except Exception as error:  # the worker died, or a bug: one line, no traceback
            log.warning("review %s failed: %s", job.key, error)
            self._fail(job, "the review failed; try again")
            if isinstance(error, BrokenExecutor):
                self._drop_executor(executor)  # the next request starts a fresh pool
            return
        job.result = result
        job.done = job.total = len(result["cards"])
        job.status = "done"
        with self._lock:
            self._jobs.pop(job.key, None)
        self._remember(job)
        self._write(job)

    def _fail(self, job: Job, reason: str) -> None:
        with self._lock:
            job.status, job.error = "failed", reason
            self._jobs.pop(job.key, None)
            self._failed[job.key] = job
            while len(self._failed) > MAX_FAILED:
                self._failed.popitem(last=False)

    def _remember(self, job: Job) -> None:
        with self._lock:
            self._memory[job.key] = job
            self._memory.move_to_end(job.key)
            while len(self._memory) > MAX_MEMORY:
                self._memory.popitem(last=False)

    # -- the files

    def _path(self, key: Key) -> Path | None:
        if self.directory is None:
            return None
        return self.directory / f"m{key[0]}-d{key[1]}-s{key[2]}.json"

    def _write(self, job: Job) -> None:
        path = self._path(job.key)
        if path is None or self.directory is None:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(".tmp")
            temporary.write_text(json.dumps({"fingerprint": job.fingerprint,
                                             "review": job.result}), encoding="utf-8")
            temporary.replace(path)
            files = sorted(self.directory.glob("m*.json"), key=lambda p: p.stat().st_mtime)
            for old in files[:max(len(files) - self.max_files, 0)]:
                old.unlink(missing_ok=True)
        except OSError as error:  # kept in memory all the same
            log.warning("review %s not written to %s: %s", job.key, self.directory, error)

    def _read(self, key: Key) -> Job | None:
        path = self._path(key)
        if path is None:
            return None
        try:
            if not path.is_file() or path.stat().st_size > 1_000_000:
                return None
            data = json.loads(path.read_text(encoding="utf-8"))
            job = Job(key, str(data["fingerprint"]), "done", result=data["review"])
            job.done = job.total = len(data["review"]["cards"])
            return job
        except (OSError, ValueError, KeyError, TypeError):
            return None  # an unreadable file is no review: it is made again

    def close(self) -> None:
        with self._lock:
            self._closed = True
            executor, self._executor = self._executor, None
            queue = self._queue
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        if queue is not None:
            with contextlib.suppress(Exception):
                queue.put_nowait(None)


# ---- what the pages get -------------------------------------------------------------------


def _words(request: Request) -> Language:
    code = request.query_params.get("lang", "pt")
    code = "pt" if code.lower() == "pt-pt" else code  # the pages' name for it
    if len(code) > 10 or code.strip().lower().replace("_", "-") not in {
            k.lower() for k in LANGUAGES}:
        code = "pt"
    return language(code)


def people_named(names: list[str]) -> list[str] | None:
    """The names the players gave, "" where a seat has the table's stand-in name ("Seat 3",
    "Dummy", in no language): the reasons then name that seat in the reader's language."""
    return [name if UNNAMED_SEAT.fullmatch(name) is None else "" for name in names] or None


def job_json(job: Job, lang: Language) -> dict[str, Any]:
    """A job as the page polls it; a done one with the review, each card's reason in
    ``lang`` and the evaluation graph (SVG text drawn here)."""
    match, deal, seat = job.key
    out: dict[str, Any] = {"match": match, "deal": deal, "seat": seat, "status": job.status,
                           "done": job.done, "total": job.total, "names": job.names}
    if job.status == "failed":
        out["error"] = job.error
    if job.status == "done" and job.result is not None:
        review = json.loads(json.dumps(job.result))  # a copy: the words are this request's
        for card in review["cards"]:
            card["reason"] = lang.facts([Fact.from_json(f) for f in card["facts"]], past=True,
                                        names=people_named(job.names))
        out["review"] = review
        out["svg"] = graph_svg(review, lang.text("review_expected"), lang.text("review_dd"),
                               {k: lang.text(f"label_{k}") for k in
                                ("inaccuracy", "mistake", "blunder")})
    return out


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _number(value: Any, name: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ReviewError(f"'{name}' must be a whole number from 0 to {high}")
    return value


def check_reviewable(record: GameRecord, deal: int, seat: int, match_over: bool) -> None:
    """Refuse (:class:`ReviewError`, naming why) a deal that is not one to review now: not in
    the record, not finished (or, while the match is on, ended before its last card), a seat
    that is not one, a table the review does not take."""
    states = finished_deals(record)
    if not 0 <= deal < len(states):
        raise ReviewError(f"deal {deal + 1} is not in this match (it has {len(states)})")
    state = states[deal]
    rules = state.rules
    if rules.bidding or rules.players != 4 or rules.decks != 1:
        raise ReviewError("the review needs the solver's table: four seats in two teams, one "
                          "deck")
    if not 0 <= seat < rules.players or seat == rules.dummy:
        raise ReviewError(f"seat {seat} is not a seat whose cards can be reviewed")
    played_out = len(state.plays) == rules.cards_in_play
    if not played_out and not (match_over and state.denunciations):
        raise ReviewError("only a finished deal can be reviewed: this one is still in play"
                          if not state.denunciations else
                          "this deal ended before its last card: its unplayed cards stay "
                          "hidden until the match is over")


MatchLoader = Callable[[int], Any]  # async: a match id -> StoredMatch | None
TableMatch = Callable[[str], int | None]  # a table id -> its match's id, if any
# async: whether this request may see this stored match's deals (the History's rule).
MaySee = Callable[[Request, Any], Awaitable[bool]]


def review_routes(service: Callable[[], ReviewService], load_match: MatchLoader,
                  table_match: TableMatch, may_see: MaySee, web_dir: Path,
                  starts: AddressLimiter | None = None) -> list[Route]:
    """The review's routes: ``GET /review`` (the page), ``POST /api/reviews`` (start one:
    ``{"match": m | "table": t, "deal": d, "seat": s}``) and ``GET
    /api/reviews/{m}/{d}/{s}?lang=`` (its progress, then the review). A match the request may
    not see (``may_see``: a private table's finished match, to anyone but its players) is
    answered as no match at all, 404, both when asked for and when polled. ``starts``: the
    reviews each client address may ask for a minute (None: no cap)."""

    async def seen(request: Request, match_id: int) -> Any:
        try:
            stored = await load_match(match_id)
        except StorageUnavailable:
            raise Unreadable from None
        return stored if stored is not None and await may_see(request, stored) else None

    async def page(request: Request) -> Response:
        return html_page(web_dir / "review.html")

    async def start(request: Request) -> Response:
        body = await request.body()
        if len(body) > 1024:
            return _error(400, "too_large", "request too large (at most 1024 bytes)")
        try:
            data = parse_json(body or b"{}")
        except NotJsonError:
            return _error(400, "malformed", "the request body is not JSON")
        if not isinstance(data, dict):
            return _error(400, "malformed", "the request must be a JSON object")
        try:
            deal = _number(data.get("deal"), "deal", 10_000)
            seat = _number(data.get("seat"), "seat", 7)
            if "match" in data:
                match_id = _number(data.get("match"), "match", 10**18)
            else:
                table = data.get("table")
                if not isinstance(table, str) or len(table) > 40:
                    raise ReviewError("name the 'match' (a number) or the 'table' (its id)")
                found = table_match(table)
                if found is None:
                    return _error(404, "no_table", "no such table, or no match at it yet")
                match_id = found
        except ReviewError as error:
            return _error(400, "malformed", str(error))
        try:
            stored = await seen(request, match_id)
        except Unreadable:
            return _error(503, "storage_unavailable", "the store cannot be read now; try again")
        if stored is None:
            return _error(404, "no_match", "no such match")
        # The match played again (the record) and the deal's check: CPU work, off the loop.
        def checked() -> GameRecord:
            record: GameRecord = stored.record
            check_reviewable(record, deal, seat, stored.finished is not None)
            return record

        try:
            record = await asyncio.to_thread(checked)
        except ReviewError as error:
            return _error(409, "not_reviewable", str(error))
        address = request.client.host if request.client else "?"
        if starts is not None and not starts.take(address):
            return _error(429, "rate_limited", f"too many reviews asked for from this address: "
                          f"at most {starts.rate * 60:g} a minute")
        try:
            job = service().request((match_id, deal, seat), record,
                                    [str(name) for name in stored.seats], asker=address)
        except Busy as error:
            return _error(503, "busy", str(error))
        return JSONResponse(job_json(job, _words(request)),
                            status_code=200 if job.status == "done" else 202)

    async def progress(request: Request) -> Response:
        key = (request.path_params["match_id"], request.path_params["deal"],
               request.path_params["seat"])
        job = service().lookup(key)
        try:
            if job is not None and await seen(request, key[0]) is None:
                job = None  # a private match's: as if there were none
        except Unreadable:
            return _error(503, "storage_unavailable", "the store cannot be read now; try again")
        if job is None:
            return _error(404, "no_review", "no such review: ask for it first (POST "
                                            "/api/reviews)")
        return JSONResponse(job_json(job, _words(request)))

    return [
        Route("/review", page),
        Route("/api/reviews", start, methods=["POST"]),
        Route("/api/reviews/{match_id:number}/{deal:number}/{seat:number}", progress),
    ]


def reviews_directory(storage: Any) -> Path | None:
    """Where a store's reviews are kept: ``<db>.reviews`` beside its SQLite file, or nowhere
    (in memory) for an in-memory database or another store."""
    path = getattr(storage, "path", None)
    if path is None or str(path) == ":memory:":
        return None
    return Path(str(path) + ".reviews")


__all__ = ["Busy", "Job", "ReviewService", "check_reviewable", "job_json", "review_routes",
           "reviews_directory"]
