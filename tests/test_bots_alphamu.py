"""The alphamu bot (sueca.bots.alphamu): strategy fusion, legality, reproducibility, options."""

from __future__ import annotations

import itertools
import pickle
import random
import re
from collections.abc import Callable

import pytest

from sueca.bots import BOTS, make_bot
from sueca.bots.alphamu import (
    MAX_DEPTH,
    MAX_WORLDS,
    AlphaMuBot,
    OutOfBudget,
    StrategySearch,
)
from sueca.cards import DECK_SIZE, Card, card_suit, parse_card
from sueca.deal import Deal, deal_cards
from sueca.infostate import InformationState
from sueca.rules import STANDARD
from sueca.solver import new_core, solve
from sueca.state import State

pytestmark = pytest.mark.skipif(
    not __import__("sueca.solver", fromlist=["C_AVAILABLE"]).C_AVAILABLE,
    reason="the C solver is not built")


def end_position(ending: list[str], trump_suit: int) -> State:
    """A state at the start of trick 8 where seat ``i`` holds the three cards of
    ``ending[i]`` (space-separated). The first seven tricks are made of the other 28 cards,
    four of one suit each (one card from every seat), so every card of them was a follow to
    the suit led: legal whatever the last three cards are, and showing no void."""
    hands = [[parse_card(name) for name in text.split()] for text in ending]
    used = {c for hand in hands for c in hand}
    tricks = []
    for suit in range(4):
        rest = sorted(c for c in range(DECK_SIZE) if card_suit(c) == suit and c not in used)
        assert len(rest) % 4 == 0, "each suit must leave a multiple of four cards"
        tricks += [rest[i:i + 4] for i in range(0, len(rest), 4)]
    for trick in tricks:
        for seat in range(4):
            hands[seat].append(trick[seat])
    dealer = 0
    trump_card = next(c for c in hands[dealer] if card_suit(c) == trump_suit)
    masks = tuple(sum(1 << c for c in hand) for hand in hands)
    state = State(STANDARD, Deal(dealer, masks, trump_card))
    for trick in tricks:
        for _ in range(4):
            state.push(trick[state.to_play])
    assert state.trick_number == 7
    return state


# Seat 3 leads trick 8 with A♣ K♣ Q♥ (trump ♠); its partner (seat 1) holds 5♣ K♠ 2♦. The
# opponents hold 6♣ 3♦ and A♠ 3♣, and the K♥ and the 7♣ between them: in world 1 seat 0
# has the K♥ and seat 2 the 7♣, in world 2 the other way round. Cashing A♣ first looks best
# to PIMC, because in each world the next lead "knows" where the 7♣ and the K♥ are; but
# after A♣ the bot must guess with one strategy, and the followers' cards do not tell it.
# Q♥ first gives up less than that guess costs.
FUSION_ENDINGS = (
    ["6C 3D KH", "5C KS 2D", "AS 7C 3C", "KC QH AC"],
    ["6C 3D 7C", "5C KS 2D", "AS KH 3C", "KC QH AC"],
)
SPADES = 0


def fusion_worlds() -> list[State]:
    return [end_position(list(ending), SPADES) for ending in FUSION_ENDINGS]


def pimc_means(worlds: list[State], seat: int) -> dict[Card, float]:
    """PIMC's evaluation, from the solver alone: each card's mean double-dummy value."""
    team = worlds[0].teams[seat]
    means: dict[Card, float] = {}
    for world in worlds:
        for card, value in solve(world).moves.items():
            total = world.team_points()[team] + value[team]
            means[card] = means.get(card, 0.0) + total / len(worlds)
    return means


Plan = Callable[[tuple[Card, ...], list[Card]], Card]


def plan_value(worlds: list[State], seat: int, first: Card, plan: Plan) -> float:
    """The mean over the worlds of one plan of the bot's (``first``, then ``plan``'s card
    for each history it sees and its legal cards), every other seat seeing the world and
    playing best for its side against that plan."""
    team = worlds[0].teams[seat]
    root = len(worlds[0].plays)

    def value(state: State) -> int:
        if state.is_finished():
            return state.team_points()[team]
        legal = list(state.legal_moves())
        if state.to_play == seat:
            cards = [first if len(state.plays) == root else plan(tuple(state.plays), legal)]
        else:
            cards = legal
        results = []
        for card in cards:
            state.push(card)
            results.append(value(state))
            state.pop()
        mine = state.teams[state.to_play] == team
        return max(results) if mine else min(results)

    return sum(value(w.copy()) for w in worlds) / len(worlds)


