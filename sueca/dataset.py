"""``sueca dataset``: a public data set of self-play records, reproducible from a seed.

``make_dataset(rules, bot, games, seed, out)`` plays ``games`` whole matches of ``bot`` in
every seat and writes them to ``out/records.jsonl``, one RECORD.md record per line (JSON, no
indentation), with ``out/index.json`` beside it: the count, the bot, the rules, the seed, the
sueca version and the SHA-256 of the lines. Match ``i`` is played from its own seed, drawn
from ``(seed, i)``, so a data set is the same bytes whoever makes it and however many worker
processes play it; every record is checked (:func:`sueca.record.check`) before it is written.

>>> import tempfile
>>> from pathlib import Path
>>> from sueca.rules import STANDARD
>>> with tempfile.TemporaryDirectory() as folder:
...     index = make_dataset(STANDARD, "random", games=2, seed=1, out=Path(folder))
...     lines = (Path(folder) / "records.jsonl").read_text().splitlines()
>>> index["count"], len(lines)
(2, 2)
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import random
from collections import deque
from collections.abc import Callable, Iterator
from importlib import metadata
from multiprocessing.pool import AsyncResult
from pathlib import Path
from typing import Any

from sueca.bots import make_bot
from sueca.match import Match
from sueca.record import GameRecord, check
from sueca.referee import Event, EventKind, Referee
from sueca.rules import Rules
from sueca.state import State

MAX_GAMES = 1_000_000  # a bound on one command's work: more is a typing slip
RECORDS = "records.jsonl"
INDEX = "index.json"

Progress = Callable[[int, int], None]  # games written, games asked for


def game_seed(seed: int, index: int) -> int:
    """Match ``index``'s seed: a function of the data set's seed and the index alone."""
    digest = hashlib.sha256(f"sueca dataset {seed} {index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play_game(rules: Rules, bot: str, seed: int) -> GameRecord:
    """One whole match of ``bot`` in every seat, from ``seed`` (its bots' seeds, the first
    dealer, then every deal, as ``sueca watch`` draws them)."""
    rng = random.Random(seed)
    players = [make_bot(bot, seed=rng.getrandbits(32)) for _ in range(rules.players)]
    referee = Referee(Match(rules, first_dealer=rng.randrange(rules.players)), players,
                      rng=rng, strict=True, where="dataset")
    states: list[State] = []

    def keep(event: Event) -> None:
        if event.kind == EventKind.DEALT:
            states.append(event.state)

    referee.listen(keep)
    try:
        referee.run()
    finally:
        referee.close()
    return GameRecord.from_states(rules, referee.match.first_dealer, states,
                                  bot=bot, seed=seed)


def record_line(record: GameRecord) -> str:
    """The record as one JSON line (key order as RECORD.md writes it)."""
    return json.dumps(record.to_json(), ensure_ascii=False, separators=(",", ":"))


def _line(task: tuple[str, str, int]) -> str:
    """A worker's job: one match's checked line (a top-level function, so a pool can send
    it)."""
    rules_text, bot, seed = task
    record = play_game(Rules.from_dict(json.loads(rules_text)), bot, seed)
    report = check(record)
    if not report["valid"]:  # a bug in the engine, the bots or the records: never shipped
        raise RuntimeError(f"match of seed {seed} does not check: {report.get('error')}")
    return record_line(record)


def make_dataset(rules: Rules, bot: str, games: int, seed: int, out: Path,
                 workers: int = 1, on_progress: Progress | None = None) -> dict[str, Any]:
    """Write the data set to the folder ``out`` (made if missing) and return its index.
    :class:`ValueError` names a bad count, bot or folder, before anything is played."""
    if type(games) is not int or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"--games must be a whole number from 1 to {MAX_GAMES:,}")
    if bot.startswith("cmd:"):
        raise ValueError("a data set is played by the package's own bots, not cmd: programs "
                         "(their play could not be reproduced from the seed)")
    make_bot(bot, seed=0).close()  # a bad spec is refused here, by name
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot make the folder {out}: {error.strerror}") from None
    rules_text = json.dumps(rules.to_dict(), sort_keys=True)
    tasks = ((rules_text, bot, game_seed(seed, i)) for i in range(games))  # made as sent
    digest = hashlib.sha256()
    path = out / RECORDS
    partial = path.with_name(path.name + ".partial")
    try:
        with partial.open("w", encoding="utf-8", newline="\n") as stream:
            for done, line in enumerate(_lines(tasks, min(workers, games)), 1):
                digest.update((line + "\n").encode("utf-8"))
                stream.write(line + "\n")
                if on_progress is not None:
                    on_progress(done, games)
        partial.replace(path)  # a data set is complete or absent, never half written
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise ValueError(f"cannot write {path}: {error.strerror}") from None
    index = {
        "count": games, "bot": bot, "rules": rules.to_dict(), "seed": seed,
        "records": RECORDS, "sha256": digest.hexdigest(),
        "format": "one RECORD.md record per line (docs/record.md); the extra fields bot and "
                  "seed say who played and from which seed",
        "sueca": _version(),
    }
    try:
        (out / INDEX).write_text(json.dumps(index, indent=2, ensure_ascii=False) + "\n",
                                 encoding="utf-8")
    except OSError as error:
        raise ValueError(f"cannot write {out / INDEX}: {error.strerror}") from None
    return index


def _lines(tasks: Iterator[tuple[str, str, int]], workers: int) -> Iterator[str]:
    if workers == 1:
        yield from map(_line, tasks)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with context.Pool(workers) as pool:
        # A bounded window of matches in flight, read back in order (a million tasks queued
        # at once would hold them all in memory).
        window: deque[AsyncResult[str]] = deque()
        for task in tasks:
            window.append(pool.apply_async(_line, (task,)))
            if len(window) >= 4 * workers:
                yield window.popleft().get()
        while window:
            yield window.popleft().get()


def _version() -> str:
    try:
        return metadata.version("sueca")
    except metadata.PackageNotFoundError:
        return "unknown"
