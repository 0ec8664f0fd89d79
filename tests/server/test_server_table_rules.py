"""The three table rules at the web table: renúncia (a person revokes, nobody is told, the other
side denounces and the penalty is scored), open hands (every hand, or the dealer's and his
partner's) and no looking back (the trick just taken is never shown again)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import LiveServer, create_table, join, token_of

from sueca.actions import AskCard
from sueca.cards import card_name, mask_cards
from sueca.record import check
from sueca.rules import Rules
from sueca.server.storage import SQLiteStorage
from sueca.server.tables import Table, TableError, parse_seats
from sueca.server.views import public_view, seat_view
from sueca.state import IllegalMoveError

PRESENT = ["present"] * 4


def people_table(store: SQLiteStorage, rules: dict[str, Any], seed: int = 1,
                 kinds: tuple[str, ...] = ("human",) * 4) -> Table:
    parsed = Rules.from_dict(rules)
    seats = parse_seats([{"kind": k, "name": f"P{i}", "level": "heuristic"}
                         for i, k in enumerate(kinds)], parsed)
    return Table.create("t1", parsed, seats, store, random.Random(seed))


def play_legal(table: Table) -> AskCard:
    """The seat asked plays its first legal card; what it was asked."""
    asked = table.asked()
    assert asked is not None and type(asked[1]) is AskCard
    table.play(asked[0], asked[1].legal[0])
    return asked[1]


def revoke_somewhere(table: Table) -> tuple[int, int]:
    """Play legal cards until a seat may revoke; it does. Its seat and the card."""
    while True:
        asked = table.asked()
        assert asked is not None and table.phase == "playing"
        seat, request = asked
        assert type(request) is AskCard
        if request.revokes:
            table.play(seat, request.revokes[0])
            return seat, request.revokes[0]
        table.play(seat, request.legal[0])


def views(table: Table) -> list[dict[str, Any]]:
    return [seat_view(table, s, PRESENT, set()) for s in range(4)] + [
        public_view(table, PRESENT, set())]


def told_of_a_revoke(view: dict[str, Any]) -> bool:
    """Whether a view says anything of a revoke: beyond the cards of his own hand that the
    seat asked may still play (``revokes``, his turn's), no word of one."""
    return "revoke" in json.dumps({k: v for k, v in view.items() if k != "revokes"})


def test_a_revoke_is_played_told_to_nobody_and_a_denunciation_ends_the_deal(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.db"
    store = SQLiteStorage(db)
    table = people_table(store, {"variant": "standard", "renuncia": True, "match_target": 10})
    before = views(table)
    assert all(v["renuncia"] == {"penalty": 4, "false_penalty": 1, "penalty_scored": 4,
                                 "false_penalty_scored": 1} for v in before)
    assert all(v["denunciations"] == [] for v in before)
    assert not any(v.get("may_denounce") for v in before)  # no card down yet
    seat, card = revoke_somewhere(table)
    state = table.state
    assert state is not None and state.plays[-1] == card and state.revokes
    # Nobody is told: no view says a card revoked, not even the revoker's.
    for view in views(table):
        assert not told_of_a_revoke(view) and view["denunciations"] == [], view
        assert card_name(card) in view["trick"]["cards"] or view["last_trick"]
    assert all(v["may_denounce"] for v in views(table)[:4])
    # A wrong cry by the revoker's own side: it gives the other side the false penalty.
    partner = (seat + 2) % 4
    table.denounce(partner)
    assert not state.is_finished()
    # The other side's cry is right: the deal ends, the revoker's side loses it.
    table.denounce((seat + 1) % 4)
    assert table.phase == "deal_over"
    result = table.last_result
    assert result is not None and result.revoked_by == seat % 2
    offenders, others = seat % 2, 1 - seat % 2
    assert result.game_points[others] == 4 + 1 and result.game_points[offenders] == 0
    for view in views(table):
        assert view["denunciations"] == [
            {"after": len(state.plays), "seat": partner, "correct": False},
            {"after": len(state.plays), "seat": (seat + 1) % 4, "correct": True}]
        summary = view["summary"]
        assert summary["revoked_by"] == offenders
        assert summary["false_denunciations"][offenders] == 1
        assert summary["game_points"] == list(result.game_points)
        # The deal ended early: only the cards played are shown of the others' hands.
        known = {c for hand in summary["hands"] for c in hand}
        assert known <= {card_name(c) for c in state.plays} | set(view["hand"]) | {
            card_name(state.deal.trump_card)}  # type: ignore[arg-type]
        assert view.get("may_denounce") in (None, False)
    with pytest.raises(IllegalMoveError) as again:
        table.denounce(seat)
    assert again.value.reason == "bad_denounce"
    # Stored as actions: a restarted server is at the same place, penalty and all.
    store.close()
    store = SQLiteStorage(db)
    (stored,) = store.open_tables()
    assert stored.match is not None
    assert (partner, {"type": "denounce"}) in stored.match.deals[0].actions
    restored = Table.restore(stored, store, random.Random(2))
    assert restored.phase == "deal_over" and restored.match.score == table.match.score
    assert restored.state is not None and restored.state.denunciations == state.denunciations
    restored.deal_next()
    with pytest.raises(IllegalMoveError) as early:
        restored.denounce(seat)  # a new deal: nothing to denounce before its first card
    assert early.value.reason == "bad_denounce"
    store.close()


def test_a_late_denunciation_rescores_the_deal_just_over(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "s.db")
    table = people_table(store, {"variant": "standard", "renuncia": True, "match_target": 10})
    seat, _ = revoke_somewhere(table)
    while table.phase == "playing":
        play_legal(table)
    before = table.match.score[:]
    table.denounce((seat + 1) % 4)  # after the last card, before the next deal
    others = 1 - seat % 2
    assert table.match.score[others] == 4 and table.match.score[seat % 2] == 0 != sum(before)
    stored = store.load_match(table.match_id)
    assert stored is not None and stored.score == table.match.score
    store.close()


def won_with_a_revoke(store: SQLiteStorage) -> tuple[Table, int]:
    """A match to one game, stored in ``store``, where a seat revokes and its side wins the
    match: the table, at match over, and the revoker's seat."""
    rules = {"variant": "standard", "renuncia": True, "match_target": 1}
    for seed in range(1, 40):
        for storage in (SQLiteStorage(":memory:"), store):  # found, then played again there
            table = people_table(storage, rules, seed=seed)
            seat, _ = revoke_somewhere(table)
            while table.phase == "playing":
                play_legal(table)
            if table.phase != "match_over" or table.match.winner != seat % 2:
                break
            if storage is store:
                return table, seat
    raise AssertionError("no seed where the revoking side wins")


def test_a_won_match_is_not_reopened_by_a_late_cry(tmp_path: Path) -> None:
    """The match is won with a revoke unproven: the other side's cry now is refused (the
    referee's bad_denounce, "the match is over"), no view offers it, and nothing changes: the
    score, the winner, the stored match and its place in the history."""
    store = SQLiteStorage(tmp_path / "s.db")
    table, seat = won_with_a_revoke(store)
    state = table.state
    assert state is not None and state.revokes and state.may_denounce((seat + 1) % 4)
    assert not any(v.get("may_denounce") for v in views(table))
    stored = store.load_match(table.match_id)
    assert stored is not None and stored.finished is not None
    score, winner, version = table.match.score[:], table.match.winner, table.version
    for accuser in ((seat + 1) % 4, (seat + 3) % 4, seat):
        with pytest.raises(IllegalMoveError) as refused:
            table.denounce(accuser)
        assert refused.value.reason == "bad_denounce" and "match is over" in str(refused.value)
    assert table.phase == "match_over" and table.match.score == score
    assert table.match.winner == winner and table.version == version
    after = store.load_match(table.match_id)
    assert after is not None and (after.finished, after.score, after.winner) == (
        stored.finished, score, winner)
    assert [m.id for m in store.finished_matches()] == [table.match_id]
    assert not any(a == {"type": "denounce"} for _, a in after.deals[-1].actions)
    store.close()


def test_a_won_matchs_finish_stays_when_its_score_is_stored_again(tmp_path: Path) -> None:
    """A finished time, once set, stays: storing a won match's score again (a restart between
    a deal's last move and its score) keeps the moment it was won."""
    store = SQLiteStorage(tmp_path / "s.db")
    table, _ = won_with_a_revoke(store)
    stored = store.load_match(table.match_id)
    assert stored is not None and stored.finished is not None
    store.score_match(table.match_id, list(table.match.score), table.match.winner)
    again = store.load_match(table.match_id)
    assert again is not None and again.finished == stored.finished
    store.close()


def test_a_pontos_table_scores_and_shows_a_game_of_penalty_as_30_points(tmp_path: Path) -> None:
    """Under pontos a game of penalty is a quarter of the points in play: every view says the
    penalties as scored (120 card points a proven revoke, 30 a wrong cry), the summary's game
    points are those, and a deal ended early shows of the other hands only the cards played."""
    table = people_table(SQLiteStorage(":memory:"), {"variant": "pontos", "renuncia": True})
    assert all(v["renuncia"] == {"penalty": 4, "false_penalty": 1, "penalty_scored": 120,
                                 "false_penalty_scored": 30} for v in views(table))
    seat, _ = revoke_somewhere(table)
    table.denounce((seat + 2) % 4)  # the revoker's partner: wrong, 30 to the other side
    table.denounce((seat + 1) % 4)  # right: the deal ends, 120 more to the other side
    state = table.state
    assert state is not None and table.phase == "deal_over"
    offenders, others = seat % 2, 1 - seat % 2
    assert table.match.score[others] == 150 and table.match.score[offenders] == 0
    public = {card_name(c) for c in state.plays} | {card_name(state.deal.trump_card)}  # type: ignore[arg-type]
    for view in views(table):
        summary = view["summary"]
        assert summary["game_points"][others] == 150 == (
            view["renuncia"]["penalty_scored"] + view["renuncia"]["false_penalty_scored"])
        assert summary["revoked_by"] == offenders
        known = {c for hand in summary["hands"] for c in hand}
        assert known <= public | set(view["hand"]), view["you"]
    spectator = views(table)[-1]
    assert {c for hand in spectator["summary"]["hands"] for c in hand} <= public


def test_a_table_without_renuncia_refuses_a_revoke_and_a_denunciation(tmp_path: Path) -> None:
    table = people_table(SQLiteStorage(tmp_path / "s.db"), {"variant": "standard"})
    play_legal(table)
    view = seat_view(table, 0, PRESENT, set())
    assert "may_denounce" not in view and "denunciations" not in view and view["renuncia"] is None
    with pytest.raises(IllegalMoveError) as refused:
        table.denounce(0)
    assert refused.value.reason == "bad_denounce"
    while True:
        asked = table.asked()
        assert asked is not None
        seat, request = asked
        assert type(request) is AskCard and request.revokes == ()
        state = table.state
        assert state is not None
        others = [c for c in mask_cards(state.hands[seat]) if c not in request.legal]
        if others:
            version = table.version
            with pytest.raises(IllegalMoveError) as illegal:
                table.play(seat, others[0])
            assert illegal.value.reason in ("must_follow", "must_trump")
            assert table.version == version
            return
        table.play(seat, request.legal[0])


def test_bots_denounce_a_persons_revoke_they_can_prove(tmp_path: Path) -> None:
    """Seat 0 alone is a person: his revoke is proven once he plays the suit he failed to
    follow (or, at the latest, when the deal's last card is down), and a bot of the other
    side denounces it then: the deal is the bots' side's, with the penalty."""
    store = SQLiteStorage(tmp_path / "s.db")
    table = people_table(store, {"variant": "standard", "renuncia": True, "match_target": 10},
                         kinds=("human", "bot", "bot", "bot"))
    rng = random.Random(3)
    revoked = False
    while table.phase == "playing":
        asked = table.asked()
        assert asked is not None
        seat, request = asked
        if seat == 0:
            assert type(request) is AskCard
            if request.revokes and not revoked:
                table.play(0, request.revokes[0])
                revoked = True
            else:
                table.play(0, rng.choice(request.legal))
        else:  # the room's work, done here in line
            bot, info = table.bot_to_move(standing_in=False)
            from sueca.bots.base import decide

            table.submit(seat, decide(bot, info, strict=True))
    assert revoked
    state = table.state
    assert state is not None and state.proven is not None and state.proven.seat in (1, 3)
    assert table.last_result is not None and table.last_result.revoked_by == 0
    stored = store.load_match(table.match_id)
    assert stored is not None and (state.proven.seat, {"type": "denounce"}) in [
        tuple(a) for a in stored.deals[0].actions]
    report = check(stored.record)  # what the history page replays
    assert report["valid"], report["error"]
    assert report["deals"][0]["denunciations"] == [
        {"after": state.proven.after, "seat": state.proven.seat, "correct": True}]
    store.close()


def test_open_hands_show_every_hand_or_the_dealers_and_his_partners(tmp_path: Path) -> None:
    for open_hands in (True, "dealer_dummy"):
        table = people_table(SQLiteStorage(":memory:"),
                             {"variant": "standard", "open_hands": open_hands})
        state = table.state
        assert state is not None
        dealer = state.deal.dealer
        shown = {dealer, (dealer + 2) % 4} if open_hands == "dealer_dummy" else set(range(4))
        for view in views(table):
            assert view["open_hands"] == open_hands
            for seat in range(4):
                hand = [card_name(c) for c in mask_cards(state.hands[seat])]
                if seat in shown or seat == view["you"]:
                    assert sorted(view["known"][seat]) == sorted(hand), (open_hands, seat)
                else:
                    assert set(view["known"][seat]) <= {card_name(state.deal.trump_card)}  # type: ignore[arg-type]
    with pytest.raises(TableError, match="dealer_dummy"):
        from sueca.server.tables import parse_rules

        parse_rules({"variant": "italiana5", "open_hands": "dealer_dummy"})


def test_no_looking_back_never_shows_the_trick_just_taken(tmp_path: Path) -> None:
    for rules, shown in (({"variant": "standard"}, True),
                         ({"variant": "standard", "no_looking_back": True}, False)):
        table = people_table(SQLiteStorage(":memory:"), rules)
        for _ in range(4):
            play_legal(table)
        assert all((v["last_trick"] is not None) == shown for v in views(table))
        assert all(v["no_looking_back"] is not shown for v in views(table))
        play_legal(table)  # the next lead: gathered at every table now
        assert all(v["last_trick"] is None for v in views(table))


def test_over_the_socket_a_revoke_then_renuncia(server: LiveServer) -> None:
    """Four people at sockets: one revokes, the next player cries renúncia! with
    ``{"type": "denounce"}``; every socket and a spectator hear it and its outcome; the cry is
    refused in the next deal until a card is down."""
    table = create_table(server.http, ["human"] * 4, {"variant": "standard", "renuncia": True,
                                                      "match_target": 10})

    async def scenario() -> list[dict[str, Any]]:
        players = [await join(server.ws, table["id"], token_of(table, s), s) for s in range(4)]
        spectator = await join(server.ws, table["id"], None, None)
        await players[0].send({"type": "denounce"})
        assert (await players[0].recv_until("error"))["code"] == "bad_denounce"
        while True:
            view = await spectator.sync()
            actor = view["actor"]
            mine = await players[actor].sync()
            if mine.get("revokes"):
                card = mine["revokes"][0]
                await players[actor].send({"type": "play", "card": card})
                break
            await players[actor].send({"type": "play", "card": mine["legal"][0]})
            await players[actor].sync()
        seen = [await p.sync() for p in players]
        assert all(v["denunciations"] == [] and not told_of_a_revoke(v) for v in seen)
        accuser = players[(actor + 1) % 4]
        await accuser.send({"type": "denounce"})
        finals = [await p.sync() for p in [*players, spectator]]
        for view in finals:
            assert view["phase"] == "deal_over"
            assert view["denunciations"][-1]["correct"] is True
            assert view["denunciations"][-1]["seat"] == (actor + 1) % 4
            assert view["summary"]["revoked_by"] == actor % 2
        for p in players:
            await p.send({"type": "next"})
        view = await players[0].sync()
        while view["deal"] != 1:
            view = (await players[0].recv_until("state"))["view"]
        await players[1].send({"type": "denounce"})
        assert (await players[1].recv_until("error"))["code"] == "bad_denounce"
        for p in [*players, spectator]:
            await p.socket.close()
        return finals

    finals = asyncio.run(scenario())
    assert finals[0]["score"]["match"][1 - finals[0]["summary"]["revoked_by"]] == 4


async def play_one(players: list[Any], revoke: bool) -> int | None:
    """Over the sockets, the seat to play plays its first legal card, or with ``revoke`` its
    first revoke if it may make one: the seat that revoked, if it did."""
    view = await players[0].sync()
    actor = view["actor"]
    mine = await players[actor].sync()
    revokes = mine.get("revokes") if revoke else None
    await players[actor].send({"type": "play", "card": (revokes or mine["legal"])[0]})
    await players[actor].sync()
    return actor if revokes else None


def test_over_the_socket_a_cry_after_the_match_is_won_is_refused(server: LiveServer) -> None:
    """The reviewer's table: a match to one game, a revoke nobody cried, the match won. A cry
    then gets an error on that socket alone and nothing changes: the phase, the score, the
    winner, the finished match in the history; no view offers the cry."""
    table = create_table(server.http, ["human"] * 4, {"variant": "standard", "renuncia": True,
                                                      "match_target": 1})

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        players = [await join(server.ws, table["id"], token_of(table, s), s) for s in range(4)]
        spectator = await join(server.ws, table["id"], None, None)
        revoker = None
        while revoker is None:
            revoker = await play_one(players, revoke=True)
        while (await spectator.sync())["phase"] == "playing":
            await play_one(players, revoke=False)  # nobody cries: the match is won
        before = await spectator.sync()
        assert [(await p.sync())["may_denounce"] for p in players] == [False] * 4
        accuser = players[(revoker + 1) % 4]
        await accuser.send({"type": "denounce"})
        error = await accuser.recv_until("error")
        assert error["code"] == "bad_denounce" and "match is over" in error["message"]
        after = await spectator.sync()
        for p in [*players, spectator]:
            await p.socket.close()
        return before, after

    before, after = asyncio.run(scenario())
    assert after == before and after["phase"] == "match_over"
    assert after["score"]["winner"] is not None and after["denunciations"] == []
    mine = {"X-Sueca-Seats": f"{table['id']}:{token_of(table, 0)}"}  # (a private table's)
    (entry,) = httpx2.get(f"{server.http}/api/history", headers=mine).json()["matches"]
    assert entry["finished"] is not None and entry["score"] == after["score"]["match"]
    assert entry["winner"] == after["score"]["winner"]
    detail = httpx2.get(f"{server.http}/api/history/{entry['id']}", headers=mine).json()
    assert detail["renuncia"] == {"penalty": 4, "false_penalty": 1, "penalty_scored": 4,
                                  "false_penalty_scored": 1}


def test_the_history_of_a_pontos_match_says_its_penalty_as_scored(server: LiveServer) -> None:
    """A pontos match to 100 points, won by a proven revoke (a capote: 120 card points): the
    history answers the penalties as the table scored them, for the page to say."""
    table = create_table(server.http, ["human"] * 4, {"variant": "pontos", "renuncia": True,
                                                      "match_target": 100})

    async def scenario() -> dict[str, Any]:
        players = [await join(server.ws, table["id"], token_of(table, s), s) for s in range(4)]
        revoker = None
        while revoker is None:
            revoker = await play_one(players, revoke=True)
        await players[(revoker + 1) % 4].send({"type": "denounce"})
        final = await players[0].sync()
        for p in players:
            await p.socket.close()
        return final

    final = asyncio.run(scenario())
    others = 1 - final["summary"]["revoked_by"]
    assert final["phase"] == "match_over" and final["score"]["winner"] == others
    assert final["summary"]["game_points"][others] == 120 == final["renuncia"]["penalty_scored"]
    mine = {"X-Sueca-Seats": f"{table['id']}:{token_of(table, 0)}"}  # (a private table's)
    (entry,) = httpx2.get(f"{server.http}/api/history", headers=mine).json()["matches"]
    detail = httpx2.get(f"{server.http}/api/history/{entry['id']}", headers=mine).json()
    assert detail["renuncia"] == {"penalty": 4, "false_penalty": 1, "penalty_scored": 120,
                                  "false_penalty_scored": 30}
    assert detail["report"]["deals"][-1]["game_points"][others] == 120


def test_the_bots_at_a_web_table_hear_every_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee calls each bot's hooks at the web table as at every other: the match's
    start once, each deal's end, each annulled deal; and a stand-in for an away person is
    told of the match it joins."""
    from sueca.bots import RandomBot
    from sueca.server import tables

    heard: list[tuple[int, str]] = []

    class Listening(RandomBot):
        def new_match(self, rules: Rules, seat: int) -> None:
            self.seat = seat
            heard.append((seat, "new_match"))

        def deal_over(self, info: Any, hands: Any) -> None:
            heard.append((self.seat, "deal_over"))

        def deal_annulled(self, info: Any) -> None:
            heard.append((self.seat, "deal_annulled"))

    monkeypatch.setattr(tables, "make_bot", lambda level, seed=None: Listening(seed))
    from sueca.bots.base import decide

    rules = {"variant": "brazil", "weak_hand_redeal": True, "weak_hand_limits": [15, 15],
             "match_target": 2}
    table = people_table(SQLiteStorage(":memory:"), rules, seed=3,
                         kinds=("human", "bot", "bot", "bot"))
    assert sorted(heard) == [(1, "new_match"), (2, "new_match"), (3, "new_match")]
    deals = annulled = 0
    while table.phase != "match_over":
        if table.phase == "deal_over":
            deals += 1
            table.deal_next()
            continue
        asked = table.asked()
        assert asked is not None
        seat, request = asked
        if seat == 0:  # the person: asks for a new deal whenever he may
            if type(request) is AskCard:
                table.play(0, request.legal[0])
            else:
                may = getattr(request, "may_ask", False)
                annulled += may
                table.redeal(0, may)
        else:
            bot, info = table.bot_to_move(standing_in=False)
            table.submit(seat, decide(bot, info, strict=True))
    deals += 1
    annulled += sum(1 for a in table.match.annulled if a.asked_by != 0)
    assert len(table.match.annulled) == annulled > 0
    for seat in (1, 2, 3):
        assert heard.count((seat, "deal_over")) == deals == len(table.match.results)
        assert heard.count((seat, "deal_annulled")) == annulled
        assert heard.count((seat, "new_match")) == 1
    stand_in = table.stand_in(0)
    assert isinstance(stand_in, Listening) and (0, "new_match") in heard
