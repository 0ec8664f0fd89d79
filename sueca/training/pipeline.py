"""The training procedure of ``sueca train``: imitation, then DAgger rounds, then a file.

1. **Imitation.** The expert (``--expert``, by default the strongest bot at a lighter budget)
   plays ``--games`` matches against itself through :func:`sueca.dataset.make_dataset` (the
   data set machinery: seeded, checked records), or ``--data`` names a data set made before.
   The network learns its card at every decision (cross-entropy) and the deal's outcome
   (value head), a share of the positions held out to report agreement.
2. **Self-play improvement: DAgger** (Ross, Gordon and Bagnell 2011; expert iteration without
   the search in the loop). Each round the network plays ``--dagger-games`` matches against
   itself (``make_dataset`` again, with the bot ``neural:weights=…``), the expert labels
   every position the network reached with its own card, the positions join the training set
   and the network trains on all of it. Imitation alone learns the expert's positions; the
   network's own mistakes lead it to positions the expert never reaches, and DAgger teaches
   it there. Chosen over policy gradient because every label is an expert's move: it improves
   from a few hundred deals, where a policy gradient's noisy returns need far more.
3. The weights and metadata go to ``--out`` (:meth:`sueca.neural.network.Network.save`),
   the command and the sizes in the metadata's ``training``.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sueca.bots import make_bot
from sueca.dataset import RECORDS, make_dataset
from sueca.infostate import InformationState
from sueca.neural.encoding import ObservationEncoder
from sueca.neural.network import MAX_HIDDEN, Network
from sueca.rules import Rules
from sueca.training.device import array_module
from sueca.training.examples import Examples, Tally, examples, played_deals
from sueca.training.fit import Settings, accuracy, fit
from sueca.training.symmetry import permutations

DEFAULT_EXPERT = "pimc:worlds=8:nodes=1000000"
HELD_OUT = 0.05

Report = Callable[[str], None]


@dataclass
class Plan:
    rules: Rules
    out: Path
    expert: str = DEFAULT_EXPERT
    games: int = 200
    data: Path | None = None
    dagger_rounds: int = 1
    dagger_games: int = 40
    settings: Settings = field(default_factory=Settings)
    dagger_epochs: int = 4
    hidden: tuple[int, int] = (256, 256)
    seed: int = 0
    device: str = "cpu"
    workers: int = 1
    augment: bool = True  # rename the suits of each minibatch (sueca.training.symmetry)
    command: str = ""


def check(plan: Plan) -> Any:
    """Refuse a plan that cannot run, before any work: the device, the expert, the sizes,
    the output folder. The array module of the device."""
    xp = array_module(plan.device)
    make_bot(plan.expert, seed=0).close()
    if plan.data is not None and not (plan.data / RECORDS).is_file():
        raise ValueError(f"--data {plan.data}: no {RECORDS} there (sueca dataset --out)")
    if plan.dagger_rounds < 0 or plan.dagger_games < 1:
        raise ValueError("--dagger-rounds must be at least 0 and --dagger-games at least 1")
    s = plan.settings
    if s.epochs < 1 or plan.dagger_epochs < 1 or s.batch < 1 or not (
            0 < s.learning_rate < math.inf):
        raise ValueError("--epochs and --batch must be at least 1, the learning rate a "
                         "finite number above 0")
    if plan.games < 1 or plan.workers < 1:
        raise ValueError("--games and --workers must be at least 1")
    if not all(1 <= h <= MAX_HIDDEN for h in plan.hidden):
        raise ValueError(f"--hidden {plan.hidden[0]}: the hidden layers have 1 to "
                         f"{MAX_HIDDEN} units")
    check_out(plan.out)
    return xp


def check_out(out: Path) -> None:
    """Refuse an output path the network could not be written to, before hours of work:
    a folder, something not a regular file, a missing or unwritable folder."""
    if out.is_dir():
        raise ValueError(f"--out {out} is a folder: name the weights file to write (.npz)")
    if out.exists() and not out.is_file():
        raise ValueError(f"--out {out} is not a regular file")
    if not out.parent.is_dir():
        raise ValueError(f"--out {out}: the folder {out.parent} does not exist")
    if out.exists() and not os.access(out, os.W_OK):
        raise ValueError(f"--out {out}: the file is not writable")
    try:  # os.access is no proof (root, read-only mounts): try the folder itself
        with tempfile.TemporaryFile(dir=out.parent):
            pass
    except OSError as error:
        raise ValueError(f"--out {out}: cannot write in {out.parent}: {error.strerror}"
                         ) from None


def split(data: Examples, share: float, seed: int) -> tuple[Examples, Examples]:
    order = np.random.default_rng(seed).permutation(len(data))
    cut = int(len(data) * share)
    held, kept = order[:cut], order[cut:]

    def take(rows: np.ndarray) -> Examples:
        return Examples(data.x[rows], data.legal[rows], data.label[rows], data.value[rows])

    return take(kept), take(held)


def train(plan: Plan, report: Report = lambda line: None) -> dict[str, Any]:
    """Run the plan and write the network; the summary (sizes, agreement, seconds) comes
    back and is in the file's metadata."""
    xp = check(plan)
    started = time.monotonic()
    summary: dict[str, Any] = {"command": plan.command, "expert": plan.expert,
                               "device": plan.device, "seed": plan.seed,
                               "suit_renaming": plan.augment}
    work = Path(tempfile.mkdtemp(prefix="sueca-train-"))
    try:
        folder = plan.data
        if folder is None:
            folder = work / "expert"
            report(f"expert self-play: {plan.games} matches of {plan.expert}")
            make_dataset(plan.rules, plan.expert, plan.games, plan.seed, folder, plan.workers)
            summary["games"] = plan.games
        summary["data"] = str(plan.data) if plan.data is not None else "generated"
        tally = Tally()
        data = examples(played_deals(folder / RECORDS, plan.rules, tally), plan.rules)
        source = str(folder / RECORDS) if plan.data is not None else "the expert's records"
        report(f"{source}: {tally.summary()}")
        if len(data) == 0:
            raise ValueError(f"{source}: no positions to train on at this table "
                             f"({tally.first_problem()})")
        train_set, held_out = split(data, HELD_OUT, plan.seed)
        report(f"imitation: {len(train_set):,} positions ({len(held_out):,} held out)")
        summary["imitation_positions"] = len(data)
        network = Network.initial(plan.rules, plan.hidden, plan.seed)
        renamings = permutations(ObservationEncoder(plan.rules)) if plan.augment else None
        network.params = fit(network.params, train_set, plan.settings, plan.seed, xp,
                             held_out, report, renamings)
        summary["held_out_agreement"] = round(accuracy(network.params, held_out)[0], 4)
        epochs = Settings(plan.dagger_epochs, plan.settings.batch,
                          plan.settings.learning_rate, plan.settings.weight_decay,
                          plan.settings.value_weight)
        expert = make_bot(plan.expert, seed=plan.seed)
        try:
            for round_ in range(1, plan.dagger_rounds + 1):
                current = work / f"round{round_}.npz"
                network.save(current)
                report(f"DAgger round {round_}: the network plays {plan.dagger_games} matches")
                played = work / f"round{round_}"
                make_dataset(plan.rules, f"neural:weights={current}", plan.dagger_games,
                             plan.seed + round_, played, plan.workers)

                def label(info: InformationState) -> int:
                    return expert.choose(info)

                new = examples(played_deals(played / RECORDS, plan.rules), plan.rules, label)
                agree = float((network_choice(network, new) == new.label).mean()) if len(
                    new) else 0.0
                report(f"DAgger round {round_}: {len(new):,} positions, the network agreed "
                       f"with the expert on {agree:.1%}")
                summary.setdefault("dagger", []).append(
                    {"positions": len(new), "agreement_before": round(agree, 4)})
                train_set = train_set.join(new)
                network.params = fit(network.params, train_set, epochs,
                                     plan.seed + round_, xp, held_out, report, renamings)
        finally:
            expert.close()
        summary["positions"] = len(train_set) + len(held_out)
        summary["held_out_agreement_final"] = round(accuracy(network.params, held_out)[0], 4)
        summary["seconds"] = round(time.monotonic() - started, 1)
        network.meta["training"] = summary
        try:
            network.save(plan.out)
        except OSError as error:
            raise ValueError(f"cannot write {plan.out}: {error.strerror}") from None
        return summary
    finally:
        shutil.rmtree(work, ignore_errors=True)


def network_choice(network: Network, data: Examples) -> np.ndarray:
    """The network's likeliest legal face of every row."""
    best = np.empty(len(data), np.int64)
    for start in range(0, len(data), 4096):
        probabilities = network.policy(data.x[start:start + 4096],
                                       data.legal[start:start + 4096])
        best[start:start + 4096] = probabilities.argmax(axis=1)
    return best
