"""The golden transcripts (tests/golden/golden.py): recorded before the referee (issue 15), and
reproduced byte for byte since. A difference is a change of behaviour; if one is meant, write
them again with ``python tests/golden/golden_support.py`` and say why in the commit."""

from __future__ import annotations

import difflib

import golden_support as golden
import pytest


def _compare(kind: str, name: str) -> None:
    cases = golden.play_cases() if kind == "play" else golden.cases()
    jobs = [(kind, n, preset, sets, seed) for n, preset, sets, seed in cases if n == name]
    for job, text in zip(jobs, golden.render_all(jobs), strict=True):
        expected = golden.path_of(kind, name, job[4]).read_text(encoding="utf-8")
        if text != expected:
            diff = "".join(difflib.unified_diff(
                expected.splitlines(keepends=True), text.splitlines(keepends=True),
                "golden", "now", n=2))
            pytest.fail(f"{kind} {name} seed {job[4]} differs from its golden transcript:\n"
                        f"{diff[:4000]}")


@pytest.mark.parametrize("name", [t[0] for t in golden.TABLES])
def test_watch_output_is_unchanged(name: str) -> None:
    _compare("watch", name)


@pytest.mark.slow
@pytest.mark.parametrize("name", [t[0] for t in golden.TABLES])
def test_every_protocol_line_is_unchanged(name: str) -> None:
    _compare("protocol", name)


@pytest.mark.slow
@pytest.mark.parametrize("name", [t[0] for t in golden.PLAY_TABLES])
def test_terminal_play_is_unchanged(name: str) -> None:
    _compare("play", name)
