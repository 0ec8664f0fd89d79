"""The policy/value network: a small MLP, its input, its weights file and its metadata.

The input is a seat's observation tensor (:class:`~sueca.neural.encoding.ObservationEncoder`)
followed by its legal cards and the trick's facts (:mod:`sueca.neural.features`). Two hidden
layers (ReLU), then two heads:

- the **policy**: a logit per card face (0-39); :meth:`Network.policy` soft-maxes it over the
  legal cards only (an illegal card gets probability 0, whatever its logit);
- the **value**: the seat's side's card points less the other side's at the deal's end, as a
  share of the deck's points (-1 … 1, through tanh), from this position on in the trainer's
  self-play.

Inference is NumPy in float32 (:func:`forward`, written once over an array module ``xp`` so
that :mod:`sueca.training` runs the same arithmetic on CuPy). The weights are one ``.npz``
file (``np.savez_compressed``, read with ``allow_pickle=False``) holding the arrays and a
``meta`` entry: JSON text (as UTF-8 bytes) with the format version, the encoder's layout (its
size and :meth:`~sueca.neural.encoding.ObservationEncoder.layout_hash`), the rules trained
for (a RECORD.md rules object), the input's layout, the layer sizes and how it was trained
(the command). A file that is not such a file, of another format version or input, or whose
arrays do not have the shapes its metadata says, is refused by :func:`load` with a
:class:`ValueError` naming the problem.

>>> import numpy as np
>>> from sueca.rules import STANDARD
>>> net = Network.initial(STANDARD, hidden=(8, 8), seed=1)
>>> x = np.zeros((1, net.input_size), np.float32)
>>> legal = np.zeros((1, CARD_FACES), np.float32); legal[0, [3, 7]] = 1
>>> p = net.policy(x, legal)
>>> bool(p[0, [3, 7]].sum() > 0.999), float(p[0, 0])
(True, 0.0)
"""

from __future__ import annotations

import io
import json
import lzma
import os
import stat
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from sueca.cards import DECK_SIZE
from sueca.neural.encoding import ObservationEncoder
from sueca.neural.features import INPUT_LAYOUT, features, input_size, legal_faces
from sueca.rules import Rules, RulesError

FORMAT = "sueca-neural"
FORMAT_VERSION = 2  # 2: the input adds the trick's facts (sueca.neural.features)
CARD_FACES = DECK_SIZE
MAX_FILE_BYTES = 64 * 1024 * 1024  # a weights file larger than this is no network of ours
MAX_META_BYTES = 256 * 1024
MAX_HIDDEN = 4096
Array = npt.NDArray[np.float32]
# The arrays of a network of two hidden layers, in order.
LAYERS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")


