"""The bot protocol at every table of RULES.md sections 3 and 4: the seat tracker rebuilds each
seat's information state from the referee's messages, auction, dummy, open hands and double
deck included; external programs play an italiana5 match and double-deck deals through
``cmd:``; bad bids and calls and programs without the auction never stop the referee; and no
message tells a seat who the declarer's secret partner is."""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from sueca.arena.play import play_match, play_out
from sueca.auction import PASS, lowest_bid
from sueca.bots import Bot, HeuristicBot, RandomBot
from sueca.cards import DECK_SIZE, card_face, card_name, mask_cards, parse_card
from sueca.deal import Deal, deal_cards
from sueca.infostate import InformationState
from sueca.match import Match
from sueca.protocol import (
    BotSession,
    ExternalBot,
    ProtocolError,
    SeatFeed,
    copies,
    decode,
    encode,
)
from sueca.rules import MAX_BID, Rules, preset
from sueca.state import State

# ---- every table: the tracker rebuilds the referee's information state --------------------

TABLES: dict[str, dict[str, Any]] = {
    "standard": {"variant": "standard"},
    "three-players": {"variant": "standard", "dummy": 2},
    "three-players-dummy-0": {"variant": "brazil", "dummy": 0, "review_tricks": True},
    "open-hands": {"variant": "italiana", "open_hands": True},
    "double8": {"variant": "double8"},
    "double8-dummy": {"variant": "double8", "dummy": 3},
    "double6": {"variant": "double6", "review_tricks": True},
    "double6-open": {"variant": "double6", "open_hands": True},
    "italiana5": {"variant": "italiana5"},
    "italiana5-open": {"variant": "italiana5", "open_hands": True},
}


def _faces(mask: int) -> tuple[int, ...]:
    return tuple(sorted(card_face(c) for c in mask_cards(mask)))


def _ids(mask: int, played: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A mask's cards: the very ids of those whose face has been played, the faces of the
    others. With two decks the table numbers a face's copies by play order (the first copy
    played is ``c``, the other from then on ``c + 40``, wherever it is), so once a face is
    played the tracker must hold the referee's ids exactly. Before, a copy's id is the deal's
    coin toss (sueca.deal.number_copies, seeded with every hand's faces): no message carries
    it, not even for the seat's own hand (``deal`` names faces), so no tracker can know it,
    and no rule of play tells the two copies apart."""
    cards = mask_cards(mask)
    return (tuple(sorted(c for c in cards if played >> card_face(c) & 1)),
            tuple(sorted(card_face(c) for c in cards if not played >> card_face(c) & 1)))


def _id(card: int | None, played: int) -> object:
    if card is None or played >> card_face(card) & 1:
        return card
    return f"face {card_face(card)}"


# How each compared field of InformationState is compared, given the faces played so far (a
# mask): plays exactly, cards still held as _ids says. A new field fails the test until it is
# listed here, so the comparison cannot silently skip it.
_NORMAL: dict[str, Callable[[Any, int], object]] = {
    "rules": lambda v, p: v,
    "seat": lambda v, p: v,
    "dealer": lambda v, p: v,
    "trump_card": _id,
    "hand": _ids,
    "to_play": lambda v, p: v,
    "leader": lambda v, p: v,
    "trick": lambda v, p: v,
    "plays": lambda v, p: v,
    "trick_winners": lambda v, p: v,
    "known": lambda v, p: tuple(_ids(m, p) for m in v),
    "hand_sizes": lambda v, p: v,
    "voids": lambda v, p: v,
    "past_tricks": lambda v, p: v,
    "points_taken": lambda v, p: v,
    "phase": lambda v, p: v,
    "first_leader": lambda v, p: v,
    "bids": lambda v, p: v,
    "contract": lambda v, p: v,
    "teams": lambda v, p: v,
    "seat_points": lambda v, p: v,
    "redeal_answers": lambda v, p: v,
    "redeal_by": lambda v, p: v,
    "denunciations": lambda v, p: v,
}


def assert_same(rebuilt: InformationState, real: InformationState, where: str) -> None:
    played = 0
    for card in real.plays:
        played |= 1 << card_face(card)
    for f in dataclasses.fields(InformationState):
        if not f.compare:
            continue
        assert f.name in _NORMAL, f"InformationState.{f.name} is not compared: add it"
        ours = _NORMAL[f.name](getattr(rebuilt, f.name), played)
        theirs = _NORMAL[f.name](getattr(real, f.name), played)
        assert ours == theirs, f"{where}: {f.name} {ours!r} != {theirs!r}"
    if real.trump_card is not None:  # the turned card's being in view, copies aside
        assert rebuilt.trump_card_held == real.trump_card_held, where


class _Silent(Bot):
    """A bot for sessions that are only listened to."""

    name = "silent"

    def choose(self, info: InformationState) -> int:
        return info.legal_moves()[0]


def random_action(state: State, rng: random.Random) -> None:
    """A random bid, call or card for the seat to move."""
    if state.phase == "bidding":
        low = lowest_bid(state.rules, state.bids)
        state.bid(rng.randint(low, MAX_BID) if low <= MAX_BID and rng.random() < 0.4 else PASS)
    elif state.phase == "calling":
        state.call(rng.randrange(state.rules.deck_size))
    else:
        state.push(rng.choice(state.legal_moves()))


class Listener:
    """One seat's referee feed wired to a bot-side session, as over a pipe (JSON both ways)."""

    def __init__(self, rules: Rules, seat: int) -> None:
        self.feed = SeatFeed()
        self.feed.start_match(rules, seat)
        self.session = BotSession(_Silent())
        self.seat = seat
        self.messages: list[dict[str, Any]] = []

    def tell(self, messages: Sequence[dict[str, Any]]) -> None:
        for message in messages:
            message = decode(encode(message))
            self.messages.append(message)
            self.session.handle(message)

    def sync(self, state: State) -> InformationState:
        self.tell(self.feed.catch_up(state.information_state(self.seat)))
        tracker = self.session.tracker
        assert tracker is not None
        return tracker.information_state()


@pytest.mark.parametrize("table", TABLES)
def test_the_tracker_rebuilds_every_information_state(table: str) -> None:
    check_tracker(table, deals=2, seed=table)


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES)
def test_the_tracker_rebuilds_every_information_state_over_many_deals(table: str) -> None:
    check_tracker(table, deals=25, seed=f"{table}:many")


