"""The referee (:mod:`sueca.referee`): it asks each seat exactly what its information state
requests, never lets a bot decide for a person (unless a front-end says so with ``play_for``),
calls every bot hook once at its moment, tells its listeners what happened in order, refuses a
seat acting for another, and scores a deal again when a revoke is denounced after its last
card."""

from __future__ import annotations

import random
from typing import Any

import pytest
from core_support import RENUNCIA_RULES, person_action, snapshot

from sueca.actions import Action, AskCard, Bid, Call, Denounce, Play, Redeal, Request
from sueca.bots import make_bot
from sueca.bots.base import Bot
from sueca.cards import Card, CardMask
from sueca.infostate import InformationState
from sueca.match import Match
from sueca.referee import Event, EventKind, Referee, RefereeError
from sueca.rules import STANDARD, Rules, preset
from sueca.scoring import score_hand
from sueca.state import IllegalMoveError, State

TABLES: dict[str, Rules] = {
    "standard": STANDARD,
    "dummy": STANDARD.replace(dummy=2),
    "italiana5": preset("italiana5"),
    "redeal": preset("brazil").replace(weak_hand_redeal=True, weak_hand_limits=(15, 15)),
    "redeal_dummy": STANDARD.replace(weak_hand_redeal=True, weak_hand_limits=(15, 15),
                                     dummy=1),
    "double6": preset("double6"),
    "dealer_dummy": STANDARD.replace(open_hands="dealer_dummy"),
    "renuncia": RENUNCIA_RULES["standard"],
    "renuncia_open": RENUNCIA_RULES["standard"].replace(open_hands=True),
}

Log = list[tuple[Any, ...]]


class Recorder(Bot):
    """Plays as a random bot, and writes to a shared log every hook it hears and every
    decision it is asked for; each decision is checked against what the referee asks."""

    def __init__(self, log: Log, seed: int = 0, name: str = "recorder") -> None:
        super().__init__(seed)
        self.log = log
        self.name = name
        self.inner = make_bot("random", seed=seed)
        self.referee: Referee | None = None

    def _decide(self, info: InformationState) -> None:
        referee = self.referee
        assert referee is not None and referee.state is not None
        state = referee.state
        assert info == state.information_state(state.to_play)  # the seat asked, no other
        asked = referee.asked()
        assert asked is not None and info.request() == asked[1]
        self.log.append(("decide", self.name, info.seat, info.phase))

    def new_match(self, rules: Rules, seat: int) -> None:
        self.log.append(("new_match", self.name, seat))
        self.inner.new_match(rules, seat)

    def choose(self, info: InformationState) -> Card:
        self._decide(info)
        return self.inner.choose(info)

    def bid(self, info: InformationState) -> int:
        self._decide(info)
        return self.inner.bid(info)

    def call(self, info: InformationState) -> Card:
        self._decide(info)
        return self.inner.call(info)

    def redeal(self, info: InformationState) -> bool:
        self._decide(info)
        return self.inner.redeal(info)

    def deal_over(self, info: InformationState, hands: tuple[CardMask, ...]) -> None:
        referee = self.referee
        assert referee is not None and referee.state is not None
        state = referee.state
        assert info.phase == "over"
        if len(state.trick_winners) == state.tricks_total:
            assert hands == state.deal.hands  # every card down: every hand public
        else:  # a proven revoke ended it: only what this seat saw
            assert hands == tuple(info.hands_as_dealt(info.known))
            for seat, hand in enumerate(hands):
                if seat != info.seat:
                    assert not hand & state.hands[seat] & ~info.known[seat]
        self.log.append(("deal_over", self.name, info.seat, hands))

    def deal_annulled(self, info: InformationState) -> None:
        assert info.redeal_by is not None
        self.log.append(("deal_annulled", self.name, info.seat))


