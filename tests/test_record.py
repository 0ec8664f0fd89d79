"""Game records (RECORD.md): round trips, and every kind of invalid record reported with the
contract's error at the right deal and play index."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from core_support import (
    FIXTURES,
    RENUNCIA_RULES,
    RULE_SETS,
    play_people_deal,
    ref_suit,
    sweep_state,
)

from sueca.actions import AskCard, Denounce, Play
from sueca.cards import SUIT_LETTERS, card_name, card_symbol, mask_cards, parse_card
from sueca.match import Match
from sueca.record import GameRecord, RecordFormatError, check, dumps, from_json, loads, replay
from sueca.referee import Referee
from sueca.rules import STANDARD, Rules, preset
from sueca.state import State

TOP_KEYS = {"valid", "error", "deals", "match"}
DEAL_KEYS = {"trump", "tricks", "points", "game_points", "finished"}
TRICK_KEYS = {"leader", "cards", "winner", "points"}


def random_match_record(rules: Rules, seed: int) -> dict[str, Any]:
    """A whole match of random legal play, as RECORD.md JSON."""
    rng = random.Random(seed)
    match = Match(rules, first_dealer=rng.randrange(4))
    states = []
    while not match.is_over:
        state = match.new_deal(rng)
        while not state.is_finished():
            state.push(rng.choice(state.legal_moves()))
        match.finish_deal(state)
        states.append(state)
    data: dict[str, Any] = json.loads(
        dumps(GameRecord.from_states(rules, match.first_dealer, states))
    )
    return data


def check_json(data: dict[str, Any]) -> dict[str, Any]:
    """Check a record given as JSON data, as ``sueca check --json`` would read it."""
    report = check(loads(json.dumps(data)))
    assert_contract_shape(report)
    return report


def assert_contract_shape(report: dict[str, Any]) -> None:
    assert set(report) == TOP_KEYS
    assert set(report["match"]) == {"score", "winner"}
    assert isinstance(report["valid"], bool)
    if report["valid"]:
        assert report["error"] is None
    else:
        assert set(report["error"]) == {"deal", "play", "reason"}
        assert isinstance(report["error"]["reason"], str) and report["error"]["reason"]
    for deal in report["deals"]:
        assert set(deal) == DEAL_KEYS
        assert deal["trump"] in SUIT_LETTERS
        for trick in deal["tricks"]:
            assert set(trick) == TRICK_KEYS
            assert len(trick["cards"]) == 4
    json.dumps(report)  # plain JSON data all through


@pytest.fixture(scope="module")
def standard_match() -> dict[str, Any]:
    for seed in range(100):
        data = random_match_record(STANDARD, seed)
        if len(data["deals"]) >= 3:
            return data
    raise AssertionError("no match of three deals")


@pytest.fixture(scope="module")
def italiana_match() -> dict[str, Any]:
    return random_match_record(preset("italiana"), 7)


# ---- round trips --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_round_trip(name: str) -> None:
    data = random_match_record(RULE_SETS[name], seed=3)
    text = json.dumps(data)
    record = loads(text)
    assert loads(dumps(record)).to_json() == record.to_json() == data
    assert dumps(loads(dumps(record))) == dumps(record)
    report = check_json(data)
    assert report["valid"] and report["match"]["winner"] is not None
    # Replaying gives back the very deals and plays.
    states = replay(record).states
    assert [card_name(c) for s in states for c in s.plays] == [
        p for d in data["deals"] for p in d["plays"]
    ]
    assert Rules.from_dict(data["rules"]) == RULE_SETS[name]


def test_report_matches_the_engine(standard_match: dict[str, Any]) -> None:
    report = check_json(standard_match)
    record = loads(json.dumps(standard_match))
    result = replay(record)
    for deal, state, result_deal in zip(report["deals"], result.states, result.match.results,
                                        strict=True):
        assert deal["trump"] == SUIT_LETTERS[state.trump]
        assert deal["points"] == state.team_points() == list(result_deal.points)
        assert deal["game_points"] == list(result_deal.game_points)
        assert [t["winner"] for t in deal["tricks"]] == state.trick_winners
        assert deal["tricks"][0]["leader"] == (state.deal.dealer + 1) % 4
        assert sum(t["points"] for t in deal["tricks"]) == 120
    assert report["match"]["score"] == [sum(d["game_points"][t] for d in report["deals"])
                                        for t in (0, 1)]


def test_readers_accept_symbols_lower_case_and_extra_fields(
    standard_match: dict[str, Any]
) -> None:
    data = copy.deepcopy(standard_match)
    for deal in data["deals"]:
        deal["hands"] = [" ".join(card_symbol(parse_card(t)) for t in h.split())
                         for h in deal["hands"]]
        deal["plays"] = [p.lower() for p in deal["plays"]]
        deal["trump_card"] = card_symbol(parse_card(deal["trump_card"]))
        deal["comment"] = "from a table in Évora"
    data["event"] = "club night"
    assert check_json(data) == check_json(standard_match)
    assert loads(json.dumps(data)).extra == {"event": "club night"}
    assert json.loads(dumps(loads(json.dumps(data))))["deals"][0]["comment"] == (
        "from a table in Évora"
    )


def test_an_unfinished_last_deal_is_valid(standard_match: dict[str, Any]) -> None:
    data = copy.deepcopy(standard_match)
    data["deals"][-1]["plays"] = data["deals"][-1]["plays"][:13]
    report = check_json(data)
    assert report["valid"]
    last = report["deals"][-1]
    assert not last["finished"] and last["game_points"] == [0, 0] and len(last["tricks"]) == 3
    del data["deals"][-1]["plays"]
    assert check_json(data)["valid"]


def test_every_fixture_record_is_valid() -> None:
    paths = sorted(Path(FIXTURES).glob("**/*.json"))
    assert paths
    for path in paths:
        report = check(loads(path.read_text(encoding="utf-8")))
        assert report["valid"], (path.name, report["error"])


# ---- invalid records: the contract's error, at the right place ------------------------------


def seat_and_hand_at(data: dict[str, Any], deal: int, play: int) -> tuple[int, list[int],
                                                                         list[int]]:
    """Who plays ``plays[play]`` of a deal, that seat's cards then, and the trick so far."""
    rules = Rules.from_dict(data["rules"])
    deal_data = data["deals"][deal]
    record = loads(json.dumps({**data, "deals": [{**deal_data, "plays": []}],
                               "first_dealer": deal_data["dealer"]}))
    state = replay(record).states[0]
    assert state.rules == rules
    for token in deal_data["plays"][:play]:
        state.push(parse_card(token))
    return state.to_play, list(mask_cards(state.hands[state.to_play])), state.trick