def check_tracker(table: str, deals: int, seed: str) -> None:
    """Every seat hears of every action at once (eager) or only when asked (lazy, as
    ExternalBot does); at each point its rebuilt state equals the referee's, field by field.
    The dummy's partner also rebuilds the dummy's own information state."""
    rules = Rules.from_dict(TABLES[table])
    rng = random.Random(seed)
    for number in range(deals):
        deal = deal_cards(rules, rng.randrange(rules.players), rng)
        state = State(rules, deal)
        eager = [Listener(rules, s) for s in range(rules.players)]
        lazy = [Listener(rules, s) for s in range(rules.players)]
        controller = rules.controller_of(rules.dummy) if rules.dummy is not None else None
        while True:
            where = f"{table} deal {number}, after {len(state.bids)} bids, {len(state.plays)} cards"
            for seat, listener in enumerate(eager):
                assert_same(listener.sync(state), state.information_state(seat),
                            f"{where}, seat {seat}")
            if controller is not None and rules.dummy is not None:
                tracker = eager[controller].session.tracker
                assert tracker is not None
                assert_same(tracker.information_state(rules.dummy),
                            state.information_state(rules.dummy), f"{where}, dummy")
            if state.is_finished():
                break
            mover = rules.controller_of(state.to_play) if state.phase == "play" else (
                state.to_play)
            assert_same(lazy[mover].sync(state), state.information_state(mover),
                        f"{where}, lazy seat {mover}")
            random_action(state, rng)
        for seat, listener in enumerate(lazy):
            listener.tell(listener.feed.deal_end(state.information_state(seat)))
            assert listener.session.tracker is None  # deal_end closes the deal
            assert listener.messages[-1]["type"] == "deal_end"
        for seat, listener in enumerate(eager):
            assert_same(listener.sync(state), state.information_state(seat), f"{table} end")
        for listener in eager + lazy:
            assert_told_once(listener.messages, deal)


def assert_told_once(messages: Sequence[dict[str, Any]], deal: Deal) -> None:
    """One ``deal`` message for the deal (a second one mid-deal would restart the bot's
    tracker), and no card of a hand shown twice: with two decks the state renumbers copies
    as they are played, which must not look like news to the feed."""
    assert sum(m["type"] == "deal" for m in messages) == 1
    shown: list[list[int]] = [[] for _ in deal.hands]
    for m in messages:
        if m["type"] == "shown":
            shown[m["seat"]].extend(parse_card(c) for c in m["cards"])
    for seat, faces in enumerate(shown):
        dealt = [card_face(c) for c in mask_cards(deal.hands[seat])]
        assert all(faces.count(f) <= dealt.count(f) for f in faces), f"seat {seat} shown twice"


