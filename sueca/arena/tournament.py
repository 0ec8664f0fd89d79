"""The arena: duplicate round robins between bots, on every core, with an optional SPRT.

Every pair of bots plays the same boards (deal ``i`` of the series comes from ``(seed, i)``),
each board twice with the teams swapped (at a bidding table, the seat rotation of
:mod:`sueca.arena.play`). A board is played start to finish by one worker
process from its seed alone, and results are counted in board order, so the figures, the
stopping point of an SPRT and the records do not depend on the number of workers.

>>> from sueca.rules import STANDARD
>>> result = run_arena(STANDARD, ["heuristic", "random"], deals=4, workers=1)
>>> pair = result.pairs[0]
>>> (pair.bot_a, pair.bot_b, pair.pairs, sum(pair.deals_won))
('heuristic', 'random', 4, 8)
"""

from __future__ import annotations

import json
import os
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sueca.arena.backends import BACKENDS, Task, open_pool, play_task
from sueca.arena.play import BoardResult, DuplicateSummary, safe_name
from sueca.arena.stats import Rating, Sprt, bradley_terry
from sueca.rules import Rules

# Progress: boards counted so far, boards planned (which shrinks when an SPRT decides).
ProgressListener = Callable[[int, int], None]


@dataclass
class ArenaResult:
    """Every pair's duplicate summary, the Elo table for three or more bots, the SPRT."""

    bots: list[str]
    deals: int
    seed: int
    workers: int
    pairs: list[DuplicateSummary]
    ratings: dict[str, Rating] = field(default_factory=dict)
    sprt: list[Sprt | None] = field(default_factory=list)  # per pair, when one was asked for
    seconds: float = 0.0
    matches: int = 0  # pairs of whole matches per pair of bots (--matches), else 0

    def to_json(self) -> dict[str, object]:
        pairs = []
        for index, summary in enumerate(self.pairs):
            entry = summary.to_json()
            test = self.sprt[index] if self.sprt else None
            if test is not None:
                entry["sprt"] = test.to_json()
            pairs.append(entry)
        out: dict[str, object] = {
            "bots": self.bots, "seed": self.seed, "deals_planned": self.deals,
            "workers": self.workers, "seconds": round(self.seconds, 2), "pairs": pairs,
        }
        if self.matches:
            del out["deals_planned"]
            out["match_pairs_planned"] = self.matches
        if self.ratings:
            out["elo"] = [
                {"bot": r.name, "elo": round(r.elo, 1), "error95": round(r.error95, 1)}
                for r in sorted(self.ratings.values(), key=lambda r: -r.elo)
            ]
        return out

    def __str__(self) -> str:
        blocks = []
        for index, summary in enumerate(self.pairs):
            block = str(summary)
            test = self.sprt[index] if self.sprt else None
            if test is not None:
                verdict = {"H1": f"H1 (Elo ≥ {test.elo1:g}) accepted",
                           "H0": f"H0 (Elo ≤ {test.elo0:g}) accepted",
                           None: "undecided"}[test.decision]
                block += (f"\n  SPRT [{test.elo0:g}, {test.elo1:g}]: {verdict}, "
                          f"LLR {test.llr:.2f} in [{test.lower:.2f}, {test.upper:.2f}]")
            blocks.append(block)
        if self.ratings:
            lines = ["Bradley–Terry Elo (pair scores, mean 0, 95% error):"]
            for rating in sorted(self.ratings.values(), key=lambda r: -r.elo):
                lines.append(f"  {rating.name:<28} {rating.elo:+7.1f} ± {rating.error95:.1f}")
            blocks.append("\n".join(lines))
        blocks.append(f"{self.workers} worker(s), {self.seconds:.1f} s")
        return "\n\n".join(blocks)