def seat_table(rules: Rules, people: set[int], seed: int = 0, seated: bool = False,
               ) -> tuple[Referee, Log]:
    """A referee with a recorder at every seat but ``people``, and a log that its events
    are written to, between the bots' entries."""
    log: Log = []
    bots: list[Bot | None] = [None if s in people else Recorder(log, seed * 10 + s, f"bot{s}")
                              for s in range(rules.players)]
    referee = Referee(Match(rules, first_dealer=seed % rules.players), bots,
                      rng=random.Random(seed), seated=seated)
    for bot in bots:
        if isinstance(bot, Recorder):
            bot.referee = referee
    referee.listen(lambda event: log.append(("event", event.kind, event.seat)))
    return referee, log


def expected_ask(referee: Referee) -> tuple[int, Request] | None:
    state = referee.state
    assert state is not None
    if state.is_finished() or state.redeal_by is not None:
        return None
    request = state.information_state(state.to_play).request()
    assert request is not None
    return referee.rules.controller_of(state.to_play), request


# ---- who is asked what ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_referee_asks_exactly_what_the_information_state_requests(name: str) -> None:
    rules = TABLES[name]
    referee, log = seat_table(rules, people=set(), seed=3)
    assert referee.asked() is None  # nothing before the first deal
    deals = 0
    while not referee.match.is_over and deals < 6:
        referee.deal()
        deals += 1
        while (asked := referee.asked()) is not None:
            assert asked == expected_ask(referee)
            assert referee.step()
        assert expected_ask(referee) is None and not referee.step()
    assert any(entry[0] == "decide" for entry in log)


@pytest.mark.parametrize("name", sorted(TABLES))
@pytest.mark.parametrize("people", [{0}, {1, 2}, {0, 2}])
def test_a_persons_seat_is_never_decided_by_a_bot(name: str, people: set[int]) -> None:
    """``run`` stops wherever a person is asked, and no bot is asked for a person's seat
    (nor for a dummy its person partner plays); only ``play_for`` makes a bot decide for one:
    the stand-in answers once, and its action is the person's."""
    rules = TABLES[name]
    referee, log = seat_table(rules, people, seed=5)
    rng = random.Random(5)
    controlled_by_people = {s for s in range(rules.players)
                            if referee.decider(s) is None}
    # A person's seat, and a dummy nobody sits at whose partner is a person.
    assert controlled_by_people == {s for s in people if s != rules.dummy} | {
        s for s in people if s == rules.dummy and rules.controller_of(s) in people}
    stand_in = Recorder(log, 99, "stand-in")
    stand_in.referee = referee
    stand_in.new_match(rules, 0)
    for _ in range(300):
        referee.run()
        if referee.match.is_over:
            break
        asked = referee.asked()
        assert asked is not None
        seat, request = asked
        state = referee.state
        assert state is not None
        mover = state.to_play
        assert mover in controlled_by_people and seat in people
        assert not referee.step()  # a person is asked: no bot moves
        before = len(log)
        if rng.random() < 0.5:
            action = referee.play_for(seat, stand_in)
            decisions = [e for e in log[before:] if e[0] == "decide"]
            assert decisions[0] == ("decide", "stand-in", mover, request_phase(request))
            assert all(e[1] != "stand-in" for e in decisions[1:])  # once
        else:
            action = person_action(request, rng)
            referee.submit(seat, action)
        moved = next(e for e in log[before:] if e[0] == "event")
        assert moved[2] == mover
    for entry in log:
        if entry[0] == "decide" and entry[1] != "stand-in":
            assert entry[2] not in controlled_by_people, entry


def request_phase(request: Request) -> str:
    return {"AskCard": "play", "AskBid": "bidding", "AskCall": "calling",
            "AskRedeal": "redeal"}[type(request).__name__]


