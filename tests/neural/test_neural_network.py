"""The network: one encoder (the environments' is the same object), a deterministic, masked
forward pass, and weights files refused when they are not this sueca's networks."""

from __future__ import annotations

import json
import os
import random
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest

import sueca.env.actions
import sueca.env.observation
from sueca.deal import deal_cards
from sueca.neural import encoding, network
from sueca.neural.bot import DEFAULT_WEIGHTS
from sueca.neural.network import (
    CARD_FACES,
    FORMAT_VERSION,
    Network,
    features,
    legal_faces,
    load,
)
from sueca.rules import STANDARD, preset
from sueca.state import State


def test_the_environments_use_the_one_encoder_and_codec() -> None:
    assert sueca.env.observation.ObservationEncoder is encoding.ObservationEncoder
    assert sueca.env.actions.ActionCodec is encoding.ActionCodec
    state = State(STANDARD, deal_cards(STANDARD, dealer=1, rng=random.Random(5)))
    for _ in range(13):
        state.push(state.legal_moves()[0])
    info = state.information_state(state.to_play)
    via_env = sueca.env.observation.ObservationEncoder(STANDARD).observation(info)
    here = encoding.ObservationEncoder(STANDARD).observation(info)
    assert np.array_equal(via_env, here)
    assert int(here[encoding.ObservationEncoder(STANDARD).slice("played")].sum()) == 13


def test_the_layout_hash_names_the_slice_table() -> None:
    standard = encoding.ObservationEncoder(STANDARD)
    assert standard.layout_hash() == encoding.ObservationEncoder(STANDARD).layout_hash()
    assert standard.layout_hash() != encoding.ObservationEncoder(preset("italiana5")).layout_hash()