@pytest.mark.parametrize("open_hands", [False, True])
@pytest.mark.parametrize("first", ["twin", "turned"])
def test_the_turned_card_and_its_twin_stay_apart(first: str, open_hands: bool) -> None:
    """Two decks: the dealer holds the turned card and its twin. Whichever copy he plays
    first, the table sees the turned card go (``played`` says ``turned``) and his twin stays
    hidden: no other seat is told he still holds that face, unless hands are open."""
    rules = preset("double8").replace(open_hands=open_hands)
    rng = random.Random(first)
    while True:
        deal = deal_cards(rules, rng.randrange(8), rng)
        turned = deal.trump_card
        assert turned is not None
        twin = (turned + DECK_SIZE) % (2 * DECK_SIZE)
        if deal.hands[deal.dealer] >> twin & 1:
            break
    state = State(rules, deal)
    listeners = [Listener(rules, s) for s in range(8)]
    wanted = [twin, turned] if first == "twin" else [turned, twin]
    face_played = False
    while not state.is_finished():
        for seat, listener in enumerate(listeners):
            assert_same(listener.sync(state), state.information_state(seat), f"seat {seat}")
        if face_played and not open_hands:
            onlooker = state.information_state((deal.dealer + 1) % 8)
            held = onlooker.known[deal.dealer]
            assert not any(held >> c & 1 for c in copies(card_face(turned), rules))
        legal = state.legal_moves()
        mine = [c for c in wanted if c in legal and state.to_play == deal.dealer]
        state.push(mine[0] if mine else rng.choice(legal))
        face_played = face_played or card_face(state.plays[-1]) == card_face(turned)
    for seat, listener in enumerate(listeners):
        assert_same(listener.sync(state), state.information_state(seat), f"end, seat {seat}")
        assert_told_once(listener.messages, deal)
    flags = [m.get("turned", False) for m in listeners[1].messages
             if m["type"] == "played" and m["seat"] == deal.dealer
             and parse_card(m["card"]) == card_face(turned)]
    assert flags == [True, False]


def test_deal_end_carries_the_set_aside_cards_and_every_hand() -> None:
    rules = preset("double6")
    rng = random.Random(3)
    state = State(rules, deal_cards(rules, 2, rng))
    while not state.is_finished():
        random_action(state, rng)
    (end,) = [m for m in SeatFeed().deal_end(state.information_state(1))
              if m["type"] == "deal_end"]
    assert len(end["hands"]) == 6 and all(len(h) == 13 for h in end["hands"])
    assert [parse_card(c) for c in end["set_aside"]] == [
        card_face(c) for c in mask_cards(state.deal.set_aside(rules))]
    named = sorted(parse_card(c) for h in end["hands"] for c in h) + [
        parse_card(c) for c in end["set_aside"]]
    assert sorted(named) == sorted(list(range(DECK_SIZE)) * 2)  # every card of both decks
    assert end["points"] == state.team_points() and "seat_points" not in end


def test_a_hand_naming_a_card_twice_is_two_copies_at_a_double_deck_table() -> None:
    rules = preset("double8")
    rng = random.Random(11)
    for _ in range(50):  # find a deal where seat 0 holds both copies of a card
        deal = deal_cards(rules, 5, rng)
        hand = deal.hands[0]
        twins = [c for c in range(DECK_SIZE) if hand >> c & 1 and hand >> (c + DECK_SIZE) & 1]
        if twins:
            break
    else:
        pytest.fail("no deal with a twin in 50 tries")
    listener = Listener(rules, 0)
    info = listener.sync(State(rules, deal))
    (deal_message,) = [m for m in listener.messages if m["type"] == "deal"]
    assert deal_message["hand"].count(card_name(twins[0])) == 2
    assert _faces(info.hand) == _faces(hand) and info.hand.bit_count() == 10


# ---- external programs at the new tables -------------------------------------------------

# A whole bot in the standard library for every table: it logs what it hears, bids the least
# it may on a good hand, calls the ace of its longest suit, plays its first legal card; or
# misbehaves as its second argument says.
TABLE_BOT = r'''
import json, sys
log = open(sys.argv[1], "a", encoding="utf-8")
mode = sys.argv[2] if len(sys.argv) > 2 else "good"
hand = []
def say(message):
    print(json.dumps(message), flush=True)
for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        say({"type": "hello", "name": "table-bot"})
    elif kind == "deal":
        hand = message["hand"]
    elif kind == "bid_turn" and mode != "old":
        if mode == "badbid":
            say({"type": "bid", "value": 50})
            continue
        if mode == "garbagebid":
            say({"type": "bid", "value": "lots"})
            continue
        aces = sum(card[0] in "A7" for card in hand)
        low = message["min"]
        say({"type": "bid", "value": low if aces >= 2 and low <= message["max"] else 0})
    elif kind == "call_turn" and mode != "old":
        if mode in ("badcall", "badbid", "garbagebid"):
            say({"type": "call", "card": "ZZ"})
            continue
        suits = [card[1] for card in hand]
        say({"type": "call", "card": "A" + max("SHDC", key=suits.count)})
    elif kind == "turn":
        say({"type": "play", "card": message["legal"][0]})
    elif kind == "quit":
        break
'''


