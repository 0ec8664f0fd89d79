"""Which rating system for Sueca's partnerships: OpenSkill's team models against Glicko-2 on team
composites, on simulated players whose true skill is known (docs/ratings.md).

Each player has a true skill ~ N(0, 1); a match puts four players drawn at random into two
partnerships, and the first pair wins with probability logistic(k * (skill sum A - skill sum B))
— Sueca is a game of much luck, so k is small (0.6: two partners one standard deviation better
each win 77% of their matches). Every system sees the same matches in the same order; before
each match it predicts the winner (its win probability for the first pair), after it updates.
Figures, over the last half of the matches (once every system has seen each player): the log
loss and accuracy of those predictions, the rank correlation of the final ratings with the true
skills, and the microseconds per update.

    .venv/bin/python benchmarks/bench_ratings.py --players 200 --matches 6000 --seeds 5
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

K = 0.6
GLICKO_SCALE = 173.7178


class OpenSkillSystem:
    def __init__(self, model: Any) -> None:
        self.model = model
        self.ratings: dict[int, Any] = {}

    def _r(self, player: int) -> Any:
        if player not in self.ratings:
            self.ratings[player] = self.model.rating()
        return self.ratings[player]

    def predict(self, a: list[int], b: list[int]) -> float:
        return float(self.model.predict_win([[self._r(p) for p in a], [self._r(p) for p in b]])[0])

    def update(self, a: list[int], b: list[int], a_won: bool) -> None:
        teams = [[self._r(p) for p in a], [self._r(p) for p in b]]
        new = self.model.rate(teams, ranks=[0, 1] if a_won else [1, 0])
        for player, rating in zip(a + b, new[0] + new[1], strict=True):
            self.ratings[player] = rating

    def score(self, player: int) -> float:
        rating = self._r(player)
        return float(rating.mu - 3 * rating.sigma)


class GlickoComposite:
    """Glicko-2 (Glickman 2012), each match one rating period; a partnership is the composite
    of its two players (mean rating, root-mean-square deviation), and each player is updated
    as if he alone had played the opposing composite."""

    def __init__(self, tau: float = 0.5) -> None:
        self.tau = tau
        self.ratings: dict[int, tuple[float, float, float]] = {}  # mu, phi, sigma (Glicko-2)

    def _r(self, player: int) -> tuple[float, float, float]:
        return self.ratings.setdefault(player, (0.0, 350 / GLICKO_SCALE, 0.06))

    def _composite(self, team: list[int]) -> tuple[float, float]:
        rs = [self._r(p) for p in team]
        return (sum(r[0] for r in rs) / len(rs),
                math.sqrt(sum(r[1] ** 2 for r in rs) / len(rs)))

    @staticmethod
    def _g(phi: float) -> float:
        return 1 / math.sqrt(1 + 3 * phi ** 2 / math.pi ** 2)

    def predict(self, a: list[int], b: list[int]) -> float:
        (mu_a, phi_a), (mu_b, phi_b) = self._composite(a), self._composite(b)
        return 1 / (1 + math.exp(-self._g(math.hypot(phi_a, phi_b)) * (mu_a - mu_b)))

    def update(self, a: list[int], b: list[int], a_won: bool) -> None:
        comp = {0: self._composite(b), 1: self._composite(a)}
        new = {}
        for side, team in enumerate((a, b)):
            mu_j, phi_j = comp[side]
            score = 1.0 if a_won == (side == 0) else 0.0
            for player in team:
                new[player] = self._one(self._r(player), mu_j, phi_j, score)
        self.ratings.update(new)

    def _one(self, r: tuple[float, float, float], mu_j: float, phi_j: float,
             score: float) -> tuple[float, float, float]:
        mu, phi, sigma = r
        g = self._g(phi_j)
        e = 1 / (1 + math.exp(-g * (mu - mu_j)))
        v = 1 / (g ** 2 * e * (1 - e))
        delta = v * g * (score - e)
        a = math.log(sigma ** 2)

        def f(x: float) -> float:
            ex = math.exp(x)
            return (ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2)
                    - (x - a) / self.tau ** 2)

        big_a = a
        if delta ** 2 > phi ** 2 + v:
            big_b = math.log(delta ** 2 - phi ** 2 - v)
        else:
            k = 1
            while f(a - k * self.tau) < 0:
                k += 1
            big_b = a - k * self.tau
        fa, fb = f(big_a), f(big_b)
        while abs(big_b - big_a) > 1e-6:
            c = big_a + (big_a - big_b) * fa / (fb - fa)
            fc = f(c)
            if fc * fb <= 0:
                big_a, fa = big_b, fb
            else:
                fa /= 2
            big_b, fb = c, fc
        sigma_new = math.exp(big_a / 2)
        phi_star = math.sqrt(phi ** 2 + sigma_new ** 2)
        phi_new = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
        mu_new = mu + phi_new ** 2 * g * (score - e)
        return mu_new, phi_new, sigma_new

    def score(self, player: int) -> float:
        mu, phi, _ = self._r(player)
        return mu - 2 * phi


SYSTEMS: dict[str, Callable[[], Any]] = {
    "openskill plackett-luce": lambda: OpenSkillSystem(PlackettLuce()),
    "openskill bradley-terry": lambda: OpenSkillSystem(BradleyTerryFull()),
    "openskill thurstone-mosteller": lambda: OpenSkillSystem(ThurstoneMostellerFull()),
    "glicko-2 team composite": GlickoComposite,
}


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[int]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0] * len(values)
        for rank, index in enumerate(order):
            out[index] = rank
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    return 1 - 6 * sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True)) / (n * (n * n - 1))


def run(players: int, matches: int, seed: int) -> dict[str, dict[str, float]]:
    rng = random.Random(seed)
    skill = [rng.gauss(0, 1) for _ in range(players)]
    games = []
    for _ in range(matches):
        four = rng.sample(range(players), 4)
        a, b = four[:2], four[2:]
        p = 1 / (1 + math.exp(-K * (sum(skill[i] for i in a) - sum(skill[i] for i in b))))
        games.append((a, b, rng.random() < p))
    out = {}
    late = games[matches // 2:]
    oracle = [1 / (1 + math.exp(-K * (sum(skill[i] for i in a) - sum(skill[i] for i in b))))
              for a, b, _ in late]
    out["true skills (the best possible)"] = {
        "log_loss": statistics.fmean(-math.log(p if won else 1 - p)
                                     for p, (_, _, won) in zip(oracle, late, strict=True)),
        "accuracy": sum((p > 0.5) == won for p, (_, _, won) in zip(oracle, late, strict=True))
        / len(late), "spearman": 1.0, "us_per_update": 0.0}
    for name, make in SYSTEMS.items():
        system = make()
        losses, hits, spent = [], 0, 0.0
        for index, (a, b, a_won) in enumerate(games):
            p = min(max(system.predict(a, b), 1e-6), 1 - 1e-6)
            if index >= matches // 2:
                losses.append(-math.log(p if a_won else 1 - p))
                hits += (p > 0.5) == a_won
            start = time.perf_counter()
            system.update(a, b, a_won)
            spent += time.perf_counter() - start
        out[name] = {"log_loss": statistics.fmean(losses), "accuracy": hits / len(losses),
                     "spearman": spearman([system.score(i) for i in range(players)], skill),
                     "us_per_update": spent / matches * 1e6}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--matches", type=int, default=6000)
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    runs = [run(args.players, args.matches, seed) for seed in range(1, args.seeds + 1)]
    print(f"{args.players} players, {args.matches} matches, {args.seeds} seeds (medians)")
    print(f"{'system':32} {'log loss':>9} {'accuracy':>9} {'spearman':>9} {'µs/update':>10}")
    for name in [*SYSTEMS, "true skills (the best possible)"]:
        cells = [statistics.median(r[name][key] for r in runs)
                 for key in ("log_loss", "accuracy", "spearman", "us_per_update")]
        print(f"{name:32} {cells[0]:9.4f} {cells[1]:9.3f} {cells[2]:9.3f} {cells[3]:10.1f}")


if __name__ == "__main__":
    main()
