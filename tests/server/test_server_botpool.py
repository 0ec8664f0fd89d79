"""The bot pool: server bots in worker processes (sueca.server.botpool).

Real worker processes throughout: the same card as in-process, the deadline, the fair queue,
a worker that dies or runs away, memory recycling, shutdown without orphans (``sueca serve``
on SIGTERM and killed outright), and whole server tables played through the pool.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import uvicorn
from server_support import FAST, create_table, join, play_on, stored_match, token_of

from sueca.actions import Action, Play
from sueca.bots import make_bot
from sueca.bots.base import Bot, decide
from sueca.cards import Card
from sueca.deal import deal_cards
from sueca.infostate import InformationState
from sueca.record import check
from sueca.rules import preset
from sueca.server import create_app
from sueca.server.botpool import TABLE_QUEUE, BotPool, ThreadBots
from sueca.state import State


class SleepyBot(Bot):
    """Plays its first legal card after ``pause`` seconds (a slow or stuck bot)."""

    name = "sleepy"

    def __init__(self, pause: float) -> None:
        super().__init__(seed=1)
        self.pause = pause

    def choose(self, info: InformationState) -> Card:
        time.sleep(self.pause)
        return info.legal_moves()[-1]  # not the plain answer (the first legal card)


class CrashingBot(Bot):
    """Ends its worker process outright while ``flag`` exists, removing it first when
    ``once``: a worker that dies mid-move."""

    name = "crashing"

    def __init__(self, flag: str, once: bool) -> None:
        super().__init__(seed=3)
        self.flag = flag
        self.once = once

    def choose(self, info: InformationState) -> Card:
        if os.path.exists(self.flag):
            if self.once:
                os.remove(self.flag)
            os._exit(1)
        return self.rng.choice(info.legal_moves())


def positions(variant: str, seed: int) -> Iterator[State]:
    state = State(preset(variant), deal_cards(preset(variant), dealer=0,
                                              rng=random.Random(seed)))
    while not state.is_finished():
        yield state


def opening(variant: str = "standard") -> InformationState:
    state = State(preset(variant), deal_cards(preset(variant), dealer=0, rng=random.Random(1)))
    return state.information_state(state.to_play)


@pytest.fixture
def pool() -> Iterator[BotPool]:
    with BotPool(2) as bots:
        yield bots


@pytest.mark.parametrize(("level", "variant"), [
    ("pimc", "standard"), ("heuristic", "italiana"), ("ismcts", "brazil"),
    ("random", "italiana")])
def test_a_bot_plays_the_same_cards_in_the_pool_as_in_process(
        pool: BotPool, level: str, variant: str) -> None:
    here, there = make_bot(level, seed=11), make_bot(level, seed=11)
    here.new_match(preset(variant), 0)
    there.new_match(preset(variant), 0)

    async def deal() -> list[tuple[Action, Action]]:
        moves = []
        for state in positions(variant, seed=4):
            info = state.information_state(state.to_play)
            mine = decide(here, info, strict=False)
            theirs = await pool.decide(there, info, table="t", where="test")
            moves.append((mine, theirs))
            state.apply(state.to_play, mine)
            if level == "ismcts" and len(moves) == 12:
                break  # (its search is pure Python: slow, and twice here)
        return moves

    moves = asyncio.run(deal())
    assert len(moves) >= (12 if level == "ismcts" else 40)  # a whole deal (and an auction)
    assert [a for a, _ in moves] == [b for _, b in moves]
    # The bot in the server carries on exactly where the in-process one is: its generator too.
    assert here.rng.getstate() == there.rng.getstate()
    assert pool.stats.moves == len(moves) and pool.stats.fallbacks == 0
    assert len(pool.pids()) == 2


def test_a_hook_called_while_the_bot_thinks_is_not_undone(pool: BotPool) -> None:
    bot = SleepyBot(0.5)
    info = opening()

    async def scenario() -> Action:
        move = asyncio.ensure_future(pool.decide(bot, info, table="t", where="t"))
        await asyncio.sleep(0.1)
        bot.pause = 0.25  # what a hook does: the referee tells the bot of the deal's end
        return await move

    assert asyncio.run(scenario()) == Play(info.legal_moves()[-1])
    assert bot.pause == 0.25  # not overwritten by the state the bot had when it was asked


def test_a_move_past_the_deadline_is_the_plain_answer_and_a_runaway_worker_is_replaced(
        caplog: pytest.LogCaptureFixture) -> None:
    info = opening()

    async def scenario(bots: BotPool) -> tuple[Action, Action]:
        late = await bots.decide(SleepyBot(30.0), info, table="a", where="table a")
        while not bots.stats.replaced:  # the worker still sleeps: it is killed at 2 s
            await asyncio.sleep(0.05)
        bots.deadline, bots.runaway = 30.0, 60.0  # room for a new worker on a busy machine
        on_time = await bots.decide(SleepyBot(0.0), info, table="a", where="table a")
        return late, on_time

    with BotPool(1, deadline=1.0, runaway=2.0) as bots:
        first = bots.pids()
        late, on_time = asyncio.run(scenario(bots))
        assert late == Play(info.legal_moves()[0])  # the plain answer
        assert on_time == Play(info.legal_moves()[-1])  # the bot's own, from a new worker
        assert bots.stats.fallbacks == 1 and bots.stats.replaced == 1
        assert bots.pids() != first
    # Taken by a worker at once, the move may take twice the deadline (2 s), when its worker
    # is killed too.
    assert any(r.getMessage().startswith("table a: bot 'sleepy' at seat 1: ")
               and ("no answer within 2 s" in r.getMessage() or "ran away" in r.getMessage())
               for r in caplog.records)


def test_a_move_no_worker_takes_in_time_is_the_plain_answer(
        caplog: pytest.LogCaptureFixture) -> None:
    info = opening()

    async def scenario(bots: BotPool) -> list[Action]:
        return await asyncio.gather(bots.decide(SleepyBot(3.0), info, table="a", where="a"),
                                    bots.decide(SleepyBot(0.0), info, table="b", where="b"))

    with BotPool(1) as bots:
        asyncio.run(bots.decide(SleepyBot(0.0), info, table="warm", where="warm"))
        bots.deadline = 2.0  # the slow move takes 3 s: late, within twice the deadline
        slow, waiting = asyncio.run(scenario(bots))
        assert slow == Play(info.legal_moves()[-1])  # late, not by far: its own card
        assert waiting == Play(info.legal_moves()[0])  # no worker free in time: plain
        assert bots.stats.fallbacks == 1 and bots.stats.replaced == 0
    assert any("no worker free within 2 s" in r.getMessage() for r in caplog.records)


def test_a_worker_that_dies_is_replaced_and_the_move_sent_again(tmp_path: Path) -> None:
    info = opening()
    flag = tmp_path / "crash"
    expected = decide(CrashingBot(str(flag), once=True), info)  # no flag: it plays

    async def scenario(bots: BotPool) -> tuple[Action, Action]:
        flag.touch()
        again = await bots.decide(CrashingBot(str(flag), once=True), info, table="a",
                                  where="table a")
        flag.touch()
        lost = await bots.decide(CrashingBot(str(flag), once=False), info, table="a",
                                 where="table a")
        return again, lost

    with BotPool(1) as bots:
        again, lost = asyncio.run(scenario(bots))
        # Sent again to a new worker, the move is the same as in-process: nothing was lost.
        assert again == expected
        assert lost == Play(info.legal_moves()[0])  # died twice: the plain answer
        assert bots.stats.retries == 2 and bots.stats.replaced == 3
        assert bots.stats.fallbacks == 1
        deadline = time.monotonic() + 30  # the slot is filled again (after a pause: the
        while not bots.pids():  # workers died before answering a move)
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_workers_that_cannot_start_are_tried_again_slowly(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from sueca.server import botpool

    monkeypatch.setattr(botpool, "_WORKER", "import sys; sys.exit(3)")
    info = opening()
    with BotPool(1, deadline=1.0) as bots:
        started = time.monotonic()
        action = asyncio.run(bots.decide(SleepyBot(0.0), info, table="t", where="t"))
        assert action == Play(info.legal_moves()[0])  # no worker: the plain answer, in time
        time.sleep(2.0)
        elapsed = time.monotonic() - started
        # Pauses of 1, 2, 4... seconds between tries: a handful in 3 s, not a busy loop.
        assert 1 <= bots.stats.replaced <= 3, (bots.stats.replaced, elapsed)
    assert sum("a new one takes its place" in r.getMessage() for r in caplog.records) <= 3


def test_an_overloaded_pool_says_so_once(caplog: pytest.LogCaptureFixture) -> None:
    info = opening()

    async def scenario(bots: BotPool) -> None:
        await asyncio.gather(*(bots.decide(SleepyBot(0.3), info, table=f"t{n}", where="t")
                               for n in range(4)))

    with BotPool(1) as bots:
        asyncio.run(bots.decide(SleepyBot(0.0), info, table="warm", where="warm"))
        bots.overload_wait = 0.2  # the last of four 0.3 s moves waits 0.9 s
        asyncio.run(scenario(bots))
        asyncio.run(scenario(bots))
    said = [r for r in caplog.records if "cannot keep their pace" in r.getMessage()]
    assert len(said) == 1, said  # once in ten minutes, however many moves wait


def test_the_queue_serves_tables_in_turn() -> None:
    info = opening()
    finished: list[str] = []

    async def move(bots: BotPool, table: str) -> Action:
        action = await bots.decide(SleepyBot(0.2), info, table=table, where=table)
        finished.append(table)
        return action

    async def scenario(bots: BotPool) -> list[Action]:
        flood = [asyncio.ensure_future(move(bots, "busy")) for _ in range(6)]
        await asyncio.sleep(0.05)  # the busy table's moves are all waiting
        other = asyncio.ensure_future(move(bots, "other"))
        return await asyncio.gather(*flood, other)

    with BotPool(1) as bots:
        asyncio.run(bots.decide(SleepyBot(0.0), info, table="warm", where="warm"))
        actions = asyncio.run(scenario(bots))
    assert all(a == Play(info.legal_moves()[-1]) for a in actions)  # none fell back
    # Round-robin: the other table's one move comes after at most two of the busy one's
    # (the one running and the one whose turn came first), not after all six.
    assert finished.index("other") <= 2, finished


def test_a_table_may_have_only_so_many_moves_waiting() -> None:
    info = opening()

    async def scenario(bots: BotPool) -> list[Action]:
        return await asyncio.gather(*(bots.decide(SleepyBot(0.05), info, table="t",
                                                  where="t")
                                      for _ in range(TABLE_QUEUE + 3)))

    with BotPool(1) as bots:
        actions = asyncio.run(scenario(bots))
        # Eight may wait (and one may already be with the worker); the rest are refused at
        # once: the plain answer.
        assert bots.stats.fallbacks >= 2
        assert bots.stats.moves + bots.stats.fallbacks == TABLE_QUEUE + 3
    assert actions.count(Play(info.legal_moves()[0])) == bots.stats.fallbacks


def test_a_worker_past_the_memory_limit_is_recycled() -> None:
    here, there = make_bot("heuristic", seed=2), make_bot("heuristic", seed=2)

    async def deal(bots: BotPool) -> list[tuple[Action, Action]]:
        moves = []
        for state in positions("standard", seed=9):
            info = state.information_state(state.to_play)
            moves.append((decide(here, info), await bots.decide(there, info, table="t",
                                                                 where="t")))
            state.apply(state.to_play, moves[-1][0])
            if len(moves) == 5:
                break
        return moves

    with BotPool(1, rss_limit=1) as bots:  # every worker is over it after its first move
        moves = asyncio.run(deal(bots))
        deadline = time.monotonic() + 10  # (the last one is retired just after its answer)
        while bots.stats.recycled < 5:
            assert time.monotonic() < deadline, bots.stats.recycled
            time.sleep(0.01)
        assert bots.stats.fallbacks == 0 and bots.stats.replaced == 0
    assert [a for a, _ in moves] == [b for _, b in moves]


def test_close_ends_every_worker() -> None:
    bots = BotPool(2)
    asyncio.run(bots.decide(make_bot("random", seed=1), opening(), table="t", where="t"))
    pids = bots.pids()
    assert len(pids) == 2
    bots.close()
    assert not bots.pids()
    for pid in pids:
        assert not _alive(pid)
    # A pool closed is refused politely: the plain answer, no hang.
    info = opening()
    assert asyncio.run(bots.decide(make_bot("random"), info, table="t", where="t")) == Play(
        info.legal_moves()[0])


def test_a_bot_that_does_not_pickle_thinks_in_a_thread(pool: BotPool) -> None:
    bot = make_bot("heuristic", seed=5)
    bot.lock = threading.Lock()  # type: ignore[attr-defined]  # (a process handle, say)
    info = opening()
    action = asyncio.run(pool.decide(bot, info, table="t", where="t"))
    assert action == decide(make_bot("heuristic", seed=5), info)
    assert pool.stats.local == 1 and pool.stats.moves == 0


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    return [int(c) for task in tasks.iterdir()
            for c in (task / "children").read_text().split()]


# ---- whole tables through the pool ---------------------------------------------------------


class PoolServer:
    """The app on uvicorn in a thread, its bots in ``workers`` processes (0: threads)."""

    def __init__(self, db: Path, workers: int) -> None:
        self.app = create_app(str(db), timing=FAST, seed=7, bot_workers=workers)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=0,
                                                    log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> PoolServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "no server"
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.http, self.ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


def _play_match(db: Path, workers: int, level: str) -> tuple[Any, Any]:
    with PoolServer(db, workers) as live:
        table = create_table(live.http, ["human", "bot", "bot", "bot"],
                             {"variant": "standard", "match_target": 2}, level=level)

        async def scenario() -> dict[str, Any]:
            player = await join(live.ws, table["id"], token_of(table, 0), 0)
            final = await play_on(player, random.Random(5), timeout=60)
            await player.socket.close()
            return final

        final = asyncio.run(scenario())
        bots = live.app.state.rooms.bots
        assert final["phase"] == "match_over"
        if workers:
            assert isinstance(bots, BotPool)
            assert bots.stats.moves > 0 and bots.stats.fallbacks == 0
            assert bots.stats.local == 0
            workers_seen = bots.pids()
            assert len(workers_seen) == workers
        else:
            assert isinstance(bots, ThreadBots)
    if workers:
        assert not any(_alive(pid) for pid in workers_seen)  # the lifespan ended them
    match = stored_match(db, table["id"])
    return match, final


def test_a_whole_table_plays_through_the_process_pool_the_match_it_plays_in_threads(
        tmp_path: Path) -> None:
    pooled, _ = _play_match(tmp_path / "pool.db", 2, "heuristic")
    threaded, _ = _play_match(tmp_path / "threads.db", 0, "heuristic")
    report = check(pooled.record)
    assert report["valid"], report["error"]
    assert report["match"]["winner"] is not None
    # Same seed, same person's cards: the bots in processes played every card the bots in
    # threads played.
    assert [(d.hands, d.plays) for d in pooled.record.deals] == [
        (d.hands, d.plays) for d in threaded.record.deals]


@pytest.mark.slow
def test_a_whole_table_of_default_bots_plays_through_the_process_pool(tmp_path: Path) -> None:
    match, _ = _play_match(tmp_path / "pool.db", 2, "pimc")
    report = check(match.record)
    assert report["valid"], report["error"]


# ---- no orphans --------------------------------------------------------------------------


def _serve(db: Path, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "sueca"), "serve", "--port", str(port), "--db", str(db),
         "--bot-workers", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx2.get(f"http://127.0.0.1:{port}/api/bots", timeout=1)
            return process
        except httpx2.HTTPError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError("sueca serve did not start") from None
            time.sleep(0.1)


def _workers_of(server: subprocess.Popen[bytes], port: int) -> list[int]:
    """Open a table of four bots and wait until the server's bot workers exist."""
    response = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json={
        "rules": {"variant": "standard"},
        "seats": [{"kind": "bot", "level": "random"} for _ in range(4)]})
    assert response.status_code == 201, response.text
    deadline = time.monotonic() + 30
    while len(workers := _children(server.pid)) < 2:
        assert time.monotonic() < deadline, "no bot workers"
        time.sleep(0.1)
    return workers


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_no_bot_worker_outlives_sueca_serve(tmp_path: Path, how: signal.Signals) -> None:
    port = _free_port()
    server = _serve(tmp_path / "sueca.db", port)
    try:
        workers = _workers_of(server, port)
        server.send_signal(how)
        server.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers):
            assert time.monotonic() < deadline, f"orphans after {how.name}"
            time.sleep(0.05)
        if how == signal.SIGTERM:  # a graceful stop (uvicorn raises the signal again after)
            assert server.returncode in (0, -signal.SIGTERM)
            assert server.stderr is not None
            log = server.stderr.read()
            assert b"Finished server process" in log and b"Traceback" not in log
    finally:
        server.kill()
        server.wait()