@pytest.fixture
def table_bot(tmp_path: Path) -> Callable[..., str]:
    script = tmp_path / "table_bot.py"
    script.write_text(TABLE_BOT, encoding="utf-8")

    def command(log: str = "log", mode: str = "good") -> str:
        return f"{sys.executable} {script} {tmp_path / (log + '.jsonl')} {mode}"

    return command


def logged(command: str) -> list[dict[str, Any]]:
    path = Path(command.split()[2])
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


class Passer(RandomBot):
    """Plays at random and never bids."""

    def bid(self, info: InformationState) -> int:
        return PASS


def auction_then_play(state: State, bots: Sequence[Bot]) -> State:
    """The auction through the Bot interface (bid, call), then the arena's play_out."""
    while state.phase in ("bidding", "calling"):
        seat = state.to_play
        info = state.information_state(seat)
        if state.phase == "bidding":
            state.bid(bots[seat].bid(info), seat)
        else:
            state.call(bots[seat].call(info), seat)
    return play_out(state, bots)


def one_deal_match(rules: Rules, bots: Sequence[Bot], rng: random.Random, first_dealer: int
                   ) -> list[State]:
    """The arena's play_match (new_match for every seat, the deal, deal_over), stopped after
    its first deal."""

    def stop(match: Match, state: State) -> None:
        match.winner = 0

    return play_match(rules, bots, rng, first_dealer=first_dealer, on_deal=stop)[1]


def test_external_programs_play_a_whole_italiana5_match(table_bot: Callable[..., str]) -> None:
    rules = preset("italiana5")
    commands = [table_bot("seat1"), table_bot("seat3")]
    # The others never bid, so the programs win every auction one of them bids in.
    bots: list[Bot] = [Passer(1), ExternalBot(commands[0], seed=2), Passer(3),
                       ExternalBot(commands[1], seed=4), Passer(5)]
    match = Match(rules, first_dealer=0)
    for seat, bot in enumerate(bots):
        bot.new_match(rules, seat)
    rng = random.Random(9)
    states = []
    try:
        while not match.is_over:
            state = auction_then_play(match.new_deal(rng), bots)
            match.finish_deal(state)
            states.append(state)
    finally:
        for bot in bots:
            bot.close()
    assert len(states) >= 2 and max(match.score) >= rules.match_target
    for seat, command in zip((1, 3), commands, strict=True):
        external = bots[seat]
        assert isinstance(external, ExternalBot)
        assert external.errors == [] and external.remote_name == "table-bot"
        messages = logged(command)
        kinds = [m["type"] for m in messages]
        assert kinds.count("deal") == kinds.count("deal_end") == len(states)
        assert kinds.count("bid_turn") == len(states)  # each player bids once a deal
        assert kinds.count("bid") == 5 * len(states)  # every bid, its own echoed
        assert kinds.count("contract") == len(states)
        assert kinds.count("played") == 40 * len(states)
        assert kinds.count("turn") == 8 * len(states)
        assert "shown" not in kinds  # a closed table shows nothing
        for message in messages:
            if message["type"] == "deal":
                assert set(message) == {"type", "dealer", "hand"}  # no trump card turned
                assert len(message["hand"]) == 8
            if message["type"] == "deal_end":
                assert set(message) == {"type", "points", "hands", "seat_points"}
                assert sum(message["seat_points"]) == 120
        deals = iter(states)
        for message in messages:
            if message["type"] == "contract":
                contract = next(deals).contract
                assert contract is not None
                assert message == {"type": "contract", "declarer": contract.declarer,
                                   "bid": contract.bid,
                                   "called_card": card_name(contract.called_card),
                                   "trump": "SHDC"[contract.trump]}
    assert any(s.contract is not None and s.contract.declarer in (1, 3) for s in states)


