"""Every searching bot honours the budget a front-end tells it (the protocol's ``time_ms``):
the clock is read inside the search loops, so the move ends however the other budgets are
set. No timed assertion: a fake clock that jumps stands in for a slow machine."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from sueca.bots import make_bot
from sueca.bots import pimc as pimc_module
from sueca.bots.ismcts import IsmctsBot
from sueca.bots.pimc import PimcBot
from sueca.bots.signals import SignalBot
from sueca.cards import card_name, mask_cards
from sueca.deal import deal_cards
from sueca.infostate import InformationState
from sueca.protocol.session import BotSession
from sueca.rules import STANDARD
from sueca.state import State


def _info(cards_played: int, seed: int = 3) -> InformationState:
    state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(seed)))
    for _ in range(cards_played):
        state.push(state.legal_moves()[0])
    return state.information_state(state.to_play)


class _JumpingClock:
    """A clock that moves on ``step`` seconds at every reading."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def slow_machine(monkeypatch: pytest.MonkeyPatch) -> Iterator[_JumpingClock]:
    clock = _JumpingClock(0.05)
    monkeypatch.setattr(pimc_module.time, "perf_counter", clock)
    yield clock


def test_a_told_budget_ends_pimcs_search_inside_the_worlds_loop(
        slow_machine: _JumpingClock) -> None:
    info = _info(24)
    untold = PimcBot(seed=1, worlds=32)
    untold.choose(info)
    assert untold.last_worlds == 32  # its own budget: every world
    told = PimcBot(seed=1, worlds=32)
    told.set_time_budget(0.5)  # 0.4 s for the worlds; each world reads the clock 3 times
    card = told.choose(info)
    assert card in info.legal_moves()
    assert 1 <= told.last_worlds < 4


def test_a_budget_below_the_first_world_plays_the_fallback_card(
        slow_machine: _JumpingClock) -> None:
    info = _info(4)
    bot = PimcBot(seed=1)
    bot.set_time_budget(0.01)
    card, reason = bot.explain(info)
    assert bot.last_worlds == 0 and card in info.legal_moves() and "heuristic" in reason


def test_an_easy_decision_settles_before_the_budget_and_a_close_one_uses_it() -> None:
    # Trick 9: few worlds, most of them the same; with a generous budget the search stops
    # once one card is ahead by the settling margin, well below the worlds' cap.
    settled = []
    for seed in range(6):
        info = _info(32, seed)
        bot = PimcBot(seed=seed)
        bot.set_time_budget(30.0)
        bot.choose(info)
        settled.append(bot.last_worlds)
    assert min(settled) < pimc_module.TIMED_WORLDS
    assert all(n >= 1 for n in settled)
    assert pimc_module._settled([{1: 5.0, 2: 1.0}] * pimc_module.SETTLE_WORLDS)
    close = [{1: 5.0, 2: 1.0}, {1: 1.0, 2: 5.0}] * pimc_module.SETTLE_WORLDS
    assert not pimc_module._settled(close)


def test_ismcts_reads_the_told_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from sueca.bots import ismcts

    monkeypatch.setattr(ismcts.time, "perf_counter", _JumpingClock(0.1))
    bot = IsmctsBot(seed=1)  # 1,000 iterations untold
    bot.set_time_budget(1.0)  # 0.9 s: the clock is read once before and once per iteration
    bot.choose(_info(0))
    assert 8 <= bot.last_iterations <= 10  # not the 1,000 of its own budget


def test_a_budget_must_be_positive() -> None:
    bot = make_bot("pimc", seed=1)
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="time budget"):
            bot.set_time_budget(bad)
    assert bot.time_budget is None
    signals = make_bot("pimc+signals", seed=1)
    signals.set_time_budget(0.25)
    assert isinstance(signals, SignalBot) and signals.inner.time_budget == 0.25


def test_a_protocol_turn_tells_the_bot_its_time_ms() -> None:
    bot = make_bot("heuristic", seed=1)
    session = BotSession(bot)
    deal = deal_cards(STANDARD, dealer=3, rng=random.Random(2))
    trump = deal.trump_card
    assert trump is not None
    session.handle({"type": "match", "rules": STANDARD.to_dict(), "seat": 0})
    session.handle({"type": "deal", "dealer": 3,
                    "hand": [card_name(c) for c in mask_cards(deal.hands[0])],
                    "trump_card": card_name(trump)})
    answers = session.handle({"type": "turn", "time_ms": 750})
    assert answers[-1]["type"] == "play"
    assert bot.time_budget == 0.75
