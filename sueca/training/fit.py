"""The loss, its gradients, and Adam over shuffled minibatches, on any array module.

The loss of a batch is the cross-entropy of the label under the policy (soft-maxed over the
legal faces only, :func:`sueca.neural.network.masked_softmax`) plus ``value_weight`` times the
squared error of the value head. The gradients are written by hand (two dense ReLU layers and
two heads need no autograd library), checked against finite differences in
tests/neural/test_training.py. Adam (Kingma and Ba 2015) with decoupled weight decay
(AdamW) steps them. Every number drawn comes from the seed: the same examples, seed and
settings give the same weights on the same machine and library (NumPy's BLAS may sum in
another order elsewhere: the last bits differ, not the procedure).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from sueca.neural.network import LAYERS, forward, masked_softmax
from sueca.training.device import to_host
from sueca.training.examples import Examples


@dataclass(frozen=True)
class Settings:
    epochs: int = 8
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    value_weight: float = 0.5


Report = Callable[[str], None]


def loss_and_gradients(params: dict[str, Any], x: Any, legal: Any, label: Any, value: Any,
                       value_weight: float, xp: Any = np
                       ) -> tuple[float, float, dict[str, Any]]:
    """The batch's mean policy loss, its value loss, and the gradient of
    ``policy + value_weight × value`` with respect to every array."""
    keep: dict[str, Any] = {}
    logits, predicted = forward(params, x, xp, keep)
    rows = x.shape[0]
    p = masked_softmax(logits, legal, xp)
    picked = p[xp.arange(rows), label]
    policy_loss = float(-xp.log(xp.maximum(picked, 1e-12)).mean())
    value_loss = float(((predicted - value) ** 2).mean())
    d_logits = p.copy()
    d_logits[xp.arange(rows), label] -= 1
    d_logits /= rows
    d_value = (value_weight * 2 / rows) * (predicted - value) * (1 - predicted ** 2)
    h1, h2 = keep["h1"], keep["h2"]
    grads = {"wp": h2.T @ d_logits, "bp": d_logits.sum(axis=0),
             "wv": h2.T @ d_value[:, None], "bv": d_value.sum(keepdims=True)}
    d_h2 = (d_logits @ params["wp"].T + d_value[:, None] @ params["wv"].T) * (h2 > 0)
    grads["w2"], grads["b2"] = h1.T @ d_h2, d_h2.sum(axis=0)
    d_h1 = (d_h2 @ params["w2"].T) * (h1 > 0)
    grads["w1"], grads["b1"] = x.T @ d_h1, d_h1.sum(axis=0)
    return policy_loss, value_loss, grads


class Adam:
    """AdamW over a dict of arrays, in place."""

    def __init__(self, params: dict[str, Any], settings: Settings, xp: Any = np) -> None:
        self.params, self.settings, self.xp = params, settings, xp
        self.m = {k: xp.zeros_like(v) for k, v in params.items()}
        self.v = {k: xp.zeros_like(v) for k, v in params.items()}
        self.steps = 0

    def step(self, grads: dict[str, Any]) -> None:
        s, xp = self.settings, self.xp
        beta1, beta2, eps = 0.9, 0.999, 1e-8
        self.steps += 1
        lr = s.learning_rate * np.sqrt(1 - beta2 ** self.steps) / (1 - beta1 ** self.steps)
        for name in LAYERS:
            g = grads[name]
            self.m[name] = beta1 * self.m[name] + (1 - beta1) * g
            self.v[name] = beta2 * self.v[name] + (1 - beta2) * g * g
            w = self.params[name]
            if name.startswith("w"):
                w *= 1 - s.learning_rate * s.weight_decay
            w -= (lr * self.m[name] / (xp.sqrt(self.v[name]) + eps)).astype(w.dtype)


def accuracy(params: dict[str, Any], data: Examples, xp: Any = np, batch: int = 4096
             ) -> tuple[float, float]:
    """How often the policy's likeliest legal face is the label, and the value's mean
    squared error, over ``data``."""
    if len(data) == 0:
        return 0.0, 0.0
    hits, squared = 0.0, 0.0
    for start in range(0, len(data), batch):
        x = xp.asarray(data.x[start:start + batch])
        legal = xp.asarray(data.legal[start:start + batch])
        logits, value = forward(params, x, xp)
        best = to_host(xp.where(legal > 0, logits, -xp.inf).argmax(axis=1))
        hits += float((best == data.label[start:start + batch]).sum())
        squared += float(((to_host(value) - data.value[start:start + batch]) ** 2).sum())
    return hits / len(data), squared / len(data)


Renaming = tuple[np.ndarray, np.ndarray]  # input columns, faces (sueca.training.symmetry)


def fit(params: dict[str, Any], data: Examples, settings: Settings, seed: int,
        xp: Any = np, held_out: Examples | None = None, report: Report | None = None,
        renamings: list[Renaming] | None = None) -> dict[str, Any]:
    """Train ``params`` (host arrays, updated and returned) on ``data`` for
    ``settings.epochs`` epochs; ``report`` hears a line per epoch (losses, and the held-out
    accuracy when given). With ``renamings`` each minibatch has its suits renamed by one of
    them, drawn from the seed."""
    if len(data) == 0:
        raise ValueError("no positions to train on: the records hold no card decisions "
                         "at this table")
    on_device = {k: xp.asarray(v) for k, v in params.items()}
    optimizer = Adam(on_device, settings, xp)
    rng = np.random.default_rng(seed)
    x, legal = xp.asarray(data.x), xp.asarray(data.legal)
    label, value = xp.asarray(data.label), xp.asarray(data.value)
    views = [(xp.asarray(columns), xp.asarray(faces), xp.asarray(np.argsort(faces)))
             for columns, faces in renamings or ()]
    for epoch in range(1, settings.epochs + 1):
        order = xp.asarray(rng.permutation(len(data)))
        policy_sum = value_sum = 0.0
        batches = 0
        for start in range(0, len(data), settings.batch):
            pick = order[start:start + settings.batch]
            xb, legal_b, label_b = x[pick], legal[pick], label[pick]
            if views:
                columns, faces, inverse = views[int(rng.integers(len(views)))]
                xb, legal_b, label_b = xb[:, columns], legal_b[:, faces], inverse[label_b]
            with np.errstate(over="ignore", invalid="ignore"):  # divergence: checked below
                policy_loss, value_loss, grads = loss_and_gradients(
                    on_device, xb, legal_b, label_b, value[pick], settings.value_weight, xp)
            if not (math.isfinite(policy_loss) and math.isfinite(value_loss)):
                # Diverged: every later step would be NaN too, and a file of it useless.
                raise ValueError(
                    f"training diverged at epoch {epoch}, batch {batches + 1}: the loss is "
                    f"{policy_loss:g} (policy), {value_loss:g} (value); lower "
                    f"--learning-rate (now {settings.learning_rate:g})")
            optimizer.step(grads)
            policy_sum += policy_loss
            value_sum += value_loss
            batches += 1
        if report is not None:
            line = (f"epoch {epoch}/{settings.epochs}: policy loss {policy_sum / batches:.3f}, "
                    f"value loss {value_sum / batches:.3f}")
            if held_out is not None and len(held_out):
                with np.errstate(over="ignore", invalid="ignore"):
                    agree, mse = accuracy(on_device, held_out, xp)
                line += f"; held out: agrees with the label {agree:.1%}, value MSE {mse:.3f}"
            report(line)
    trained = {k: to_host(v).astype(np.float32) for k, v in on_device.items()}
    if not all(np.isfinite(v).all() for v in trained.values()):
        raise ValueError("training diverged: the weights are no longer finite numbers; lower "
                         f"--learning-rate (now {settings.learning_rate:g})")
    return trained