def expect_error(data: dict[str, Any], deal: int, play: int | None, reason: str) -> dict[str, Any]:
    report = check_json(data)
    assert not report["valid"]
    error = report["error"]
    assert (error["deal"], error["play"]) == (deal, play), error
    assert reason in error["reason"], error["reason"]
    # deals holds the results up to the error: the deal in error too when a play was wrong.
    assert len(report["deals"]) == deal + (play is not None)
    finished = [d for d in report["deals"] if d["finished"]]
    assert report["match"]["score"] == [sum(d["game_points"][t] for d in finished)
                                        for t in (0, 1)]
    return report


def test_a_card_not_in_hand(standard_match: dict[str, Any]) -> None:
    data = copy.deepcopy(standard_match)
    seat, hand, _ = seat_and_hand_at(data, 1, 6)
    stranger = next(c for c in range(40) if c not in hand and card_name(c) not in
                    data["deals"][1]["plays"][:6])
    data["deals"][1]["plays"][6] = card_name(stranger)
    report = expect_error(data, 1, 6, f"{card_name(stranger)} is not in seat {seat}'s hand")
    assert not report["deals"][1]["finished"] and len(report["deals"][1]["tricks"]) == 1
    # A card already played is not in hand either.
    data = copy.deepcopy(standard_match)
    data["deals"][0]["plays"][9] = data["deals"][0]["plays"][2]
    expect_error(data, 0, 9, "is not in seat")


