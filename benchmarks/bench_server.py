"""Web-table load: N tables of four bot clients playing at once against one server process.

Each table has four seats, each played by a client over its own WebSocket (so N tables are 4N
sockets), exactly as browsers would: join with the seat token, wait for its turn, "think" for
``--think`` seconds, play a random legal card, say ready between deals and ask for a rematch at
the end. The server process runs ``sueca serve``'s app with the SQLite store, storing every card,
but without its rate limits (every table is opened from one address).

Move latency is measured by the client that plays: from sending its card to receiving the
server's new view with that card on the table — the server's whole path (parse, rules check,
SQLite write, four views built and sent) plus the loopback and the client's own event loop,
with the bots' thinking excluded (``p50_ms``, ``p99_ms``). The server also times its handling
of each card alone, from the message to the four views queued (``server_p50_ms``, …).
A table count is *sustained* when every table kept playing at the bots' pace and the p99 move
latency stays within 100 ms.

    python benchmarks/bench_server.py --tables 50,100,200,400 --seconds 30

``--variant`` measures another table (``double8``: eight sockets and views a table;
``italiana5``: five, with an auction: the clients pass or bid the lowest bid and call a random
face; bids and calls count as moves).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SERVER = """
import json, signal, sys, time, uvicorn
from sueca.server import Timing, create_app, rooms

# Time the server's handling of each card (parse, rules, SQLite write, four views built and
# queued); SIGUSR1 writes the timings so far to argv[3] and starts afresh.
handled = []
original = rooms.Room.handle
def timed(self, conn, raw):
    start = time.perf_counter()
    original(self, conn, raw)
    if (b'"play"' if isinstance(raw, bytes) else '"play"') in raw:
        handled.append(time.perf_counter() - start)
rooms.Room.handle = timed
# The event loop's lag: how late a 10 ms timer fires, i.e. how long a message that has arrived
# may wait before the loop gets to it.
lags = []
async def watch_lag():
    import asyncio
    while True:
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - start - 0.01)
# How long the cyclic garbage collector stops the world, per generation-2 pass.
import gc
gc_pauses = []
gc_started = [0.0]
def on_gc(phase, info):
    if info["generation"] != 2:
        return
    if phase == "start":
        gc_started[0] = time.perf_counter()
    else:
        gc_pauses.append(time.perf_counter() - gc_started[0])
gc.callbacks.append(on_gc)
def dump(signum, frame):
    with open(sys.argv[3], "w") as out:
        json.dump({"handled": handled, "lag": lags, "gc": gc_pauses}, out)
    handled.clear()
    lags.clear()
    gc_pauses.clear()
signal.signal(signal.SIGUSR1, dump)
app = create_app(sys.argv[1], timing=Timing(grace=3600, bot_delay=0.0, trick_pause=0.0))
original_lifespan = app.router.lifespan_context
import contextlib
@contextlib.asynccontextmanager
async def lifespan(app):
    import asyncio
    async with original_lifespan(app):
        task = asyncio.get_running_loop().create_task(watch_lag())
        yield
        task.cancel()
app.router.lifespan_context = lifespan
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            ws_max_size=65536)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(db: str, port: int, stats: str, nice: int = 0) -> subprocess.Popen[bytes]:
    import httpx

    process = subprocess.Popen([sys.executable, "-c", SERVER, db, str(port), stats],
                               preexec_fn=(lambda: os.nice(nice)) if nice else None)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/bots", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("server did not start")


