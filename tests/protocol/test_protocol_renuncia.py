"""The bot protocol at a ``renuncia`` table, and its messages defined once.

Every message round-trips through its one definition; a seat's feed, told each referee event
as it happens, keeps the bot side's tracker equal to the referee's information state through
revokes and denunciations (wrong, correct, after the last card) at every renúncia table; a
``denounced`` line names a seat and an outcome, never a card; programs cry on their turn or,
having said ``denounce_ready``, at the deal's end, and hear every cry; a program that does not
know renúncia is asked nothing new; and the ``cmd:`` prefix is the protocol's to register.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from core_support import RENUNCIA_RULES, play_people_deal
from test_protocol_tables import Listener, assert_same

from sueca.actions import AskCard, Denounce, Play
from sueca.bots import PREFIXES, Bot, HeuristicBot, make_bot
from sueca.cards import card_face, mask_cards, parse_card
from sueca.infostate import InformationState
from sueca.match import Match
from sueca.protocol import (
    TO_BOT,
    TO_REFEREE,
    BotSession,
    ExternalBot,
    Message,
    ProtocolError,
    SeatFeed,
    decode,
    encode,
    read_answer,
    read_to_bot,
)
from sueca.protocol import messages as msg
from sueca.referee import Event, Referee
from sueca.rules import STANDARD, Rules

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
RENUNCIA = STANDARD.replace(renuncia=True)

# ---- the messages, defined once ------------------------------------------------------------

EXAMPLES: list[Message] = [
    msg.Hello(protocol="sueca-bot/1"),
    msg.Hello(name="tiny", protocol="sueca-bot/1"),
    msg.Match(rules=RENUNCIA, seat=1),
    msg.Deal(dealer=3, hand=tuple(range(0, 40, 4)), trump_card=7),
    msg.Deal(dealer=0, hand=(1, 2, 3)),
    msg.Redeal(seat=2, ask=False),
    msg.Bid(seat=4, value=71),
    msg.Contract(declarer=2, bid=71, called_card=parse_card("AH"), trump=1),
    msg.Shown(seat=0, cards=(5, 6)),
    msg.Played(seat=1, card=parse_card("7H")),
    msg.Played(seat=1, card=parse_card("2D"), turned=True),
    msg.Denounced(seat=3, correct=False),
    msg.Turn(legal=(0, 11), time_ms=1000),
    msg.Turn(legal=(0,), time_ms=1000, seat=2, denounce=True),
    msg.BidTurn(lowest=62, highest=120, pass_value=0, time_ms=1000),
    msg.CallTurn(time_ms=1000),
    msg.RedealTurn(points=7, limit=10, time_ms=1000, seat=0),
    msg.DenounceTurn(time_ms=1000),
    msg.DealEnd(points=(74, 46), hands=((0, 1), (2, 3)), set_aside=(4,), seat_points=(1, 2)),
    msg.Quit(),
    msg.PlayAnswer(card="AS"),
    msg.BidAnswer(value=75),
    msg.CallAnswer(card="AH"),
    msg.RedealAnswer(ask=True),
    msg.DenounceAnswer(),
    msg.PassAnswer(),
    msg.DenounceReady(),
    msg.Info(warning="careful"),
]


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: f"{m.TYPE}")
def test_every_message_round_trips_through_its_one_definition(message: Message) -> None:
    rules = Rules.from_dict({"variant": "italiana5"})  # five seats: every example's fit
    line = encode(message)
    table = TO_REFEREE if message.TYPE in TO_REFEREE and (
        type(message) is TO_REFEREE[message.TYPE]) else TO_BOT
    read = read_answer if table is TO_REFEREE else read_to_bot
    assert read(decode(line), rules) == message
    assert encode(message) == encode(message.to_dict())  # a dict encodes the same


def test_every_message_type_is_listed_and_the_wire_forms_are_the_known_ones() -> None:
    assert set(TO_BOT) == {"hello", "match", "deal", "redeal", "bid", "contract", "shown",
                           "played", "denounced", "turn", "bid_turn", "call_turn",
                           "redeal_turn", "denounce_turn", "deal_end", "quit"}
    assert set(TO_REFEREE) == {"hello", "play", "bid", "call", "redeal", "denounce", "pass",
                               "denounce_ready", "info"}
    assert {type(m) for m in EXAMPLES} == {*TO_BOT.values(), *TO_REFEREE.values()}
    # The documented shapes, field order included (the golden transcripts hold them too).
    assert encode(msg.BidTurn(lowest=71, highest=120, pass_value=0, time_ms=1000)) == (
        '{"type": "bid_turn", "min": 71, "max": 120, "pass": 0, "time_ms": 1000}')
    assert msg.Turn(legal=(0,), time_ms=5, seat=2).to_dict() == {
        "type": "turn", "legal": ["2S"], "time_ms": 5, "seat": 2}
    # A bot's answers are the actions' own wire forms.
    assert msg.PlayAnswer(card=3).to_dict() == Play(3).to_dict()
    assert msg.DenounceAnswer().to_dict() == Denounce().to_dict()


@pytest.mark.parametrize(("message", "problem"), [
    ({"type": "denounced", "seat": 1, "correct": "yes"},
     "denounced 'correct' must be true or false, not 'yes'"),
    ({"type": "denounced", "seat": 4, "correct": True}, "denounced seat must be a seat"),
    ({"type": "turn", "legal": ["AS"], "denounce": 1}, "turn 'denounce' must be true or false"),
    ({"type": "deal_end", "hands": [["AS"], ["XX"]]}, "deal_end hand 1: "),
    ({"type": "bid_turn", "min": "61"}, "bid_turn min must be a whole number"),
])
def test_a_bad_field_is_named(message: dict[str, Any], problem: str) -> None:
    with pytest.raises(ProtocolError, match=problem):
        read_to_bot(message, STANDARD)


# ---- the feed follows the referee's events -------------------------------------------------


def _watched_referee(rules: Rules, seats: list[Bot | None], rng: random.Random,
                     listeners: list[Listener]) -> Referee:
    """A referee whose every event is told at once to each seat's feed (:meth:`SeatFeed.hear`)
    and followed by its bot-side session; after each, every tracker equals the referee's
    information state of its seat (the deal just ended: the session's last tracker)."""
    referee = Referee(Match(rules, first_dealer=rng.randrange(rules.players)), seats, rng=rng)

    def check(event: Event) -> None:
        for listener in listeners:
            listener.tell(listener.feed.hear(event))
            tracker = listener.session.tracker or listener.session.last
            if tracker is not None and event.state.redeal_by is None:
                assert_same(tracker.information_state(),
                            event.state.information_state(listener.seat),
                            f"{event.kind} after {len(event.state.plays)} cards, seat "
                            f"{listener.seat}")

    referee.listen(check)
    return referee


@pytest.mark.parametrize("table", RENUNCIA_RULES)
def test_every_seat_told_each_event_rebuilds_the_referee_state(table: str) -> None:
    """People revoke, cry during the play and after the last card; a bot denounces what it
    can prove (it soon ends the deal), or nobody but people sit (most deals are played out).
    Every seat's tracker follows, cry and outcome included."""
    rules = RENUNCIA_RULES[table]
    rng = random.Random(table)
    cries = 0
    for bot_seat, revoke, denounce, after_last in ((1, 0.3, 0.05, 0.5), (None, 0.1, 0.02, 0.8),
                                                   (None, 0.1, 0.02, 0.8)):
        seats: list[Bot | None] = [None] * rules.players
        if bot_seat is not None:
            seats[bot_seat] = HeuristicBot(bot_seat)
        listeners = [Listener(rules, s) for s in range(rules.players)]
        referee = _watched_referee(rules, seats, rng, listeners)
        while len(referee.match.results) < 2 and not referee.match.is_over:
            state = play_people_deal(referee, rng, revoke, denounce, after_last)
            cries += len(state.denunciations)
        for listener in listeners:
            told = [m for m in listener.messages if m["type"] == "denounced"]
            assert all(set(m) == {"type", "seat", "correct"} for m in told)  # never a card
    assert cries


def test_a_cry_after_the_deal_end_is_told_after_it_and_followed() -> None:
    rules = RENUNCIA
    rng = random.Random(3)
    listeners = [Listener(rules, s) for s in range(4)]
    referee = _watched_referee(rules, [None] * 4, rng, listeners)
    state = play_people_deal(referee, rng, revoke=0.5)
    assert state.is_finished() and state.revokes
    crier = next(s for s in range(4) if rules.teams[s] != rules.teams[
        state.played_by()[state.revokes[0]]])
    referee.submit(crier, Denounce())
    for listener in listeners:
        kinds = [m["type"] for m in listener.messages]
        assert kinds[-2:] == ["deal_end", "denounced"]
        assert listener.messages[-1] == {"type": "denounced", "seat": crier, "correct": True}
        last = listener.session.last
        assert last is not None and last.information_state().denunciations == (
            state.denunciations[-1],)
    result = referee.match.results[-1]
    assert result.revoked_by == 1 - rules.teams[crier]
    assert result.game_points[rules.teams[crier]] == rules.renuncia_penalty


def test_the_bot_side_refuses_a_cry_where_none_may_be_made() -> None:
    session = BotSession(HeuristicBot())
    session.handle({"type": "match", "rules": RENUNCIA.to_dict(), "seat": 0})
    listener = Listener(RENUNCIA, 0)
    referee = Referee(Match(RENUNCIA, first_dealer=3), [None] * 4, rng=random.Random(1))
    state = referee.deal()
    for message in listener.feed.catch_up(state.information_state(0)):
        session.handle(message)
    with pytest.raises(ProtocolError, match="no card has been played yet"):
        session.handle({"type": "denounced", "seat": 1, "correct": False})


def test_a_bot_session_is_ready_to_denounce_only_at_a_renuncia_table() -> None:
    for rules, answer in ((STANDARD, []), (RENUNCIA, [{"type": "denounce_ready"}])):
        session = BotSession(HeuristicBot())
        assert session.handle({"type": "match", "rules": rules.to_dict(), "seat": 0}) == answer


# ---- programs at a renuncia table ----------------------------------------------------------


class Silent(HeuristicBot):
    """Plays as the heuristic does and never denounces: the program's cry is the one that
    counts."""

    def denounce(self, info: InformationState) -> bool:
        return False


def play_against_a_revoker(rules: Rules, program: Bot, seed: int, *, revokes: int = 1
                           ) -> tuple[Referee, list[int]]:
    """One deal: seat 0 a person who revokes ``revokes`` times at his first chances, seat 1
    ``program``, seats 2 and 3 bots that never denounce."""
    seats: list[Bot | None] = [None, program, Silent(2), Silent(3)]
    referee = Referee(Match(rules, first_dealer=3), seats, rng=random.Random(seed))
    referee.deal()
    made: list[int] = []
    while (asked := referee.asked()) is not None:
        if referee.step():
            continue
        seat, request = asked
        assert seat == 0 and type(request) is AskCard
        state = referee.state
        assert state is not None
        if request.revokes and len(made) < revokes:
            made.append(len(state.plays))
            referee.submit(0, Play(request.revokes[0]))
        else:
            referee.submit(0, Play(request.legal[0]))
    return referee, made


def _logged(path: Path) -> list[tuple[str, dict[str, Any]]]:
    return [(line[0], json.loads(line[2:]))
            for line in path.read_text(encoding="utf-8").splitlines()]


def test_sueca_bot_denounces_on_its_turn_what_its_bot_can_prove(tmp_path: Path) -> None:
    """``sueca bot heuristic`` through cmd: cries *renúncia!* before its card once it can
    prove the revoke from what it was told; the referee takes the cry; everyone hears it."""
    on_turn = 0
    for seed in range(1, 9):
        log = tmp_path / f"{seed}.log"
        program = ExternalBot(f"{sys.executable} {GOLDEN / 'tee_bot.py'} {log} heuristic")
        try:
            referee, made = play_against_a_revoker(RENUNCIA, program, seed, revokes=2)
        finally:
            program.close()
        assert program.errors == []
        state = referee.state
        assert state is not None and made
        lines = _logged(log)
        turns = [m for arrow, m in lines if m["type"] == "turn"]
        assert all(t.get("denounce") is True for t in turns[1:])  # a card down: offered
        cried = [i for i, (arrow, m) in enumerate(lines) if arrow == "<"
                 and m["type"] == "denounce"]
        # It cries only what it can prove: right, and once (a proof ends the deal).
        assert state.proven is not None and state.proven.seat == 1
        assert [(d.seat, d.correct) for d in state.denunciations] == [(1, True)]
        assert len(cried) == 1
        told = [m for arrow, m in lines if m["type"] == "denounced"]
        assert told == [{"type": "denounced", "seat": 1, "correct": True}]
        assert referee.match.results[-1].revoked_by == 0
        if lines[cried[0] + 1][1]["type"] == "play":  # on its turn, before its card
            on_turn += 1
            assert [m["type"] for _, m in lines][-2:] == ["deal_end", "quit"]
        else:  # the proof came after its last card: at the deal's end
            assert lines[cried[0] - 1][1]["type"] == "denounce_turn"
    assert on_turn


# A program that knows renúncia at the deal's end: it says denounce_ready, plays its first
# legal card, and cries at each deal's end if its mode says so.
END_BOT = r'''
import json, sys
log = open(sys.argv[1], "a", encoding="utf-8")
mode = sys.argv[2]
def say(message):
    print(json.dumps(message), flush=True)
for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        say({"type": "hello", "name": "end-bot"})
    elif kind == "match" and mode != "old":
        say({"type": "denounce_ready"})
    elif kind == "turn":
        say({"type": "play", "card": message["legal"][0]})
    elif kind == "denounce_turn" and mode != "mute":
        say({"type": "denounce"} if mode == "cry" else {"type": "pass"})
    elif kind == "quit":
        break
'''


@pytest.fixture
def end_bot(tmp_path: Path) -> Any:
    script = tmp_path / "end_bot.py"
    script.write_text(END_BOT, encoding="utf-8")

    def command(mode: str) -> tuple[str, Path]:
        log = tmp_path / f"{mode}.jsonl"
        return f"{sys.executable} {script} {log} {mode}", log

    return command


def _messages(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize(("revokes", "correct"), [(1, True), (0, False)])
def test_a_ready_program_is_asked_at_the_deal_end(end_bot: Any, revokes: int,
                                                  correct: bool) -> None:
    """After ``deal_end``, a ``denounce_turn``; its cry stands for the deal just over (right
    if a revoke was made, else the false-denunciation penalty) and is told back to it."""
    command, log = end_bot("cry")
    program = ExternalBot(command)
    try:
        referee, made = play_against_a_revoker(RENUNCIA, program, 2, revokes=revokes)
    finally:
        program.close()
    assert program.errors == [] and len(made) == revokes
    state = referee.state
    assert state is not None
    assert [(d.seat, d.correct) for d in state.denunciations] == [(1, correct)]
    kinds = [m["type"] for m in _messages(log)]
    assert kinds[-4:] == ["deal_end", "denounce_turn", "denounced", "quit"]
    assert _messages(log)[-2] == {"type": "denounced", "seat": 1, "correct": correct}
    result = referee.match.results[-1]
    if correct:
        assert result.revoked_by == 0 and result.game_points == (0, RENUNCIA.renuncia_penalty)
    else:
        assert result.revoked_by is None and result.false_denunciations == (0, 1)


def test_a_ready_program_that_passes_leaves_the_deal_as_it_is(end_bot: Any) -> None:
    command, log = end_bot("pass")
    program = ExternalBot(command)
    try:
        referee, _ = play_against_a_revoker(RENUNCIA, program, 2)
    finally:
        program.close()
    assert program.errors == []
    assert referee.state is not None and referee.state.denunciations == []
    assert [m["type"] for m in _messages(log)][-3:] == ["deal_end", "denounce_turn", "quit"]


def test_a_ready_program_that_does_not_answer_is_not_asked_again(end_bot: Any) -> None:
    command, log = end_bot("mute")
    program = ExternalBot(command, time_ms=50, grace_ms=150)
    try:
        for seed in (2, 3):
            play_against_a_revoker(RENUNCIA, program, seed)
    finally:
        program.close()
    assert len(program.errors) == 1 and "not asked at a deal's end again" in program.errors[0]
    assert [m["type"] for m in _messages(log)].count("denounce_turn") == 1


def test_a_program_that_does_not_know_renuncia_is_asked_nothing_new(end_bot: Any) -> None:
    """It ignores the turn's ``denounce`` offer and is never sent ``denounce_turn``: it plays
    the deal as at any table, with no error and no wait."""
    command, log = end_bot("old")
    program = ExternalBot(command, time_ms=50, grace_ms=150)
    try:
        referee, _ = play_against_a_revoker(RENUNCIA, program, 2)
    finally:
        program.close()
    assert program.errors == []
    assert referee.state is not None and referee.state.is_finished()
    kinds = [m["type"] for m in _messages(log)]
    assert "denounce_turn" not in kinds and kinds.count("turn") == 10


def test_a_table_without_renuncia_offers_no_cry(end_bot: Any) -> None:
    command, log = end_bot("cry")
    program = ExternalBot(command)
    try:
        _, made = play_against_a_revoker(STANDARD, program, 2)
    finally:
        program.close()
    assert made == []  # nobody may revoke: the request has no revokes to offer
    sent = _messages(log)
    assert all("denounce" not in m for m in sent if m["type"] == "turn")
    assert not any(m["type"] in ("denounce_turn", "denounced") for m in sent)
    assert program.errors == []


# ---- the cmd: prefix belongs to the protocol -----------------------------------------------


def test_cmd_is_a_prefix_the_protocol_registers() -> None:
    assert PREFIXES["cmd"] is ExternalBot
    bot = make_bot("cmd:prog --seed {seed}", seed=7)
    assert isinstance(bot, ExternalBot) and bot.argv == ["prog", "--seed", "7"]
    with pytest.raises(ValueError, match=r"unknown bot 'telnet' \(known: .*heuristic, ismcts, "
                                         r".*novice, pimc, random; prefixes: cmd:\)"):
        make_bot("telnet:example.org")


def test_the_bots_never_import_the_wire() -> None:
    from test_architecture import import_graph

    for name, imported in import_graph().items():
        if name == "sueca.bots" or name.startswith("sueca.bots."):
            assert not {m for m in imported if m.startswith("sueca.protocol")}, name


def test_a_feed_tells_the_deal_end_once(end_bot: Any) -> None:
    """A deal scored again (a cry after its last card) is not a second ``deal_end``."""
    rules = RENUNCIA
    rng = random.Random(3)
    feed = SeatFeed()
    feed.start_match(rules, 2)
    lines: list[dict[str, Any]] = []
    referee = Referee(Match(rules, first_dealer=0), [None] * 4, rng=rng)
    referee.listen(lambda event: lines.extend(feed.hear(event)))
    state = play_people_deal(referee, rng, revoke=0.5)
    referee.submit(1, Denounce())
    assert [m["type"] for m in lines].count("deal_end") == 1
    assert lines[-1]["type"] == "denounced" and state.denunciations


# ---- a deal ended early, questions after the end, a won match -------------------------------


def _faces_named(hand: list[str]) -> list[int]:
    return sorted(card_face(parse_card(c)) for c in hand)


def _public(info: InformationState) -> list[list[int]]:
    """Each hand as this seat may see it at a deal's end: the cards its seat played and what
    this seat knew of it, by face."""
    return [sorted(card_face(c) for c in mask_cards(h))
            for h in info.hands_as_dealt(info.known)]


@pytest.mark.parametrize("table", RENUNCIA_RULES)
def test_a_deal_ended_by_a_proven_revoke_shows_no_card_nobody_played(table: str) -> None:
    """A cry that proves a revoke ends the deal before its last card: every seat's
    ``deal_end`` names its own hand, the cards each seat played and what the seat knew (a
    dummy's or open hand, the turned card), never another card of a hand; the bot side
    follows it. Played out, a deal still shows every hand in full."""
    rules = RENUNCIA_RULES[table]
    rng = random.Random(f"{table}:early")
    early = full = 0
    while not (early and full):
        seats: list[Bot | None] = [None] * rules.players
        seats[1] = HeuristicBot(1)  # it proves what it can, mid-deal
        listeners = [Listener(rules, s) for s in range(rules.players)]
        referee = _watched_referee(rules, seats, rng, listeners)
        state = play_people_deal(referee, rng, revoke=0.2)
        if state.redeal_by is not None:
            continue
        for listener in listeners:
            (end,) = [m for m in listener.messages if m["type"] == "deal_end"]
            info = state.information_state(listener.seat)
            assert [_faces_named(h) for h in end["hands"]] == _public(info)
            if len(state.plays) == rules.cards_in_play:
                assert [_faces_named(h) for h in end["hands"]] == [
                    sorted(card_face(c) for c in mask_cards(h)) for h in state.deal.hands]
            assert listener.session.tracker is None  # the bot side took the deal's end
        if len(state.plays) < rules.cards_in_play:
            early += 1
            hidden = [h & ~info.hands_as_dealt(info.known)[s]
                      for s, h in enumerate(state.deal.hands)]
            assert any(hidden)  # there was something to keep hidden
        else:
            full += 1


def test_a_program_is_not_told_the_unplayed_cards_of_a_deal_a_cry_ends(tmp_path: Path
                                                                        ) -> None:
    """``ExternalBot.deal_over`` gets every hand as dealt from the referee; it tells its
    program only what the seat's information state holds."""
    for seed in range(1, 9):
        log = tmp_path / f"{seed}.log"
        program = ExternalBot(f"{sys.executable} {GOLDEN / 'tee_bot.py'} {log} heuristic")
        try:
            referee, _ = play_against_a_revoker(RENUNCIA, program, seed, revokes=2)
        finally:
            program.close()
        state = referee.state
        assert state is not None and program.errors == []
        if len(state.plays) == RENUNCIA.cards_in_play:
            continue
        (end,) = [m for arrow, m in _logged(log) if m["type"] == "deal_end"]
        assert [_faces_named(h) for h in end["hands"]] == _public(state.information_state(1))
        assert sum(len(h) for h in end["hands"]) < RENUNCIA.cards_in_play
        answers = [m for arrow, m in _logged(log) if arrow == "<"]
        assert not [m for m in answers if m["type"] == "info"]  # the bot side follows it
        return
    pytest.fail("no deal ended before its last card")


def _session_after_a_proven_cry() -> BotSession:
    """A bot session at seat 1 told of a deal that a cry ended after the first card."""
    session = BotSession(HeuristicBot(1))
    listener = Listener(RENUNCIA, 1)
    referee = Referee(Match(RENUNCIA, first_dealer=3), [None] * 4, rng=random.Random(1))
    state = referee.deal()
    referee.submit(0, Play(state.legal_moves()[0]))
    for message in listener.feed.catch_up(state.information_state(1)):
        session.handle(message)
    session.handle({"type": "denounced", "seat": 1, "correct": True})
    return session


@pytest.mark.parametrize(("message", "problem"), [
    ({"type": "turn", "legal": ["AS"]}, "a turn, but the deal is over: a revoke is proven"),
    ({"type": "redeal_turn"}, "a redeal_turn, but the deal is over: a revoke is proven"),
    ({"type": "bid_turn"}, "a bid_turn, but the deal is over: a revoke is proven"),
])
def test_a_question_after_the_deal_is_over_is_refused_as_that(message: dict[str, Any],
                                                              problem: str) -> None:
    session = _session_after_a_proven_cry()
    with pytest.raises(ProtocolError, match=problem):
        session.handle(message)


def test_a_denounce_turn_at_a_table_without_renuncia_is_refused() -> None:
    for match in (None, {"type": "match", "rules": STANDARD.to_dict(), "seat": 0}):
        session = BotSession(HeuristicBot())
        if match is not None:
            session.handle(match)
        with pytest.raises(ProtocolError, match="this table does not play renúncia"):
            session.handle({"type": "denounce_turn", "time_ms": 1000})
    assert session.handle({"type": "match", "rules": RENUNCIA.to_dict(), "seat": 0})


def test_a_won_match_closes_the_cries_for_a_program(end_bot: Any) -> None:
    """Once the referee's match is won (``match_ended``, heard) the program is offered no cry
    and asked no ``denounce_turn``, whoever asks its bot: the result stands. Here it stands in
    for a person, so only the table's front-end (this test) calls its hooks."""
    rules = RENUNCIA.replace(match_target=1)
    command, log = end_bot("cry")
    program = ExternalBot(command)
    referee = Referee(Match(rules, first_dealer=3), [None] * 4, rng=random.Random(4))
    referee.listen(program.hear)
    program.new_match(rules, 1)
    try:
        while not referee.match.is_over:
            state = referee.deal()
            while (asked := referee.asked()) is not None:
                seat, request = asked
                if seat == 1:
                    referee.play_for(1, program)
                else:
                    assert type(request) is AskCard
                    referee.submit(seat, Play(request.legal[0]))
        info = state.information_state(1)
        assert info.may_denounce()  # the state's rule alone would still allow a cry
        program.deal_over(info, state.deal.hands)
        assert not program.denounce(info)
    finally:
        program.close()
    kinds = [m["type"] for m in _messages(log)]
    assert kinds[-2:] == ["deal_end", "quit"] and "denounce_turn" not in kinds
    assert program.errors == [] and not state.denunciations