def test_external_programs_play_a_double8_deal_through_the_arena(
        table_bot: Callable[..., str]) -> None:
    rules = preset("double8")
    command = table_bot("double8")
    bots: list[Bot] = [ExternalBot(command, seed=s) if s % 3 == 0 else HeuristicBot(s)
                       for s in range(8)]
    try:
        states = one_deal_match(rules, bots, random.Random(4), first_dealer=7)
    finally:
        for bot in bots:
            bot.close()
    (state,) = states
    assert state.is_finished()
    assert all(isinstance(b, ExternalBot) and b.errors == [] for b in bots[::3])
    messages = logged(command)
    kinds = [m["type"] for m in messages]
    assert kinds.count("deal") == kinds.count("deal_end") == 3
    assert kinds.count("turn") == 30 and kinds.count("played") == 3 * 80
    for message in messages:
        if message["type"] == "deal_end":
            names = [c for hand in message["hands"] for c in hand]
            assert len(message["hands"]) == 8 and len(names) == 80
            assert all(names.count(c) == 2 for c in names)  # two decks: every card twice
    turned = [m for m in messages if m.get("turned")]
    assert all(m["card"] == card_name(state.deal.trump_card or 0) and m["seat"] == 7
               for m in turned)


def test_our_bot_program_plays_an_italiana5_deal_through_cmd() -> None:
    """Both sides of the protocol end to end: ``sueca bot heuristic`` seated by cmd: at the
    dealer's seat, so that it bids first and, the others passing, calls the card."""
    program = ExternalBot(f"{sys.executable} -m sueca.cli bot heuristic")
    rules = preset("italiana5")
    bots: list[Bot] = [Passer(0), Passer(1), Passer(2), program, Passer(4)]
    try:
        for seat, bot in enumerate(bots):
            bot.new_match(rules, seat)
        state = auction_then_play(State(rules, deal_cards(rules, 3, random.Random(5))), bots)
    finally:
        program.close()
    assert state.is_finished() and state.bids[1:] == [PASS] * 4
    assert state.contract is not None and state.contract.declarer == 3
    assert program.errors == [] and program.remote_name == "heuristic"
    assert state.contract.bid == state.bids[0]


@pytest.mark.slow
@pytest.mark.parametrize("table", ["italiana5", "double8", "double6", "three-players",
                                   "open-hands"])
def test_a_bot_plays_the_same_through_the_protocol_as_in_process(table: str) -> None:
    """``sueca bot heuristic`` seated by cmd: bids, calls and plays exactly the cards the same
    bot plays in process: what it rebuilds from the messages is what the referee's seat sees
    (at the three-player table the program plays a seat and its dummy)."""
    rules = Rules.from_dict(TABLES[table])
    seat = 1 if rules.dummy is None else rules.controller_of(rules.dummy)
    deal = deal_cards(rules, 0, random.Random(table))

    def seated(player: Bot) -> list[Bot]:
        bots: list[Bot] = [HeuristicBot(s) for s in range(rules.players)]
        bots[seat] = player
        if rules.dummy is not None:
            bots[rules.dummy] = player
        return bots

    program = ExternalBot(f"{sys.executable} -m sueca.cli bot heuristic --seed {{seed}}",
                          seed=seat, time_ms=5000)
    results = []
    for bots in (seated(HeuristicBot(seat)), seated(program)):
        for s, bot in enumerate(bots):
            bot.new_match(rules, s)
        results.append(auction_then_play(State(rules, deal), bots))
    program.close()
    assert program.errors == []
    assert results[0].bids == results[1].bids and results[0].contract == results[1].contract
    assert [card_face(c) for c in results[0].plays] == [card_face(c) for c in results[1].plays]


@pytest.mark.slow
def test_our_bot_program_plays_a_dummy_through_cmd() -> None:
    """Three players: one ``sueca bot`` program plays seat 0 and its partner's dummy, seat 2."""
    program = f"{sys.executable} -m sueca.cli bot heuristic"
    three = Rules.from_dict({"variant": "standard", "dummy": 2})
    partner = ExternalBot(program)
    seated: list[Bot] = [partner, HeuristicBot(1), partner, HeuristicBot(3)]
    try:
        states = one_deal_match(three, seated, random.Random(6), first_dealer=1)
    finally:
        partner.close()
    assert states[0].is_finished() and partner.errors == []


