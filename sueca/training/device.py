"""The array module training runs on: NumPy on the CPU, CuPy on a CUDA GPU (``--device``).

The trainer's arithmetic is written once against an array module ``xp`` (NumPy's functions,
which CuPy mirrors), so ``--device cuda`` runs the same code on the GPU. CuPy is optional
(``pip install 'sueca[gpu]'``, the ``cupy-cuda12x`` wheel); without it, or without a CUDA
device, ``--device cuda`` is refused with the reason, before anything is trained.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

DEVICES = ("cpu", "cuda")


def array_module(device: str) -> Any:
    """NumPy for ``cpu``, CuPy for ``cuda``; :class:`ValueError` when that cannot be."""
    if device == "cpu":
        return np
    if device != "cuda":
        raise ValueError(f"--device must be cpu or cuda, not {device!r}")
    try:
        cupy = importlib.import_module("cupy")
    except ImportError:
        raise ValueError("--device cuda needs CuPy, which is not installed: pip install "
                         "'sueca[gpu]' (the cupy-cuda12x wheel, for CUDA 12)") from None
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as error:  # CuPy raises its own CUDARuntimeError without a driver
        raise ValueError(f"--device cuda: CuPy finds no CUDA device ({error})") from None
    if count < 1:
        raise ValueError("--device cuda: CuPy finds no CUDA device")
    return cupy


def to_host(array: Any) -> np.ndarray:
    """A NumPy copy of an array of either module."""
    get = getattr(array, "get", None)
    return np.asarray(get() if get is not None else array)
