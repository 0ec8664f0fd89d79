"""The redeal on a weak hand (``weak_hand_redeal``, RULES.md section 5): the rule, the state's
redeal phase, the match, records and ``sueca check``, bots, the protocol and the terminal."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from core_support import snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from sueca.actions import Redeal
from sueca.arena.play import play_match, run_duplicate
from sueca.bots import make_bot
from sueca.bots.base import Bot, BotError, decide
from sueca.bots.heuristic import HeuristicBot
from sueca.bots.random_bot import RandomBot
from sueca.cards import Card, card_name, cards_mask, format_mask, mask_cards, parse_mask
from sueca.deal import Deal, deal_cards
from sueca.infostate import InformationState
from sueca.match import Match
from sueca.protocol import BotSession, ExternalBot
from sueca.record import GameRecord, check, dumps, loads
from sueca.redeal import hand_points, redeal_order
from sueca.rules import Rules, RulesError, preset
from sueca.state import IllegalMoveError, State
from sueca.worlds import sample_state

BRAZIL = preset("brazil").replace(weak_hand_redeal=True)
# Limits so high that most hands may ask: matches full of redeals.
GENEROUS = BRAZIL.replace(weak_hand_limits=(15, 15))

# Hands of an exact worth (K 4, J 3, Q 2; 2-6 blank).
LEADER_9 = "KS JS QS 2S 3S 4S 5S 6S 2H 3H"
LEADER_10 = "KS KH QS 2S 3S 4S 5S 6S 2H 3H"
OTHER_4 = "KD 2D 3D 4D 5D 6D 4H 5H 6H 2C"
OTHER_5 = "JD QD 2D 3D 4D 5D 6D 4H 5H 6H"


def deal_with(leader: str, second: str, dealer: int = 0, rules: Rules = BRAZIL) -> Deal:
    """A deal whose opening leader (the seat after ``dealer``) holds ``leader`` and the next
    seat ``second``; the other two share the rest, the dealer's last card turned."""
    first = (dealer + 1) % 4
    hands = [0] * 4
    hands[first] = parse_mask(leader)
    hands[(first + 1) % 4] = parse_mask(second)
    rest = [c for c in range(40) if not (hands[first] | hands[(first + 1) % 4]) >> c & 1]
    hands[(first + 2) % 4] = cards_mask(rest[:10])
    hands[dealer] = cards_mask(rest[10:])
    deal = Deal(dealer, tuple(hands), rest[-1])
    deal.validate(rules)
    return deal


def refused(state: State, ask: Any, seat: int | None, reason: str) -> str:
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as caught:
        state.answer_redeal(ask, seat)
    assert caught.value.reason == reason, str(caught.value)
    assert snapshot(state) == before, "a refused answer changed the state"
    return str(caught.value)


# ---- the rules option --------------------------------------------------------------------


def test_the_option_is_off_by_default_and_round_trips_through_the_rules_object() -> None:
    assert not preset("standard").weak_hand_redeal and not preset("brazil").weak_hand_redeal
    rules = Rules.from_dict({"variant": "brazil", "weak_hand_redeal": True,
                             "weak_hand_limits": [12, 6]})
    assert rules.weak_hand_limits == (12, 6)
    assert rules.to_dict() == {"variant": "brazil", "weak_hand_redeal": True,
                               "weak_hand_limits": [12, 6]}
    assert Rules.from_dict(rules.to_dict()) == rules
    assert BRAZIL.to_dict() == {"variant": "brazil", "weak_hand_redeal": True}