def test_a_dummy_turn_names_the_dummy_and_its_partner_sees_the_dummy(
        table_bot: Callable[..., str]) -> None:
    rules = Rules.from_dict({"variant": "standard", "dummy": 0})  # seat 2 plays seat 0
    command = table_bot("dummy")
    partner = ExternalBot(command)
    bots: list[Bot] = [partner, HeuristicBot(1), partner, HeuristicBot(3)]
    try:
        states = one_deal_match(rules, bots, random.Random(2), first_dealer=3)
    finally:
        partner.close()
    assert partner.errors == []
    messages = logged(command)
    assert [m for m in messages if m["type"] == "match"] == [
        {"type": "match", "rules": {"variant": "standard", "dummy": 0}, "seat": 2}]
    turns = [m for m in messages if m["type"] == "turn"]
    assert len(turns) == 20 and sum(m.get("seat") == 0 for m in turns) == 10
    (shown,) = [m for m in messages if m["type"] == "shown"]
    assert shown["seat"] == 0 and messages.index(shown) < messages.index(turns[0])
    assert sorted(parse_card(c) for c in shown["cards"]) == sorted(
        mask_cards(states[0].deal.hands[0]))
    assert [m["type"] for m in messages].count("deal_end") == 1


@pytest.mark.parametrize(("mode", "problem"), [
    ("badbid", "a bid is 61 to 120 card points, or 0 to pass, not 50"),
    ("garbagebid", "a bid is 61 to 120 card points, or 0 to pass, not 'lots'"),
    ("badcall", None),
])
def test_a_bad_bid_or_call_is_refused_and_the_deal_goes_on(
        table_bot: Callable[..., str], mode: str, problem: str | None) -> None:
    rules = preset("italiana5")
    command = table_bot(mode, mode)
    external = ExternalBot(command, time_ms=300, grace_ms=500)
    # Seat 2 deals, so it bids first; the others pass, so it is the declarer and calls.
    bots: list[Bot] = [Passer(0), Passer(1), external, Passer(3), Passer(4)]
    for seat, bot in enumerate(bots):
        bot.new_match(rules, seat)
    deal = deal_cards(rules, 2, random.Random(1))
    state = auction_then_play(State(rules, deal), bots)
    external.close()
    assert state.is_finished()
    name = f"cmd:{command}: seat 2: "
    errors = list(external.errors)
    if problem is not None:
        assert state.bids[0] == PASS
        assert errors[:2] == [f"{name}bad bid: {problem}; asking again",
                              f"{name}bad bid: {problem}; passing"]
        errors = errors[2:]
    assert state.contract is not None and state.contract.declarer == 2
    fallback = Bot.call(external, _info_at_call(rules, deal, state.bids))
    assert errors == [
        f"{name}bad call: 'ZZ' is not a card; asking again",
        f"{name}bad call: 'ZZ' is not a card; calling the fallback card {card_name(fallback)}"]
    assert state.contract.called_card == fallback


def _info_at_call(rules: Rules, deal: Deal, bids: Sequence[int]) -> InformationState:
    state = State(rules, deal)
    for value in bids:
        state.bid(value)
    return state.information_state(state.to_play)


def test_a_program_that_predates_the_auction_times_out_and_passes(
        table_bot: Callable[..., str]) -> None:
    rules = preset("italiana5")
    command = table_bot("old", "old")
    old = ExternalBot(command, time_ms=100, grace_ms=200)
    bots: list[Bot] = [old, HeuristicBot(1), HeuristicBot(2), HeuristicBot(3), HeuristicBot(4)]
    for seat, bot in enumerate(bots):
        bot.new_match(rules, seat)
    started = time.monotonic()
    states = []
    for dealer in (0, 1):  # seat 0 deals first: every pass makes it the declarer
        deal = deal_cards(rules, dealer, random.Random(dealer))
        states.append(auction_then_play(State(rules, deal), bots))
    old.close()
    assert time.monotonic() - started < 10
    assert all(s.is_finished() and s.bids[(0 - s.deal.dealer) % 5] == PASS for s in states)
    assert len(old.errors) == 1 and "predates the auction" in old.errors[0]
    assert old.errors[0].startswith(f"cmd:{command}: seat 0: no answer within 0.3 s")
    kinds = [m["type"] for m in logged(command)]
    assert kinds.count("bid_turn") == 1 and "call_turn" not in kinds  # asked once only
    assert kinds.count("turn") == 16  # it still plays its cards


# ---- the secret partner ------------------------------------------------------------------


