"""The ``neural`` and ``neural+search`` bots: legal at every table (the network where its
weights fit, the heuristic elsewhere, and ``explain`` says which), their specs everywhere a bot
spec is read, and a seat played over the bot protocol."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import sueca.protocol  # registers cmd:
from sueca.arena import play_deal
from sueca.bots import BOTS, make_bot
from sueca.cards import card_name, mask_cards, parse_card
from sueca.deal import deal_cards
from sueca.neural.bot import NeuralBot
from sueca.neural.network import Network
from sueca.neural.search import NeuralPlayModel, NeuralSearchBot
from sueca.protocol import encode
from sueca.rules import PRESETS, STANDARD, Rules
from sueca.state import State

TABLES: dict[str, Rules] = {
    **PRESETS,
    "dummy": STANDARD.replace(dummy=2),
    "weak_hand_redeal": STANDARD.replace(weak_hand_redeal=True),
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_neural_plays_legal_cards_at_every_table(name: str) -> None:
    rules = TABLES[name]
    for seed in (1, 2):
        rng = random.Random(seed)
        bots = [make_bot("neural", seed=seed * 10 + s) for s in range(rules.players)]
        state = play_deal(rules, deal_cards(rules, rng.randrange(rules.players), rng), bots)
        assert state.is_finished() or state.phase == "redealt"  # the referee checked each card


def _opening(rules: Rules, seed: int = 3) -> State:
    state = State(rules, deal_cards(rules, 0, random.Random(seed)))
    return state


def test_explain_says_whether_the_network_or_the_heuristic_played() -> None:
    bot = NeuralBot(seed=1)
    state = _opening(STANDARD)
    card, reason = bot.explain(state.information_state(state.to_play))
    assert card in state.legal_moves() and reason.startswith("the network's likeliest card")
    other = _opening(STANDARD.replace(must_trump=True))
    card, reason = bot.explain(other.information_state(other.to_play))
    assert card in other.legal_moves()
    assert reason.startswith("no network for this table (it was trained for other rules)")


def test_the_specs_and_their_refusals(tmp_path: Path) -> None:
    assert make_bot("neural").name == "neural"
    assert make_bot("neural+signals").name == "neural+signals"
    searching = make_bot("neural+search:worlds=4")
    assert isinstance(searching, NeuralSearchBot) and searching.worlds == 4
    assert isinstance(searching.play_model, NeuralPlayModel)
    assert make_bot("neural:worlds=4+search").name == "neural+search"
    assert {"neural", "neural+search"} <= set(BOTS)
    weights = tmp_path / "w.npz"
    Network.initial(STANDARD, hidden=(8, 8)).save(weights)
    assert make_bot(f"neural:weights={weights}").network is not None  # type: ignore[attr-defined]
    with_file = make_bot(f"neural+search:weights={weights}:worlds=2")
    assert isinstance(with_file.play_model, NeuralPlayModel)  # type: ignore[attr-defined]
    refusals = {
        "neural+magic": "unknown bot modifier 'magic'",
        "neural+search+search": "bot modifier 'search' given twice",
        "heuristic+search": "bot 'heuristic' has no +search variant (known: neural+search)",
        "neural:depth=3": "neural has no option 'depth'",
        f"neural:weights={tmp_path / 'absent.npz'}": "cannot read the weights file",
        "neural+search:inference=heuristic": "has no option inference",
        "neural+search:worlds=0": "worlds",
    }
    for spec, reason in refusals.items():
        with pytest.raises(ValueError, match=reason.replace("+", r"\+").replace("(", r"\(")
                           .replace(")", r"\)")):
            make_bot(spec)


def test_the_network_play_model_gives_probabilities_over_the_legal_cards() -> None:
    model = NeuralSearchBot(seed=1).play_model
    assert isinstance(model, NeuralPlayModel)
    state = _opening(STANDARD)
    for _ in range(6):
        state.push(state.legal_moves()[-1])
    info = state.information_state(state.to_play)
    probabilities = model.likelihoods(info)
    assert set(probabilities) == set(info.legal_moves())
    assert sum(probabilities.values()) == pytest.approx(1)
    assert min(probabilities.values()) > 0  # softened: no world is ruled out


def test_neural_search_plays_a_legal_reproducible_card() -> None:
    state = _opening(STANDARD, seed=5)
    for _ in range(22):  # into trick 6: worlds are cheap to solve
        state.push(state.legal_moves()[0])
    info = state.information_state(state.to_play)
    first = make_bot("neural+search:worlds=6", seed=4).choose(info)
    assert first in info.legal_moves()
    assert make_bot("neural+search:worlds=6", seed=4).choose(info) == first


def test_a_seat_plays_neural_over_the_protocol() -> None:
    deal = deal_cards(STANDARD, 3, random.Random(6))
    hand = [card_name(c) for c in mask_cards(deal.hands[0])]
    turned = card_name(deal.trump_card) if deal.trump_card is not None else None
    messages: list[dict[str, Any]] = [
        {"type": "hello", "protocol": "sueca-bot/1"},
        {"type": "deal", "dealer": 3, "hand": hand, "trump_card": turned},
        {"type": "turn", "legal": hand, "time_ms": 500},
        {"type": "quit"},
    ]
    session = "".join(encode(m) + "\n" for m in messages)
    done = subprocess.run([sys.executable, "-m", "sueca.cli", "bot", "neural", "--seed", "3"],
                          input=session, capture_output=True, text=True, timeout=60,
                          check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0]["type"] == "hello" and answers[0]["name"] == "neural"
    assert answers[1]["type"] == "play" and deal.hands[0] >> parse_card(answers[1]["card"]) & 1
    # And a whole deal with that program in a seat, through cmd:.
    program = make_bot(f"cmd:{sys.executable} -m sueca.cli bot neural --seed 1")
    try:
        others = [make_bot("heuristic", seed=s) for s in range(3)]
        state = play_deal(STANDARD, deal, [program, *others])
    finally:
        program.close()
    assert state.is_finished()
    assert sueca.protocol is not None


def test_the_arena_and_the_dataset_take_the_neural_specs(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from sueca.cli import app
    from sueca.dataset import make_dataset

    result = CliRunner().invoke(app, ["arena", "--bots", "neural,heuristic", "--deals", "2",
                                      "--workers", "1", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    pair = json.loads(result.output.splitlines()[-1])["pairs"][0]
    assert pair["a"] == "neural" and pair["pairs"] == 2 and pair["errors"] == 0
    index = make_dataset(STANDARD, "neural", games=1, seed=2, out=tmp_path)
    assert index["bot"] == "neural" and (tmp_path / "records.jsonl").stat().st_size > 0


def test_a_broken_install_plays_as_the_heuristic_and_says_so(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    import sueca.neural.bot as neural_bot

    broken = tmp_path / "standard.npz"
    broken.write_bytes(b"not a network")
    monkeypatch.setattr(neural_bot, "DEFAULT_WEIGHTS", broken)
    neural_bot.default_network.cache_clear()
    try:
        bot = make_bot("neural", seed=1)
        state = _opening(STANDARD)
        card, reason = bot.explain(state.information_state(state.to_play))
        assert card in state.legal_moves()
        assert "the shipped weights do not load" in reason and "as the heuristic" in reason
        searching = make_bot("neural+search:worlds=2", seed=1)
        assert searching.choose(state.information_state(state.to_play)) in state.legal_moves()
    finally:
        neural_bot.default_network.cache_clear()
