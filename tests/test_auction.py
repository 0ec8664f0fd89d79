"""Five-player Sueca Italiana (RULES.md section 4): the auction, the called card and its
secret partner, the contract's score and the match kept per player.

The secret is tested the strong way: two deals that differ only in which of two seats holds
the called card give every other seat the very same information state (every field, its
``repr`` and the worlds it samples) until the called card is played.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from core_support import SWEEP, assert_auction_refused, play_auction, ref_declarer, snapshot

from sueca.auction import Contract, high_bidder
from sueca.cards import Card, card_name, card_suit, mask_cards, parse_card
from sueca.deal import Deal, deal_cards
from sueca.infostate import InformationState
from sueca.match import Match, MatchOverError
from sueca.record import GameRecord, RecordFormatError, check, dumps, loads
from sueca.rules import Rules, RulesError, preset
from sueca.scoring import match_winner, score_contract
from sueca.state import IllegalMoveError, State
from sueca.worlds import sample_state

ITALIANA5 = preset("italiana5")
# Where taken tricks may be reviewed the points each side has taken are shown while the deal is
# played: counted wrongly, they would give the secret partner away.
REVIEWING5 = ITALIANA5.replace(review_tricks=True)


def fixed_state(rules: Rules = ITALIANA5, dealer: int = 2, seed: int = 5) -> State:
    return State(rules, deal_cards(rules, dealer, random.Random(seed)))


def bid_all(state: State, bids: list[int]) -> None:
    for value in bids:
        state.bid(value, state.to_play)


# ---- the auction ----------------------------------------------------------------------------


def test_everybody_passes_and_the_dealer_plays_for_61() -> None:
    state = fixed_state(dealer=2)
    assert state.phase == "bidding" and state.to_play == 2 and state.trump == -1
    assert state.deal.trump_card is None
    bid_all(state, [0] * 5)
    assert state.phase == "calling" and state.to_play == 2
    card = mask_cards(state.hands[0])[0]
    state.call(card, 2)
    assert state.contract == Contract(2, 0, card)
    assert state.contract.target == 61
    assert state.phase == "play" and state.to_play == state.leader == state.first_leader == 2
    assert state.trump == card_suit(card)
    assert state.partner == 0 and state.teams == (0, 1, 0, 1, 1)


@pytest.mark.parametrize(("bids", "declarer", "bid"), [
    ([0, 70, 0, 85, 0], 0, 85),  # dealer 2: seats bid in the order 2 3 4 0 1
    ([61, 62, 63, 64, 120], 1, 120),
    ([90, 0, 0, 0, 0], 2, 90),
    ([0, 0, 0, 0, 61], 1, 61),
])
def test_the_highest_bid_wins(bids: list[int], declarer: int, bid: int) -> None:
    state = fixed_state(dealer=2)
    bid_all(state, bids)
    assert state.bids == bids
    assert (state.to_play, bid) == ref_declarer(2, 5, bids) == (declarer, bid)
    assert high_bidder(ITALIANA5, 2, bids) == (declarer, bid)


@pytest.mark.parametrize(("bids", "declarer"), [
    ([70, 0, 70, 0, 0], 2),  # a tie goes to the first bidder: the dealer here
    ([0, 80, 90, 90, 0], 4),
    ([0, 0, 0, 100, 100], 0),
])
def test_without_rising_bids_a_tie_goes_to_the_first_bidder(bids: list[int],
                                                            declarer: int) -> None:
    rules = ITALIANA5.replace(bid_must_rise=False)
    state = fixed_state(rules, dealer=2)
    bid_all(state, bids)
    assert state.phase == "calling" and state.to_play == declarer
    # With rising bids the equal bid is refused.
    rising = fixed_state(dealer=2)
    equal = next(i for i in range(1, 5) if bids[i] and bids[i] <= max(bids[:i], default=0))
    bid_all(rising, bids[:equal])
    assert_auction_refused(rising, lambda: rising.bid(bids[equal]), "bad_bid")


@pytest.mark.parametrize(("value", "words"), [
    (60, "61 to 120"),
    (121, "not 121"),
    (-5, "not -5"),
    (True, "not True"),
    (70.0, "not 70.0"),
    ("70", "not '70'"),
    (None, "not None"),
])
def test_a_bad_bid_is_refused_with_a_clear_message(value: Any, words: str) -> None:
    state = fixed_state()
    state.bid(0)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as caught:
        state.bid(value)
    assert caught.value.reason == "bad_bid" and words in str(caught.value)
    assert "0 to pass" in str(caught.value)
    assert snapshot(state) == before


def test_a_bid_that_does_not_rise_is_refused_naming_the_highest() -> None:
    state = fixed_state()
    bid_all(state, [0, 75])
    for value in (61, 75):
        with pytest.raises(IllegalMoveError, match=r"beat the highest so far \(75\)") as caught:
            state.bid(value)
        assert caught.value.reason == "bad_bid"
    state.bid(76)
    state.bid(0)  # a pass is always allowed
    assert state.bids == [0, 75, 76, 0]


def test_out_of_phase_and_out_of_turn_actions_are_refused_and_change_nothing() -> None:
    state = fixed_state(dealer=2)
    card = mask_cards(state.hands[2])[0]
    assert_auction_refused(state, lambda: state.push(card), "auction")
    assert_auction_refused(state, lambda: state.play(card, 2), "auction")
    # A card offered by any seat during the auction: the auction is the reason, not the turn.
    assert_auction_refused(state, lambda: state.play(card, 3), "auction")
    assert_auction_refused(state, lambda: state.call(card, 2), "auction")
    assert_auction_refused(state, lambda: state.bid(70, 3), "not_your_turn")
    assert state.legal_moves() == () and state.legal_mask() == 0 and not state.is_legal(card)
    bid_all(state, [0, 0, 80, 0, 0])
    assert state.to_play == 4
    assert_auction_refused(state, lambda: state.bid(90), "auction")
    assert_auction_refused(state, lambda: state.push(card), "auction")
    assert_auction_refused(state, lambda: state.call(card, 2), "not_your_turn")
    bads: tuple[Any, ...] = (-1, 40, 79, True, "AS", None)
    for bad in bads:
        assert_auction_refused(state, lambda: state.call(bad), "bad_call")  # noqa: B023
    state.call(card, 4)
    assert_auction_refused(state, lambda: state.call(card), "auction")
    assert_auction_refused(state, lambda: state.bid(0), "auction")


def test_no_bid_or_call_at_a_table_without_bidding() -> None:
    rules = preset("standard")
    state = State(rules, deal_cards(rules, 0, random.Random(1)))
    assert state.phase == "play"
    assert_auction_refused(state, lambda: state.bid(0), "auction")
    assert_auction_refused(state, lambda: state.call(3), "auction")


def test_the_declarer_calling_his_own_card_plays_alone() -> None:
    state = fixed_state(dealer=1)
    bid_all(state, [0, 0, 95, 0, 0])
    declarer = state.to_play
    own = mask_cards(state.hands[declarer])[-1]
    state.call(own)
    assert state.partner is None
    assert state.teams == tuple(0 if s == declarer else 1 for s in range(5))
    while not state.is_finished():
        state.push(state.legal_moves()[-1])
    points = state.team_points()
    assert points == [state.seat_points[declarer], 120 - state.seat_points[declarer]]
    assert state.team_tricks()[0] == state.trick_winners.count(declarer)


def test_rules_of_a_bidding_table() -> None:
    assert ITALIANA5.players == 5 and ITALIANA5.hand_size == 8 and ITALIANA5.set_aside == 0
    assert ITALIANA5.teams == () and ITALIANA5.score_slots == 5 and ITALIANA5.scores_per_seat
    with pytest.raises(RulesError):
        ITALIANA5.partner_of(0)
    with pytest.raises(RulesError, match="empty"):
        Rules.from_dict({"variant": "italiana5", "teams": [0, 1, 0, 1, 0]})
    with pytest.raises(RulesError, match="dummy"):
        Rules.from_dict({"variant": "italiana5", "dummy": 1})
    with pytest.raises(Exception, match="trump"):
        Deal(0, deal_cards(ITALIANA5, 0, random.Random(1)).hands, 3).validate(ITALIANA5)
    # Two decks would hold two copies of the called card: two partners, neither one known.
    with pytest.raises(RulesError, match="one deck"):
        Rules.from_dict({"variant": "italiana5", "decks": 2, "hand_size": 16})


# ---- the secret partner ---------------------------------------------------------------------


def random_bids(rng: random.Random) -> list[int]:
    bids: list[int] = []
    for _ in range(5):
        high = max(bids, default=0)
        low = max(61, high + 1)
        bids.append(0 if rng.random() < 0.6 or low > 120 else rng.randint(low, min(120, low + 15)))
    return bids


def swapped(deal: Deal, a: int, b: int, first: Card, second: Card) -> Deal:
    """The deal with ``first`` (seat ``a``'s) and ``second`` (seat ``b``'s) exchanged."""
    hands = list(deal.hands)
    both = (1 << first) | (1 << second)
    hands[a] ^= both
    hands[b] ^= both
    return Deal(deal.dealer, tuple(hands), None)


def assert_same_view(one: State, two: State, seats: list[int], rng_seed: int) -> None:
    for seat in seats:
        a = one.information_state(seat)
        b = two.information_state(seat)
        assert a == b, f"seat {seat} can tell the two deals apart"
        assert repr(a) == repr(b)
        for name in ("teams", "points_taken", "known", "seat_points", "contract", "voids"):
            assert getattr(a, name) == getattr(b, name), name
        assert a.partners() == b.partners() and a.opponents() == b.opponents()
        if a.phase == "play" and rng_seed % 3 == 0:
            assert a.sample_world(random.Random(rng_seed)) == b.sample_world(
                random.Random(rng_seed))


def check_sides_as_known(state: State) -> None:
    """Each seat knows: its own side once the contract is made, the declarer's side, and the
    rest only if it holds the called card, is the declarer holding it, or it has been played;
    ``points_taken`` (where shown: tricks may be reviewed, or the deal is over) counts exactly
    the seats whose side it knows."""
    contract = state.contract
    shown = state.rules.review_tricks or state.is_finished()
    for seat in range(5):
        info = state.information_state(seat)
        if contract is None:
            assert info.teams == (None,) * 5 and info.points_taken == ((0, 0) if shown else ())
            assert info.partners() == () == info.opponents()
            continue
        called = contract.called_card
        revealed = called in state.plays
        holds = bool(state.hands[seat] >> called & 1)
        if revealed or holds:
            assert info.teams == state.teams
        else:
            expected: list[int | None] = [None] * 5
            expected[contract.declarer] = 0
            if seat != contract.declarer:
                expected[seat] = 1
            assert info.teams == tuple(expected)
        taken = [0, 0]
        for other, side in enumerate(info.teams):
            if side is not None:
                taken[side] += state.seat_points[other]
        assert list(info.points_taken) == (taken if shown else [])
        if revealed and shown:
            assert list(info.points_taken) == state.team_points()
        mine = info.teams[seat]
        assert info.partners() == tuple(s for s in range(5) if s != seat
                                        and info.teams[s] == mine)


def secret_partner_sweep(deals: int, rng: random.Random) -> tuple[int, int]:
    """Over random deals: two deals differing only in which of two non-declarer seats holds
    the called card look the same to every other seat (the declarer included) from the first
    bid until the called card is played; the holder knows he is the partner; once it is played
    every seat knows the sides. Returns how many positions were compared and how many deals
    reached the reveal."""
    compared = revealed = 0
    for number in range(deals):
        rules = (ITALIANA5, REVIEWING5)[number % 2]
        dealer = rng.randrange(5)
        deal = deal_cards(rules, dealer, rng)
        bids = random_bids(rng)
        declarer, _ = ref_declarer(dealer, 5, bids)
        called = rng.choice([c for c in range(40) if not deal.hands[declarer] >> c & 1])
        a = next(s for s in range(5) if deal.hands[s] >> called & 1)
        b = rng.choice([s for s in range(5) if s not in (declarer, a)])
        same_suit = [c for c in mask_cards(deal.hands[b]) if card_suit(c) == card_suit(called)]
        other = rng.choice(same_suit or list(mask_cards(deal.hands[b])))
        one = State(rules, deal)
        two = State(rules, swapped(deal, a, b, called, other))
        third_parties = [s for s in range(5) if s not in (a, b)]
        assert declarer in third_parties
        seed = rng.randrange(1000)  # a third of the deals also compare sampled worlds
        assert_same_view(one, two, third_parties, seed)
        for value in bids:
            one.bid(value)
            two.bid(value)
            assert_same_view(one, two, third_parties, seed)
        one.call(called)
        two.call(called)
        assert one.partner == a and two.partner == b
        while True:
            assert_same_view(one, two, third_parties, seed)
            compared += 1
            check_sides_as_known(one)
            check_sides_as_known(two)
            assert one.information_state(a).partners() == (declarer,)
            assert one.information_state(b).partners() == ()
            assert one.information_state(b).opponents() == (declarer,)
            assert one.information_state(declarer).partners() == ()
            if one.to_play == a and one.is_legal(called) and rng.random() < 0.5:
                one.push(called)
                check_sides_as_known(one)
                for seat in range(5):
                    assert one.information_state(seat).teams == one.teams
                revealed += 1
                break
            common = set(one.legal_moves()) & set(two.legal_moves()) - {called, other}
            if not common:
                break
            card = rng.choice(sorted(common))
            one.push(card)
            two.push(card)
    return compared, revealed


def test_the_partner_is_secret_until_the_called_card_is_played() -> None:
    compared, revealed = secret_partner_sweep(15, random.Random("secret partner"))
    assert compared > 80 and revealed > 3, (compared, revealed)


@pytest.mark.slow
def test_the_partner_is_secret_over_many_deals() -> None:
    compared, revealed = secret_partner_sweep(400 * SWEEP, random.Random("many secrets"))
    assert compared > 2000 * SWEEP and revealed > 100 * SWEEP, (compared, revealed)


def test_the_declarer_holding_the_called_card_alone_knows_he_is_alone() -> None:
    rng = random.Random("alone")
    for number in range(20):
        rules = (ITALIANA5, REVIEWING5)[number % 2]
        state = State(rules, deal_cards(rules, rng.randrange(5), rng))
        bid_all(state, random_bids(rng))
        declarer = state.to_play
        own = rng.choice(mask_cards(state.hands[declarer]))
        state.call(own)
        alone = tuple(0 if s == declarer else 1 for s in range(5))
        while True:
            check_sides_as_known(state)
            info = state.information_state(declarer)
            assert info.teams == alone and info.partners() == ()
            assert info.opponents() == tuple(s for s in range(5) if s != declarer)
            for seat in range(5):
                if seat != declarer and own not in state.plays:
                    # The others cannot tell him alone from partnered.
                    assert state.information_state(seat).teams.count(None) == 3
            if state.is_finished():
                break
            state.push(rng.choice(state.legal_moves()))
        assert all(state.information_state(s).teams == alone for s in range(5))


def test_open_hands_show_the_partner() -> None:
    rules = ITALIANA5.replace(open_hands=True)
    state = fixed_state(rules)
    bid_all(state, [0, 0, 0, 0, 0])
    card = mask_cards(state.hands[4])[0]
    state.call(card)
    for seat in range(5):
        assert state.information_state(seat).teams == state.teams


def test_a_sampled_world_may_put_the_called_card_anywhere_unseen() -> None:
    """A defender's sampled worlds put the called card with every seat that may hold it (the
    declarer included: he may be alone), so a search bot does not learn the partner."""
    state = fixed_state(dealer=0, seed=9)
    bid_all(state, [0, 0, 0, 0, 0])
    called = next(c for c in range(40) if state.hands[3] >> c & 1)
    state.call(called)
    info = state.information_state(1)
    rng = random.Random(1)
    holders = set()
    for _ in range(300):
        world = info.sample_world(rng)
        holders.add(next(s for s in range(5) if world[s] >> called & 1))
    assert holders == {0, 2, 3, 4}


# ---- the score ------------------------------------------------------------------------------


@pytest.mark.parametrize(("bid", "band"), [
    (0, 0), (61, 0), (70, 0), (71, 1), (80, 1), (81, 2), (90, 2), (91, 3), (100, 3), (101, 4),
    (119, 4), (120, 5),
])
def test_bid_bands(bid: int, band: int) -> None:
    assert ITALIANA5.bid_band(bid) == band


@pytest.mark.parametrize(("bid", "taken", "made", "value"), [
    (0, 61, True, 1),  # a pass plays for 61 in band 0
    (0, 60, False, 1),
    (70, 70, True, 1),
    (70, 69, False, 1),
    (71, 71, True, 2),
    (71, 70, False, 2),
    (100, 100, True, 4),
    (101, 101, True, 5),
    (101, 100, False, 5),
    (119, 119, True, 5),
    (120, 120, True, 6),
    (120, 119, False, 6),
])
def test_a_contract_scores_each_winner_its_band(bid: int, taken: int, made: bool,
                                                value: int) -> None:
    teams = (1, 0, 1, 0, 1)  # declarer 1, partner 3
    result = score_contract(ITALIANA5, Contract(1, bid, parse_card("AH")), (taken, 120 - taken),
                            teams)
    assert result.made is made and result.winner == (0 if made else 1)
    expected = tuple(value if (side == 0) == made else 0 for side in teams)
    assert result.game_points == expected
    alone = (1, 1, 1, 0, 1)
    lone = score_contract(ITALIANA5, Contract(3, bid, parse_card("AH")), (taken, 120 - taken),
                          alone)
    assert lone.game_points == tuple(value if (side == 0) == made else 0 for side in alone)
    assert sum(1 for g in lone.game_points if g) == (1 if made else 4)


def test_bid_scores_are_a_rules_option() -> None:
    rules = Rules.from_dict({"variant": "italiana5", "bid_scores": [2, 3, 5, 8, 13, 21]})
    assert rules.bid_scores == (2, 3, 5, 8, 13, 21)
    assert rules.to_dict() == {"variant": "italiana5", "bid_scores": [2, 3, 5, 8, 13, 21]}
    assert Rules.from_dict(rules.to_dict()) == rules
    result = score_contract(rules, Contract(0, 95, 3), (95, 25), (0, 1, 1, 0, 1))
    assert result.game_points == (8, 0, 0, 8, 0)
    for bad in ([1, 2, 3], [1, 2, 3, 4, 5, -6], [1, 2, 3, 4, 5, True], [1, 2, 3, 4, 5, 6.0],
                "123456"):
        with pytest.raises(RulesError, match="bid_scores"):
            Rules.from_dict({"variant": "italiana5", "bid_scores": bad})


def play_random_deal(state: State, rng: random.Random) -> None:
    play_auction(state, rng)
    while not state.is_finished():
        state.push(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("scores", [None, [2, 3, 5, 8, 13, 21]])
def test_a_match_is_won_per_player_and_the_record_agrees(scores: list[int] | None) -> None:
    """Random matches to 10: each deal scores every player of the winning side his band's
    value (through the match and through the record's check alike); the first player past the
    target alone wins; nothing is dealt after."""
    options: dict[str, Any] = {"variant": "italiana5"}
    if scores is not None:
        options["bid_scores"] = scores
    rules = Rules.from_dict(options)
    rng = random.Random(f"italiana5 match {scores}")
    for _ in range(3):
        match = Match(rules, first_dealer=rng.randrange(5))
        assert match.score == [0] * 5
        states = []
        while not match.is_over:
            before = list(match.score)
            state = match.new_deal(rng)
            play_random_deal(state, rng)
            result = match.finish_deal(state)
            contract = state.contract
            assert contract is not None and result.contract == contract
            made = state.team_points()[0] >= contract.target
            assert result.made is made
            value = rules.bid_scores[rules.bid_band(contract.bid)]
            assert list(result.game_points) == [
                value if (state.teams[s] == 0) == made else 0 for s in range(5)
            ]
            assert match.score == [b + g for b, g in zip(before, result.game_points,
                                                         strict=True)]
            states.append(state)
        winner = match.winner
        assert winner is not None and match.score[winner] >= rules.match_target
        assert all(match.score[s] < match.score[winner] for s in range(5) if s != winner)
        with pytest.raises(MatchOverError, match=f"player {winner} has won it"):
            match.new_deal(rng)
        text = dumps(GameRecord.from_states(rules, match.first_dealer, states))
        report = check(loads(text))
        assert report["valid"], report["error"]
        assert report["match"] == {"score": match.score, "winner": winner}
        # A deal recorded after the match was won makes the record invalid, naming the player.
        data = json.loads(text)
        data["deals"].append(data["deals"][-1])
        report_after = check(loads(json.dumps(data)))
        assert report_after["error"]["reason"] == f"the match was already won by player {winner}"
        for entry, state, result in zip(report["deals"], states, match.results, strict=True):
            assert entry["game_points"] == list(result.game_points)
            assert entry["seat_points"] == state.seat_points and entry["bids"] == state.bids
            contract = state.contract
            assert contract is not None
            assert entry["contract"] == {
                "declarer": contract.declarer, "bid": contract.bid,
                "called_card": card_name(contract.called_card), "partner": state.partner,
                "made": result.made,
            }


def test_match_winner_per_player() -> None:
    assert match_winner(ITALIANA5, [9, 9, 3, 0, 9]) is None
    assert match_winner(ITALIANA5, [10, 9, 3, 0, 9]) == 0
    assert match_winner(ITALIANA5, [12, 9, 3, 0, 11]) == 0
    # Two partners passing the target together, level: the match plays on.
    assert match_winner(ITALIANA5, [11, 9, 11, 0, 9]) is None


# ---- records of a bidding table -------------------------------------------------------------


def recorded_deal(seed: int = 3) -> dict[str, Any]:
    rng = random.Random(seed)
    state = State(ITALIANA5, deal_cards(ITALIANA5, 1, rng))
    play_random_deal(state, rng)
    data: dict[str, Any] = json.loads(dumps(GameRecord.from_states(ITALIANA5, 1, [state])))
    return data


def test_a_bidding_record_names_bids_and_the_called_card() -> None:
    data = recorded_deal()
    deal = data["deals"][0]
    assert data["players"] == 5
    assert "trump_card" not in deal and len(deal["bids"]) == 5 and "called_card" in deal
    assert check(loads(json.dumps(data)))["valid"]


@pytest.mark.parametrize("players", [4, 6, 5.0, True, "5", None])
def test_a_record_whose_seat_count_is_not_the_rules_is_not_a_record(players: Any) -> None:
    data = recorded_deal()
    data["players"] = players
    with pytest.raises(RecordFormatError, match="'players' is"):
        loads(json.dumps(data))


@pytest.mark.parametrize(("change", "reason"), [
    (lambda d: d.update(bids=[0, 0, 0, 0, 0, 0]), "bid 5: no bid is asked for now"),
    (lambda d: d.update(bids=[0, 60, 0, 0, 0]), "bid 1: a bid is 61 to 120"),
    (lambda d: d.update(bids=[0, 0, 0]), "only 3 of 5 players have bid"),
    (lambda d: d.pop("called_card"), "called card is missing"),
    (lambda d: d.update(called_card="XX"), "called_card: not a card"),
    (lambda d: d.update(trump_card="2S"), "no card is turned at a bidding table"),
])
def test_a_bad_auction_in_a_record_is_reported(change: Any, reason: str) -> None:
    data = recorded_deal()
    change(data["deals"][0])
    report = check(loads(json.dumps(data)))
    assert not report["valid"]
    assert report["error"]["deal"] == 0 and reason in report["error"]["reason"], report["error"]


def test_sampled_states_replay_the_auction() -> None:
    rng = random.Random("sample auction")
    for _ in range(10):
        state = State(ITALIANA5, deal_cards(ITALIANA5, rng.randrange(5), rng))
        for _ in range(rng.randrange(6)):
            state.bid(0 if rng.random() < 0.5 else 61 + len(state.bids))
        for seat in range(5):
            info: InformationState = state.information_state(seat)
            sampled = sample_state(info, rng)
            assert sampled.bids == state.bids and sampled.phase == state.phase
            assert sampled.information_state(seat) == info