async def seat_client(url: str, token: str, seat: int, think: float, stop_at: float,
                      warm_until: float, latencies: list[float], plays: list[int],
                      table_index: int) -> None:
    from websockets.asyncio.client import connect

    rng = random.Random(f"{table_index}:{seat}")
    async with connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        sent_at: float | None = None
        # The position (match, deal, stage, bids, cards down) this seat last acted at: a view
        # may be sent again for one position (someone joined), and only a new position answers.
        acted: tuple[Any, ...] = ()
        readied: set[tuple[int, int]] = set()
        rematched: set[int] = set()
        pending: asyncio.Task[None] | None = None
        mine = f'"actor":{seat},'

        async def act_later(message: dict[str, Any], position: tuple[Any, ...]) -> None:
            nonlocal sent_at, acted
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            acted = position
            sent_at = time.perf_counter()
            await ws.send(json.dumps(message))

        def action(view: dict[str, Any]) -> dict[str, Any]:
            stage = view.get("stage")
            if stage == "bidding":
                low = view["auction"]["min_bid"]
                return {"type": "bid", "value": rng.choice([0, 0, low] if low else [0])}
            if stage == "calling":
                return {"type": "call", "card": rng.choice("A7KJQ65432") + rng.choice("SHDC")}
            return {"type": "play", "card": rng.choice(view["legal"])}

        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop_at -
                                                                     time.monotonic()))
            except TimeoutError:
                break
            # Parse only what may concern this seat (its turn, its card's answer, the end of a
            # deal or match): the client's own work must not swamp the measurement.
            if (sent_at is None and mine not in raw and '"phase":"playing"' in raw):
                continue
            message = json.loads(raw)
            if message["type"] != "state":
                continue
            view = message["view"]
            if view.get("you") != seat:
                continue
            auction = view.get("auction") or {}
            position = (view["score"]["number"], view["deal"], view.get("stage"),
                        len(auction.get("bids", ())), view["played"])
            if sent_at is not None and position != acted:
                now = time.perf_counter()
                if time.monotonic() > warm_until:
                    latencies.append(now - sent_at)
                    plays[0] += 1
                sent_at = None
            phase = view["phase"]
            if (phase == "playing" and view["actor"] == seat and position != acted
                    and (pending is None or pending.done()) and sent_at is None):
                pending = asyncio.create_task(act_later(action(view), position))
            elif phase == "deal_over":
                key = (view["score"]["number"], view["deal"])
                if key not in readied:
                    readied.add(key)
                    await ws.send('{"type": "next"}')
            elif phase == "match_over" and view["score"]["number"] not in rematched:
                rematched.add(view["score"]["number"])
                await ws.send('{"type": "rematch"}')
        if pending is not None:
            pending.cancel()


def client_process(url: str, tables: list[tuple[int, str, list[str]]], think: float,
                   start_at: float, seconds: float, warmup: float,
                   out: Any, nice: int = 0) -> None:
    if nice:
        os.nice(nice)

    async def main() -> tuple[list[float], list[int]]:
        latencies: list[float] = []
        per_table = []
        tasks = []
        # Wait for the common start, then connect every seat.
        await asyncio.sleep(max(0.0, start_at - time.time()))
        stop_at = time.monotonic() + seconds
        warm_until = time.monotonic() + warmup
        for index, table_id, tokens in tables:
            counter = [0]
            per_table.append(counter)
            for seat, token in enumerate(tokens):
                tasks.append(seat_client(f"{url}/ws/{table_id}", token, seat, think, stop_at,
                                         warm_until, latencies, counter, index))
        await asyncio.gather(*tasks)
        return latencies, [c[0] for c in per_table]

    latencies, counts = asyncio.run(main())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out.put((latencies, counts, usage.ru_utime + usage.ru_stime))


def percentiles(values: list[float]) -> list[float]:
    if len(values) < 100:
        return [float("nan")] * 99
    return statistics.quantiles(values, n=100)


