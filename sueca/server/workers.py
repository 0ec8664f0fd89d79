"""``sueca serve --workers N``: N worker processes of one cluster behind one address.

Each worker is a whole server (:func:`sueca.server.app.serve` with its cluster options) that
binds the same host and port with ``SO_REUSEPORT``: the kernel spreads new connections over the
listening processes, and a worker that dies takes only its own sockets with it (the others'
listeners stay open; its tables move to them by lease, :mod:`sueca.server.node`). Why not
uvicorn's ``--workers``: its workers share one app built from an import string, where each of
ours is built with its own options (its worker id, its edge limits, its bot processes), and a
supervisor this small also says in the log which worker died and how, and starts a new one.

The supervisor starts the workers, starts a new one in the place of one that exits (after a
pause that grows while they keep dying at once, so a broken setup does not spin), and on
SIGTERM or SIGINT stops them all: each leaves the cluster cleanly (its leases released, so a
worker of another machine takes its tables at once).
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import socket
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger("sueca.server")

RESTART_PAUSE = 1.0  # seconds before a dead worker's replacement starts, at first
MAX_RESTART_PAUSE = 30.0  # ... doubling while workers die within STABLE seconds of starting
STABLE = 10.0


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` that other processes may bind too
    (``SO_REUSEPORT``): the kernel spreads connections over them."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _worker(serve: Callable[..., None], serve_options: dict[str, Any]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the supervisor stops us, with SIGTERM
    serve(**serve_options)


def run_workers(count: int, serve: Callable[..., None], serve_options: dict[str, Any]) -> int:
    """Run ``count`` workers, each ``serve(**serve_options)`` (:func:`sueca.server.app.serve`)
    with ``reuse_port``, until SIGTERM or SIGINT; 0 once they have all stopped."""
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no inherited loop
    options = {**serve_options, "reuse_port": True}
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}

    def start(slot: int) -> tuple[BaseProcess, float]:
        process = context.Process(target=_worker, args=(serve, options),
                                  name=f"sueca-worker-{slot}")
        process.start()
        log.info("worker %d started (pid %s)", slot, process.pid)
        return process, time.monotonic()

    workers = [start(slot) for slot in range(count)]
    pauses = [RESTART_PAUSE] * count
    due: dict[int, float] = {}  # slot → when its replacement starts
    try:
        while not stopping:
            time.sleep(0.2)
            now = time.monotonic()
            for slot, (process, started) in enumerate(workers):
                if slot in due:
                    if now >= due[slot] and not stopping:
                        del due[slot]
                        workers[slot] = start(slot)
                    continue
                if process.is_alive():
                    continue
                pauses[slot] = (RESTART_PAUSE if now - started > STABLE
                                else min(pauses[slot] * 2, MAX_RESTART_PAUSE))
                log.warning("worker %d (pid %s) exited with %s; another starts in %g s",
                            slot, process.pid, process.exitcode, pauses[slot])
                due[slot] = now + pauses[slot]
    finally:
        for process, _ in workers:
            if process.is_alive():
                process.terminate()  # SIGTERM: uvicorn shuts down, the worker leaves
        for process, _ in workers:
            process.join(timeout=15)
            if process.is_alive():
                process.kill()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return 0