@pytest.mark.parametrize(("options", "words"), [
    ({"weak_hand_redeal": 1}, "'weak_hand_redeal' must be true or false"),
    ({"weak_hand_limits": [10]}, "'weak_hand_limits' must list two whole numbers"),
    ({"weak_hand_limits": [10, -1]}, "'weak_hand_limits' must list two whole numbers"),
    ({"weak_hand_limits": [10, 5.0]}, "'weak_hand_limits' must list two whole numbers"),
    ({"variant": "italiana5", "weak_hand_redeal": True}, "does not apply at a bidding table"),
    ({"variant": "italiana5", "weak_hand_redeal": True, "weak_hand_limits": [15, 15]},
     "does not apply at a bidding table"),
    # Half the average hand at most (15 of 30 at four; 19 at six, 13 cards of 80): at 30 and
    # 30 every deal would be dealt again, since some hand always holds at most the average.
    ({"weak_hand_redeal": True, "weak_hand_limits": [16, 0]}, r"at most half .* \(15 here\)"),
    ({"weak_hand_redeal": True, "weak_hand_limits": [60, 0]}, r"would annul most deals"),
    ({"variant": "double6", "weak_hand_redeal": True, "weak_hand_limits": [10, 20]},
     r"\(19 here\)"),
])
def test_bad_options_are_refused_by_name(options: dict[str, Any], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        Rules.from_dict({"variant": "brazil", **options})


def test_the_dummy_and_the_two_deck_tables_allow_it() -> None:
    redeals: dict[str, Any] = {"weak_hand_redeal": True, "weak_hand_limits": (15, 10)}
    for rules in (GENEROUS.replace(dummy=2), preset("double8").replace(**redeals),
                  preset("double6").replace(**redeals)):
        for seed in range(20):  # the first match in which some seat asks
            match, states = play_match(rules, [HeuristicBot(s) for s in range(rules.players)],
                                       random.Random(seed), first_dealer=0)
            if match.annulled:
                break
        assert match.is_over and match.annulled
        report = check(loads(dumps(GameRecord.from_states(rules, 0, states))))
        assert report["valid"], report["error"]


# ---- the state's redeal phase --------------------------------------------------------------


@pytest.mark.parametrize(("leader", "allowed"), [(LEADER_9, True), (LEADER_10, False)])
def test_the_opening_leader_may_ask_with_fewer_than_10_points(leader: str, allowed: bool
                                                              ) -> None:
    state = State(BRAZIL, deal_with(leader, OTHER_5))
    assert state.phase == "redeal" and state.to_play == 1
    assert hand_points(BRAZIL, state.hands[1]) == (9 if allowed else 10)
    assert state.may_ask_redeal(1) is allowed
    assert state.information_state(1).may_ask_redeal() is allowed
    if allowed:
        state.answer_redeal(True, 1)
        assert state.phase == "redealt" and state.redeal_by == 1
    else:
        message = refused(state, True, 1, "bad_redeal")
        assert "seat 1 holds 10 card points" in message and "fewer than 10" in message


@pytest.mark.parametrize(("second", "allowed"), [(OTHER_4, True), (OTHER_5, False)])
def test_any_other_seat_may_ask_with_fewer_than_5_points(second: str, allowed: bool) -> None:
    state = State(BRAZIL, deal_with(LEADER_10, second))
    state.answer_redeal(False, 1)
    assert state.to_play == 2 and state.may_ask_redeal(2) is allowed
    if allowed:
        state.answer_redeal(True, 2)
        assert state.phase == "redealt" and state.redeal_by == 2
        assert state.legal_moves() == () and not state.is_finished()
    else:
        message = refused(state, True, 2, "bad_redeal")
        assert "seat 2 holds 5 card points" in message and "fewer than 5" in message


def test_the_limits_are_a_rules_option() -> None:
    rules = BRAZIL.replace(weak_hand_limits=(11, 6))
    state = State(rules, deal_with(LEADER_10, OTHER_5, rules=rules))
    assert state.may_ask_redeal(1) and state.may_ask_redeal(2)


def test_every_seat_answers_in_turn_from_the_opening_leader_then_the_play_starts() -> None:
    state = State(BRAZIL, deal_with(LEADER_9, OTHER_4, dealer=0))
    assert redeal_order(BRAZIL, state.first_leader) == (1, 2, 3, 0)
    refused(state, False, 2, "not_your_turn")
    refused(state, "no", None, "bad_redeal")
    with pytest.raises(IllegalMoveError) as caught:
        state.push(state.hands[1].bit_length() - 1)
    assert caught.value.reason == "auction" and "kept its hand" in str(caught.value)
    for seat in (1, 2, 3, 0):
        assert state.to_play == seat
        state.answer_redeal(False, seat)
    assert state.phase == "play" and state.to_play == 1 and state.legal_moves()
    refused(state, False, None, "auction")


def test_answers_are_taken_back_in_order() -> None:
    state = State(BRAZIL, deal_with(LEADER_9, OTHER_4))
    start = snapshot(state)
    states = [snapshot(state)]
    for _ in range(3):
        state.answer_redeal(False)
        states.append(snapshot(state))
    state.answer_redeal(False)
    card = state.legal_moves()[0]
    state.push(card)
    with pytest.raises(IndexError):
        state.unanswer_redeal()  # a card is played: pop it first
    assert state.pop() == card
    assert state.unanswer_redeal() is False
    for expected in reversed(states):
        assert snapshot(state) == expected
        if state.redeal_answers:
            state.unanswer_redeal()
    assert snapshot(state) == start
    state.answer_redeal(True)
    assert state.unanswer_redeal() is True and snapshot(state) == start


def test_a_table_without_the_option_has_no_redeal_phase() -> None:
    state = State(preset("brazil"), deal_with(LEADER_9, OTHER_4, rules=preset("brazil")))
    assert state.phase == "play"
    refused(state, False, None, "auction")
    assert not state.may_ask_redeal(1)


# ---- the information state ---------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), answered=st.integers(0, 3))
def test_no_card_leaks_and_sampling_replays_the_answers(seed: int, answered: int) -> None:
    state = State(BRAZIL, deal_cards(BRAZIL, seed % 4, random.Random(seed)))
    for _ in range(answered):
        state.answer_redeal(False)
    turned = state.deal.trump_card
    assert turned is not None
    for seat in range(4):
        info = state.information_state(seat)
        assert info.phase == "redeal" and info.redeal_answers == (False,) * answered
        for other in range(4):
            if other != seat:  # nothing of another hand but the turned card on the table
                assert info.known[other] & ~(1 << turned) == 0
        sampled = sample_state(info, random.Random(seed))
        assert sampled.phase == "redeal" and sampled.redeal_answers == state.redeal_answers
        assert sampled.to_play == state.to_play and sampled.hands[seat] == state.hands[seat]
        # Whether another seat may ask is never shown: only the seat's own question is.
        assert info.may_ask_redeal() == (seat == state.to_play and state.may_ask_redeal(seat))


def test_an_annulled_deal_shows_the_ask_and_nothing_more() -> None:
    state = State(BRAZIL, deal_with(LEADER_10, OTHER_4))
    state.answer_redeal(False)
    state.answer_redeal(True)
    info = state.information_state(0)
    assert (info.phase, info.redeal_by, info.redeal_answers) == ("redealt", 2, (False, True))
    assert info.known[2] == 0 and info.legal_moves() == ()
    with pytest.raises(ValueError, match="annulled"):
        sample_state(info, random.Random(1))


# ---- the match ---------------------------------------------------------------------------


def test_an_annulled_deal_is_dealt_again_by_the_same_dealer_and_scores_nothing() -> None:
    match = Match(BRAZIL, first_dealer=3)
    state = match.start_deal(deal_with(LEADER_9, OTHER_5, dealer=3))
    with pytest.raises(ValueError, match="not annulled"):
        match.annul_deal(state)
    state.answer_redeal(True)
    with pytest.raises(ValueError, match="annul_deal"):
        match.finish_deal(state)
    annulled = match.annul_deal(state)
    assert (annulled.asked_by, annulled.before) == (0, 0)
    assert match.dealer == 3 and match.score == [0, 0] and not match.results
    assert match.deals == [] and match.annulled == [annulled]
    with pytest.raises(ValueError, match="already annulled"):
        match.annul_deal(state)
    assert match.annulled == [annulled]
    again = match.new_deal(random.Random(2))
    assert again.deal.dealer == 3 and match.deals == [again.deal]


# ---- bots and the arena ------------------------------------------------------------------


def test_the_plain_bots_ask_when_they_may_and_random_answers_legally() -> None:
    state = State(BRAZIL, deal_with(LEADER_9, OTHER_5))
    info = state.information_state(1)
    assert HeuristicBot(1).redeal(info) is True
    assert RandomBot(1).redeal(state.information_state(1)) in (False, True)
    state.answer_redeal(False)
    info = state.information_state(2)  # 5 points: it may only keep
    assert info.redeal_answers_allowed() == (False,)
    assert HeuristicBot(1).redeal(info) is False
    assert all(RandomBot(s).redeal(info) is False for s in range(20))


class AlwaysAsks(RandomBot):
    def redeal(self, info: InformationState) -> bool:
        return True


def test_decide_refuses_an_ask_from_a_strong_hand_or_keeps_for_it() -> None:
    state = State(BRAZIL, deal_with(LEADER_10, OTHER_5))
    info = state.information_state(1)
    with pytest.raises(BotError, match="seat 1"):
        decide(AlwaysAsks(1), info)
    assert decide(AlwaysAsks(1), info, strict=False) == Redeal(False)
    assert decide(HeuristicBot(1), info) == Redeal(False)


@pytest.mark.parametrize("bot", ["heuristic", "random", "pimc:worlds=2:nodes=2000"])
def test_a_bot_match_with_redeals_finishes_and_its_record_checks(bot: str) -> None:
    # The first of a few matches that annuls a deal (which one does depends on the bots' play).
    annulled: list[int] = []
    for seed in range(4, 12):
        bots = [make_bot(bot, seed=s) for s in range(4)]
        annulled.clear()
        match, states = play_match(GENEROUS, bots, random.Random(seed), first_dealer=1,
                                   on_redeal=lambda m, s: annulled.append(s.deal.dealer))
        if match.annulled:
            break
    assert match.is_over and match.annulled and len(annulled) == len(match.annulled)
    assert len(states) == len(match.results) + len(match.annulled)
    report = check(loads(dumps(GameRecord.from_states(GENEROUS, 1, states))))
    assert report["valid"], report["error"]
    assert report["match"] == {"score": match.score, "winner": match.winner}
    redeals = [r for d in report["deals"] for r in d.get("redeals", [])]
    assert [r["asked_by"] for r in redeals] == [a.asked_by for a in match.annulled]


def test_duplicate_boards_redeal_and_their_records_check(tmp_path: Path) -> None:
    summary = run_duplicate(GENEROUS, "heuristic", "random", 3, seed=2, records_dir=tmp_path)
    assert summary.pairs == 3
    texts = [p.read_text(encoding="utf-8") for p in sorted(tmp_path.glob("*.json"))]
    assert any('"redeals"' in t for t in texts)
    assert all(check(loads(t))["valid"] for t in texts)


# ---- records -------------------------------------------------------------------------------


def annulled_then_played() -> tuple[GameRecord, State]:
    """A record: seat 2 asks on dealer 0's first deal, then dealer 0's next deal is played."""
    match = Match(BRAZIL, first_dealer=0)
    first = match.start_deal(deal_with(LEADER_10, OTHER_4))
    first.answer_redeal(False)
    first.answer_redeal(True)
    match.annul_deal(first)
    played = match.new_deal(random.Random(7))
    while played.phase == "redeal":
        played.answer_redeal(False)
    while not played.is_finished():
        played.push(played.legal_moves()[0])
    return GameRecord.from_states(BRAZIL, 0, [first, played]), played


def test_a_record_with_a_redeal_round_trips_and_checks() -> None:
    record, _ = annulled_then_played()
    text = dumps(record)
    data = json.loads(text)
    first = deal_with(LEADER_10, OTHER_4)
    assert data["deals"][0]["redeals"] == [{
        "dealer": 0, "hands": [format_mask(h) for h in first.hands],
        "trump_card": card_name(first.trump_card or 0), "asked_by": 2}]
    assert dumps(loads(text)) == text
    report = check(loads(text))
    assert report["valid"], report["error"]
    assert report["deals"][0]["redeals"] == [{"dealer": 0, "asked_by": 2, "points": 4}]
    assert report["deals"][0]["finished"] and sum(report["deals"][0]["points"]) == 120
    # A reader that knows nothing of redeals reads the deals that were played, as before.
    old = dict(data, rules={"variant": "brazil"})
    old["deals"] = [{k: v for k, v in d.items() if k != "redeals"} for d in data["deals"]]
    assert check(loads(json.dumps(old)))["deals"] == [
        {k: v for k, v in d.items() if k != "redeals"} for d in report["deals"]]


def test_an_empty_redeals_list_round_trips() -> None:
    record, _ = annulled_then_played()
    data = json.loads(dumps(record))
    data["deals"][0]["redeals"] = []
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    assert json.loads(dumps(loads(text)))["deals"][0]["redeals"] == []
    assert check(loads(text))["valid"]


def test_check_refuses_an_ask_by_a_hand_too_strong_naming_seat_and_points() -> None:
    record, _ = annulled_then_played()
    data = json.loads(dumps(record))
    data["deals"][0]["redeals"][0]["asked_by"] = 1  # 10 points, the opening leader
    report = check(loads(json.dumps(data)))
    assert not report["valid"]
    assert report["error"]["deal"] == 0 and report["error"]["play"] is None
    reason = report["error"]["reason"]
    assert reason.startswith("redeal 0: seat 1 holds 10 card points") and "fewer than 10" in reason


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d["deals"][0]["redeals"][0].update(dealer=1), "the same dealer deals again"),
    (lambda d: d["deals"][0]["redeals"][0].update(asked_by=4), "asked_by must be a seat"),
])
def test_check_refuses_a_bad_redeal(change: Any, words: str) -> None:
    record, _ = annulled_then_played()
    data = json.loads(dumps(record))
    change(data)
    report = check(loads(json.dumps(data)))
    assert not report["valid"] and words in report["error"]["reason"]


