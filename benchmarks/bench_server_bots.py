"""Web tables of one person and three server bots: do the bots keep their pace, and the person
his round trip, when many tables think at once?

N tables, each of one scripted person (a WebSocket client at seat 0 playing a random legal
card after ``--think`` seconds on average, times 0.5 to 1.5, as a person does) and three
server bots of ``--level`` (the default level: pimc), against one ``sueca serve`` app at its
normal pace (``Timing()``: a bot's move takes 0.8 s times 0.75 to 1.6, its thinking included;
the trick taken stays 1.4 s on the cloth). Its bots think in ``--bot-workers`` processes
(``sueca.server.botpool``), or with 0 in the server's two threads, as before.

Measured, after a warm-up:

- *bot move*, server side: from the table asking its bot to the answer, thinking and queue
  (``BotRunner.latencies``); with the pool, its parts too: the wait in the queue and the
  thinking in the worker;
- *bot turn*, client side: from the view that makes a bot the actor to the view with its move,
  pace included: what the person waits for (its normal value is the pace, about 0.94 s on
  average, 2.3 s after a trick);
- *round trip*: from the person's card sent to the view with it down;
- the server's event-loop lag (how late a 10 ms timer fires) and the peak resident memory of
  the server and its workers together (sampled every half second).

    python benchmarks/bench_server_bots.py --tables 100 --seconds 60 --bot-workers 0,2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench_server import cpu_seconds, free_port

SERVER = """
import asyncio, contextlib, json, signal, sys, time, uvicorn
from sueca.server import Timing, create_app

lags = []
async def watch_lag():
    while True:
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - start - 0.01)

app = create_app(sys.argv[1], timing=Timing(grace=3600.0, deal_pause=30.0),
                 bot_workers=int(sys.argv[3]))
def dump(signum, frame):
    bots = app.state.rooms.bots
    stats = getattr(bots, "stats", None)
    with open(sys.argv[4], "w") as out:
        json.dump({"bot": list(bots.latencies), "lag": lags,
                   "queue": list(stats.queue_wait) if stats else [],
                   "think": list(stats.think) if stats else [],
                   "cpu": list(stats.cpu) if stats else [],
                   "fallbacks": stats.fallbacks if stats else 0,
                   "pids": bots.pids() if stats else []}, out)
    bots.latencies.clear()
    lags.clear()
    if stats:
        stats.queue_wait.clear()
        stats.think.clear()
        stats.cpu.clear()
signal.signal(signal.SIGUSR1, dump)
original = app.router.lifespan_context
@contextlib.asynccontextmanager
async def lifespan(app):
    async with original(app):
        task = asyncio.get_running_loop().create_task(watch_lag())
        yield
        task.cancel()