def find_play(data: dict[str, Any], deal: int, wanted: str) -> tuple[int, str]:
    """The first play of a deal where the player could have broken the rule ``wanted``
    ("must_follow" or "must_trump"), and the card that breaks it."""
    rules = Rules.from_dict(data["rules"])
    plays = data["deals"][deal]["plays"]
    for index in range(len(plays)):
        _, hand, trick = seat_and_hand_at(data, deal, index)
        if not trick:
            continue
        trump = data["deals"][deal]["trump_card"][-1]
        led = ref_suit(trick[0])
        follow = [c for c in hand if ref_suit(c) == led]
        trumps = [c for c in hand if ref_suit(c) == trump]
        others = [c for c in hand if ref_suit(c) not in (led, trump)]
        if wanted == "must_follow" and follow and len(follow) < len(hand):
            return index, card_name(next(c for c in hand if ref_suit(c) != led))
        if wanted == "must_trump" and rules.must_trump and not follow and trumps and others:
            return index, card_name(others[0])
    raise AssertionError(f"no chance to break {wanted}")


def test_must_follow(standard_match: dict[str, Any]) -> None:
    data = copy.deepcopy(standard_match)
    index, card = find_play(data, 2, "must_follow")
    data["deals"][2]["plays"][index] = card
    expect_error(data, 2, index, "must follow")


def test_must_trump_under_italiana() -> None:
    """A hand-built deal: seat 0 leads a spade, seat 1 follows, seat 2 has no spade but holds
    diamonds (trumps, from the dealer's turned 2D) and discards a heart instead."""
    data: dict[str, Any] = {
        "rules": {"variant": "italiana"},
        "first_dealer": 3,
        "deals": [{
            "dealer": 3,
            "hands": ["AS 7S KS JS QS 6S 5S 4S 3S 2C", "AH 7H KH JH QH 6H 5H 4H 3H 2S",
                      "AD 7D KD JD QD 6D 5D 4D 3D 2H", "AC 7C KC JC QC 6C 5C 4C 3C 2D"],
            "trump_card": "2D",
            "plays": ["3S", "2S", "2H", "AC"],
        }],
    }
    report = expect_error(data, 0, 2, "must trump")
    assert report["deals"][0]["tricks"] == []
    # The same discard is legal in the standard game (trumping is never compulsory) …
    data["rules"] = {"variant": "standard"}
    assert check_json(data)["valid"]
    # … and under italiana a trump is.
    data["rules"] = {"variant": "italiana"}
    data["deals"][0]["plays"] = ["3S", "2S", "3D", "2D"]
    report = check_json(data)
    assert report["valid"] and report["deals"][0]["tricks"][0]["winner"] == 2


def test_must_trump_in_a_random_italiana_match(italiana_match: dict[str, Any]) -> None:
    for deal in range(len(italiana_match["deals"])):
        data = copy.deepcopy(italiana_match)
        try:
            index, card = find_play(data, deal, "must_trump")
        except AssertionError:
            continue
        data["deals"][deal]["plays"][index] = card
        expect_error(data, deal, index, "must trump")
        return
    pytest.skip("no must-trump position in this match (the hand-built test covers it)")


def test_a_wrong_dealer(standard_match: dict[str, Any]) -> None:
    data = copy.deepcopy(standard_match)
    data["deals"][1]["dealer"] = (data["deals"][1]["dealer"] + 1) % 4
    expect_error(data, 1, None, "deals, but the deal has passed to seat")
    data = copy.deepcopy(standard_match)
    data["first_dealer"] = (data["first_dealer"] + 2) % 4
    expect_error(data, 0, None, "the deal has passed to seat")
    for bad in (7, -1, "0", None, True):
        data = copy.deepcopy(standard_match)
        data["first_dealer"] = bad
        expect_error(data, 0, None, "first_dealer")
        data = copy.deepcopy(standard_match)
        data["deals"][1]["dealer"] = bad
        expect_error(data, 1, None, "dealer" if not isinstance(bad, int) else "seat")