def test_a_dummy_is_played_by_its_partner_bot_or_person() -> None:
    rules = STANDARD.replace(dummy=2)  # seat 0 plays the dummy's cards
    referee, _ = seat_table(rules, people={2})
    assert referee.decider(2) is referee.seats[0]
    referee, _ = seat_table(rules, people={0, 2})
    assert referee.decider(2) is None
    state = referee.deal()
    while state.to_play != 2:
        asked = referee.asked()
        assert asked is not None
        if not referee.step():
            referee.submit(asked[0], person_action(asked[1], random.Random(1)))
    asked = referee.asked()
    assert asked is not None and asked[0] == 0 and asked[1].seat == 2
    assert type(asked[1]) is AskCard
    with pytest.raises(RefereeError, match="it is seat 0's turn, not seat 2's"):
        referee.submit(2, Play(asked[1].legal[0]))  # the dummy's own seat does not play
    referee.submit(0, Play(asked[1].legal[0]))
    assert state.played_by()[-1] == 2


# ---- the bots' hooks --------------------------------------------------------------------------


def bot_entries(log: Log, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in log if e[0] == kind]


@pytest.mark.parametrize("name", ["standard", "redeal", "redeal_dummy", "italiana5",
                                  "renuncia_open"])
def test_every_bot_hook_is_called_once_at_its_moment(name: str) -> None:
    """new_match once per seat before the first deal; per deal, deal_over once per seat after
    its last move and before it is scored (DEAL_ENDED); per annulled deal, deal_annulled once
    per seat after the ask (and no deal_over); nothing asked of a bot in between."""
    rules = TABLES[name]
    seats = rules.players
    for seed in range(3):
        referee, log = seat_table(rules, people=set(), seed=seed)
        referee.run()
        assert referee.match.is_over
        first_deal = log.index(("event", EventKind.DEALT, None))
        assert sorted(e[2] for e in log[:first_deal]) == list(range(seats))
        assert all(e[0] == "new_match" for e in log[:first_deal])
        assert len(bot_entries(log, "new_match")) == seats
        starts = [i for i, e in enumerate(log) if e == ("event", EventKind.DEALT, None)]
        for start, end in zip(starts, [*starts[1:], len(log)], strict=True):
            deal = log[start:end]
            ended = [i for i, e in enumerate(deal) if e[:2] == ("event", EventKind.DEAL_ENDED)]
            annulled = [i for i, e in enumerate(deal)
                        if e[:2] == ("event", EventKind.DEAL_ANNULLED)]
            assert len(ended) + len(annulled) == 1
            overs = [i for i, e in enumerate(deal) if e[0] == "deal_over"]
            voids = [i for i, e in enumerate(deal) if e[0] == "deal_annulled"]
            if ended:
                assert sorted(deal[i][2] for i in overs) == list(range(seats)) and not voids
                assert max(overs) < ended[0]
                last_move = max(i for i, e in enumerate(deal) if e[:2] in (
                    ("event", EventKind.PLAYED), ("event", EventKind.DENOUNCED)))
                assert all(i > last_move or deal[last_move][1] == EventKind.DENOUNCED
                           for i in overs)
            else:
                assert sorted(deal[i][2] for i in voids) == list(range(seats)) and not overs
                assert deal[voids[0] - 1][:2] == ("event", EventKind.ANSWERED)
                assert max(voids) < annulled[0]
            hooks = [i for i, e in enumerate(deal) if e[0] in ("deal_over", "deal_annulled")]
            assert not [e for e in deal[min(hooks):] if e[0] == "decide"]
        assert len(bot_entries(log, "deal_over")) == seats * len(referee.match.results)
        assert len(bot_entries(log, "deal_annulled")) == seats * len(referee.match.annulled)


def test_bots_seated_already_are_not_told_the_match_again() -> None:
    referee, log = seat_table(STANDARD, people=set(), seated=True)
    referee.play_deal()
    assert not bot_entries(log, "new_match")
    referee, log = seat_table(STANDARD, people=set())
    referee.play_deal()
    referee.play_deal()
    assert len(bot_entries(log, "new_match")) == 4


# ---- events ---------------------------------------------------------------------------------


