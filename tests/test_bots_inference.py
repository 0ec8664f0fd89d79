"""Inference for pimc (sueca.bots.inference): the play model, the weight of a world, and the
bot's options (``pimc:inference=heuristic``; ``inference=none`` is today's pimc)."""

from __future__ import annotations

import math
import random

import pytest

from sueca.bots import make_bot
from sueca.bots.heuristic import HeuristicBot
from sueca.bots.inference import HeuristicPlayModel, WorldScorer, play_model, world_weight
from sueca.bots.pimc import PimcBot
from sueca.cards import parse_card, parse_mask
from sueca.deal import Deal, deal_cards
from sueca.infostate import InformationState
from sueca.rules import STANDARD
from sueca.state import State
from sueca.worlds import sample_state


def heuristic_position(seed: int, plays: int) -> InformationState:
    """A deal played ``plays`` cards by the heuristic in every seat: the seat to play's view."""
    state = State(STANDARD, deal_cards(STANDARD, dealer=seed % 4, rng=random.Random(seed)))
    bot = HeuristicBot(0)
    for _ in range(plays):
        state.push(bot.choose(state.information_state(state.to_play)))
    return state.information_state(state.to_play)


# Seat 0 leads the ace of hearts; seat 1 (an opponent) answers with its king (4 points) while
# it also holds the 2: a card the heuristic would never give an opponent's ace. Seat 3 holds
# every spade (trump) and no heart.
HANDS = (
    "AH 7H QH 4H 5H 6H AD 7D KD JD",
    "KH 2H AC 7C KC JC QC 6C 5C 4C",
    "JH 3H QD 6D 5D 4D 3D 2D 3C 2C",
    "AS 7S KS JS QS 6S 5S 4S 3S 2S",
)
# The same, had the 2 of hearts been the partner's and its 2 of clubs seat 1's: then the king
# was seat 1's only heart, a forced card.
HANDS_KING_ALONE = (
    HANDS[0],
    "KH 2C AC 7C KC JC QC 6C 5C 4C",
    "JH 3H 2H QD 6D 5D 4D 3D 2D 3C",
    HANDS[3],
)


def after_first_trick(hands: tuple[str, ...]) -> State:
    deal = Deal(3, tuple(parse_mask(h) for h in hands), parse_card("2S"))
    state = State(STANDARD, deal)
    state.push(parse_card("AH"))
    state.push(parse_card("KH"))
    heuristic = HeuristicBot(0)
    for _ in range(2):  # the partner and seat 3 play as the heuristic does
        state.push(heuristic.choose(state.information_state(state.to_play)))
    return state


@pytest.mark.parametrize("softening", [0.1, 0.5, 1.0])
def test_model_probabilities_sum_to_one_over_the_legal_cards(softening: float) -> None:
    model = HeuristicPlayModel(softening)
    for seed, plays in ((1, 0), (2, 5), (3, 17), (4, 30)):
        info = heuristic_position(seed, plays)
        probabilities = model.likelihoods(info)
        assert set(probabilities) == set(info.legal_moves())
        assert math.isclose(sum(probabilities.values()), 1.0)
        assert all(p > 0 for p in probabilities.values())
        favourite = HeuristicBot(0).choose(info)
        assert probabilities[favourite] == max(probabilities.values())
        if softening == 1.0:  # all softening: every legal card alike
            assert len(set(probabilities.values())) == 1


def test_model_refuses_a_softening_out_of_range() -> None:
    for bad in (0.0, -0.5, 1.5):
        with pytest.raises(ValueError, match="softening"):
            HeuristicPlayModel(bad)
    with pytest.raises(ValueError, match="heuristic or none"):
        play_model("oracle")
    assert play_model("none") is None


def test_a_card_the_heuristic_would_not_play_makes_its_world_less_likely() -> None:
    truth = after_first_trick(HANDS)
    alone = after_first_trick(HANDS_KING_ALONE)
    assert truth.plays == alone.plays  # the same cards on the table, either way
    info = truth.information_state(0)
    assert info == alone.information_state(0)  # seat 0 cannot tell the two worlds apart
    model = HeuristicPlayModel(0.5)
    # Where the king was forced the world explains the play; where seat 1 held the 2 too it
    # is the unlikely card (the softened share, 0.5 / 2 legal cards).
    assert world_weight(model, info, alone) > world_weight(model, info, truth) + 1.0

    # Over the worlds seat 0 samples, those in which seat 1 kept a small heart (the 2 or the
    # 3, the hearts seat 0 cannot place) weigh less than every world where the king was alone.
    scorer = WorldScorer(model, info)
    rng = random.Random(5)
    kept_one: list[float] = []
    alone_worlds: list[float] = []
    small = parse_mask("2H 3H")
    for _ in range(60):
        world = sample_state(info, rng)
        (kept_one if world.deal.hands[1] & small else alone_worlds).append(
            scorer.log_weight(world))
    assert kept_one and alone_worlds
    assert max(kept_one) < min(alone_worlds)


def test_own_and_forced_plays_carry_no_weight() -> None:
    """Only the other seats' choices are scored: at the first card of a deal there are none,
    and a world's weight is then 0 (log 1)."""
    info = heuristic_position(7, 0)
    world = sample_state(info, random.Random(1))
    assert world_weight(HeuristicPlayModel(), info, world) == 0.0


@pytest.mark.parametrize("spec", ["pimc:inference=heuristic",
                                  "pimc:inference=heuristic:softening=0.8",
                                  "pimc:inference=heuristic:candidates=3"])
def test_inference_bot_is_legal_and_reproducible(spec: str) -> None:
    for seed, plays in ((1, 22), (2, 24), (3, 28)):
        info = heuristic_position(seed, plays)
        first, second = make_bot(spec, seed=4), make_bot(spec, seed=4)
        card = first.choose(info)
        assert card in info.legal_moves()
        assert card == second.choose(info)
        assert isinstance(first, PimcBot) and isinstance(second, PimcBot)
        assert first.last_means == second.last_means
        assert first.last_worlds > 0  # a real decision, searched
        assert 1 <= first.last_effective_worlds <= first.last_worlds


def test_inference_weights_the_worlds_it_solves() -> None:
    """With ``candidates=1`` the same worlds are solved with and without inference, but with
    it each card's mean is a weighted one, not a plain one."""
    info = heuristic_position(1, 22)
    plain = PimcBot(seed=3, worlds=12, nodes=0)
    weighted = PimcBot(seed=3, worlds=12, nodes=0)
    weighted.configure({"inference": "heuristic"})
    plain.choose(info)
    weighted.choose(info)
    assert plain.last_worlds == weighted.last_worlds == 12
    assert weighted.last_effective_worlds < 12
    assert any(abs(weighted.last_means[c] - plain.last_means[c]) > 0.1
               for c in plain.last_means)


def test_inference_none_is_todays_pimc() -> None:
    for seed, plays in ((1, 9), (2, 21), (3, 26)):
        info = heuristic_position(seed, plays)
        today = PimcBot(seed=6)
        explicit = make_bot("pimc:inference=none", seed=6)
        assert isinstance(explicit, PimcBot)
        assert explicit.choose(info) == today.choose(info)
        assert explicit.last_means == today.last_means
        assert explicit.last_worlds == today.last_worlds


def test_bad_inference_options_are_refused() -> None:
    bot = PimcBot(seed=1)
    for options in ({"inference": "guess"}, {"softening": "0"}, {"softening": "2"},
                    {"candidates": "0"}):
        with pytest.raises(ValueError, match="pimc"):
            bot.configure(options)
    assert bot.play_model is None and bot.inference == "none"
