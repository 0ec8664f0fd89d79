"""ISMCTS and the partner echo: legal, deterministic, and the echo read and played."""

from __future__ import annotations

import random

import pytest

from sueca.bots import HeuristicBot, make_bot
from sueca.bots.ismcts import IsmctsBot
from sueca.bots.signals import SignalBot, echo_card, read_echoes, with_partner_echoes
from sueca.cards import SPADES, mask_cards, parse_card
from sueca.deal import Deal, deal_cards
from sueca.rules import STANDARD, Rules
from sueca.state import State


def test_ismcts_plays_legal_cards_through_a_deal() -> None:
    deal = deal_cards(STANDARD, 1, random.Random(11))
    for rules in (STANDARD, Rules.from_dict({"variant": "italiana"})):
        state = State(rules, deal)
        bots = [IsmctsBot(seed=s, iterations=30) for s in range(4)]
        while not state.is_finished():
            info = state.information_state(state.to_play)
            card = bots[state.to_play].choose(info)
            assert card in info.legal_moves()
            state.push(card)


def test_ismcts_is_deterministic_given_its_seed() -> None:
    state = State(STANDARD, deal_cards(STANDARD, 0, random.Random(4)))
    info = state.information_state(state.to_play)
    picks = {IsmctsBot(seed=9, iterations=80).choose(info) for _ in range(3)}
    assert len(picks) == 1


def test_ismcts_root_counts_every_iteration() -> None:
    state = State(STANDARD, deal_cards(STANDARD, 3, random.Random(2)))
    info = state.information_state(0)
    card, root = IsmctsBot(seed=1, iterations=400).search(info)
    assert root.visits == 400
    assert sum(child.visits for child in root.children.values()) == 400
    assert card in info.legal_moves()


def test_ismcts_explains_and_handles_the_only_card() -> None:
    state = State(STANDARD, deal_cards(STANDARD, 0, random.Random(4)))
    info = state.information_state(state.to_play)
    card, reason = IsmctsBot(seed=1, iterations=50).explain(info)
    assert card in info.legal_moves() and "simulations" in reason
    while len(state.legal_moves()) > 1 or state.trick_number < 9:
        state.push(state.legal_moves()[0])
    last = state.information_state(state.to_play)
    assert IsmctsBot(seed=1).explain(last) == (last.legal_moves()[0], "the only legal card")


def test_ismcts_options() -> None:
    bot = make_bot("ismcts:iterations=20:c=1.2")
    assert isinstance(bot, IsmctsBot) and (bot.iterations, bot.exploration) == (20, 1.2)
    timed = make_bot("ismcts:time=0.05")
    assert isinstance(timed, IsmctsBot) and timed.time_limit == 0.05
    info = State(STANDARD, deal_cards(STANDARD, 0, random.Random(4))).information_state(1)
    timed.choose(info)
    assert timed.last_iterations >= 1
    capped = make_bot("ismcts:time=30:iterations=7")  # with both, the count is a ceiling
    assert isinstance(capped, IsmctsBot)
    capped.choose(info)
    assert capped.last_iterations == 7
    for spec, message in [("ismcts:iterations=0", "not a valid value"),
                          ("ismcts:iterations=x", "not a valid value"),
                          ("ismcts:depth=2", "no option 'depth'"),
                          ("ismcts:iterations", "not OPTION=VALUE")]:
        with pytest.raises(ValueError, match=message):
            make_bot(spec)


# ---- the partner echo ----------------------------------------------------------------------