def check_event(event: Event, events: list[Event]) -> None:
    """What an event says, checked against the state as it stands when it is heard."""
    state = event.state
    previous = events[-1].kind if events else None
    kind = event.kind
    if kind == EventKind.DEALT:
        assert previous in (None, EventKind.DEAL_ENDED, EventKind.DEAL_ANNULLED)
        assert not state.history
    elif kind in (EventKind.BID, EventKind.CALLED, EventKind.ANSWERED, EventKind.PLAYED,
                  EventKind.DENOUNCED):
        assert previous is not None and previous != EventKind.MATCH_ENDED
        assert state.history[-1] == (event.seat, event.action) or (
            kind == EventKind.PLAYED and type(event.action) is Play
            and state.history[-1][0] == event.seat)  # two decks: the copy the hand held
        if kind == EventKind.DENOUNCED:
            assert state.denunciations[-1].seat == event.seat
    elif kind == EventKind.TRICK_TAKEN:
        assert previous == EventKind.PLAYED
        assert len(state.plays) % state.players == 0 and state.trick_number
        assert event.seat == state.trick_winners[-1]
    elif kind == EventKind.DEAL_ENDED:
        assert state.is_finished() and event.result is event.match.results[-1]
    elif kind == EventKind.DEAL_ANNULLED:
        assert previous == EventKind.ANSWERED and state.redeal_by == event.seat
        assert event.match.annulled[-1].deal == state.deal
    else:
        assert kind == EventKind.MATCH_ENDED and previous == EventKind.DEAL_ENDED
        assert event.match.is_over


@pytest.mark.parametrize("name", sorted(TABLES))
def test_events_come_in_order_and_say_what_happened(name: str) -> None:
    rules = TABLES[name]
    rng = random.Random(name)
    for people in (set(), set(range(rules.players))):
        referee, _ = seat_table(rules, people, seed=2)
        events: list[Event] = []

        def listener(event: Event, events: list[Event] = events) -> None:
            check_event(event, events)
            events.append(event)

        referee.listen(listener)
        while not referee.match.is_over:
            referee.run()
            if (asked := referee.asked()) is not None:
                referee.submit(asked[0], person_action(asked[1], rng, revoke=0.1))
        kinds = [e.kind for e in events]
        assert kinds[0] == EventKind.DEALT and kinds[-1] == EventKind.MATCH_ENDED
        assert kinds.count(EventKind.DEAL_ENDED) == len(referee.match.results)
        assert kinds.count(EventKind.DEAL_ANNULLED) == len(referee.match.annulled)
        assert kinds.count(EventKind.DEALT) == len(referee.match.results) + len(
            referee.match.annulled)
        assert kinds.count(EventKind.TRICK_TAKEN) == sum(
            len(e.state.trick_winners) for e in events if e.kind == EventKind.DEAL_ENDED)


# ---- refusals -------------------------------------------------------------------------------


def test_a_seat_acting_for_another_is_refused_and_nothing_changes() -> None:
    rules = TABLES["italiana5"]
    referee, log = seat_table(rules, people=set(range(5)))
    with pytest.raises(IllegalMoveError, match="no deal is in play") as caught:
        referee.submit(0, Bid(0))
    assert caught.value.reason == "not_playing"
    state = referee.deal()
    rng = random.Random(1)
    for _ in range(12):  # through the auction, the call and into the play
        asked = referee.asked()
        assert asked is not None
        seat, request = asked
        action = person_action(request, rng)
        before, heard = snapshot(state), len(log)
        for other in range(rules.players):
            if other == seat:
                continue
            with pytest.raises(RefereeError, match=f"it is seat {seat}'s turn, not seat "
                                                   f"{other}'s") as refused:
                referee.submit(other, action)
            assert refused.value.reason == "not_your_turn"
            assert isinstance(refused.value, IllegalMoveError)  # one type to catch
        assert snapshot(state) == before and len(log) == heard  # nothing changed, nothing told
        referee.submit(seat, action)