@pytest.mark.parametrize("redeals", [{}, [1], [{"dealer": 0, "hands": []}]])
def test_a_malformed_redeals_list_is_no_record(redeals: Any) -> None:
    record, _ = annulled_then_played()
    data = json.loads(dumps(record))
    data["deals"][0]["redeals"] = redeals
    with pytest.raises(ValueError, match="redeals"):
        loads(json.dumps(data))


def test_an_annulled_deal_listed_twice_is_an_error_not_a_crash() -> None:
    record, _ = annulled_then_played()
    data = json.loads(dumps(record))
    redeals = data["deals"][0]["redeals"]
    redeals.append(dict(redeals[0]))
    report = check(loads(json.dumps(data)))
    assert not report["valid"] and report["error"]["deal"] == 0
    assert report["error"]["reason"] == "redeal 1: that deal is already annulled"


def test_where_the_rules_do_not_play_it_redeals_are_another_writers_fields() -> None:
    """RECORD.md: readers ignore fields they do not know. Under rules without the option a
    ``redeals`` or ``pending_redeals`` field is not ours: kept as written, never read."""
    record, _ = annulled_then_played()
    data = json.loads(dumps(record))
    data["rules"] = {"variant": "brazil"}
    data["deals"][0]["redeals"] = [{"note": "some other program's field"}]
    data["pending_redeals"] = "anything"
    text = json.dumps(data)
    report = check(loads(text))
    assert report["valid"], report["error"]
    again = json.loads(dumps(loads(text)))
    assert again["deals"][0]["redeals"] == data["deals"][0]["redeals"]
    assert again["pending_redeals"] == "anything"