def test_the_trump_card_must_be_the_dealers(standard_match: dict[str, Any]) -> None:
    data = copy.deepcopy(standard_match)
    deal = data["deals"][1]
    other = deal["hands"][(deal["dealer"] + 1) % 4].split()[0]
    deal["trump_card"] = other
    expect_error(data, 1, None, f"trump card {other} is not in the dealer's hand")


def test_duplicated_and_missing_cards(standard_match: dict[str, Any]) -> None:
    data = copy.deepcopy(standard_match)
    hands = data["deals"][1]["hands"]
    first = hands[0].split()
    second = hands[2].split()
    second[0] = first[0]
    hands[2] = " ".join(second)
    expect_error(data, 1, None, f"card {first[0]} is dealt twice")
    data = copy.deepcopy(standard_match)
    hands = data["deals"][0]["hands"]
    hands[3] = " ".join(hands[3].split()[1:])
    expect_error(data, 0, None, "seat 3 holds 9 cards, not 10")
    data = copy.deepcopy(standard_match)
    hands = data["deals"][0]["hands"]
    cards = hands[1].split()
    hands[1] = " ".join([cards[0], *cards])
    expect_error(data, 0, None, f"seat 1's hand holds {cards[0]} twice")
    data = copy.deepcopy(standard_match)
    data["deals"][0]["hands"] = data["deals"][0]["hands"][:3]
    expect_error(data, 0, None, "3 hands for 4 seats")
    data = copy.deepcopy(standard_match)
    data["deals"][0]["hands"] = "AS 7S"
    expect_error(data, 0, None, "hands must be a list")


@pytest.mark.parametrize("bad", ["XX", "10H", "8S", "", "A", "AH7"])
def test_bad_card_text(standard_match: dict[str, Any], bad: str) -> None:
    data = copy.deepcopy(standard_match)
    hand = data["deals"][1]["hands"][2].split()
    data["deals"][1]["hands"][2] = " ".join([*hand[:9], bad]) if bad else " ".join(hand[:9])
    expect_error(data, 1, None, "seat 2" if bad else "holds 9 cards")
    if bad:
        data = copy.deepcopy(standard_match)
        data["deals"][2]["plays"][11] = bad
        expect_error(data, 2, 11, "not a card")
        data = copy.deepcopy(standard_match)
        data["deals"][0]["trump_card"] = bad
        expect_error(data, 0, None, "trump_card")


def test_a_play_that_is_not_text(standard_match: dict[str, Any]) -> None:
    for bad in (5, None, ["AS"]):
        data = copy.deepcopy(standard_match)
        data["deals"][0]["plays"][3] = bad
        expect_error(data, 0, 3, "not a card")


def test_plays_after_the_hand_is_over(standard_match: dict[str, Any]) -> None:
    data = copy.deepcopy(standard_match)
    data["deals"][1]["plays"].append(data["deals"][1]["plays"][0])
    report = expect_error(data, 1, 40, "the hand is over")
    assert report["deals"][1]["finished"]


def test_deals_after_the_match_is_won(standard_match: dict[str, Any]) -> None:
    data = copy.deepcopy(standard_match)
    last = data["deals"][-1]
    extra = copy.deepcopy(data["deals"][0])
    extra["dealer"] = (last["dealer"] + 1) % 4
    data["deals"].append(extra)
    report = expect_error(data, len(data["deals"]) - 1, None, "already won by team")
    assert report["match"]["winner"] is not None
    assert report["match"] == check_json(standard_match)["match"]


def test_an_unfinished_deal_followed_by_another(standard_match: dict[str, Any]) -> None:
    """docs/record.md: reported at the unfinished deal, with ``play: null``."""
    data = copy.deepcopy(standard_match)
    data["deals"][0]["plays"] = data["deals"][0]["plays"][:21]
    report = check_json(data)
    assert report["error"]["deal"] == 0 and report["error"]["play"] is None
    assert "unfinished" in report["error"]["reason"]
    assert len(report["deals"]) == 1 and not report["deals"][0]["finished"]
    assert report["match"]["score"] == [0, 0]