def decisions(worlds: list[State], seat: int, first: Card) -> dict[tuple[Card, ...], list[Card]]:
    """Every history after ``first`` at which the bot has a choice, in any world after any
    cards of the others, with its legal cards there (the same in every world reaching it)."""
    found: dict[tuple[Card, ...], list[Card]] = {}

    def walk(state: State) -> None:
        if state.is_finished():
            return
        legal = list(state.legal_moves())
        if state.to_play == seat and len(legal) > 1:
            found[tuple(state.plays)] = legal
        for card in legal:
            state.push(card)
            walk(state)
            state.pop()

    for world in worlds:
        state = world.copy()
        state.push(first)
        walk(state)
    return found


def best_plan(worlds: list[State], seat: int, first: Card) -> float:
    """By brute force over every plan: the best mean one plan starting with ``first`` gets."""
    choices = decisions(worlds, seat, first)
    assert len(choices) <= 12, "too many plans to try them all"
    best = float("-inf")
    for picks in itertools.product(*choices.values()):
        table = dict(zip(choices, picks, strict=True))
        best = max(best, plan_value(worlds, seat, first,
                                    lambda history, legal, t=table: t.get(history, legal[0])))
    return best


def climbed_plan(worlds: list[State], seat: int, first: Card) -> float:
    """A good plan starting with ``first``, found by changing one decision at a time while
    the plan's mean improves (a lower bound of the best plan where there are too many plans
    to try them all)."""
    choices = decisions(worlds, seat, first)
    table = {history: legal[0] for history, legal in choices.items()}

    def plan(history: tuple[Card, ...], legal: list[Card]) -> Card:
        return table.get(history, legal[0])

    best = plan_value(worlds, seat, first, plan)
    improved = True
    while improved:
        improved = False
        for history, legal in choices.items():
            kept = table[history]
            for card in legal:
                table[history] = card
                value = plan_value(worlds, seat, first, plan)
                if value > best:
                    best, kept, improved = value, card, True
            table[history] = kept
    return best


def test_pimc_is_fooled_by_strategy_fusion_and_alphamu_is_not() -> None:
    worlds = fusion_worlds()
    seat = worlds[0].to_play
    assert seat == 3 and all(w.to_play == seat for w in worlds)
    ace, king, queen = parse_card("AC"), parse_card("KC"), parse_card("QH")

    means = pimc_means(worlds, seat)
    assert max(means, key=means.__getitem__) == ace  # PIMC cashes the ace
    # What one real plan gets: after the ace, every plan tried (the best of them falls
    # short of PIMC's mean, which assumed a perfect guess); after the queen, a plan that
    # reaches PIMC's mean, which no plan can beat (it is each world's best).
    truth = {ace: best_plan(worlds, seat, ace), king: best_plan(worlds, seat, king),
             queen: climbed_plan(worlds, seat, queen)}
    assert truth[ace] < means[ace]
    assert truth[queen] == means[queen]
    assert truth[queen] > truth[ace]  # one strategy does better with the queen

    core = new_core(STANDARD)
    values = StrategySearch(core, worlds, seat).card_values(depth=3)  # to the end
    assert max(values, key=values.__getitem__) == queen
    assert values == pytest.approx(truth)  # alpha-mu to the end: the best single plan
    # Depth 1 is PIMC: the same means, the same mistake.
    assert StrategySearch(core, worlds, seat).card_values(depth=1) == pytest.approx(means)
    # Depth 2 already sees the guess (its second move is the guess).
    two = StrategySearch(core, worlds, seat).card_values(depth=2)
    assert max(two, key=two.__getitem__) == queen