def run(n_tables: int, seconds: float, think: float, clients: int, warmup: float,
        nice: int = 0, client_nice: int = 0, variant: str = "standard") -> dict[str, Any]:
    import httpx

    from sueca.rules import preset

    players = preset(variant).players

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        stats = str(Path(tmp) / "handled.json")
        server = start_server(str(Path(tmp) / "bench.db"), port, stats, nice)
        try:
            http = f"http://127.0.0.1:{port}"
            tables = []
            with httpx.Client() as session:
                for index in range(n_tables):
                    data = session.post(f"{http}/api/tables", json={
                        "rules": {"variant": variant},
                        "seats": [{"kind": "human", "name": f"b{s}"} for s in range(players)],
                    }).json()
                    tokens = [seat["link"].split("#", 1)[1] for seat in data["seats"]]
                    tables.append((index, data["id"], tokens))
            queue: Any = multiprocessing.Queue()
            start_at = time.time() + 1.0 + n_tables * 0.004
            shares = [tables[i::clients] for i in range(clients)]
            procs = [multiprocessing.Process(target=client_process, args=(
                f"ws://127.0.0.1:{port}", share, think, start_at, seconds, warmup, queue,
                client_nice))
                for share in shares]
            for proc in procs:
                proc.start()
            time.sleep(max(0.0, start_at - time.time()) + warmup)
            os.kill(server.pid, signal.SIGUSR1)  # forget the warm-up's timings
            cpu_before, wall_before = cpu_seconds(server.pid), time.monotonic()
            results = [queue.get(timeout=seconds + 120) for _ in procs]
            cpu_after, wall_after = cpu_seconds(server.pid), time.monotonic()
            os.kill(server.pid, signal.SIGUSR1)
            time.sleep(0.5)
            server_stats = json.loads(Path(stats).read_text())
            handled = sorted(server_stats["handled"])
            lag = sorted(server_stats["lag"])
            gc_pauses = sorted(server_stats["gc"])
            for proc in procs:
                proc.join()
        finally:
            server.kill()
            server.wait()
    latencies = sorted(x for lat, _, _ in results for x in lat)
    per_table = [n for _, counts, _ in results for n in counts]
    measured = seconds - warmup
    expected = measured / think  # a table's cards per second at the bots' pace, roughly
    q = percentiles(latencies)
    h = percentiles(handled)
    g = percentiles(lag)
    return {
        "tables": n_tables,
        "moves": len(latencies),
        "moves_per_s": round(len(latencies) / measured, 1),
        "p50_ms": round(q[49] * 1000, 2),
        "p99_ms": round(q[98] * 1000, 2),
        "max_ms": round(latencies[-1] * 1000, 2) if latencies else None,
        "server_p50_ms": round(h[49] * 1000, 3),
        "server_p99_ms": round(h[98] * 1000, 3),
        "loop_lag_p50_ms": round(g[49] * 1000, 2),
        "loop_lag_p99_ms": round(g[98] * 1000, 2),
        "gc2_passes": len(gc_pauses),
        "gc2_max_ms": round(gc_pauses[-1] * 1000, 1) if gc_pauses else 0.0,
        "client_cpu": round(sum(cpu for _, _, cpu in results) / seconds, 2),
        "slowest_table_moves": min(per_table) if per_table else 0,
        "expected_moves_per_table": round(expected, 1),
        "server_cpu": round((cpu_after - cpu_before) / (wall_after - wall_before), 2),
        "server_cpu_ms_per_move": round((cpu_after - cpu_before) * 1000 / max(1, len(latencies)),
                                        3),
        "load_avg": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50,100,200", help="table counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a bot client waits before its card")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--variant", default="standard",
                        help="rules preset of every table (standard, double6, double8, "
                             "italiana5, …)")
    parser.add_argument("--server-nice", type=int, default=0,
                        help="niceness of the server process (negative: ahead of other "
                             "work on a shared machine; needs root)")
    parser.add_argument("--client-nice", type=int, default=0,
                        help="niceness of the bot client processes")
    args = parser.parse_args()
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, think "
          f"{args.think}s, {args.seconds}s per run ({args.warmup}s warm-up), {args.clients} "
          f"client processes, server nice {args.server_nice}, clients nice {args.client_nice}, "
          f"variant {args.variant}")
    for n in (int(x) for x in args.tables.split(",")):
        result = run(n, args.seconds, args.think, args.clients, args.warmup, args.server_nice,
                     args.client_nice, args.variant)
        # A table is keeping up when it plays at least half the cards its bots' pace allows.
        kept_up = result["slowest_table_moves"] >= 0.5 * result["expected_moves_per_table"]
        result["sustained"] = bool(kept_up and result["p99_ms"] <= 100)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