def test_a_point_trump_under_redeal_point_trump() -> None:
    rules = STANDARD.replace(redeal_point_trump=True)
    state = sweep_state(STANDARD, 3)  # the turned card is 2C: allowed
    data = json.loads(dumps(GameRecord.from_states(rules, 3, [state])))
    assert check_json(data)["valid"]
    hands = data["deals"][0]["hands"]
    hands[3] = hands[3].replace("2C", "TMP")
    hands[0] = hands[0].replace("7C", "2C")
    hands[3] = hands[3].replace("TMP", "7C")
    data["deals"][0]["trump_card"] = "7C"
    data["deals"][0]["plays"] = []
    expect_error(data, 0, None, "trump card 7C carries points")


# ---- not a record at all ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not JSON"),
        ("{", "not JSON"),
        ("[1, 2]", "must be a JSON object"),
        ("[" * 100_000, "not JSON"),  # nested too deep for the parser
        ('{"deals": [], "first_dealer": ' + "9" * 5000 + "}", "not JSON"),  # too long a number
        ("{}", "no 'deals'"),
        ('{"deals": 3}', "'deals' must be a list"),
        ('{"deals": [3]}', "deal 0 is not an object"),
        ('{"deals": [{"dealer": 0, "hands": []}]}', "deal 0 has no 'trump_card'"),
        ('{"rules": "standard", "deals": []}', "'rules' must be an object"),
        ('{"rules": {"variant": "bisca"}, "deals": []}', "unknown rules variant 'bisca'"),
        ('{"rules": {"trumps": true}, "deals": []}', "unknown rules option 'trumps'"),
        ('{"rules": {"deal_packets": 4}, "deals": []}', "'deal_packets' cannot be 4"),
        ('{"rules": {"deal_packets": true}, "deals": []}', "'deal_packets' cannot be True"),
        ('{"deals": [{"dealer": 0, "hands": [], "trump_card": "AS", "plays": "AS"}]}',
         "'plays' must be a list"),
    ],
)
def test_not_a_record(text: str, message: str) -> None:
    with pytest.raises(RecordFormatError, match=message.replace("(", r"\(")):
        loads(text)


def test_a_record_with_no_deals_is_valid_and_empty() -> None:
    report = check(from_json({"deals": []}))
    assert report == {"valid": True, "error": None, "deals": [],
                      "match": {"score": [0, 0], "winner": None}}


def test_check_leaves_the_record_alone(standard_match: dict[str, Any]) -> None:
    data = copy.deepcopy(standard_match)
    record = loads(json.dumps(data))
    before = record.to_json()
    check(record)
    check(record)
    assert record.to_json() == before == data


def test_from_states_writes_the_documented_fields() -> None:
    state = sweep_state(STANDARD, 3)
    data = json.loads(dumps(GameRecord.from_states(STANDARD, 3, [state])))
    assert data["rules"] == {"variant": "standard"} and data["first_dealer"] == 3
    deal = data["deals"][0]
    assert set(deal) == {"dealer", "hands", "trump_card", "plays"}
    assert deal["trump_card"] == "2C" and len(deal["plays"]) == 40
    assert all(len(h.split()) == 10 for h in deal["hands"])
    assert all(token == card_name(parse_card(token)) for h in deal["hands"] for token in h.split())
    assert isinstance(replay(loads(json.dumps(data))).states[0], State)


# ---- renúncia: revokes and denunciations ----------------------------------------------------

RENUNCIA = RENUNCIA_RULES["standard"]
RENUNCIA_DEAL_KEYS = DEAL_KEYS | {"revokes", "denunciations"}


def people_match_record(rules: Rules, seed: int) -> tuple[dict[str, Any], list[State]]:
    """A whole match with people at every seat (random answers, revokes and denunciations
    now and then, late ones too), as RECORD.md JSON, and every deal's state."""
    rng = random.Random(seed)
    referee = Referee(Match(rules, first_dealer=rng.randrange(rules.players)),
                      [None] * rules.players, rng=rng)
    states = []
    while not referee.match.is_over:
        states.append(play_people_deal(referee, rng, revoke=0.2, denounce=0.03, late=0.3))
    data = json.loads(dumps(GameRecord.from_states(rules, referee.match.first_dealer, states)))
    return data, states


