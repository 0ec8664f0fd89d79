"""The card-by-card review (sueca/review, docs/review.md): known losses get their label, the
estimates agree with the solver where the seat knows every hand, and the first line (what the
seat knew) never depends on a card the seat could not see."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path

import pytest

from sueca.bots import make_bot
from sueca.cards import card_suit, parse_card
from sueca.deal import Deal, deal_cards
from sueca.infostate import InformationState
from sueca.record import GameRecord, dumps, read
from sueca.review import (
    Budget,
    ReviewError,
    Thresholds,
    finished_deals,
    review_deal,
    review_record,
    reviews_json,
)
from sueca.review.deal import review_card
from sueca.rules import STANDARD, Rules, preset
from sueca.solver import solve
from sueca.state import State

FIXTURES = Path(__file__).parent / "fixtures"
# The module (the package re-exports its function of the same name).
estimate_module = importlib.import_module("sueca.review.estimate")


def bot_deal(rules: Rules, seed: int) -> State:
    """A deal played out by heuristic bots."""
    state = State(rules, deal_cards(rules, dealer=0, rng=random.Random(seed)))
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    while not state.is_finished():
        seat = state.to_play
        state.push(bots[seat].choose(state.information_state(seat)))
    return state


@pytest.mark.parametrize(("name", "card", "best", "lost", "label"), [
    # Trick 9, seat 1 last to play on its partner's trick won with the A♣ (clubs trumps):
    # every card is known by counting (each hand's last cards follow from the voids shown).
    # The 7♣ thrown on it gives up the last trick to the K♣ still out: 10 points.
    ("review_mistake", "7C", "QC", 10, "mistake"),
    # Trick 9, seat 1 plays the J♥ where the 5♥ keeps 15 more points: certain by counting.
    ("review_blunder", "JH", "5H", 15, "blunder"),
])
def test_a_card_that_throws_away_a_known_number_of_points_gets_that_loss_and_label(
        name: str, card: str, best: str, lost: int, label: str) -> None:
    [review] = review_record(read(str(FIXTURES / f"{name}.json")), seats=[1])
    [judged] = [c for c in review.cards if c.trick == 9]
    assert judged.card == parse_card(card) and judged.best == parse_card(best)
    assert judged.lost == lost and judged.estimate.error == 0
    assert judged.label == label
    # Every world the seat could imagine was the real one: the solver's view agrees.
    assert judged.double_dummy.lost == lost
    # The thresholds are options: a higher bar, a milder label.
    [milder] = review_record(read(str(FIXTURES / f"{name}.json")), seats=[1],
                             thresholds=Thresholds(5, 16, 30))
    assert next(c for c in milder.cards if c.trick == 9).label == "inaccuracy"


def test_estimates_agree_with_the_solver_where_the_seat_knows_every_hand() -> None:
    rules = STANDARD.replace(open_hands=True)  # à Descoberta: every hand face up
    state = bot_deal(rules, 5)
    for seat in (0, 1):
        review = review_deal(state, seat)
        assert len(review.cards) == 10
        walk = State(rules, state.deal)
        plays = iter(zip(state.plays, state.played_by(), strict=True))
        for judged in review.cards:
            while len(walk.plays) < judged.index:
                card, who = next(plays)
                walk.apply(who, _play(card))
            next(plays)
            solution = solve(walk)
            taken = walk.team_points()[review.side]
            exact = {c: taken + v[review.side] for c, v in solution.moves.items()}
            assert judged.estimate.values == pytest.approx(exact), judged.index
            assert judged.estimate.error == 0
            assert judged.lost == judged.double_dummy.lost
            walk.apply(seat, _play(judged.card))


def _play(card: int):  # type: ignore[no-untyped-def]
    from sueca.actions import Play

    return Play(card)


def _swap_hidden(state: State, seat: int, at: int) -> State | None:
    """The same deal with two cards of one suit swapped between two other hands, both still
    unplayed after ``at`` cards: the same information state for ``seat`` at that moment (the
    suits each hand holds unchanged, so every card played before stays legal)."""
    later = set(state.plays[at:])
    others = [s for s in range(4) if s != seat]
    hands = list(state.deal.hands)
    for i, a in enumerate(others):
        for b in others[i + 1:]:
            for x in range(40):
                for y in range(40):
                    if (hands[a] >> x & 1 and hands[b] >> y & 1 and x in later and y in later
                            and card_suit(x) == card_suit(y) and x != y
                            and x != state.deal.trump_card and y != state.deal.trump_card):
                        swapped = list(hands)
                        swapped[a] = hands[a] & ~(1 << x) | 1 << y
                        swapped[b] = hands[b] & ~(1 << y) | 1 << x
                        return State(state.rules, Deal(state.deal.dealer, tuple(swapped),
                                                       state.deal.trump_card))
    return None


def test_the_first_line_never_uses_a_card_the_seat_could_not_see(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Every world the review solves is drawn from the seat's information state alone: the
    # sampler is handed nothing else.
    seen: list[InformationState] = []
    real = estimate_module.sample_state

    def recording(info: InformationState, rng: random.Random) -> State:
        seen.append(info)
        return real(info, rng)

    monkeypatch.setattr(estimate_module, "sample_state", recording)
    state = bot_deal(STANDARD, 11)
    seat = 2
    review = review_deal(state, seat, budget=Budget(4, 8, 4))
    walk = State(STANDARD, state.deal)
    expected: list[InformationState] = []
    for card, who in zip(state.plays, state.played_by(), strict=True):
        if who == seat:
            expected.append(walk.information_state(seat))
        walk.apply(who, _play(card))
    assert {id(i) for i in seen} and all(i in expected for i in seen)
    assert len({i.plays for i in seen}) == len(review.cards)
    monkeypatch.setattr(estimate_module, "sample_state", real)

    # Two deals, the same information state for the seat, different hidden cards: the same
    # first line (values, worlds, loss, label, facts); the double-dummy line may differ.
    checked = 0
    for index, judged in enumerate(review.cards):
        twin = _swap_hidden(state, seat, judged.index)
        if twin is None:
            continue
        a, b = State(STANDARD, state.deal), twin
        for card, who in zip(state.plays[:judged.index], state.played_by(), strict=False):
            a.apply(who, _play(card))
            b.apply(who, _play(card))
        assert a.information_state(seat) == b.information_state(seat)
        assert a.hands != b.hands
        one = review_card(a, seat, judged.card, judged.index, 0, 0, Thresholds(),
                          Budget(4, 8, 4))
        two = review_card(b, seat, judged.card, judged.index, 0, 0, Thresholds(),
                          Budget(4, 8, 4))
        assert one.estimate == two.estimate and one.estimate.values == two.estimate.values
        assert (one.label, one.facts, one.games_lost) == (two.label, two.facts, two.games_lost)
        assert one.estimate == review.cards[index].estimate
        checked += 1
    assert checked >= 5


def test_the_json_carries_each_card_lost_as_a_number() -> None:
    [review] = review_record(read(str(FIXTURES / "review_mistake.json")), seats=[1])
    document = json.loads(json.dumps(reviews_json([review])))
    assert document["format"] == 1
    [entry] = document["reviews"]
    assert entry["seat"] == 1 and entry["deal"] == 0 and len(entry["cards"]) == 10
    assert len(entry["double_dummy"]) == 41 and entry["double_dummy"][-1] == entry["final"]
    for card in entry["cards"]:
        assert isinstance(card["lost"], float | int) and card["lost"] >= 0
        assert card["best"] in card["legal"] and card["card"] in card["legal"]
        assert set(card["double_dummy"]) == {"played", "best", "lost", "best_cards"}
    nine = next(c for c in entry["cards"] if c["trick"] == 9)
    assert nine["lost"] == 10 and nine["label"] == "mistake"


def test_only_finished_deals_are_reviewed_and_bad_requests_are_refused() -> None:
    state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(1)))
    for _ in range(7):
        state.push(state.legal_moves()[0])
    record = GameRecord.from_states(STANDARD, 0, [state])
    from sueca.record import loads

    with pytest.raises(ReviewError, match="no finished deal"):
        review_record(loads(dumps(record)))
    with pytest.raises(ReviewError, match="not finished"):
        review_record(loads(dumps(record)), deals=[0])
    with pytest.raises(ReviewError, match="only a finished deal"):
        review_deal(state, 0)
    done = finished_deals(read(str(FIXTURES / "review_mistake.json")))
    with pytest.raises(ReviewError, match="seat 4 is not a seat"):
        review_deal(done[0], 4)
    with pytest.raises(ReviewError, match="not in the record"):
        review_record(read(str(FIXTURES / "review_mistake.json")), deals=[3])
    with pytest.raises(ReviewError, match="thresholds"):
        Thresholds.parse("3,2,1")
    with pytest.raises(ReviewError, match="the solver's table"):
        review_deal(bot_deal_at(preset("double8")), 0)


def bot_deal_at(rules: Rules) -> State:
    state = State(rules, deal_cards(rules, dealer=0, rng=random.Random(2)))
    while not state.is_finished():
        state.push(state.legal_moves()[0])
    return state