app.router.lifespan_context = lifespan
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            ws_max_size=65536)
"""


def start_server(db: str, port: int, workers: int, stats: str,
                 nice: int = 0) -> subprocess.Popen[bytes]:
    import httpx2

    # (its bot workers inherit its niceness)
    process = subprocess.Popen([sys.executable, "-c", SERVER, db, str(port), str(workers),
                                stats], preexec_fn=(lambda: os.nice(nice)) if nice else None)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx2.get(f"http://127.0.0.1:{port}/api/bots", timeout=1)
            return process
        except httpx2.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("server did not start")


def resident(pid: int) -> int:
    """Resident bytes of ``pid`` and its children (the bot workers)."""
    total = 0
    pids = [pid]
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            pids += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        pass
    for each in pids:
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


async def person(url: str, token: str, index: int, think: float, stop_at: float,
                 warm_until: float, trips: list[float], turns: list[float]) -> None:
    """Seat 0 of one table: plays after a person's pause, times its round trips and the bots'
    turns."""
    from websockets.asyncio.client import connect

    rng = random.Random(index)
    async with connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        sent_at: float | None = None
        acted: tuple[Any, ...] = ()
        readied: set[tuple[int, int]] = set()
        rematched: set[int] = set()
        pending: asyncio.Task[None] | None = None
        bot_since: tuple[tuple[Any, ...], float] | None = None  # a bot's turn: where, since

        async def act_later(card: str, position: tuple[Any, ...]) -> None:
            nonlocal sent_at, acted
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            acted = position
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "play", "card": card}))

        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, stop_at - time.monotonic()))
            except TimeoutError:
                break
            message = json.loads(raw)
            if message["type"] != "state" or message["view"].get("you") != 0:
                continue
            view = message["view"]
            now = time.perf_counter()
            warm = time.monotonic() > warm_until
            position = (view["score"]["number"], view.get("deal"), view.get("stage"),
                        view.get("played"))
            if sent_at is not None and position != acted:
                if warm:
                    trips.append(now - sent_at)
                sent_at = None
            if bot_since is not None and position != bot_since[0]:
                if warm:
                    turns.append(now - bot_since[1])
                bot_since = None
            phase = view["phase"]
            actor = view.get("actor")
            if phase == "playing" and actor not in (None, 0) and bot_since is None:
                bot_since = (position, now)
            if (phase == "playing" and actor == 0 and position != acted
                    and (pending is None or pending.done()) and sent_at is None):
                pending = asyncio.create_task(act_later(rng.choice(view["legal"]), position))
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


def clients(url: str, tables: list[tuple[int, str, str]], think: float, seconds: float,
            warmup: float, out: Any) -> None:
    async def main() -> tuple[list[float], list[float]]:
        trips: list[float] = []
        turns: list[float] = []
        stop_at = time.monotonic() + seconds
        warm_until = time.monotonic() + warmup
        await asyncio.gather(*(person(f"{url}/ws/{table}", token, index, think, stop_at,
                                      warm_until, trips, turns)
                               for index, table, token in tables))
        return trips, turns

    out.put(asyncio.run(main()))


def quantiles(values: list[float]) -> tuple[float, float]:
    """p50 and p99 in ms (NaN for fewer than 20 values)."""
    if len(values) < 20:
        return float("nan"), float("nan")
    q = statistics.quantiles(values, n=100)
    return round(q[49] * 1000, 1), round(q[98] * 1000, 1)


def run(n_tables: int, workers: int, seconds: float, warmup: float, think: float,
        level: str, nice: int = 0) -> dict[str, Any]:
    import httpx2

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        stats = str(Path(tmp) / "stats.json")
        server = start_server(str(Path(tmp) / "bench.db"), port, workers, stats, nice)
        peak = [0]
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.wait(0.5):
                peak[0] = max(peak[0], resident(server.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            tables = []
            with httpx2.Client() as session:
                for index in range(n_tables):
                    data = session.post(f"http://127.0.0.1:{port}/api/tables", json={
                        "rules": {"variant": "standard"},
                        "seats": [{"kind": "human", "name": "p"}] + [
                            {"kind": "bot", "level": level} for _ in range(3)]}).json()
                    tables.append((index, data["id"], data["seats"][0]["link"].split("#")[1]))
            queue: Any = multiprocessing.Queue()
            proc = multiprocessing.Process(target=clients, args=(
                f"ws://127.0.0.1:{port}", tables, think, seconds, warmup, queue))
            proc.start()
            time.sleep(warmup)
            os.kill(server.pid, signal.SIGUSR1)  # forget the warm-up
            cpu_before, wall_before = cpu_seconds(server.pid), time.monotonic()
            trips, turns = queue.get(timeout=seconds + 120)
            wall = time.monotonic() - wall_before
            os.kill(server.pid, signal.SIGUSR1)
            time.sleep(1.0)
            measured = json.loads(Path(stats).read_text())
            cpu = cpu_seconds(server.pid) - cpu_before
            for pid in measured["pids"]:
                cpu += cpu_seconds(pid)  # (the workers' whole life: they start with the run)
            proc.join()
        finally:
            sampling.set()
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    bot = quantiles(measured["bot"])
    queue_wait = quantiles(measured["queue"])
    thinking = quantiles(measured["think"])
    cpu_per_move = quantiles(measured["cpu"])
    cpu_mean = (round(statistics.mean(measured["cpu"]) * 1000, 1) if measured["cpu"]
                else float("nan"))
    turn = quantiles(turns)
    trip = quantiles(trips)
    lag = quantiles(measured["lag"])
    measured_s = seconds - warmup
    return {
        "tables": n_tables,
        "bot_workers": workers,
        "level": level,
        "bot_moves_per_s": round(len(measured["bot"]) / measured_s, 1),
        "bot_p50_ms": bot[0], "bot_p99_ms": bot[1],
        "queue_p50_ms": queue_wait[0], "queue_p99_ms": queue_wait[1],
        "worker_moves_per_s": round(len(measured["think"]) / measured_s, 1),
        "think_p50_ms": thinking[0], "think_p99_ms": thinking[1],
        "cpu_per_move_p50_ms": cpu_per_move[0], "cpu_per_move_p99_ms": cpu_per_move[1],
        "cpu_per_move_mean_ms": cpu_mean,
        "fallbacks": measured["fallbacks"],
        "bot_turn_p50_ms": turn[0], "bot_turn_p99_ms": turn[1],
        "person_moves": len(trips),
        "round_trip_p50_ms": trip[0], "round_trip_p99_ms": trip[1],
        "loop_lag_p99_ms": lag[1],
        "peak_rss_mb": round(peak[0] / 2**20),
        "server_cpu": round(cpu / wall, 2),
        "load_avg": round(os.getloadavg()[0], 1),
    }


def bot_cost(level: str, deals: int) -> dict[str, Any]:
    """CPU seconds per move of ``level`` over whole deals of four such bots, in this process:
    what a server needs per bot move whatever else the machine runs (CPU time, not wall)."""
    from sueca.bots import make_bot
    from sueca.bots.base import decide
    from sueca.deal import deal_cards
    from sueca.rules import STANDARD
    from sueca.state import State

    costs: list[float] = []
    first_trick: list[float] = []
    for index in range(deals):
        state = State(STANDARD, deal_cards(STANDARD, dealer=index % 4,
                                           rng=random.Random(index)))
        bots = [make_bot(level, seed=index * 4 + seat) for seat in range(4)]
        while not state.is_finished():
            info = state.information_state(state.to_play)
            started = time.process_time()
            action = decide(bots[state.to_play], info)
            costs.append(time.process_time() - started)
            if len(state.plays) < 4:
                first_trick.append(costs[-1])
            state.apply(state.to_play, action)
    return {"level": level, "deals": deals, "moves": len(costs),
            "cpu_per_move_mean_ms": round(statistics.mean(costs) * 1000, 3),
            "cpu_per_move_p50_ms": round(statistics.median(costs) * 1000, 3),
            "first_trick_mean_ms": round(statistics.mean(first_trick) * 1000, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="100", help="table counts, comma-separated")
    parser.add_argument("--bot-workers", default="0,2",
                        help="bot processes per run, comma-separated (0: threads)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=2.0,
                        help="a person's mean seconds before a card")
    parser.add_argument("--level", default="pimc", help="the bots' level (default: pimc)")
    parser.add_argument("--server-nice", type=int, default=0,
                        help="niceness of the server and its bot workers (negative: ahead of "
                             "other work on a shared machine; needs root)")
    parser.add_argument("--cost", type=int, default=0, metavar="DEALS",
                        help="only measure the bots' CPU time per move over this many deals")
    args = parser.parse_args()
    if args.cost:
        print(json.dumps(bot_cost(args.level, args.cost)))
        return
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, {args.seconds}s "
          f"per run ({args.warmup}s warm-up), person's think {args.think}s, bots {args.level}, "
          f"server nice {args.server_nice}")
    for n in (int(x) for x in args.tables.split(",")):
        for workers in (int(x) for x in args.bot_workers.split(",")):
            print(json.dumps(run(n, workers, args.seconds, args.warmup, args.think,
                                 args.level, args.server_nice)), flush=True)


if __name__ == "__main__":
    main()
