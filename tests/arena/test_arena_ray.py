"""sueca arena --backend ray: the same boards and statistics as the local backend, on a local
Ray instance (``ray.init(num_cpus=2)``), records included."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sueca.arena.tournament import run_arena
from sueca.rules import STANDARD, preset


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install "
                                            "'sueca[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def figures(result: Any) -> dict[str, Any]:
    out = result.to_json()
    del out["seconds"], out["workers"]
    return out


@pytest.mark.slow  # starting Ray takes about ten seconds here
def test_ray_gives_the_local_backend_s_results(local_ray: None, tmp_path: Path) -> None:
    bots = ["heuristic", "random", "heuristic+signals"]
    here = run_arena(STANDARD, bots, deals=4, seed=5, workers=1, records_dir=tmp_path / "here")
    there = run_arena(STANDARD, bots, deals=4, seed=5, records_dir=tmp_path / "there",
                      backend="ray")
    assert there.workers == 2  # every CPU of the cluster
    assert figures(there) == figures(here)
    assert "elo" in figures(here)
    files = sorted(p.relative_to(tmp_path / "here") for p in (tmp_path / "here").rglob("*.json"))
    assert len(files) == 3 * 4 * 2
    for name in files:
        assert (tmp_path / "there" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()


@pytest.mark.slow
def test_ray_with_a_sequential_test_and_a_bidding_table(local_ray: None) -> None:
    here = run_arena(STANDARD, ["heuristic", "random"], deals=30, seed=2, workers=1,
                     sprt=(0.0, 200.0))
    there = run_arena(STANDARD, ["heuristic", "random"], deals=30, seed=2, workers=2,
                      sprt=(0.0, 200.0), backend="ray")
    assert figures(there) == figures(here)
    rules = preset("italiana5")
    assert figures(run_arena(rules, ["heuristic", "random"], deals=2, seed=1, workers=1)) == \
        figures(run_arena(rules, ["heuristic", "random"], deals=2, seed=1, backend="ray"))


def test_a_bad_backend_or_address_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown arena backend 'spark'"):
        run_arena(STANDARD, ["heuristic", "random"], deals=1, backend="spark")
    with pytest.raises(ValueError, match="--address is the Ray cluster's"):
        run_arena(STANDARD, ["heuristic", "random"], deals=1, workers=1, address="auto")