def test_an_illegal_move_by_the_seat_asked_is_refused_and_nothing_changes() -> None:
    referee, log = seat_table(STANDARD, people={0, 1, 2, 3})
    state = referee.deal()
    asked = referee.asked()
    assert asked is not None
    seat = asked[0]
    before, heard = snapshot(state), len(log)
    for action in (Bid(70), Call(3), Redeal(False), Denounce(),
                   Play(next(c for c in range(40) if not state.hands[seat] >> c & 1))):
        with pytest.raises(IllegalMoveError) as caught:
            referee.submit(seat, action)
        assert not isinstance(caught.value, RefereeError) and caught.value.reason
    assert snapshot(state) == before and len(log) == heard


# ---- renúncia: denunciations and the score --------------------------------------------------


def revoke_then(referee: Referee, stop: str) -> tuple[State, int]:
    """Deal and play with people at every seat, the first seat able to revoke doing so; stop
    right after the revoke (``"revoke"``) or once the last card is down (``"end"``). The
    revoker's seat."""
    state = referee.deal()
    revoker: int | None = None
    while (asked := referee.asked()) is not None:
        seat, request = asked
        assert type(request) is AskCard
        if revoker is None and request.revokes:
            revoker = request.seat
            referee.submit(seat, Play(request.revokes[0]))
            if stop == "revoke":
                break
            continue
        referee.submit(seat, Play(request.legal[0]))
    assert revoker is not None
    return state, revoker


def test_a_persons_correct_denunciation_ends_and_scores_the_deal() -> None:
    rules = RENUNCIA_RULES["standard"].replace(match_target=20)
    referee, log = seat_table(rules, people={0, 1, 2, 3})
    state, revoker = revoke_then(referee, "revoke")
    accuser = (revoker + 1) % 4
    referee.submit(accuser, Denounce())
    assert state.is_finished() and state.proven is not None
    kinds = [e[1] for e in log if e[0] == "event"]
    assert kinds[-2:] == [EventKind.DENOUNCED, EventKind.DEAL_ENDED]
    result = referee.match.results[-1]
    assert result.revoked_by == rules.teams[revoker]
    expected = [0, 0]
    expected[rules.teams[accuser]] = rules.renuncia_penalty
    assert list(result.game_points) == referee.match.score == expected
    assert referee.asked() is None and referee.deal_over


@pytest.mark.parametrize("correct", [True, False])
def test_a_late_denunciation_scores_the_deal_again(correct: bool) -> None:
    """Denounced once the last card is down, before the next deal: the deal was scored as the
    cards fell, and is scored again from the match's score before it; the next deal then
    cannot be denounced for it."""
    rules = RENUNCIA_RULES["penalties"].replace(match_target=30)
    referee, log = seat_table(rules, people={0, 1, 2, 3})
    state, revoker = revoke_then(referee, "end")
    plain = referee.match.results[-1]
    team_points, team_tricks = state.team_points(), state.team_tricks()
    assert plain == score_hand(rules, team_points, team_tricks)
    assert referee.match.score == list(plain.game_points)
    accuser = (revoker + 1) % 4 if correct else rules.partner_of(revoker)
    heard = len(log)
    referee.submit(accuser, Denounce())
    assert [e[1] for e in log[heard:]] == [EventKind.DENOUNCED, EventKind.DEAL_ENDED]
    assert len(referee.match.results) == 1
    again = referee.match.results[-1]
    if correct:
        expected = [0, 0]
        expected[rules.teams[accuser]] = rules.renuncia_penalty
    else:
        expected = list(plain.game_points)
        expected[1 - rules.teams[accuser]] += rules.false_renuncia_penalty
    assert list(again.game_points) == referee.match.score == expected
    nxt = referee.deal()
    with pytest.raises(IllegalMoveError, match="no card has been played yet"):
        referee.submit(accuser, Denounce())
    assert not nxt.denunciations and state.denunciations[-1].seat == accuser