def revoke_record(cry: str | None = None, rules: Rules = RENUNCIA, seed: int = 1
                  ) -> tuple[dict[str, Any], int, int]:
    """One deal where the first seat able to revoke does, and nobody else does (everyone
    else plays the first legal card), as record JSON, with that play's index and seat.
    ``cry``: ``"right"`` a seat of the other side denounces at once (the deal ends there);
    ``"wrong"`` the revoker's partner denounces at once (the other side has not revoked);
    ``"late"`` the other side denounces once the last card is down."""
    referee = Referee(Match(rules, first_dealer=0), [None] * rules.players,
                      rng=random.Random(seed))
    state = referee.deal()
    revoke: tuple[int, int] | None = None
    while (asked := referee.asked()) is not None:
        seat, request = asked
        assert type(request) is AskCard
        if revoke is None and request.revokes:
            revoke = (len(state.plays), request.seat)
            referee.submit(seat, Play(request.revokes[0]))
            if cry == "right":
                referee.submit((request.seat + 1) % rules.players, Denounce())
            elif cry == "wrong":
                referee.submit(rules.partner_of(request.seat), Denounce())
            continue
        referee.submit(seat, Play(request.legal[0]))
    assert revoke is not None
    if cry == "late":
        referee.submit((revoke[1] + 1) % rules.players, Denounce())
    data = json.loads(dumps(GameRecord.from_states(rules, 0, [state])))
    return data, *revoke


def renuncia_check(data: dict[str, Any]) -> dict[str, Any]:
    report = check(loads(json.dumps(data)))
    assert set(report) == TOP_KEYS
    for deal in report["deals"]:
        assert set(deal) - {"redeals"} == RENUNCIA_DEAL_KEYS
    json.dumps(report)
    return report


def expect_renuncia_error(data: dict[str, Any], play: int | None, reason: str
                          ) -> dict[str, Any]:
    report = renuncia_check(data)
    assert not report["valid"]
    error = report["error"]
    assert (error["deal"], error["play"]) == (0, play), error
    assert reason in error["reason"], error["reason"]
    assert len(report["deals"]) == 1
    # A deal in error scores nothing, even one whose end the referee had reached.
    assert report["deals"][0]["game_points"] == [0, 0]
    assert report["match"]["score"] == [0, 0]
    return report


@pytest.mark.parametrize("name", sorted(RENUNCIA_RULES))
def test_a_renuncia_match_round_trips_and_checks(name: str) -> None:
    rules = RENUNCIA_RULES[name]
    revokes = denunciations = 0
    for seed in range(2):
        data, states = people_match_record(rules, seed)
        record = loads(json.dumps(data))
        assert loads(dumps(record)).to_json() == record.to_json() == data
        report = renuncia_check(data)
        assert report["valid"], report["error"]
        played = [s for s in states if s.redeal_by is None]
        replayed = replay(record)
        assert [d.to_json() for d in GameRecord.from_states(
            rules, data["first_dealer"], replayed.dealt).deals] == data["deals"]
        match = replayed.match
        for deal, state, result in zip(report["deals"], played, match.results, strict=True):
            assert deal["revokes"] == state.revokes
            assert deal["denunciations"] == [
                {"after": d.after, "seat": d.seat, "correct": d.correct}
                for d in state.denunciations]
            assert deal["game_points"] == list(result.game_points)
            assert deal["finished"]
            revokes += len(state.revokes)
            denunciations += len(state.denunciations)
        assert report["match"]["winner"] == match.winner is not None
    assert revokes and denunciations  # the records did hold both


