"""The torneio's rules (sueca.server.tournaments): pairings, byes, withdrawals, forfeits,
adjudication, duplicate scoring and standings, each checked against a hand computation."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sueca.server.tournaments import (
    Player,
    Result,
    Tournament,
    TournamentError,
    duplicate_points,
    result_of_sets,
)


def tournament(pairs: int, **options: object) -> Tournament:
    t = Tournament(name="Torneio do Café", organiser=1, **options)  # type: ignore[arg-type]
    for n in range(1, pairs + 1):
        t.register_pair(f"P{n}", (Player(2 * n, f"a{n}"), Player(2 * n + 1, f"b{n}")))
    return t


def table(t: Tournament, pairs: tuple[int, int]) -> int:
    return next(a.number for a in t.rounds[-1].tables if a.pairs == pairs)


def rows(t: Tournament) -> list[tuple[int, float, int, int]]:
    return [(s.pair, float(s.match_points), s.game_points, s.card_points) for s in t.standings()]


def test_two_swiss_rounds_and_a_duplicate_round_by_hand() -> None:
    t = tournament(4, rounds_planned=3, duplicate_rounds=frozenset({3}))
    first = t.start_round(seed=1)
    assert [a.pairs for a in first.tables] == [(1, 2), (3, 4)]  # all level: 1-2, 3-4
    t.record(1, 1, Result(0, (4, 2), (250, 230)))
    t.record(1, 2, Result(1, (1, 4), (200, 280)))
    # P4 2 mp 4 gp 280 cp; P1 2 4 250; P2 0 2 230; P3 0 1 200
    assert rows(t) == [(4, 2, 4, 280), (1, 2, 4, 250), (2, 0, 2, 230), (3, 0, 1, 200)]

    second = t.start_round(seed=2)
    assert [a.pairs for a in second.tables] == [(4, 1), (2, 3)]  # by score, none met
    t.record(2, 1, Result(1, (3, 4), (180, 300)))
    t.record(2, 2, Result(1, (0, 4), (100, 380)))
    # P1 4 8 550; P4 2 7 460; P3 2 5 580 (P4 ahead on game points); P2 0 2 330
    assert rows(t) == [(1, 4, 8, 550), (4, 2, 7, 460), (3, 2, 5, 580), (2, 0, 2, 330)]

    third = t.start_round(seed=3)
    assert third.duplicate
    # 1 met 4 already: 1-3, then 4-2 (neither met)
    assert [a.pairs for a in third.tables] == [(1, 3), (4, 2)]
    t.record(3, 1, Result(0, (4, 1), (261, 219),
                          boards=((70, 50), (40, 80), (90, 30), (61, 59))))
    t.record(3, 2, Result(0, (4, 1), (210, 150), boards=((60, 60), (50, 70), (100, 20))))
    # Three boards at both tables. Seats 0/2: P1 70+40+90 = 200 against P4's 60+50+100 = 210:
    # P4 wins the comparison though P1 won its match. Seats 1/3: P3 160 against P2 150.
    assert duplicate_points(third) == {1: 0, 3: 2, 4: 2, 2: 0}
    # P1 4 12 811; P4 4 11 670; P3 4 6 799; P2 0 3 480
    assert rows(t) == [(1, 4, 12, 811), (4, 4, 11, 670), (3, 4, 6, 799), (2, 0, 3, 480)]
    assert [s.rank for s in t.standings()] == [1, 2, 3, 4]
    assert t.over and t.status == "finished"
    with pytest.raises(TournamentError) as refused:
        t.start_round()
    assert refused.value.code == "tournament_over"


def test_duplicate_with_three_tables_averages_the_comparisons() -> None:
    t = tournament(6, rounds_planned=1, duplicate_rounds=frozenset({1}))
    r = t.start_round()
    boards = {1: ((80, 40),), 2: ((60, 60),), 3: ((60, 60), (10, 110))}
    for number, b in boards.items():
        t.record(1, number, Result(0, (4, 0), boards=b))
    # Seats 0/2 on the one board all played: 80 beats 60 and 60 (1 + 1); 60 loses to 80 and
    # ties 60 (0 + 1/2); both tables 2 and 3 alike. Match points 2 x the mean.
    points = duplicate_points(r)
    assert points[1] == 2 and points[3] == Fraction(1, 2) and points[5] == Fraction(1, 2)
    assert points[2] == 0 and points[4] == Fraction(3, 2) and points[6] == Fraction(3, 2)


def test_a_bye_goes_to_the_lowest_pair_without_one() -> None:
    t = tournament(5, rounds_planned=3)
    r1 = t.start_round()
    assert r1.byes == (5,) and [a.pairs for a in r1.tables] == [(1, 2), (3, 4)]
    t.record(1, 1, Result(1, (2, 4), (100, 140)))
    t.record(1, 2, Result(1, (3, 4), (110, 130)))
    # the bye: a win target-0 with no card points
    assert rows(t)[:3] == [(2, 2, 4, 140), (4, 2, 4, 130), (5, 2, 4, 0)]
    r2 = t.start_round()
    # lowest are P3 (0, 3) and P1 (0, 2): P1 is last and has had no bye
    assert r2.byes == (1,)
    assert [a.pairs for a in r2.tables] == [(2, 4), (5, 3)]


def test_rematches_are_avoided_by_backtracking() -> None:
    t = tournament(4, rounds_planned=3)
    t.start_round()
    t.record(1, 1, Result(0, (4, 0)))
    t.record(1, 2, Result(0, (4, 0)))
    t.start_round()  # 1-3, 2-4
    assert [a.pairs for a in t.rounds[1].tables] == [(1, 3), (2, 4)]
    t.record(2, 1, Result(0, (4, 0)))
    t.record(2, 2, Result(0, (4, 0)))
    # Standings 1, 2, 3, 4... 1 met 2 and 3: 1-4, leaving 2-3 (not met)
    assert [a.pairs for a in t.start_round().tables] == [(1, 4), (2, 3)]


def test_a_rematch_when_nothing_else_pairs() -> None:
    t = tournament(2, rounds_planned=2)
    t.start_round()
    t.record(1, 1, Result(0, (4, 1)))
    assert [a.pairs for a in t.start_round().tables] == [(1, 2)]


def test_withdrawal_forfeits_the_table_in_play_and_leaves_later_rounds() -> None:
    t = tournament(4, rounds_planned=2)
    t.start_round()
    t.record(1, 1, Result(0, (4, 3), (240, 240)))
    forfeited = t.withdraw(3)
    assert [a.pairs for _, a in forfeited] == [(3, 4)]
    assert t.rounds[0].tables[1].result == Result(1, (0, 4), how="forfeit")
    r2 = t.start_round()
    assert 3 not in [p for a in r2.tables for p in a.pairs]
    assert r2.byes  # three pairs left: one sits out
    assert t.standings()[-1].withdrawn


def test_forfeit_and_adjudication() -> None:
    t = tournament(2, rounds_planned=1)
    t.start_round()
    result = t.forfeit(1, 1, absent=1)
    assert result == Result(0, (4, 0), how="forfeit")
    with pytest.raises(TournamentError) as twice:
        t.record(1, 1, Result(1, (0, 4)))
    assert twice.value.code == "result_in"
    t.adjudicate(1, 1, winner=1, games=(2, 4))  # the organiser overturns it
    assert rows(t) == [(2, 2, 4, 0), (1, 0, 2, 0)]
    with pytest.raises(TournamentError):
        t.adjudicate(1, 1, winner=0, games=(1, 4))  # games must favour the winner


def test_reseat_swaps_pairs_before_any_result() -> None:
    t = tournament(4, rounds_planned=1)
    t.start_round()
    changed = t.reseat(1, 2, 3)
    assert [a.pairs for a in t.rounds[0].tables] == [(1, 3), (2, 4)]
    assert len(changed) == 2
    t.record(1, 1, Result(0, (4, 0)))
    with pytest.raises(TournamentError) as late:
        t.reseat(1, 1, 4)
    assert late.value.code == "too_late"


def test_knockout_bracket_with_byes() -> None:
    t = tournament(5, format="knockout", rounds_planned=3)
    r1 = t.start_round()
    # bracket of 8: 1-(8) 4-5 2-(7) 3-(6): one table, three byes to the top seeds
    assert [a.pairs for a in r1.tables] == [(4, 5)] and r1.byes == (1, 2, 3)
    t.record(1, 1, Result(1, (3, 4)))
    r2 = t.start_round()
    assert [a.pairs for a in r2.tables] == [(1, 5), (2, 3)]
    t.record(2, 1, Result(0, (4, 2)))
    t.record(2, 2, Result(1, (1, 4)))
    r3 = t.start_round()
    assert [a.pairs for a in r3.tables] == [(1, 3)]
    t.record(3, 1, Result(1, (0, 4)))
    assert t.over and t.standings()[0].pair in (1, 3)


def test_best_of_three_sets() -> None:
    one = [((4, 2), [(70, 50), (80, 40)])]
    assert result_of_sets(one, needed=2) is None
    sets = [((4, 2), [(70, 50)]), ((1, 4), [(30, 90)]), ((2, 4), [(60, 60)])]
    result = result_of_sets(sets, needed=2)
    assert result == Result(1, (7, 10), (160, 200), ((70, 50), (30, 90), (60, 60)), (1, 2))


def test_registration_refusals() -> None:
    t = tournament(2)
    with pytest.raises(TournamentError) as again:
        t.register_pair("X", (Player(2, "a1"), Player(99, "z")))
    assert again.value.code == "registered"
    with pytest.raises(TournamentError):
        Tournament(name="x", organiser=1, format="league")  # type: ignore[arg-type]
    with pytest.raises(TournamentError):
        Tournament.from_settings("x", 1, {"rounds": "3"})
    with pytest.raises(TournamentError):
        Tournament.from_settings("x", 1, {"format": "knockout", "duplicate_rounds": [1]})
    t.start_round()
    with pytest.raises(TournamentError) as closed:
        t.register_pair("Y", (Player(50, "y"), Player(51, "w")))
    assert closed.value.code == "registration_closed"


def test_individuals_are_drawn_into_pairs() -> None:
    t = Tournament(name="Sorteio", organiser=1, individuals=True, rounds_planned=1)
    for n in range(5):
        t.register_single(Player(n, f"p{n}"))
    t.start_round(seed=7)
    assert len(t.pairs) == 2 and len(t.singles) == 1  # the odd one out is told so
    drawn = {p.account for pair in t.pairs for p in pair.players} | {t.singles[0].account}
    assert drawn == set(range(5))
