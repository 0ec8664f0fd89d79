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

``--workers N`` measures a cluster instead (docs/deploy.md): N worker processes on one port
(``SO_REUSEPORT``, as ``sueca serve --workers N`` runs them) with PostgreSQL storage and Redis
leases (``--db``, ``--redis``: default ``SUECA_TEST_POSTGRES`` and ``SUECA_TEST_REDIS``, which
``source .ci/services && start_services`` sets; each run gets a fresh database). Tables are
created through the one port, so each belongs to the worker the kernel gave its request to,
and each socket lands on any worker: with N workers (N-1)/N of them are relayed to their
table's owner through Redis. The server figures are then the sum of the workers' CPU (the
per-card handling timer and the loop lag are one process's, left out), plus Redis's CPU.

    python benchmarks/bench_server.py --tables 50,100 --seconds 20 --workers 2

``--variant`` measures another table (``double8``: eight sockets and views a table;
``italiana5``: five, with an auction: the clients pass or bid the lowest bid and call a random
face; bids and calls count as moves).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
async def timed(self, conn, raw):
    start = time.perf_counter()
    await original(self, conn, raw)
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


WORKER = """
import json, socket, sys, uvicorn
from sueca.server import Timing, create_app
from sueca.server.node import ClusterOptions
from sueca.server.workers import reuse_port_socket
app = create_app(cluster=ClusterOptions(**json.loads(sys.argv[1])),
                 timing=Timing(grace=3600, bot_delay=0.0, trick_pause=0.0), bot_workers=0)
config = uvicorn.Config(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
                        ws_max_size=65536)
uvicorn.Server(config).run(sockets=[reuse_port_socket("127.0.0.1", int(sys.argv[2]))])
"""


def start_workers(count: int, db: str, redis: str, port: int,
                  nice: int = 0) -> list[subprocess.Popen[bytes]]:
    """``count`` cluster workers on one port (a fresh key prefix), once each answers."""
    import httpx2

    options = json.dumps({"redis_url": redis, "db_url": db,
                          "prefix": f"bench-{os.getpid()}-{time.time_ns()}"})
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, options, str(port)],
                                preexec_fn=(lambda: os.nice(nice)) if nice else None)
               for _ in range(count)]
    deadline = time.monotonic() + 60
    started: set[int] = set()
    while len(started) < count and time.monotonic() < deadline:
        for worker in workers:  # each worker's pid appears in /proc as it listens
            if worker.pid not in started and _listens(worker.pid):
                started.add(worker.pid)
        time.sleep(0.2)
    if len(started) < count:
        for worker in workers:
            worker.kill()
        raise RuntimeError("the workers did not start")
    httpx2.get(f"http://127.0.0.1:{port}/api/bots", timeout=5)
    return workers


def _listens(pid: int) -> bool:
    """Whether the process has a listening TCP socket (state 0A in /proc/net/tcp)."""
    try:
        inodes = {os.readlink(f"/proc/{pid}/fd/{fd}")[8:-1]
                  for fd in os.listdir(f"/proc/{pid}/fd")
                  if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")}
    except OSError:
        return False
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "0A" and fields[9] in inodes:
            return True
    return False


def fresh_database(admin: str) -> str:
    import psycopg

    name = f"bench_{os.getpid()}_{time.time_ns() % 10**9}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}".encode())
    return f"{admin.rpartition('/')[0]}/{name}"


def redis_cpu(redis: str) -> float:
    import redis as redis_py

    client = redis_py.Redis.from_url(redis)
    try:
        info = client.info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
    finally:
        client.close()


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
    import httpx2

    process = subprocess.Popen([sys.executable, "-c", SERVER, db, str(port), stats],
                               preexec_fn=(lambda: os.nice(nice)) if nice else None)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx2.get(f"http://127.0.0.1:{port}/api/bots", timeout=1)
            return process
        except httpx2.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("server did not start")