def test_a_bad_pending_redeal_is_reported_at_the_last_deal() -> None:
    """``error.deal`` indexes ``deals``: a pending redeal's error names the deal it follows."""
    record, played = annulled_then_played()
    data = json.loads(dumps(record))
    # Dealer 1 deals next: the played deal's hands moved one seat on (he holds the trump).
    hands = [played.deal.hands[(seat - 1) % 4] for seat in range(4)]
    strongest = max(range(4), key=lambda seat: hand_points(BRAZIL, hands[seat]))
    points = hand_points(BRAZIL, hands[strongest])
    assert points >= 10
    data["pending_redeals"] = [{
        "dealer": 1, "hands": [format_mask(h) for h in hands],
        "trump_card": card_name(played.deal.trump_card or 0), "asked_by": strongest}]
    report = check(loads(json.dumps(data)))
    assert not report["valid"] and report["error"]["deal"] == len(data["deals"]) - 1
    assert report["error"]["reason"].startswith(
        f"pending redeal 0 (after this deal): seat {strongest} holds {points} card points")


def test_a_deal_annulled_last_is_kept_as_pending_redeals() -> None:
    match = Match(BRAZIL, first_dealer=0)
    state = match.start_deal(deal_with(LEADER_9, OTHER_4))
    state.answer_redeal(True)
    match.annul_deal(state)
    text = dumps(GameRecord.from_states(BRAZIL, 0, [state]))
    assert json.loads(text)["pending_redeals"][0]["asked_by"] == 1
    replayed = check(loads(text))
    assert replayed["valid"] and replayed["deals"] == []
    assert replayed["pending_redeals"] == [{"dealer": 0, "asked_by": 1, "points": 9}]
    assert dumps(loads(text)) == text