def test_fronts_keep_only_undominated_vectors() -> None:
    search = StrategySearch(new_core(STANDARD), fusion_worlds(), 3)
    front = search._front([0, 1], [(1.0, 5.0), (2.0, 5.0), (3.0, 1.0), (2.0, 4.0), (3.0, 1.0)])
    assert sorted(front) == [(2.0, 5.0), (3.0, 1.0)]


def late_info(seed: int, cards: int = 26) -> tuple[State, InformationState]:
    state = State(STANDARD, deal_cards(STANDARD, dealer=seed % 4, rng=random.Random(seed)))
    for _ in range(cards):
        state.push(state.legal_moves()[0])
    while len(state.legal_moves()) < 2:  # on to a real choice
        state.push(state.legal_moves()[0])
    return state, state.information_state(state.to_play)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_alphamu_plays_a_legal_card_the_same_for_a_seed(seed: int) -> None:
    state, info = late_info(seed)
    bot = AlphaMuBot(seed=7, worlds=12)
    card = bot.choose(info)
    assert card in state.legal_moves()
    assert bot.last_values and not bot.last_fallback  # searched, not pimc's
    assert AlphaMuBot(seed=7, worlds=12).choose(info) == card


def test_alphamu_plays_a_deal_out_from_trick_5() -> None:
    state = State(STANDARD, deal_cards(STANDARD, dealer=1, rng=random.Random(11)))
    heuristic = make_bot("heuristic", seed=1)
    while state.trick_number < 4:
        state.push(heuristic.choose(state.information_state(state.to_play)))
    bots = [make_bot("alphamu:worlds=6:from_trick=5" if s % 2 else "heuristic", seed=s)
            for s in range(4)]
    while not state.is_finished():
        seat = state.to_play
        state.push(bots[seat].choose(state.information_state(seat)))  # push checks legality
    assert sum(state.team_points()) == 120


def test_before_from_trick_it_plays_as_pimc() -> None:
    state, info = late_info(4)  # trick 7
    bot = make_bot("alphamu:worlds=8:from_trick=9", seed=3)
    assert isinstance(bot, AlphaMuBot)
    card = bot.choose(info)
    assert bot.last_fallback == "before trick 9" and not bot.last_values
    assert bot.pimc.last_worlds > 0  # pimc's search chose it
    assert card in state.legal_moves()


def test_out_of_nodes_falls_back_to_pimc() -> None:
    state, info = late_info(5)
    bot = make_bot("alphamu:nodes=1", seed=3)
    assert isinstance(bot, AlphaMuBot)
    card = bot.choose(info)
    assert bot.last_fallback == "out of solver nodes"
    assert card in state.legal_moves()


def test_time_budget_is_a_ceiling_and_falls_back_to_pimc() -> None:
    worlds = fusion_worlds()
    search = StrategySearch(new_core(STANDARD), worlds, 3, deadline=0.0)  # already past
    with pytest.raises(OutOfBudget, match="out of time"):
        search.card_values(depth=2)
    state, info = late_info(6)
    bot = make_bot("alphamu:time=0.000001", seed=3)  # no time: pimc answers at once
    card = bot.choose(info)
    assert isinstance(bot, AlphaMuBot) and bot.last_fallback == "out of time"
    assert card in state.legal_moves()


def test_registered_with_options_checked() -> None:
    assert BOTS["alphamu"] is AlphaMuBot
    bot = make_bot("alphamu:depth=3:worlds=16:from_trick=6:nodes=100000", seed=1)
    assert isinstance(bot, AlphaMuBot)
    assert (bot.depth, bot.worlds, bot.from_trick, bot.nodes) == (3, 16, 6, 100000)
    cheap = make_bot("alphamu:pimc_worlds=8:pimc_nodes=500000", seed=1)
    assert isinstance(cheap, AlphaMuBot)
    assert (cheap.pimc.worlds, cheap.pimc.nodes) == (8, 500000)
    for bad in ("alphamu:depth=0", "alphamu:from_trick=11", "alphamu:worlds=x",
                "alphamu:colour=red", "alphamu:pimc_worlds=0"):
        with pytest.raises(ValueError, match="alphamu"):
            make_bot(bad)


