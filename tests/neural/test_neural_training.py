"""``sueca train``: hand-written gradients match finite differences, a tiny run end to end
writes a file the bot plays, bad plans are refused before any work."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sueca.arena import play_deal
from sueca.bots import make_bot
from sueca.cli import app
from sueca.dataset import RECORDS, make_dataset
from sueca.deal import deal_cards
from sueca.neural.network import CARD_FACES, Network, load
from sueca.rules import STANDARD
from sueca.state import State
from sueca.training import examples as examples_module
from sueca.training import pipeline
from sueca.training.device import array_module
from sueca.training.examples import Tally, played_deals
from sueca.training.fit import loss_and_gradients


def test_the_gradients_match_finite_differences() -> None:
    net = Network.initial(STANDARD, hidden=(6, 5), seed=4)
    params = {k: v.astype(np.float64) for k, v in net.params.items()}
    rng = np.random.default_rng(1)
    rows = 7
    x = rng.random((rows, net.input_size))
    legal = (rng.random((rows, CARD_FACES)) < 0.3).astype(np.float64)
    label = np.array([int(rng.choice(np.flatnonzero(r))) if r.any() else 0 for r in legal])
    legal[np.arange(rows), label] = 1
    value = rng.uniform(-1, 1, rows)

    def total(p: dict[str, np.ndarray]) -> float:
        policy, mse, _ = loss_and_gradients(p, x, legal, label, value, 0.5)
        return policy + 0.5 * mse

    _, _, grads = loss_and_gradients(params, x, legal, label, value, 0.5)
    for name in ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv"):
        flat = params[name].reshape(-1)
        for index in rng.choice(flat.size, size=min(5, flat.size), replace=False):
            saved = flat[index]
            flat[index] = saved + 1e-6
            up = total(params)
            flat[index] = saved - 1e-6
            down = total(params)
            flat[index] = saved
            numeric = (up - down) / 2e-6
            assert grads[name].reshape(-1)[index] == pytest.approx(numeric, rel=1e-4,
                                                                   abs=1e-7), name


def test_a_tiny_training_run_writes_a_network_the_bot_plays(tmp_path: Path) -> None:
    out = tmp_path / "tiny.npz"
    result = CliRunner().invoke(app, [
        "train", "--out", str(out), "--games", "1", "--expert", "heuristic", "--epochs", "1",
        "--dagger-rounds", "1", "--dagger-games", "1", "--dagger-epochs", "1",
        "--hidden", "16", "--seed", "3"])
    assert result.exit_code == 0, result.output
    net = load(out)
    assert net.fits(STANDARD) is None
    training = net.meta["training"]
    assert training["command"].startswith("sueca ") and training["expert"] == "heuristic"
    assert training["imitation_positions"] > 0 and training["dagger"][0]["positions"] > 0
    rng = random.Random(8)
    bots = [make_bot(f"neural:weights={out}", seed=s) for s in range(4)]
    state = play_deal(STANDARD, deal_cards(STANDARD, 0, rng), bots)
    assert state.is_finished()
    opening = State(STANDARD, deal_cards(STANDARD, 0, random.Random(2)))
    card, reason = bots[0].explain(opening.information_state(opening.to_play))
    assert card in opening.legal_moves() and "the network's likeliest card" in reason


def test_bad_plans_are_refused_before_any_work(tmp_path: Path) -> None:
    runner = CliRunner()
    cases = [
        (["--expert", "nobody"], "unknown bot 'nobody'"),
        (["--data", str(tmp_path)], "no records.jsonl"),
        (["--device", "tpu"], "--device must be cpu or cuda"),
        (["--out", str(tmp_path / "absent" / "w.npz")], "does not exist"),
    ]
    for extra, reason in cases:
        args = ["train", "--out", str(tmp_path / "w.npz"), "--games", "1", *extra]
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and reason in result.output, (extra, result.output)
    assert not (tmp_path / "w.npz").exists()


@pytest.mark.skipif(importlib.util.find_spec("cupy") is not None, reason="CuPy is installed")
def test_device_cuda_without_cupy_says_how_to_get_it() -> None:
    with pytest.raises(ValueError, match=r"needs CuPy.*sueca\[gpu\]"):
        array_module("cuda")


def _renamed_deal(state: State, order: tuple[int, ...]) -> State:
    """The same deal and plays with suit ``s`` named ``order[s]``."""
    from sueca.cards import make_card
    from sueca.deal import Deal

    def rename(card: int) -> int:
        return make_card(card % 10, order[card // 10])

    def rename_mask(mask: int) -> int:
        return sum(1 << rename(c) for c in range(40) if mask >> c & 1)

    deal = state.deal
    trump = None if deal.trump_card is None else rename(deal.trump_card)
    renamed = State(STANDARD, Deal(deal.dealer, tuple(map(rename_mask, deal.hands)), trump))
    for card in state.plays:
        renamed.push(rename(card))
    return renamed


def test_renaming_the_suits_of_an_input_row_is_the_renamed_position() -> None:
    from sueca.neural.encoding import ObservationEncoder
    from sueca.neural.network import features
    from sueca.training.symmetry import permutations

    encoder = ObservationEncoder(STANDARD)
    renamings = permutations(encoder)
    assert len(renamings) == 24
    rng = random.Random(5)
    import itertools

    orders = list(itertools.permutations(range(4)))
    for _ in range(6):
        state = State(STANDARD, deal_cards(STANDARD, rng.randrange(4), rng))
        for _ in range(rng.randrange(1, 30)):
            state.push(rng.choice(state.legal_moves()))
        row = features(encoder, state.information_state(state.to_play))
        index = rng.randrange(24)
        columns, faces = renamings[index]
        renamed = _renamed_deal(state, orders[index])
        expected = features(encoder, renamed.information_state(renamed.to_play))
        assert np.array_equal(row[columns], expected)
        label = state.legal_moves()[0]
        assert int(np.argsort(faces)[label]) == (orders[index][label // 10] * 10 + label % 10)


def _records(tmp_path: Path) -> list[str]:
    """The lines of a small real data set (one match of the heuristic bot)."""
    make_dataset(STANDARD, "heuristic", 1, 5, tmp_path / "made")
    return (tmp_path / "made" / RECORDS).read_text().splitlines()


def _compact(record: object) -> bytes:
    return json.dumps(record, separators=(",", ":")).encode()


def test_bad_lines_of_a_data_set_are_skipped_counted_and_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = _records(tmp_path)[0]
    record = json.loads(good)
    impossible = json.loads(good)
    impossible["deals"][0]["plays"][1] = impossible["deals"][0]["plays"][0]
    other_table = {**record, "rules": {"variant": "standard", "review_tricks": True}}
    monkeypatch.setattr(examples_module, "MAX_LINE", len(good) + 100)
    lines = [b"not json", b"[" * 100_000, good.encode(), b"{\"a\": 1}",
             _compact(impossible), _compact(other_table),
             b"\xff\xfe", b"", good.encode()]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n" + b"x" * 100_000)  # no newline at the end
    tally = Tally()
    deals = list(played_deals(path, STANDARD, tally))
    assert tally.used == 2 and len(deals) == 2 * len(record["deals"])
    assert tally.skipped == {"not JSON": 1, "too long": 2, "not a record": 1,
                             "not replaying": 1, "another table's rules": 1,
                             "not UTF-8 text": 1}
    assert tally.first["too long"][0] == 2 and tally.first["not replaying"][0] == 5
    summary = tally.summary()
    assert summary.startswith("2 records used; skipped: 1 not JSON (first: line 1)")
    assert tally.first_problem().startswith("line 1: not JSON")


def test_a_data_set_with_nothing_usable_is_refused_with_its_first_bad_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "make_dataset", _no_work)
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / RECORDS).write_text("\n" + "[" * 100_000 + "\nnot json\n")
    result = CliRunner().invoke(app, ["train", "--out", str(tmp_path / "w.npz"), "--data",
                                      str(folder), "--expert", "heuristic"])
    assert result.exit_code == 2, result.output
    assert "2 not JSON (first: line 2)" in result.output
    assert "line 2: not JSON: nested too deeply" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "w.npz").exists()


def _no_work(*args: object, **kwargs: object) -> dict[str, object]:
    raise AssertionError("the work started before the arguments were checked")


def test_arguments_and_the_output_path_are_checked_before_any_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "make_dataset", _no_work)
    runner = CliRunner()
    folder = tmp_path / "folder.npz"
    folder.mkdir()
    cases = [
        (["--out", str(folder)], "is a folder"),
        (["--out", "/dev/null"], "not a regular file"),
        (["--hidden", "100000"], "--hidden 100000: the hidden layers have 1 to 4096 units"),
        (["--learning-rate", "inf"], "learning rate a finite number"),
        (["--batch", "0"], "--batch must be at least 1"),
    ]
    for extra, reason in cases:
        args = ["train", "--out", str(tmp_path / "w.npz"), "--expert", "heuristic", *extra]
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and reason in result.output, (extra, result.output)
    assert not (tmp_path / "w.npz").exists()


def test_a_diverging_run_stops_with_an_error_and_writes_no_file(tmp_path: Path) -> None:
    out = tmp_path / "nan.npz"
    result = CliRunner().invoke(app, [
        "train", "--out", str(out), "--games", "1", "--expert", "heuristic", "--epochs", "2",
        "--dagger-rounds", "0", "--hidden", "16", "--learning-rate", "1e30"])
    assert result.exit_code == 2, result.output
    assert "training diverged" in result.output and "lower --learning-rate" in result.output
    assert not out.exists()


def test_the_train_help_shows_the_gpu_extra() -> None:
    result = CliRunner().invoke(app, ["train", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "pip install 'sueca[gpu]'" in result.output