def _positions(count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = State(STANDARD, deal_cards(STANDARD, dealer=rng.randrange(4), rng=rng))
        for _ in range(rng.randrange(39)):
            state.push(rng.choice(state.legal_moves()))
        out.append(state)
    return out


def test_the_policy_is_deterministic_and_never_gives_an_illegal_card() -> None:
    net = Network.initial(STANDARD, hidden=(32, 32), seed=3)
    # Large random weights: the illegal faces' logits are often the largest ones.
    rng = np.random.default_rng(0)
    for name, array in net.params.items():
        net.params[name] = (rng.standard_normal(array.shape) * 3).astype(np.float32)
    encoder = encoding.ObservationEncoder(STANDARD)
    for state in _positions(40, 1):
        info = state.information_state(state.to_play)
        x = features(encoder, info)[None, :]
        legal = legal_faces(info)[None, :]
        first, second = net.policy(x, legal), net.policy(x.copy(), legal.copy())
        assert np.array_equal(first, second)
        assert first.dtype == np.float32
        assert np.all(first[legal == 0] == 0)
        assert abs(float(first.sum()) - 1) < 1e-5
        best = int(first.argmax())
        assert best in {c % CARD_FACES for c in info.legal_moves()}


def test_a_saved_network_loads_back_the_same(tmp_path: Path) -> None:
    net = Network.initial(STANDARD, hidden=(16, 8), seed=2, training={"command": "test"})
    path = tmp_path / "w.npz"
    net.save(path)
    back = load(path)
    assert back.meta == net.meta and back.meta["version"] == FORMAT_VERSION
    assert all(np.array_equal(back.params[k], net.params[k]) for k in net.params)
    assert back.fits(STANDARD) is None
    assert "other rules" in (back.fits(STANDARD.replace(must_trump=True)) or "")
    assert "layout" in (back.fits(preset("italiana5")) or "")


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as archive:
        return {k: archive[k] for k in archive.files}


def _write(path: Path, arrays: dict[str, np.ndarray]) -> Path:
    with path.open("wb") as stream:
        np.savez(stream, **arrays)  # type: ignore[arg-type]
    return path


def _with_meta(arrays: dict[str, np.ndarray], **change: object) -> dict[str, np.ndarray]:
    meta = json.loads(arrays["meta"].tobytes())
    meta.update(change)
    return {**arrays, "meta": np.frombuffer(json.dumps(meta).encode(), np.uint8)}


def test_a_mismatched_or_corrupt_weights_file_is_refused_by_name(tmp_path: Path) -> None:
    good = tmp_path / "good.npz"
    Network.initial(STANDARD, hidden=(8, 8)).save(good)
    arrays = _arrays(good)
    cases = {
        "version": (_with_meta(arrays, version=99), "format version 99"),
        "layout": (_with_meta(arrays, encoder={"size": 1, "layout": "x"}),
                   "another observation layout"),
        "format": (_with_meta(arrays, format="other"), "format 'sueca-neural'"),
        "rules": (_with_meta(arrays, rules={"variant": "nonsense"}), "rules do not parse"),
        "shape": ({**arrays, "w2": np.zeros((8, 3), np.float32)},
                  r"w2 is float32\[8, 3\], not float32\[8, 8\]"),
        "dtype": ({**arrays, "b1": arrays["b1"].astype(np.float64)}, "b1 is float64"),
        "nan": ({**arrays, "bp": np.full(CARD_FACES, np.nan, np.float32)}, "not finite"),
        "missing": ({k: v for k, v in arrays.items() if k != "wv"}, "lacks the array wv"),
        "no meta": ({k: v for k, v in arrays.items() if k != "meta"}, "no metadata"),
    }
    for name, (bad, reason) in cases.items():
        with pytest.raises(ValueError, match=reason):
            load(_write(tmp_path / f"{name}.npz", bad))
    (tmp_path / "text.npz").write_text("not a zip file")
    with pytest.raises(ValueError, match="not a weights file"):
        load(tmp_path / "text.npz")
    with pytest.raises(ValueError, match="cannot read"):
        load(tmp_path / "absent.npz")


def _bomb(path: Path, arrays: dict[str, np.ndarray], rows: int, cols: int) -> Path:
    """A weights file whose w1 claims (and holds) rows × cols zeros, deflated to little."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            if name != "w1":
                with archive.open(f"{name}.npy", "w") as member:
                    np.lib.format.write_array(member, array)
        with archive.open("w1.npy", "w", force_zip64=True) as member:
            header = {"descr": "<f4", "fortran_order": False, "shape": (rows, cols)}
            np.lib.format.write_array_header_1_0(member, header)
            chunk = bytes(4 * cols)
            for _ in range(rows):
                member.write(chunk)
    return path


def test_a_zip_bomb_is_refused_from_its_header_before_its_data(tmp_path: Path) -> None:
    good = tmp_path / "good.npz"
    Network.initial(STANDARD, hidden=(8, 8)).save(good)
    bomb = _bomb(tmp_path / "bomb.npz", _arrays(good), 4000, 5000)  # 80 MB of float32
    assert bomb.stat().st_size < 1024 * 1024
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"w1 is float32\[4000, 5000\], not float32"):
            load(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024


def test_a_file_of_many_members_is_refused_before_its_directory_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    many = tmp_path / "many.npz"
    with zipfile.ZipFile(many, "w") as archive:
        for index in range(5000):
            archive.writestr(f"m{index}.npy", b"")

    def no_directory(*args: object, **kwargs: object) -> None:
        raise AssertionError("zipfile read the directory: an entry per member")

    monkeypatch.setattr(network.zipfile, "ZipFile", no_directory)
    with pytest.raises(ValueError, match=r"holds 5,000 members"):
        load(many)


def test_a_device_a_fifo_a_folder_or_an_oversized_file_is_refused_unread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for special in (Path("/dev/zero"), fifo, tmp_path):
        with pytest.raises(ValueError, match="not a regular file"):
            load(special)
    big = tmp_path / "big.npz"
    big.write_bytes(bytes(1000))
    monkeypatch.setattr(network, "MAX_FILE_BYTES", 999)
    with pytest.raises(ValueError, match="1,000 bytes: no network"):
        load(big)


def test_a_pickled_or_foreign_file_is_called_no_weights_file_without_unsafe_advice(
        tmp_path: Path) -> None:
    good = tmp_path / "good.npz"
    Network.initial(STANDARD, hidden=(8, 8)).save(good)
    arrays = _arrays(good)
    pickled = {**arrays, "b1": np.array([{"x": 1}], dtype=object)}
    with (tmp_path / "pickle.npz").open("wb") as stream:
        np.savez(stream, **pickled)  # type: ignore[arg-type]
    (tmp_path / "text.npz").write_text("hello")
    for name, reason in (("pickle.npz", "b1 is object"), ("text.npz", "not a weights file")):
        with pytest.raises(ValueError, match=reason) as refused:
            load(tmp_path / name)
        assert "allow_pickle" not in str(refused.value)
        assert "unsafe" not in str(refused.value)


def test_the_shipped_weights_load_fit_the_standard_game_and_are_small() -> None:
    net = load(DEFAULT_WEIGHTS)
    assert net.fits(STANDARD) is None
    assert DEFAULT_WEIGHTS.stat().st_size <= 2 * 1024 * 1024
    assert net.meta["training"]["command"].startswith("sueca train")