def test_worlds_and_depth_have_an_upper_bound() -> None:
    assert make_bot(f"alphamu:worlds={MAX_WORLDS}:depth={MAX_DEPTH}").worlds == MAX_WORLDS  # type: ignore[attr-defined]
    for bad, words in [(f"alphamu:worlds={MAX_WORLDS + 1}", f"worlds='{MAX_WORLDS + 1}' is too"),
                       ("alphamu:samples=100000", "worlds='100000' is too large (a whole "
                                                  f"number from 1 to {MAX_WORLDS})"),
                       (f"alphamu:depth={MAX_DEPTH + 1}", f"depth='{MAX_DEPTH + 1}' is too"),
                       ("alphamu:m=99", "depth='99' is too large")]:
        with pytest.raises(ValueError, match=re.escape(words)):
            make_bot(bad)
    bot = AlphaMuBot(seed=1)
    with pytest.raises(ValueError):
        bot.configure({"depth": "3", "worlds": "5000"})
    assert (bot.depth, bot.worlds) == (2, 24)  # a refused spec changes nothing
    with pytest.raises(ValueError, match="worlds is a whole number from 1 to"):
        AlphaMuBot(worlds=100_000)


class StepClock:
    """A clock for the budget that moves ``step`` seconds each time it is read, until the
    ``jump_after``-th reading, after which it reads far in the future: the search's use of
    the clock, without timing anything."""

    def __init__(self, step: float = 0.0, jump_after: int | None = None) -> None:
        self.step = step
        self.jump_after = jump_after
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        if self.jump_after is not None and self.readings > self.jump_after:
            return 1e9
        return (self.readings - 1) * self.step


def test_the_sampling_stops_at_its_share_of_the_budget() -> None:
    state, info = late_info(6)
    bot = AlphaMuBot(seed=3, worlds=MAX_WORLDS)
    bot.clock = StepClock(step=0.001)  # a thousandth of a second a reading
    bot.set_time_budget(1.0)  # a ceiling of 0.8 s, alpha-mu's half 0.4 s, sampling's 0.2 s
    card = bot.choose(info)
    assert card in state.legal_moves()
    assert 190 <= bot.last_sampled <= 210  # one reading a world drawn: about 200, not 1,000
    assert bot.last_values or bot.last_fallback == "out of time"


def test_out_of_time_in_the_search_pimc_answers() -> None:
    state, info = late_info(6)
    bot = AlphaMuBot(seed=3, worlds=24)
    # Frozen through the start and the 24 worlds drawn, then past the deadline: the search's
    # first look at the clock hands the move to pimc.
    bot.clock = StepClock(jump_after=1 + 23)
    bot.set_time_budget(1.0)
    card = bot.choose(info)
    assert card in state.legal_moves()
    assert bot.last_sampled == 24 and bot.last_fallback == "out of time"
    assert not bot.last_values
    untimed = AlphaMuBot(seed=3, worlds=24)
    untimed.choose(info)
    assert untimed.last_values and untimed.last_sampled == 24  # without a budget: searched


def test_merging_fronts_looks_at_the_clock() -> None:
    vectors = [(1.0, 5.0), (2.0, 5.0), (3.0, 1.0)]
    late = StrategySearch(new_core(STANDARD), fusion_worlds(), 3, deadline=5.0,
                          clock=StepClock(jump_after=0))
    with pytest.raises(OutOfBudget, match="out of time"):
        late._front([0, 1], vectors)
    on_time = StrategySearch(new_core(STANDARD), fusion_worlds(), 3, deadline=5.0,
                             clock=StepClock())
    assert sorted(on_time._front([0, 1], vectors)) == [(2.0, 5.0), (3.0, 1.0)]
    assert on_time.leaves == 0  # no solver call: the check is the front's own


def test_a_pickled_copy_plays_the_same_card() -> None:
    # The server's bot workers get a pickled copy per move: without the solver's table,
    # which each move empties anyway.
    _, info = late_info(8)
    bot = AlphaMuBot(seed=5, worlds=10)
    bot.choose(info)  # builds its solver core
    copy = pickle.loads(pickle.dumps(bot))
    assert copy._core is None
    assert copy.choose(info) == bot.choose(info)
