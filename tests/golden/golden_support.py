"""Golden transcripts: every protocol line of the arena and ``sueca bot``, and ``sueca watch``'s
output, for a dozen seeds over every table. Recorded before the referee was introduced (issue
15); the code since must reproduce them byte for byte.

``python tests/golden/golden_support.py`` writes them again (only when a change of behaviour
is meant);
``tests/golden/test_golden.py`` compares.
"""

from __future__ import annotations

import re
import shlex
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from typer.testing import CliRunner

HERE = Path(__file__).parent
DATA = HERE / "data"
SEEDS = range(1, 13)

# (name, rules preset, --set options): every preset, the redeal and the three-player table.
TABLES: list[tuple[str, str, tuple[str, ...]]] = [
    ("standard", "standard", ()),
    ("brazil", "brazil", ()),
    ("italiana", "italiana", ()),
    ("pontos", "pontos", ()),
    ("double8", "double8", ()),
    ("double6", "double6", ()),
    ("italiana5", "italiana5", ()),
    ("redeal", "brazil", ("weak_hand_redeal=true", "weak_hand_limits=[15,15]")),
    ("dummy", "standard", ("dummy=2",)),
]


# ``sueca play`` at the terminal (plain text, piped answers): (name, options, piped answer).
PLAY_TABLES: list[tuple[str, tuple[str, ...], str]] = [
    ("standard", (), "1"),
    ("italiana5", ("--variant", "italiana5", "--humans", "none"), ""),
    ("double8", ("--variant", "double8"), "1"),
    ("double6", ("--variant", "double6"), "1"),
    ("three", ("--players", "3"), "1"),
    ("open", ("--open",), "1"),
    ("redeal", ("--variant", "brazil", "--set", "weak_hand_redeal=true",
                "--set", "weak_hand_limits=[15,15]"), "1"),
    ("hotseat", ("--humans", "1,3"), "1"),  # seats from 1: the record's seats 0 and 2
    ("hints", ("--hints",), "1"),
]
PLAY_SEEDS = range(1, 5)


def play_output(options: tuple[str, ...], answer: str, seed: int) -> str:
    """``sueca play`` with every prompt answered ``answer`` (a card's number: the first
    legal card), plain and fast, in English."""
    import os
    import subprocess

    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "match.json"
        argv = [sys.executable, "-m", "sueca.cli", "play", "--seed", str(seed), "--fast",
                "--lang", "en", "--plain", "--bots", "heuristic", "--save", str(record),
                *options]
        piped = (answer + "\n") * 1500
        done = subprocess.run(argv, input=piped, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "COLUMNS": "100"}, check=False)
        saved = record.read_text(encoding="utf-8") if record.exists() else ""
    text = done.stdout.replace(str(record), "RECORD")
    return f"{text}## exit {done.returncode}\n{done.stderr}## record\n{saved}"


def table_rules(preset: str, sets: tuple[str, ...]):  # type: ignore[no-untyped-def]
    from sueca.cli import build_rules

    return build_rules(preset, list(sets))


def watch_output(preset: str, sets: tuple[str, ...], seed: int) -> str:
    from sueca.cli import app

    args = ["watch", "--rules", preset, "--seed", str(seed)]
    for option in sets:
        args += ["--set", option]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    return result.output


def protocol_transcript(preset: str, sets: tuple[str, ...], seed: int) -> str:
    """One arena board (both seatings, or the seat rotation) with team A's seats played by
    ``sueca bot heuristic`` through the protocol: every line each program read and wrote."""
    from sueca.arena.play import play_board

    rules = table_rules(preset, sets)
    with tempfile.TemporaryDirectory() as folder:
        command = (f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(HERE / 'tee_bot.py'))} "
                   f"{shlex.quote(folder)}/{{seed}}.log heuristic {{seed}}")
        result = play_board(rules, command, "heuristic", index=seed, seed=seed)
        logs = sorted(Path(folder).glob("*.log"), key=lambda p: int(p.stem))
        text = "".join(f"## program {i}\n{p.read_text(encoding='utf-8')}"
                       for i, p in enumerate(logs))
    points = " ".join(f"{p:.4f}" for p in result.a_points)
    errors = "".join(f"error: {re.sub(r'/tmp/[^ ]+', 'TMP', e)}\n" for e in result.errors)
    return f"{text}## A's points {points}\n{errors}"


def cases() -> Iterator[tuple[str, str, tuple[str, ...], int]]:
    for name, preset, sets in TABLES:
        for seed in SEEDS:
            yield name, preset, sets, seed


def play_cases() -> Iterator[tuple[str, str, tuple[str, ...], int]]:
    """The ``play`` jobs in the shape of the others: the options stand for the preset's
    place, the answer for the sets'."""
    for name, options, answer in PLAY_TABLES:
        for seed in PLAY_SEEDS:
            yield name, answer, options, seed


def render(kind: str, name: str, preset: str, sets: tuple[str, ...], seed: int) -> str:
    if kind == "play":
        return play_output(sets, preset, seed)
    if kind == "watch":
        return watch_output(preset, sets, seed)
    return protocol_transcript(preset, sets, seed)


def render_all(jobs: list[tuple[str, str, str, tuple[str, ...], int]]) -> list[str]:
    """Each job's text: ``watch`` in turn (the CLI's console is one per process), the
    protocol boards on threads (each runs its own programs)."""
    texts: dict[int, str] = {}
    with ThreadPoolExecutor(4) as pool:
        futures = {i: pool.submit(render, *job) for i, job in enumerate(jobs)
                   if job[0] != "watch"}
        for i, job in enumerate(jobs):
            if job[0] == "watch":
                texts[i] = render(*job)
        for i, future in futures.items():
            texts[i] = future.result()
    return [texts[i] for i in range(len(jobs))]


def path_of(kind: str, name: str, seed: int) -> Path:
    return DATA / kind / f"{name}-{seed:02d}.txt"


def write_all() -> None:
    jobs = [(kind, *case) for kind in ("watch", "protocol") for case in cases()]
    jobs += [("play", *case) for case in play_cases()]
    texts = render_all(jobs)
    for (kind, name, _preset, _sets, seed), text in zip(jobs, texts, strict=True):
        path = path_of(kind, name, seed)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_all()