def test_no_message_tells_a_defender_who_the_partner_is() -> None:
    """A seat that is neither declarer nor partner gets the same messages whoever holds the
    called card, up to its being played: swapping the partner's hand with another defender's
    changes nothing it is told. And nothing it is told names a partner."""
    rules = preset("italiana5")
    rng = random.Random(21)
    checked = 0
    while checked < 20:
        deal = deal_cards(rules, rng.randrange(5), rng)
        state = State(rules, deal)
        while state.phase == "bidding":
            low = lowest_bid(rules, state.bids)
            state.bid(low if rng.random() < 0.3 and low <= MAX_BID else PASS)
        declarer = state.to_play
        called = next(c for c in range(DECK_SIZE) if not deal.hands[declarer] >> c & 1)
        partner = next(s for s in range(5) if deal.hands[s] >> called & 1)
        for observer in (s for s in range(5) if s not in (declarer, partner)):
            other = next(s for s in range(5) if s not in (declarer, partner, observer))
            swapped = list(deal.hands)
            swapped[partner], swapped[other] = swapped[other], swapped[partner]
            told = [_told_until_either_plays(rules, Deal(deal.dealer, tuple(h), None),
                                             state.bids, called, observer, (partner, other))
                    for h in (deal.hands, swapped)]
            assert told[0] == told[1]
            for message in told[0]:
                assert "partner" not in json.dumps(message)
                if message["type"] == "contract":
                    assert set(message) == {"type", "declarer", "bid", "called_card", "trump"}
            checked += 1


def _told_until_either_plays(rules: Rules, deal: Deal, bids: Sequence[int], called: int,
                             observer: int, hidden: tuple[int, int]) -> list[dict[str, Any]]:
    """What ``observer`` is told from the deal until one of ``hidden`` is to play (the
    plays before that follow from the observer's and the declarer's hands alone)."""
    state = State(rules, deal)
    for value in bids:
        state.bid(value)
    state.call(called)
    feed = SeatFeed()
    feed.start_match(rules, observer)
    told = feed.catch_up(state.information_state(observer))
    while state.to_play not in hidden:
        state.push(state.legal_moves()[0])
        told += feed.catch_up(state.information_state(observer))
    return told


# ---- the bot side refuses what cannot happen ---------------------------------------------


def _session(rules: Rules, seat: int, dealer: int, hand: Sequence[str]) -> BotSession:
    session = BotSession(HeuristicBot(1))
    session.handle({"type": "match", "rules": rules.to_dict(), "seat": seat})
    session.handle({"type": "deal", "dealer": dealer, "hand": list(hand)})
    return session


