"""What the server's bots hold in memory, and that it goes when their tables do.

N tables of four server bots (the default level, pimc: each bot builds a search core with its
own transposition table) play until every bot has made a move; then their bots are released
as a won match releases them (``Table.close``, the tables still in memory), and then every
table is evicted (``Rooms.evict``). Prints the resident set size at each step. Bots think in
threads of this process here (``bot_workers=0``), so their memory is this process's.

    .venv/bin/python benchmarks/bench_server_memory.py --tables 10
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import tempfile
import time
from pathlib import Path

from sueca.bots import STRONGEST
from sueca.server.rooms import Rooms, Timing
from sueca.server.storage import SQLiteStorage


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


async def measure(tables: int, db: Path) -> dict[str, float]:
    rooms = Rooms(SQLiteStorage(db), Timing(bot_delay=0.0, trick_pause=0.0), seed=1)
    try:
        gc.collect()
        start = rss_mb()
        seats = [{"kind": "bot", "level": STRONGEST}] * 4
        made = [await rooms.create(None, seats) for _ in range(tables)]
        deadline = time.monotonic() + 600
        while any(len(room.table.state.plays) < 4 for room in made  # type: ignore[union-attr]
                  if room.table.state is not None):
            assert time.monotonic() < deadline, "the bots did not play"
            await asyncio.sleep(0.1)
        gc.collect()
        playing = rss_mb()
        for room in made:  # what a won match does (Table.close), the tables kept in memory
            room.close()
        await asyncio.sleep(0.5)  # a move in a thread finishes
        gc.collect()
        released = rss_mb()
        for room in made:
            rooms.evict(room.table.id)
        await asyncio.sleep(0.5)  # cancelled drivers wind down; a move in a thread finishes
        gc.collect()
        evicted = rss_mb()
        return {"tables": tables, "start_mb": round(start, 1), "playing_mb": round(playing, 1),
                "bots_released_mb": round(released, 1), "evicted_mb": round(evicted, 1)}
    finally:
        rooms.close()
        rooms.storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(asyncio.run(measure(args.tables, Path(folder) / "sueca.db"))))


if __name__ == "__main__":
    main()