# ---- the bot protocol ----------------------------------------------------------------------

TINY_BOT = r'''
import json, sys
log = open(sys.argv[1], "a", encoding="utf-8")
mode = sys.argv[2]
for line in sys.stdin:
    message = json.loads(line)
    log.write(line)
    log.flush()
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "tiny"}), flush=True)
    elif kind == "redeal_turn" and mode != "old":
        print(json.dumps({"type": "redeal", "ask": mode == "ask"}), flush=True)
    elif kind == "turn":
        print(json.dumps({"type": "play", "card": message["legal"][0]}), flush=True)
    elif kind == "quit":
        break
'''


def tiny(tmp_path: Path, mode: str) -> tuple[str, Path]:
    script = tmp_path / "tiny.py"
    script.write_text(TINY_BOT, encoding="utf-8")
    log = tmp_path / f"{mode}.jsonl"
    return f"{sys.executable} {script} {log} {mode}", log


def messages(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_a_program_is_asked_only_with_a_weak_hand_and_hears_every_answer(tmp_path: Path
                                                                         ) -> None:
    command, log = tiny(tmp_path, "ask")
    external = ExternalBot(command)
    bots: list[Bot] = [HeuristicBot(0), external, HeuristicBot(2), HeuristicBot(3)]
    for seat, bot in enumerate(bots):
        bot.new_match(BRAZIL, seat)
    state = State(BRAZIL, deal_with(LEADER_9, OTHER_5))
    info = state.information_state(1)
    assert decide(external, info) == Redeal(True)
    state.answer_redeal(True, 1)
    external.deal_annulled(state.information_state(1))
    external.close()
    assert external.errors == []
    sent = messages(log)
    kinds = [m["type"] for m in sent]
    assert kinds[:3] == ["hello", "match", "deal"]
    question = sent[kinds.index("redeal_turn")]
    assert question["points"] == 9 and question["limit"] == 10
    assert {"type": "redeal", "seat": 1, "ask": True} in sent
    assert "deal_end" not in kinds  # an annulled deal's cards are never shown


def test_a_program_that_ignores_the_question_keeps_and_is_not_asked_again(tmp_path: Path
                                                                          ) -> None:
    command, log = tiny(tmp_path, "old")
    old = ExternalBot(command, time_ms=50, grace_ms=150)
    bots: list[Bot] = [HeuristicBot(0), old, HeuristicBot(2), HeuristicBot(3)]
    # Seed 1: seat 1 has a weak hand once in this match (the others ask three times).
    match, states = play_match(GENEROUS, bots, random.Random(1), first_dealer=0)
    old.close()
    assert match.is_over
    assert len(old.errors) == 1 and "keeping the hand" in old.errors[0]
    assert [m["type"] for m in messages(log)].count("redeal_turn") == 1
    assert all(s.redeal_by != 1 for s in states)  # it never asked: it kept


def test_sueca_bot_answers_the_question_and_follows_the_answers() -> None:
    session = BotSession(HeuristicBot(1))
    deal = deal_with(LEADER_10, OTHER_4)
    hand = [c for c in mask_cards(deal.hands[2])]
    session.handle({"type": "match", "rules": BRAZIL.to_dict(), "seat": 2})
    trump: Card | None = deal.trump_card
    assert trump is not None
    session.handle({"type": "deal", "dealer": 0, "hand": [card_name(c) for c in hand],
                    "trump_card": card_name(trump)})
    session.handle({"type": "redeal", "seat": 1, "ask": False})
    assert session.handle({"type": "redeal_turn", "points": 4, "limit": 5,
                           "time_ms": 1000}) == [{"type": "redeal", "ask": True}]
    session.handle({"type": "redeal", "seat": 2, "ask": True})
    assert session.tracker is None  # the annulled deal is over: a new deal follows
    # A referee that never tells the answers: a card played means every seat kept.
    session.handle({"type": "deal", "dealer": 0, "hand": [card_name(c) for c in hand],
                    "trump_card": card_name(trump)})
    first = mask_cards(deal.hands[1])[0]
    session.handle({"type": "shown", "seat": 1, "cards": [card_name(first)]})
    session.handle({"type": "played", "seat": 1, "card": card_name(first)})
    assert session.tracker is not None and session.tracker.state.phase == "play"


def test_may_ask_follows_rules_md_counted_independently() -> None:
    """RULES.md section 5, counted from the cards' names: the player on lead may ask with
    fewer than the first limit, anyone else with fewer than the second (15 and 15 here; the
    defaults below, with a Maria de Copas bonus counting as card points)."""
    values = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}
    rng = random.Random(5)
    for rules, limits in ((GENEROUS, (15, 15)), (BRAZIL.replace(maria_de_copas=5), (10, 5))):
        asked = 0
        for _ in range(300):
            state = State(rules, deal_cards(rules, rng.randrange(4), rng))
            leader = (state.deal.dealer + 1) % 4
            for seat in range(4):
                names = format_mask(state.hands[seat]).split()
                points = sum(values.get(name[0], 0) for name in names)
                points += rules.maria_de_copas * ("QH" in names)
                limit = limits[0] if seat == leader else limits[1]
                assert state.may_ask_redeal(seat) == (points < limit), (seat, names)
                asked += points < limit
        assert asked  # the limits were met at times: both answers were checked