def test_a_record_without_revokes_prints_as_before() -> None:
    """At a renuncia table a deal with no revoke and no denunciation writes neither field."""
    state = sweep_state(RENUNCIA, 3)
    data = json.loads(dumps(GameRecord.from_states(RENUNCIA, 3, [state])))
    assert set(data["deals"][0]) == {"dealer", "hands", "trump_card", "plays"}
    report = renuncia_check(data)
    assert report["valid"] and report["deals"][0]["revokes"] == []
    assert report["deals"][0]["denunciations"] == []


def test_a_revoke_must_be_listed() -> None:
    data, index, seat = revoke_record()
    deal = data["deals"][0]
    assert deal["revokes"] == [index] and "denunciations" not in deal
    assert renuncia_check(data)["valid"]
    del deal["revokes"]
    report = expect_renuncia_error(data, index, f"is a revoke: seat {seat} had to play one of")
    assert f"'revokes' does not list play {index}" in report["error"]["reason"]
    # Reported as it stood before the revoke: the card is not in the partial result.
    assert len(report["deals"][0]["tricks"]) == index // 4


def test_a_listed_revoke_must_be_one() -> None:
    data, index, _ = revoke_record()
    data["deals"][0]["revokes"] = [0, index]
    expect_renuncia_error(data, 0, "'revokes' lists play 0, but")
    data["deals"][0]["revokes"] = [index, 39]
    report = expect_renuncia_error(data, 39, "follows the rules of play")
    assert len(report["deals"][0]["tricks"]) == 9


@pytest.mark.parametrize(("revokes", "reason"), [
    ([-1], "'revokes' must list indexes in 'plays', not -1"),
    (["3"], "not '3'"),
    ([True], "not True"),
    ([40], "'revokes' lists play 40, but the deal has 40 plays"),
    ("dup", "twice"),
])
def test_a_bad_revokes_list(revokes: Any, reason: str) -> None:
    data, index, _ = revoke_record()
    data["deals"][0]["revokes"] = [index, index] if revokes == "dup" else revokes
    report = expect_renuncia_error(data, None, reason)
    assert report["deals"][0]["tricks"] == []
    data["deals"][0]["revokes"] = 3
    with pytest.raises(RecordFormatError, match="'revokes' must be a list"):
        loads(json.dumps(data))


def test_a_correct_denunciation_ends_the_deal_and_scores_the_penalty() -> None:
    data, index, seat = revoke_record("right")
    deal = data["deals"][0]
    assert len(deal["plays"]) == index + 1
    assert deal["denunciations"] == [{"after": index + 1, "seat": (seat + 1) % 4,
                                      "correct": True}]
    report = renuncia_check(data)
    assert report["valid"], report["error"]
    entry = report["deals"][0]
    offenders = RENUNCIA.teams[seat]
    assert entry["finished"] and entry["revokes"] == [index]
    assert entry["game_points"][offenders] == 0
    assert entry["game_points"][1 - offenders] == RENUNCIA.renuncia_penalty
    assert report["match"]["score"] == entry["game_points"]
    # A penalty of the table's choosing.
    data["rules"]["renuncia_penalty"] = 2
    assert renuncia_check(data)["deals"][0]["game_points"][1 - offenders] == 2


def test_the_deal_ends_where_a_correct_denunciation_is_made() -> None:
    data, index, _ = revoke_record("right")
    full, _, _ = revoke_record()
    deal = data["deals"][0]
    deal["plays"] = full["deals"][0]["plays"][:index + 3]
    report = expect_renuncia_error(data, index + 1, "the deal is over: seat")
    assert report["deals"][0]["finished"]
    data, index, seat = revoke_record("right")
    data["deals"][0]["denunciations"].append({"after": index + 1, "seat": (seat + 3) % 4,
                                              "correct": True})
    expect_renuncia_error(data, None, "denunciation 1 (seat")
    assert "a revoke is already proven" in renuncia_check(data)["error"]["reason"]


