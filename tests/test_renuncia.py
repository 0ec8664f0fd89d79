"""Renúncia (``renuncia``, RULES.md section 5): a person may play a card that fails to follow
suit (or to trump under ``must_trump``); nobody is told; the other side may denounce it until
the next deal starts. A denunciation reveals no card beyond what the rules show, the penalties
are scored as the table configures them, and bots never revoke and denounce every revoke they
can prove (and nothing else)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from core_support import RENUNCIA_RULES, person_action, play_people_deal
from hypothesis import assume, given
from hypothesis import strategies as st

from sueca.actions import AskCard, Denounce, Denunciation, Phase, Play
from sueca.bots import make_bot
from sueca.bots.base import Bot, BotError, decide
from sueca.cards import Card
from sueca.infostate import InformationState
from sueca.match import Match
from sueca.referee import Event, EventKind, Referee
from sueca.rules import STANDARD, Rules
from sueca.scoring import score_hand
from sueca.state import IllegalMoveError, State


def people(rules: Rules, seed: int) -> Referee:
    return Referee(Match(rules.replace(match_target=1000), first_dealer=seed % rules.players),
                   [None] * rules.players, rng=random.Random(seed))


def play_to(referee: Referee, rng: random.Random, cards: int, revoke: float) -> State:
    """Deal and play, people at every seat, until ``cards`` cards are down or the deal is
    over (or annulled)."""
    state = referee.deal()
    while len(state.plays) < cards and (asked := referee.asked()) is not None:
        referee.submit(asked[0], person_action(asked[1], rng, revoke))
    return state


def revokers(state: State) -> set[int]:
    seats = state.played_by()
    return {seats[index] for index in state.revokes}


# ---- nothing hidden comes out -----------------------------------------------------------------


@given(name=st.sampled_from(sorted(RENUNCIA_RULES)), seed=st.integers(0, 10**6),
       cards=st.integers(1, 80), revoke=st.sampled_from([0.0, 0.3, 1.0]))
def test_a_denunciation_reveals_nothing_but_itself(name: str, seed: int, cards: int,
                                                   revoke: float) -> None:
    """Every seat's information state after a denunciation is the one before it with the
    denunciation added: the public cry and its outcome (never which card revoked). A correct
    one ends the deal, so the phase says so and the tricks are counted, as at any deal's end,
    from the cards everyone saw played."""
    rules = RENUNCIA_RULES[name]
    rng = random.Random(seed)
    referee = people(rules, seed)
    state = play_to(referee, rng, cards, revoke)
    criers = [s for s in range(rules.players) if state.may_denounce(s)]
    assume(criers)
    seat = rng.choice(criers)
    finished = state.is_finished()
    before = [state.information_state(s) for s in range(rules.players)]
    correct = bool(revokers(state) - {s for s in range(rules.players)
                                      if rules.teams[s] == rules.teams[seat]})
    referee.submit(seat, Denounce())
    made = state.denunciations[-1]
    assert made == Denunciation(len(state.plays), seat, correct)
    for old, new in zip(before, (state.information_state(s) for s in range(rules.players)),
                        strict=True):
        assert new.denunciations == (*old.denunciations, made)
        expected = dataclasses.replace(old, denunciations=new.denunciations)
        if correct and not finished:
            expected = dataclasses.replace(
                expected, phase=Phase.OVER, past_tricks=tuple(state.tricks()),
                points_taken=tuple(state.team_points()))
        assert new == expected
        assert new.request() is None if correct else new.request() == old.request()


@given(name=st.sampled_from(sorted(RENUNCIA_RULES)), seed=st.integers(0, 10**6),
       cards=st.integers(1, 80))
def test_a_revoke_is_told_to_nobody(name: str, seed: int, cards: int) -> None:
    """No information state reads the referee's list of revokes: every seat's is the same
    with it emptied; what a seat can *prove* of a revoke it proves from the cards it saw
    (a seat that played a suit it had shown void in, or holds one in a hand it sees), and
    only seats that did revoke are ever proven to have."""
    rules = RENUNCIA_RULES[name]
    rng = random.Random(seed)
    state = play_to(people(rules, seed), rng, cards, revoke=0.4)
    blind = state.copy()
    blind.revokes = []
    for seat in range(rules.players):
        info = state.information_state(seat)
        assert info == blind.information_state(seat)
        assert info.request() == blind.information_state(seat).request()
        assert set(info.provable_revokes()) <= revokers(state)


def test_without_renuncia_a_revoke_is_refused() -> None:
    for seed in range(20):
        state = play_to(people(STANDARD, seed), random.Random(seed), 40, revoke=0.0)
        assert not state.revokes
    rng = random.Random(3)
    referee = people(STANDARD, 3)
    state = referee.deal()
    while (asked := referee.asked()) is not None:
        seat, request = asked
        assert type(request) is AskCard and request.revokes == ()
        hand_rest = [c for c in range(40) if state.hands[state.to_play] >> c & 1
                     and c not in request.legal]
        if hand_rest:
            with pytest.raises(IllegalMoveError) as caught:
                referee.submit(seat, Play(hand_rest[0]))
            assert caught.value.reason in ("must_follow", "must_trump")
        referee.submit(seat, person_action(request, rng))


# ---- the penalties ------------------------------------------------------------------------


@given(penalty=st.integers(0, 12), false_penalty=st.integers(0, 12),
       when=st.sampled_from(["during", "after"]), correct=st.booleans(),
       wrong_first=st.integers(0, 2), pontos=st.booleans(), seed=st.integers(0, 10**4))
def test_the_penalties_are_scored_as_configured(penalty: int, false_penalty: int, when: str,
                                                correct: bool, wrong_first: int, pontos: bool,
                                                seed: int) -> None:
    """One revoke; ``wrong_first`` wrong denunciations before it; then a denunciation right
    after the revoke (``during``) or once the last card is down (``after``), correct (by the
    other side) or wrong (by the revoker's partner). A proven revoke: the offenders score
    nothing, the other side ``renuncia_penalty``; else the cards' score; and each wrong one
    gives the other side ``false_renuncia_penalty`` (games; under pontos a game of penalty is a
    quarter of the points in play, 30 card points)."""
    rules = RENUNCIA_RULES["pontos" if pontos else "standard"].replace(
        renuncia_penalty=penalty, false_renuncia_penalty=false_penalty)
    rng = random.Random(seed)
    referee = people(rules, seed)
    state = referee.deal()
    wrong = [0, 0]
    revoker: int | None = None
    while (asked := referee.asked()) is not None:
        seat, request = asked
        assert type(request) is AskCard
        if revoker is None and state.plays and wrong_first > sum(wrong):
            crier = rng.randrange(4)
            referee.submit(crier, Denounce())  # nobody has revoked yet: wrong
            wrong[rules.teams[crier]] += 1
            continue
        if revoker is None and request.revokes and sum(wrong) == wrong_first:
            revoker = request.seat
            referee.submit(seat, Play(rng.choice(request.revokes)))
            if when == "during":
                break
            continue
        referee.submit(seat, Play(rng.choice(request.legal)))
    assume(revoker is not None)
    assert revoker is not None
    offenders = rules.teams[revoker]
    plain = score_hand(rules, state.team_points(), state.team_tricks())
    accuser = (revoker + 1) % 4 if correct else rules.partner_of(revoker)
    referee.submit(accuser, Denounce())
    if not correct:
        wrong[offenders] += 1
        while (asked := referee.asked()) is not None:  # a wrong one: the deal goes on
            referee.submit(asked[0], Play(rng.choice(asked[1].legal)))  # type: ignore[union-attr]
        plain = score_hand(rules, state.team_points(), state.team_tricks())
    assert state.is_finished() and len(referee.match.results) == 1
    unit = 30 if pontos else 1
    if correct:
        expected = [0, 0]
        expected[1 - offenders] = penalty * unit
    else:
        expected = list(plain.game_points)
    for side, count in enumerate(wrong):
        expected[1 - side] += count * false_penalty * unit
    result = referee.match.results[-1]
    assert list(result.game_points) == referee.match.score == expected
    assert result.revoked_by == (offenders if correct else None)
    assert result.false_denunciations == tuple(wrong) or not any(wrong)
    assert result.winner == (1 - offenders if correct else plain.winner)


# ---- bots ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RENUNCIA_RULES))
@pytest.mark.parametrize("bot", ["random", "heuristic", "pimc:worlds=2:nodes=500"])
def test_bots_never_revoke(name: str, bot: str) -> None:
    rules = RENUNCIA_RULES[name].replace(match_target=2)
    bots = [make_bot(bot, seed=s) for s in range(rules.players)]
    referee = Referee(Match(rules, first_dealer=1), bots, rng=random.Random(7), strict=True)
    ended: list[State] = []
    referee.listen(lambda e: ended.append(e.state) if e.kind == EventKind.DEAL_ENDED else None)
    for _ in range(2 if bot.startswith("pimc") else 6):
        if referee.match.is_over:
            break
        referee.play_deal()
    assert ended
    for state in ended:
        assert not state.revokes and not state.denunciations  # nothing to denounce, none made


class Revoker(Bot):
    """A buggy bot: it plays a card that revokes whenever it holds one."""

    def choose(self, info: InformationState) -> Card:
        request = info.request()
        assert type(request) is AskCard
        return (request.revokes or request.legal)[0]


def test_a_bot_that_tries_to_revoke_is_refused() -> None:
    """A bot's card is checked against the legal ones only: the arena names the bot, a table
    with people plays the first legal card instead. Only a person may revoke."""
    rules = RENUNCIA_RULES["standard"]
    referee = people(rules, 1)
    state = referee.deal()
    while (asked := referee.asked()) is not None and not asked[1].revokes:  # type: ignore[union-attr]
        referee.submit(asked[0], Play(asked[1].legal[0]))  # type: ignore[union-attr]
    info = state.information_state(state.to_play)
    request = info.request()
    assert type(request) is AskCard and request.revokes
    with pytest.raises(BotError, match="is not a legal card"):
        decide(Revoker(), info)
    assert decide(Revoker(), info, strict=False) == Play(request.legal[0])


@pytest.mark.parametrize("name", sorted(RENUNCIA_RULES))
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_denounce_every_revoke_they_can_prove_and_no_other(name: str, bot: str) -> None:
    """People who revoke now and then beside bots: whenever the table stands still, no bot
    that may denounce can prove a revoke by the other side (it would have denounced it), and
    every bot's denunciation is correct."""
    rules = RENUNCIA_RULES[name].replace(match_target=1000)
    persons = {0, 1} if rules.dummy is None else {0, 1, rules.dummy}
    bots: list[Bot | None] = [None if s in persons else make_bot(bot, seed=s)
                              for s in range(rules.players)]
    denounced: list[Event] = []
    checked = 0
    for seed in range(6):
        referee = Referee(Match(rules, first_dealer=seed % rules.players), bots,
                          rng=random.Random(seed))
        referee.listen(lambda e: denounced.append(e) if e.kind == EventKind.DENOUNCED else None)

        def no_proof_left(referee: Referee = referee) -> None:
            nonlocal checked
            state = referee.state
            assert state is not None
            for seat, seated in enumerate(referee.seats):
                if seated is None or not state.may_denounce(seat):
                    continue
                info = state.information_state(seat)
                assert not set(info.provable_revokes()) & set(info.opponents()), seat
                checked += 1

        rng = random.Random(seed)
        state = referee.deal()
        while (asked := referee.asked()) is not None:
            if not referee.step():
                referee.submit(asked[0], person_action(asked[1], rng, revoke=0.3))
            no_proof_left()
        if state.redeal_by is None:
            assert state.is_finished()
            no_proof_left()
    by_bots = [e for e in denounced if bots[e.seat] is not None]  # type: ignore[index]
    assert checked and by_bots
    for event in by_bots:  # a bot's seat cries only as its bot: never a guess
        assert all(d.correct for d in event.state.denunciations if d.seat == event.seat)


def test_people_and_a_match_at_every_renuncia_table_end_well() -> None:
    """Whole matches of people revoking and crying at random (late cries too): every deal is
    scored once, the match ends, and its score is the sum of the deals'."""
    for name, rules in sorted(RENUNCIA_RULES.items()):
        rng = random.Random(name)
        referee = Referee(Match(rules, first_dealer=0), [None] * rules.players, rng=rng)
        while not referee.match.is_over:
            play_people_deal(referee, rng, revoke=0.2, denounce=0.05, late=0.2)
        match = referee.match
        assert match.score == [sum(r.game_points[t] for r in match.results) for t in (0, 1)]