def _seed_with_a_weak_first_hand(rules: Rules) -> int:
    """A seed whose first deal (dealt as the test below deals it) has a seat that may ask."""
    for seed in range(100):
        rng = random.Random(seed)
        state = Match(rules, first_dealer=rng.randrange(rules.players)).new_deal(rng)
        if any(state.may_ask_redeal(seat) for seat in range(rules.players)):
            return seed
    raise AssertionError("no weak hand in 100 first deals")


@pytest.mark.parametrize("options", [{}, {"dummy": 2}, {"variant": "double8"}])
def test_the_protocol_tracker_rebuilds_every_information_state(options: dict[str, Any]
                                                               ) -> None:
    """Every seat, told each answer as it comes, rebuilds the referee's information state
    field by field through the redeal question, an annulled deal and the play after it."""
    from test_protocol_tables import Listener, assert_same

    rules = Rules.from_dict({"variant": "brazil", "weak_hand_redeal": True,
                             "weak_hand_limits": [15, 15], **options})
    rng = random.Random(_seed_with_a_weak_first_hand(rules))
    match = Match(rules, first_dealer=rng.randrange(rules.players))
    listeners = [Listener(rules, s) for s in range(rules.players)]
    annulled = 0
    while True:
        state = match.new_deal(rng)
        while state.phase == "redeal":
            for seat, listener in enumerate(listeners):
                assert_same(listener.sync(state), state.information_state(seat), f"seat {seat}")
            ask = state.may_ask_redeal(state.to_play) and (annulled < 2 or rng.random() < 0.3)
            state.answer_redeal(ask)
        if state.redeal_by is not None:
            for seat, listener in enumerate(listeners):
                listener.tell(listener.feed.deal_annulled(state.information_state(seat)))
                assert listener.messages[-1] == {"type": "redeal", "seat": state.redeal_by,
                                                 "ask": True}
                assert listener.session.tracker is None
            match.annul_deal(state)
            annulled += 1
            continue
        for _ in range(2 * rules.players):
            for seat, listener in enumerate(listeners):
                assert_same(listener.sync(state), state.information_state(seat), f"seat {seat}")
            state.push(rng.choice(state.legal_moves()))
        break
    assert annulled


def test_sueca_check_names_who_asked_and_his_points(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from sueca.cli import app

    match, states = play_match(GENEROUS, [HeuristicBot(s) for s in range(4)],
                               random.Random(1), first_dealer=0)
    assert match.annulled
    path = tmp_path / "match.json"
    path.write_text(dumps(GameRecord.from_states(GENEROUS, 0, states)), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    first = states[0]
    assert first.redeal_by is not None
    points = hand_points(GENEROUS, first.deal.hands[first.redeal_by])
    assert f"new deal asked by seat {first.redeal_by + 1} ({points} points)" in result.output