def test_bots_are_not_shown_the_unplayed_cards_of_a_deal_a_revoke_ended() -> None:
    """``deal_over`` shows every hand only once every card is down; a deal a proven revoke
    ended shows each bot the cards played and what it knew."""
    rules = RENUNCIA_RULES["standard"].replace(match_target=20)
    for seed in range(20):
        referee, log = seat_table(rules, people={0, 1}, seed=seed)
        state = referee.deal()
        while (asked := referee.asked()) is not None and state.proven is None:
            if referee.step():
                continue
            seat, request = asked
            assert type(request) is AskCard
            if request.revokes:
                referee.submit(seat, Play(request.revokes[0]))
                if state.proven is None:  # no bot could prove it: the other person cries
                    referee.submit(1 - seat, Denounce())
                break
            referee.submit(seat, Play(request.legal[0]))
        if state.proven is not None and state.plays and len(state.trick_winners) < 10:
            break
    else:
        pytest.skip("no deal ended early by a proven revoke")
    shown = [entry for entry in log if entry[0] == "deal_over"]
    assert {entry[2] for entry in shown} == {2, 3}
    for *_, seat, hands in shown:
        assert hands != state.deal.hands
        assert hands[seat] == state.deal.hands[seat]


def test_a_won_match_is_not_reopened_by_a_late_denunciation() -> None:
    """"Until the next deal starts": a won match has no next deal, and its result, once
    announced, stands. A cry then is refused and changes nothing."""
    rules = RENUNCIA_RULES["standard"].replace(match_target=1)
    for seed in range(20):
        referee, log = seat_table(rules, people={0, 1, 2, 3}, seed=seed)
        _, revoker = revoke_then(referee, "end")
        offenders = rules.teams[revoker]
        if referee.match.winner == offenders:
            break
    else:
        pytest.skip("no deal won by the revoking side")
    heard = len(log)
    score = list(referee.match.score)
    assert not referee.may_denounce((revoker + 1) % 4)
    with pytest.raises(IllegalMoveError, match="the match is over"):
        referee.submit((revoker + 1) % 4, Denounce())
    assert referee.match.winner == offenders and referee.match.score == score
    assert len(log) == heard


def test_bots_denounce_a_revoke_they_can_prove_at_once() -> None:
    """Open hands: a bot of the other side sees the revoker's hand, so it proves the revoke
    as soon as the card is down, and the deal ends there (the first such bot in seat order)."""
    rules = TABLES["renuncia_open"].replace(match_target=20)
    for seed in range(10):
        referee, log = seat_table(rules, people={0, 2}, seed=seed)
        state = referee.deal()
        while (asked := referee.asked()) is not None:
            if referee.step():
                continue
            seat, request = asked
            assert type(request) is AskCard
            if request.revokes:
                heard = len(log)
                referee.submit(seat, Play(request.revokes[0]))
                told = [e[1:] for e in log[heard:] if e[0] == "event"]
                assert told[0] == (EventKind.PLAYED, seat)
                assert told[-2:] == [(EventKind.DENOUNCED, 1), (EventKind.DEAL_ENDED, None)]
                assert state.proven is not None and state.proven.seat == 1
                assert referee.match.results[-1].revoked_by == 0
                return
            referee.submit(seat, Play(request.legal[0]))
    raise AssertionError("no chance to revoke in ten deals")


def test_a_submitted_action_is_the_one_recorded() -> None:
    """What a front-end submits, and what ``play_for`` returns, is what the history keeps."""
    rules = TABLES["italiana5"]
    referee, _ = seat_table(rules, people=set(range(5)))
    state = referee.deal()
    stand_in = make_bot("heuristic", seed=1)
    stand_in.new_match(rules, 0)
    submitted: list[tuple[int, Action]] = []
    while (asked := referee.asked()) is not None:
        seat = state.to_play
        submitted.append((seat, referee.play_for(asked[0], stand_in)))
    assert state.history == submitted