async def seat_client(*args: Any) -> None:
    """One seat's client (:func:`play_seat`); a socket the server closes (an overloaded
    cluster worker, say) ends that seat's measurement, not the whole run."""
    from websockets.exceptions import ConnectionClosed

    with contextlib.suppress(ConnectionClosed, OSError):
        await play_seat(*args)


async def play_seat(url: str, token: str, seat: int, think: float, stop_at: float,
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
        nice: int = 0, client_nice: int = 0, variant: str = "standard",
        workers: int = 0, db: str = "", redis: str = "") -> dict[str, Any]:
    import httpx2

    from sueca.rules import preset

    players = preset(variant).players

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        stats = str(Path(tmp) / "handled.json")
        if workers:
            cluster = start_workers(workers, fresh_database(db), redis, port, nice)
            server = cluster[0]
        else:
            cluster = [start_server(str(Path(tmp) / "bench.db"), port, stats, nice)]
            server = cluster[0]
        try:
            http = f"http://127.0.0.1:{port}"
            tables = []
            with httpx2.Client() as session:
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
            if not workers:
                os.kill(server.pid, signal.SIGUSR1)  # forget the warm-up's timings
            cpu_before = sum(cpu_seconds(p.pid) for p in cluster)
            redis_before = redis_cpu(redis) if workers else 0.0
            wall_before = time.monotonic()
            results = [queue.get(timeout=seconds + 120) for _ in procs]
            cpu_after = sum(cpu_seconds(p.pid) for p in cluster)
            redis_after = redis_cpu(redis) if workers else 0.0
            wall_after = time.monotonic()
            if workers:
                server_stats: dict[str, list[float]] = {"handled": [], "lag": [], "gc": []}
            else:
                os.kill(server.pid, signal.SIGUSR1)
                time.sleep(0.5)
                server_stats = json.loads(Path(stats).read_text())
            handled = sorted(server_stats["handled"])
            lag = sorted(server_stats["lag"])
            gc_pauses = sorted(server_stats["gc"])
            for proc in procs:
                proc.join()
        finally:
            for process in cluster:
                process.kill()
                process.wait()
    latencies = sorted(x for lat, _, _ in results for x in lat)
    per_table = [n for _, counts, _ in results for n in counts]
    measured = seconds - warmup
    expected = measured / think  # a table's cards per second at the bots' pace, roughly
    q = percentiles(latencies)
    h = percentiles(handled)
    g = percentiles(lag)
    return {
        "tables": n_tables,
        "workers": workers or None,
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
        "redis_cpu": round((redis_after - redis_before) / (wall_after - wall_before), 2),
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
    parser.add_argument("--workers", type=int, default=0,
                        help="cluster workers on one port (0: one plain server on SQLite)")
    parser.add_argument("--db", default=os.environ.get("SUECA_TEST_POSTGRES", ""),
                        help="the PostgreSQL server for --workers (a fresh database each run)")
    parser.add_argument("--redis", default=os.environ.get("SUECA_TEST_REDIS", ""),
                        help="the Redis server for --workers")
    args = parser.parse_args()
    if args.workers and not (args.db and args.redis):
        parser.error("--workers needs --db postgresql://… and --redis redis://… "
                     "(or SUECA_TEST_POSTGRES and SUECA_TEST_REDIS)")
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, think "
          f"{args.think}s, {args.seconds}s per run ({args.warmup}s warm-up), {args.clients} "
          f"client processes, server nice {args.server_nice}, clients nice {args.client_nice}, "
          f"variant {args.variant}, workers {args.workers or 'none (one process)'}")
    for n in (int(x) for x in args.tables.split(",")):
        result = run(n, args.seconds, args.think, args.clients, args.warmup, args.server_nice,
                     args.client_nice, args.variant, args.workers, args.db, args.redis)
        # A table is keeping up when it plays at least half the cards its bots' pace allows.
        kept_up = result["slowest_table_moves"] >= 0.5 * result["expected_moves_per_table"]
        result["sustained"] = bool(kept_up and result["p99_ms"] <= 100)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