def round_robin(bots: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of distinct bots once, in the order given."""
    return [(a, b) for i, a in enumerate(bots) for b in bots[i + 1:]]


def run_arena(
    rules: Rules,
    bots: Sequence[str],
    deals: int,
    seed: int = 0,
    workers: int | None = None,
    sprt: tuple[float, float] | None = None,
    records_dir: Path | None = None,
    on_progress: ProgressListener | None = None,
    backend: str = "local",
    address: str | None = None,
    matches: int = 0,
) -> ArenaResult:
    """Play ``deals`` duplicate boards between every pair of ``bots``.

    ``workers`` processes play the boards (default: every core; 1 plays here, in this
    process), or with ``backend="ray"`` Ray tasks on the cluster at ``address`` (default: its
    every CPU; :mod:`sueca.arena.backends`); the results are the same. With
    ``sprt=(elo0, elo1)`` each pair stops as soon as its test decides. Bot specs are checked
    before anything is played; a bad one raises ``ValueError``.

    ``matches=N`` plays whole matches instead of deals: N duplicate pairs of matches (the
    same deal sequence with the teams swapped, :func:`~sueca.arena.play.play_match_board`),
    reported as the match win rate with its interval beside the card-point margin and the
    game points per deal; ``deals`` is then not used. The SPRT and Elo count matches.
    """
    from sueca.bots import make_bot

    if len(bots) < 2:
        raise ValueError("the arena needs at least two bots")
    if len(set(bots)) != len(bots):
        raise ValueError("each bot may appear only once in a round robin")
    if matches < 0:
        raise ValueError("--matches must be at least 1")
    if matches:
        if rules.bidding or rules.scoring != "games":
            raise ValueError("--matches plays game-scored partnership matches: not at a "
                             "bidding table, nor in Sueca de Pontos")
        deals = matches  # a board is a pair of matches
    if deals < 1:
        raise ValueError("the arena needs at least one deal")
    for spec in bots:
        if not spec.startswith("cmd:"):  # an external program is only started to play
            make_bot(spec, seed=0).close()
    pairs = round_robin(bots)
    summaries = [DuplicateSummary(a, b) for a, b in pairs]
    tests: list[Sprt | None] = [Sprt(*sprt) if sprt else None for _ in pairs]
    folders: list[str | None] = []
    for a, b in pairs:
        if records_dir is None:
            folders.append(None)
            continue
        folder = records_dir / f"{safe_name(a)}__vs__{safe_name(b)}"
        folder.mkdir(parents=True, exist_ok=True)
        folders.append(str(folder))
    if backend not in BACKENDS:
        raise ValueError(f"unknown arena backend {backend!r} (known: {', '.join(BACKENDS)})")
    if backend == "local" and address is not None:
        raise ValueError("--address is the Ray cluster's: it needs --backend ray")
    if backend == "local":
        workers = max(1, workers if workers is not None else os.cpu_count() or 1)
    elif workers is not None and workers < 1:
        raise ValueError("--workers must be at least 1")
    rules_text = json.dumps(rules.to_dict(), sort_keys=True)
    started = time.perf_counter()

    def decided(pair: int) -> bool:
        test = tests[pair]
        return test is not None and test.decision is not None

    def jobs() -> Iterator[tuple[int, Task]]:
        for index in range(deals):  # board by board, so that every pair advances together
            for pair, (a, b) in enumerate(pairs):
                if not decided(pair):
                    yield pair, (rules_text, a, b, index, seed, folders[pair], bool(matches))

    def count(pair: int, board: BoardResult) -> None:
        if decided(pair):
            # Played while the test was deciding: not counted (nor kept), whatever the number
            # of workers, so that two runs of one seed agree.
            folder = folders[pair]
            if folder is not None:
                kind = "match" if matches else "deal"
                for side in "ab":
                    Path(folder, f"{kind}{board.index:05d}{side}.json").unlink(missing_ok=True)
            return
        summaries[pair].add(board)
        test = tests[pair]
        if test is not None:
            test.add(board.game_score)

    def report() -> None:
        if on_progress is not None:
            done = sum(s.pairs for s in summaries)
            left = sum(deals - s.pairs for p, s in enumerate(summaries) if not decided(p))
            on_progress(done, done + left)

    report()
    if backend == "local" and workers == 1:
        for pair, task in jobs():
            count(pair, play_task(task))
            report()
    else:
        # A bounded window of boards in flight, read back in order: results are counted in
        # board order, and a pair whose SPRT decided stops being sent out.
        with open_pool(backend, workers, address) as pool:
            workers = pool.workers
            window: deque[tuple[int, Callable[[], BoardResult]]] = deque()
            pending = jobs()
            exhausted = False
            while True:
                while not exhausted and len(window) < 4 * workers:
                    job = next(pending, None)
                    if job is None:
                        exhausted = True
                        break
                    window.append((job[0], pool.submit(job[1])))
                if not window:
                    break
                pair, result = window.popleft()
                count(pair, result())
                report()
    ratings: dict[str, Rating] = {}
    if len(bots) > 2:
        results = {(s.bot_a, s.bot_b): (s.matches_won[0], s.matches_won[1], s.matches_won[2])
                   for s in summaries}
        ratings = bradley_terry(list(bots), results)
    return ArenaResult(
        bots=list(bots), deals=deals, seed=seed, workers=workers, pairs=summaries,
        ratings=ratings, sprt=tests if sprt else [], seconds=time.perf_counter() - started,
        matches=matches,
    )