def test_a_denunciations_outcome_must_be_what_the_hands_prove() -> None:
    data, index, seat = revoke_record("right")
    data["deals"][0]["denunciations"][0]["correct"] = False
    expect_renuncia_error(
        data, None, f"denunciation 0 (seat {(seat + 1) % 4}, after {index + 1} cards) is "
                    f"recorded as wrong, but team {RENUNCIA.teams[seat]} had revoked (play "
                    f"{index})")
    data, index, seat = revoke_record("wrong")
    assert data["deals"][0]["denunciations"][0]["correct"] is False
    assert renuncia_check(data)["valid"]
    data["deals"][0]["denunciations"][0]["correct"] = True
    expect_renuncia_error(data, None, "is recorded as correct, but no player of team")


def test_a_wrong_denunciation_gives_the_other_side_the_false_penalty() -> None:
    data, _, seat = revoke_record("wrong")
    report = renuncia_check(data)
    entry = report["deals"][0]
    assert entry["finished"]
    denouncers = RENUNCIA.teams[seat]
    points = entry["points"]
    winner = 0 if points[0] > 60 else 1 if points[1] > 60 else None
    expected = [0, 0]
    if winner is not None:
        expected[winner] = 1 + (points[winner] > 90) + 2 * (points[winner] == 120)
    expected[1 - denouncers] += RENUNCIA.false_renuncia_penalty
    assert entry["game_points"] == expected


def test_a_late_denunciation_scores_the_deal_again() -> None:
    data, _, seat = revoke_record("late")
    deal = data["deals"][0]
    assert len(deal["plays"]) == 40
    assert deal["denunciations"] == [{"after": 40, "seat": (seat + 1) % 4, "correct": True}]
    report = renuncia_check(data)
    assert report["valid"], report["error"]
    entry = report["deals"][0]
    offenders = RENUNCIA.teams[seat]
    assert entry["game_points"][offenders] == 0
    assert entry["game_points"][1 - offenders] == RENUNCIA.renuncia_penalty
    assert report["match"]["score"] == entry["game_points"]
    assert len(entry["tricks"]) == 10 and sum(entry["points"]) == 120


@pytest.mark.parametrize(("entry", "reason"), [
    ("not a dict", "denunciation 0 must be an object"),
    ({"after": -1, "seat": 1, "correct": True}, "'after' must be how many cards"),
    ({"after": "3", "seat": 1, "correct": True}, "not '3'"),
    ({"after": 41, "seat": 1, "correct": True}, "comes after 41 cards, but the deal has 40"),
    ({"after": 9, "seat": 4, "correct": True}, "'seat' must be a seat from 0 to 3, not 4"),
    ({"after": 9, "seat": None, "correct": True}, "not None"),
    ({"after": 9, "seat": 1, "correct": "yes"}, "'correct' must be true or false"),
    ({"after": 0, "seat": 1, "correct": False}, "no card has been played yet"),
])
def test_a_bad_denunciation(entry: Any, reason: str) -> None:
    data, _, _ = revoke_record()
    data["deals"][0]["denunciations"] = [entry]
    expect_renuncia_error(data, None, reason)


def test_denunciations_are_listed_in_the_order_made() -> None:
    data, _, seat = revoke_record("wrong")
    partner = RENUNCIA.partner_of(seat)
    data["deals"][0]["denunciations"] = [
        {"after": 30, "seat": partner, "correct": False},
        {"after": 20, "seat": partner, "correct": False},
    ]
    expect_renuncia_error(data, None, "denunciation 1 comes after 20 cards, but the one before"
                                      " it after 30")
    data["deals"][0]["denunciations"].reverse()
    report = renuncia_check(data)
    assert report["valid"], report["error"]
    assert [d["after"] for d in report["deals"][0]["denunciations"]] == [20, 30]


def test_without_renuncia_a_revoke_is_an_illegal_card() -> None:
    """Under rules that do not play renuncia, a revoke is refused with the error it always
    had, and the two fields are another writer's: kept as written, ignored."""
    data, index, seat = revoke_record("wrong")
    data["rules"] = {"variant": "standard"}
    report = expect_error(data, 0, index, "must follow")
    assert f"seat {seat} holds" in report["error"]["reason"]
    record = loads(json.dumps(data))
    assert set(record.deals[0].extra) == {"revokes", "denunciations"}
    assert json.loads(dumps(record)) == {**data, "players": 4}