def _deal_with_spades(spades: dict[int, str], dealer: int = 3) -> Deal:
    """A deal where each seat holds the given spades and hearts are trump; the other cards
    are shared out in order."""
    hands = [0, 0, 0, 0]
    used = 0
    for seat, text in spades.items():
        for name in text.split():
            card = parse_card(name)
            hands[seat] |= 1 << card
            used |= 1 << card
    rest = [c for c in range(40) if not used >> c & 1 and c // 10 != SPADES]
    rest += [c for c in range(40) if not used >> c & 1 and c // 10 == SPADES]
    trump_card = parse_card("2H")
    hands[dealer] |= 1 << trump_card
    rest.remove(trump_card)
    for seat in range(4):
        while hands[seat].bit_count() < 10:
            hands[seat] |= 1 << rest.pop(0)
    deal = Deal(dealer, tuple(hands), trump_card)
    deal.validate(STANDARD)
    return deal


def _play(state: State, names: str) -> None:
    for name in names.split():
        state.push(parse_card(name))


def test_echo_played_and_read_for_a_doubleton() -> None:
    deal = _deal_with_spades({0: "AS 7S", 1: "2S 5S KS", 2: "6S 3S", 3: "4S QS JS"})
    state = State(STANDARD, deal)
    _play(state, "AS 2S")
    info = state.information_state(2)
    # The heuristic gives its lowest blank; the echo asks for the higher of the doubleton.
    assert HeuristicBot().choose(info) == parse_card("3S")
    assert echo_card(info, parse_card("3S")) == parse_card("6S")
    assert SignalBot(HeuristicBot()).choose(info) == parse_card("6S")
    _play(state, "6S 4S 7S 5S 3S QS")
    leader = state.information_state(0)
    assert read_echoes(leader, 2) == {SPADES: True}
    read = with_partner_echoes(leader)
    assert read.is_void(2, SPADES) and not leader.is_void(2, SPADES)
    # Anybody's echo can be read (seat 1 went low then high), but a seat trusts only its
    # partner's.
    assert read_echoes(leader, 1) == {SPADES: False}
    assert not with_partner_echoes(state.information_state(1)).is_void(2, SPADES)


def test_echo_low_then_high_with_three() -> None:
    deal = _deal_with_spades({0: "AS 7S", 1: "KS JS", 2: "2S 4S 6S", 3: "3S QS"})
    state = State(STANDARD, deal)
    _play(state, "AS JS")
    info = state.information_state(2)
    assert echo_card(info, parse_card("4S")) == parse_card("2S")
    _play(state, "2S 3S 7S KS")
    second = state.information_state(2)
    assert echo_card(second, parse_card("4S")) == parse_card("4S")  # higher than the 2
    _play(state, "4S QS")
    assert read_echoes(state.information_state(0), 2) == {SPADES: False}
    assert with_partner_echoes(state.information_state(0)).voids == \
        state.information_state(0).voids


def test_echo_never_gives_points_or_changes_the_trick() -> None:
    # A doubleton K-3: the king costs points, so no echo.
    deal = _deal_with_spades({0: "AS 7S", 1: "2S", 2: "KS 3S", 3: "4S"})
    state = State(STANDARD, deal)
    _play(state, "AS 2S")
    info = state.information_state(2)
    assert echo_card(info, parse_card("3S")) == parse_card("3S")
    # Leading, or following with a card that wins the trick: no echo either.
    assert echo_card(state.information_state(0), parse_card("AS")) == parse_card("AS")


def test_an_impossible_reading_is_dropped() -> None:
    # Seat 2 holds three spades and plays high then low (not the convention); seats 1 and 3
    # show out of spades, so the last unseen spade can only be seat 2's.
    deal = _deal_with_spades({0: "AS 7S KS QS 5S", 1: "2S", 2: "6S 3S JS", 3: "4S"})
    state = State(STANDARD, deal)
    _play(state, "AS 2S 6S 4S 7S")
    state.push(mask_cards(state.hands[1])[0])
    _play(state, "3S")
    state.push(mask_cards(state.hands[3])[0])
    leader = state.information_state(0)
    assert read_echoes(leader, 2) == {SPADES: True}
    assert leader.is_void(1, SPADES) and leader.is_void(3, SPADES)
    assert with_partner_echoes(leader) is leader


def test_signal_bot_wraps_names_and_passes_the_match_on() -> None:
    bot = make_bot("heuristic+signals", seed=3)
    assert isinstance(bot, SignalBot) and bot.name == "heuristic+signals"
    assert isinstance(bot.inner, HeuristicBot)
    bot.new_match(STANDARD, 2)
    state = State(STANDARD, deal_cards(STANDARD, 0, random.Random(1)))
    card, _ = bot.explain(state.information_state(1))
    assert card in state.legal_moves()