def forward(params: dict[str, Any], x: Any, xp: Any = np,
            keep: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """The logits (rows × 40) and values (rows) of the inputs ``x``; ``keep``, when given,
    receives the hidden activations (the trainer's backward pass reads them)."""
    h1 = xp.maximum(x @ params["w1"] + params["b1"], 0)
    h2 = xp.maximum(h1 @ params["w2"] + params["b2"], 0)
    logits = h2 @ params["wp"] + params["bp"]
    value = xp.tanh(h2 @ params["wv"] + params["bv"])[:, 0]
    if keep is not None:
        keep.update(h1=h1, h2=h2, value=value)
    return logits, value


def masked_softmax(logits: Any, legal: Any, xp: Any = np) -> Any:
    """Probabilities over the legal entries of each row (``legal`` 1 or 0); 0 elsewhere."""
    masked = xp.where(legal > 0, logits, -xp.inf)
    top = masked.max(axis=1, keepdims=True)
    exp = xp.where(legal > 0, xp.exp(masked - top), 0)
    return exp / exp.sum(axis=1, keepdims=True)


@dataclass
class Network:
    """A network and its metadata (the ``meta`` record of its file)."""

    params: dict[str, Array]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def input_size(self) -> int:
        return int(self.params["w1"].shape[0])

    @classmethod
    def initial(cls, rules: Rules, hidden: tuple[int, int] = (256, 256), seed: int = 0,
                training: dict[str, Any] | None = None) -> Network:
        """A fresh network for ``rules``'s encoder: He-initialised weights, zero biases."""
        if len(hidden) != 2 or not all(1 <= h <= MAX_HIDDEN for h in hidden):
            raise ValueError(f"the hidden layers are two sizes from 1 to {MAX_HIDDEN}, "
                             f"not {hidden!r}")
        encoder = ObservationEncoder(rules)
        rng = np.random.default_rng(seed)
        sizes = [input_size(encoder), *hidden]

        def dense(rows: int, cols: int) -> Array:
            scale = np.float32(np.sqrt(2.0 / rows))
            return rng.standard_normal((rows, cols), dtype=np.float32) * scale

        params = {
            "w1": dense(sizes[0], sizes[1]), "b1": np.zeros(sizes[1], np.float32),
            "w2": dense(sizes[1], sizes[2]), "b2": np.zeros(sizes[2], np.float32),
            "wp": dense(sizes[2], CARD_FACES) * 0.1, "bp": np.zeros(CARD_FACES, np.float32),
            "wv": dense(sizes[2], 1) * 0.1, "bv": np.zeros(1, np.float32),
        }
        meta = {
            "format": FORMAT, "version": FORMAT_VERSION,
            "encoder": {"size": encoder.size, "layout": encoder.layout_hash()},
            "input": INPUT_LAYOUT,
            "rules": rules.to_dict(), "hidden": list(hidden),
            "training": training or {},
        }
        return cls(params, meta)

    def fits(self, rules: Rules) -> str | None:
        """None when this network was trained for ``rules``'s table; else why not."""
        encoder = ObservationEncoder(rules)
        layout = self.meta.get("encoder", {})
        if layout.get("size") != encoder.size or layout.get("layout") != encoder.layout_hash():
            return "its observation layout is not this table's"
        if self.meta.get("rules") != rules.to_dict():
            return "it was trained for other rules"
        return None

    def policy(self, x: Array, legal: Array) -> Array:
        """Probabilities over the legal card faces, one row per input row."""
        logits, _ = forward(self.params, x)
        out: Array = masked_softmax(logits, legal).astype(np.float32)
        return out

    def evaluate(self, x: Array, legal: Array) -> tuple[Array, Array]:
        """The policy (as :meth:`policy`) and the value of each input row."""
        logits, value = forward(self.params, x)
        return masked_softmax(logits, legal).astype(np.float32), value.astype(np.float32)

    def save(self, path: Path) -> None:
        """Write the weights and metadata (``np.savez_compressed``), as :func:`load` reads."""
        meta = json.dumps(self.meta, sort_keys=True).encode("utf-8")
        arrays: dict[str, Any] = {name: self.params[name].astype(np.float32)
                                  for name in LAYERS}
        arrays["meta"] = np.frombuffer(meta, np.uint8)
        with path.open("wb") as stream:
            np.savez_compressed(stream, **arrays)


def load(path: Path | str) -> Network:
    """The network of a weights file; :class:`ValueError` says what is wrong with it.

    The file is hostile until checked: it must be a regular file of at most
    ``MAX_FILE_BYTES`` (read no further than that), and each array's ``.npy`` header is
    checked against the shape and dtype the metadata implies *before* its data is
    decompressed, so no member costs more memory than the network it claims to be."""
    path = Path(path)
    where = str(path)
    data = _read_bounded(path)
    declared = _declared_members(data)
    if declared is not None and declared > MAX_MEMBERS:
        raise ValueError(f"{where} holds {declared:,} members, a network {len(LAYERS) + 1}: "
                         "not a weights file")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if len(archive.infolist()) > MAX_MEMBERS:
                raise _Refused(f"{where} holds {len(archive.infolist())} members, a "
                               f"network {len(LAYERS) + 1}: not a weights file")
            raw = _member(archive, "meta", where, None)
            meta, shapes = _checked_meta(raw, where)
            params = {name: _member(archive, name, where, shape)
                      for name, shape in shapes.items()}
    except _Refused:
        raise
    except (*_ARCHIVE_ERRORS, ValueError) as error:
        raise ValueError(f"{where} is not a weights file (.npz): {error}") from None
    for name, array in params.items():
        if not np.isfinite(array).all():
            raise ValueError(f"{where}: {name} holds values that are not finite numbers")
    return Network(params, meta)


MAX_MEMBERS = 64  # a network has 9; more is no file of ours (each costs a ZipInfo)
_ARCHIVE_ERRORS = (OSError, EOFError, zipfile.BadZipFile, zlib.error, NotImplementedError,
                   RuntimeError, lzma.LZMAError)


class _Refused(ValueError):
    """A weights file refused for a reason already worded in full (not an archive error)."""


def _declared_members(data: bytes) -> int | None:
    """The member count a zip's end-of-directory record declares (ZIP64's 0xFFFF as more
    than any network has), read before :mod:`zipfile` builds an entry per member; None
    where there is no such record (zipfile then says what the file is not)."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 22 - 0xFFFF))
    if end < 0 or end + 22 > len(data):
        return None
    return int.from_bytes(data[end + 10:end + 12], "little")


def _read_bounded(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES (a device, a FIFO or a folder
    is refused before it is opened: /dev/zero has size 0 and never ends)."""
    try:
        info = os.stat(path)
    except OSError as error:
        raise ValueError(f"cannot read the weights file {path}: {error.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{path} is not a regular file: no weights file")
    if info.st_size > MAX_FILE_BYTES:
        raise ValueError(f"{path} is {info.st_size:,} bytes: no network of sueca's is over "
                         f"{MAX_FILE_BYTES:,}")
    try:
        with path.open("rb") as stream:
            # In chunks: one read(MAX_FILE_BYTES + 1) would allocate all of it up front.
            chunks: list[bytes] = []
            total = 0
            while total <= MAX_FILE_BYTES and (chunk := stream.read(1 << 20)):
                chunks.append(chunk)
                total += len(chunk)
    except OSError as error:
        raise ValueError(f"cannot read the weights file {path}: {error.strerror}") from None
    if total > MAX_FILE_BYTES:
        raise ValueError(f"{path} is over {MAX_FILE_BYTES:,} bytes: no network of sueca's")
    return b"".join(chunks)


def _member(archive: zipfile.ZipFile, name: str, where: str,
            shape: tuple[int, ...] | None) -> Array:
    """The array ``name`` of the archive, its header checked before its data is read:
    ``shape`` float32, or (``None``) the metadata's bytes (uint8, at most MAX_META_BYTES)."""
    try:
        stream = archive.open(f"{name}.npy")
    except KeyError:
        if shape is None:
            raise _Refused(f"{where} has no metadata record (meta): not a sueca network"
                           ) from None
        raise _Refused(f"{where} lacks the array {name}") from None
    with stream:
        try:
            version = np.lib.format.read_magic(stream)
            if version == (1, 0):
                found, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
            elif version == (2, 0):
                found, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
            else:
                raise ValueError(f"npy format version {version}")
        except ValueError as error:
            raise _Refused(f"{where}: {name} is not an array of a weights file ({error})"
                           ) from None
        if shape is None:
            if dtype != np.uint8 or len(found) != 1 or found[0] > MAX_META_BYTES:
                raise _Refused(f"{where} has no metadata record (meta): not a sueca network")
            dtype = np.dtype(np.uint8)
        elif found != shape or dtype != np.float32:
            raise _Refused(f"{where}: {name} is {dtype}{list(found)}, not "
                           f"float32{list(shape)}")
        size = int(np.prod(found)) * dtype.itemsize
        buffer = stream.read(size)
        if len(buffer) != size:
            raise _Refused(f"{where}: {name} is cut short ({len(buffer):,} of {size:,} bytes)")
    array: Array = np.frombuffer(bytearray(buffer), dtype).reshape(
        found, order="F" if fortran else "C")
    return array


def _checked_meta(raw: Array, where: str) -> tuple[dict[str, Any], dict[str, tuple[int, ...]]]:
    """The metadata of a weights file and the shapes of the arrays it implies."""
    try:
        meta = json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise _Refused(f"{where}: its metadata is not JSON text") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise _Refused(f"{where}: its metadata does not say format {FORMAT!r}")
    if meta.get("version") != FORMAT_VERSION:
        raise _Refused(f"{where} is format version {meta.get('version')!r}; this sueca "
                       f"reads version {FORMAT_VERSION}")
    if not isinstance(meta.get("rules"), dict):
        raise _Refused(f"{where}: its metadata names no rules")
    try:
        rules = Rules.from_dict(meta["rules"])
    except (RulesError, TypeError, ValueError) as error:
        raise _Refused(f"{where}: its rules do not parse: {error}") from None
    encoder = ObservationEncoder(rules)
    layout = meta.get("encoder")
    if not isinstance(layout, dict) or layout.get("size") != encoder.size or \
            layout.get("layout") != encoder.layout_hash():
        raise _Refused(f"{where} was trained on another observation layout "
                       f"({layout!r}; this sueca's for its rules: size {encoder.size}, "
                       f"layout {encoder.layout_hash()})")
    if meta.get("input") != INPUT_LAYOUT:
        raise _Refused(f"{where} reads the input {meta.get('input')!r}; this sueca's "
                       f"network reads {INPUT_LAYOUT!r}")
    hidden = meta.get("hidden")
    if (not isinstance(hidden, list) or len(hidden) != 2
            or not all(type(h) is int and 1 <= h <= MAX_HIDDEN for h in hidden)):
        raise _Refused(f"{where}: its hidden layer sizes {hidden!r} are not two sizes "
                       f"from 1 to {MAX_HIDDEN}")
    n_in, (h1, h2) = input_size(encoder), hidden
    shapes = {"w1": (n_in, h1), "b1": (h1,), "w2": (h1, h2), "b2": (h2,),
              "wp": (h2, CARD_FACES), "bp": (CARD_FACES,), "wv": (h2, 1), "bv": (1,)}
    return meta, shapes


__all__ = ["CARD_FACES", "FORMAT_VERSION", "Network", "features", "forward", "input_size",
           "legal_faces", "load", "masked_softmax"]