def test_the_bot_side_bids_calls_and_plays_through_the_bot_interface() -> None:
    rules = preset("italiana5")
    deal = deal_cards(rules, 4, random.Random(7))
    hand = [card_name(c) for c in mask_cards(deal.hands[4])]
    session = _session(rules, 4, 4, hand)
    (answer,) = session.handle({"type": "bid_turn", "min": 61, "max": 120, "pass": 0})
    assert answer["type"] == "bid" and answer["value"] in (0, *range(61, 121))
    for seat in (4, 0, 1, 2, 3):
        session.handle({"type": "bid", "seat": seat, "value": 0})
    (call,) = session.handle({"type": "call_turn"})
    called = parse_card(call["card"])
    session.handle({"type": "contract", "declarer": 4, "bid": 0, "called_card": call["card"],
                    "trump": "SHDC"[called // 10]})
    (play,) = session.handle({"type": "turn", "legal": hand})
    assert play["type"] == "play" and play["card"] in hand
    tracker = session.tracker
    assert tracker is not None
    assert tracker.information_state().contract is not None


@pytest.mark.parametrize(("messages", "problem"), [
    ([{"type": "bid", "seat": 1, "value": 70}], "turn to bid"),
    ([{"type": "bid", "seat": 4, "value": 50}], "a bid is 61 to 120"),
    ([{"type": "bid", "seat": 4, "value": "x"}], "bid value must be a whole number"),
    ([{"type": "call_turn"}], "not won the auction"),
    ([{"type": "contract", "declarer": 4, "bid": 0, "called_card": "AH"}], "not over"),
    ([{"type": "played", "seat": 4, "card": "AH"}], "before the contract"),
    ([{"type": "turn", "legal": ["AH"]}], "not seat 4's turn"),
    ([{"type": "bid", "seat": s, "value": 0} for s in (4, 0, 1, 2, 3)]
     + [{"type": "contract", "declarer": 0, "bid": 0, "called_card": "AH"}], "seat 4 the decl"),
    ([{"type": "bid", "seat": s, "value": 0} for s in (4, 0, 1, 2, 3)]
     + [{"type": "contract", "declarer": 4, "bid": 0, "called_card": "AH", "trump": "S"}],
     "is H, not S"),
    ([{"type": "bid", "seat": s, "value": 0} for s in (4, 0, 1, 2, 3)]
     + [{"type": "contract", "declarer": 4, "bid": 0, "called_card": "AH", "trump": "X"}],
     "one of S H D C"),
    ([{"type": "shown", "seat": 4, "cards": ["AH"]}], "own hand is never shown"),
    ([{"type": "shown", "seat": 1, "cards": ["2S"] * 2}], "every copy of it"),
])
def test_the_bot_side_names_impossible_auction_messages(messages: list[dict[str, Any]],
                                                       problem: str) -> None:
    rules = preset("italiana5")
    deal = deal_cards(rules, 4, random.Random(7))
    session = _session(rules, 4, 4, [card_name(c) for c in mask_cards(deal.hands[4])])
    with pytest.raises(ProtocolError, match=problem):
        for message in messages:
            session.handle(message)


@pytest.mark.parametrize(("rules", "deal", "problem"), [
    ({"variant": "italiana5"}, {"dealer": 0, "hand": [f"{r}S" for r in "234567QJ"],
                                 "trump_card": "2S"},
     "turns no trump card"),
    ({"variant": "double8"}, {"dealer": 0, "hand": ["AS"] * 3 + ["2S"] * 7},
     "more than twice"),
    ({"variant": "double8"}, {"dealer": 1, "hand": ["AS", "AS"] + ["2S", "3S", "4S", "5S"] * 2,
                              "trump_card": "AS"}, "the dealer's, not this seat's"),
])
def test_the_bot_side_refuses_impossible_deals(rules: dict[str, Any], deal: dict[str, Any],
                                              problem: str) -> None:
    session = BotSession(HeuristicBot())
    session.handle({"type": "match", "rules": rules, "seat": 0})
    with pytest.raises(ProtocolError, match=problem):
        session.handle({"type": "deal", **deal})


def test_a_turn_for_a_seat_the_bot_does_not_play_is_refused() -> None:
    rules = Rules.from_dict({"variant": "standard", "dummy": 2})
    deal = deal_cards(rules, 3, random.Random(1))
    session = BotSession(HeuristicBot())
    session.handle({"type": "match", "rules": rules.to_dict(), "seat": 1})
    session.handle({"type": "deal", "dealer": 3,
                    "hand": [card_name(c) for c in mask_cards(deal.hands[1])],
                    "trump_card": card_name(deal.trump_card or 0)})
    with pytest.raises(ProtocolError, match="seat 1 does not play for seat 2"):
        session.handle({"type": "turn", "seat": 2, "legal": ["AS"]})


# ---- the documented transcripts are true sessions ----------------------------------------

def _answers_allowed(message: dict[str, Any]) -> list[list[str]]:
    """The answers a bot may give to a referee's message, as lists of types in order."""
    kind = message["type"]
    if kind == "match" and message.get("rules", {}).get("renuncia"):
        return [["denounce_ready"]]  # it denounces: ask it at each deal's end too
    if kind == "turn":
        return [["play"], ["denounce", "play"]] if message.get("denounce") else [["play"]]
    answers = {"hello": [["hello"]], "bid_turn": [["bid"]], "call_turn": [["call"]],
               "redeal_turn": [["redeal"]], "denounce_turn": [["denounce"], ["pass"]]}
    return answers.get(kind, [[]])


def _transcripts() -> list[list[str]]:
    text = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text(encoding="utf-8")
    blocks = text.split("## Example transcripts", 1)[1].split("```text\n")[1:]
    return [block.split("```", 1)[0].splitlines() for block in blocks]


def test_the_documented_transcripts_are_sessions_the_bot_side_follows() -> None:
    """Every referee line of docs/protocol.md's transcripts is followed by the bot side without
    a protocol error; the bot lines after each answer it as the protocol allows (a card, a
    cry and then a card, ...), the bot side's own answers have the same types, and the
    referee's echo (its own bid, the contract, its card) agrees with the answer."""
    transcripts = _transcripts()
    assert len(transcripts) == 5
    for lines in transcripts:
        session = BotSession(HeuristicBot(0))
        exchanges: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        for line in lines:
            arrow, message = line[0], decode(line[2:])
            assert arrow in "→←", line
            if arrow == "←":
                assert exchanges, line
                exchanges[-1][1].append(message)
            else:
                exchanges.append((message, []))
        for index, (message, answers) in enumerate(exchanges):
            ours = session.handle(message)  # a ProtocolError fails the test
            kinds = [a["type"] for a in answers]
            assert kinds in _answers_allowed(message), (message, kinds)
            assert [a["type"] for a in ours] == kinds, (message, ours)
            last = answers[-1] if answers else None
            if last is not None and last["type"] in ("bid", "call", "play"):
                echo = {"bid": ("bid", "value", "value"), "call": ("contract", "called_card",
                        "card"), "play": ("played", "card", "card")}[last["type"]]
                following = exchanges[index + 1][0]
                assert following["type"] == echo[0]
                assert following[echo[1]] == last[echo[2]]
