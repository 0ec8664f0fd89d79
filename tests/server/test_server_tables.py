"""The synchronous parts: storage, the authoritative table and its restore, the views."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from sueca.cards import card_name, mask_cards
from sueca.record import check
from sueca.rules import STANDARD
from sueca.server.storage import SQLiteStorage
from sueca.server.tables import SeatConfig, Table, TableError, parse_rules, parse_seats
from sueca.server.views import public_view, seat_view
from sueca.state import IllegalMoveError


def new_table(store: SQLiteStorage, seed: int = 1, rules: dict[str, object] | None = None,
              table_id: str = "t1") -> Table:
    seats = parse_seats([{"kind": "human", "name": n} for n in ("A", "B", "C", "D")], STANDARD)
    return Table.create(table_id, parse_rules(rules), seats, store, random.Random(seed))


def play_cards(table: Table, count: int) -> None:
    for _ in range(count):
        assert table.state is not None
        if table.phase == "deal_over":
            table.deal_next()
        if table.phase != "playing":
            return
        actor = table.actor()
        assert actor is not None
        table.play(actor, table.state.legal_moves()[0])


def test_every_card_is_stored_and_a_table_restores_at_the_same_card(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    store = SQLiteStorage(db)
    table = new_table(store)
    play_cards(table, 57)  # into the second deal
    assert table.state is not None
    state = table.state
    store.close()  # the process "dies": only the file remains

    store = SQLiteStorage(db)
    (stored,) = store.open_tables()
    again = Table.restore(stored, store, random.Random(99))
    assert again.state is not None
    assert again.state.plays == state.plays and again.state.hands == state.hands
    assert again.state.deal == state.deal and again.match.score == table.match.score
    assert [s.token for s in again.seats] == [s.token for s in table.seats]
    assert again.match_id == table.match_id and again.deal_index == table.deal_index
    play_cards(again, 2000)
    assert again.phase == "match_over"
    stored_match = store.load_match(again.match_id)
    assert stored_match is not None and stored_match.finished is not None
    report = check(stored_match.record)
    assert report["valid"] and report["match"]["winner"] == again.match.winner


def test_finished_tables_are_not_restored_after_a_day(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "s.db")
    done = new_table(store, rules={"variant": "standard", "match_target": 1}, table_id="done")
    play_cards(done, 2000)
    new_table(store, table_id="live")
    assert {t.id for t in store.open_tables()} == {"done", "live"}
    assert {t.id for t in store.open_tables(finished_since=time.time() + 1)} == {"live"}
    assert [m.table_id for m in store.finished_matches()] == ["done"]


def test_the_table_refuses_out_of_turn_and_illegal_cards_and_stores_nothing(
    tmp_path: Path,
) -> None:
    store = SQLiteStorage(tmp_path / "s.db")
    table = new_table(store)
    assert table.state is not None
    actor = table.actor()
    assert actor is not None
    other = (actor + 1) % 4
    with pytest.raises(TableError) as turn:
        table.play(other, mask_cards(table.state.hands[other])[0])
    assert turn.value.code == "not_your_turn"
    with pytest.raises(IllegalMoveError):
        table.play(actor, mask_cards(table.state.hands[other])[0])
    stored = store.load_match(table.match_id)
    assert stored is not None and stored.record.deals[0].plays == []
    assert table.state.plays == []


def test_lobby_input_is_validated() -> None:
    with pytest.raises(TableError, match="unknown rules option"):
        parse_rules({"variant": "standard", "nope": 1})
    with pytest.raises(TableError, match="4 seats"):
        parse_seats([{"kind": "bot"}], STANDARD)
    seats = parse_seats([{"kind": "human", "name": "  Ana   Maria " + "x" * 40}, {"kind": "bot"},
                         {"kind": "bot", "level": "random"}, {"kind": "human"}], STANDARD)
    assert seats[0].name.startswith("Ana Maria") and len(seats[0].name) == 24
    assert seats[0].token and seats[3].token and seats[0].token != seats[3].token
    assert seats[1].token == "" and seats[2].level == "random"
    assert SeatConfig("bot", "x").matches("") is False


def test_views_hold_only_what_each_seat_may_know(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "s.db")
    table = new_table(store, seed=3)
    play_cards(table, 6)
    state = table.state
    assert state is not None
    presence = ["present"] * 4
    dealer = state.deal.dealer
    trump = card_name(state.deal.trump_card)
    for seat in range(4):
        view = seat_view(table, seat, presence, set())
        assert view["hand"] == [card_name(c) for c in mask_cards(state.hands[seat])]
        others = {card_name(c) for s in range(4) if s != seat for c in mask_cards(state.hands[s])}
        shown = {c for hand in view["known"] for c in hand} | set(view["hand"])
        assert shown & others <= {trump}
        assert "points_taken" not in view and "past_tricks" not in view  # no review
    spectator = public_view(table, presence, set())
    assert spectator["hand"] == [] and spectator["legal"] == []
    known = [set(k) for k in spectator["known"]]
    held = state.trump_card_held()
    assert known[dealer] == ({trump} if held else set())
    assert all(not k for s, k in enumerate(known) if s != dealer)


def test_review_tricks_tables_show_past_tricks(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "s.db")
    table = new_table(store, rules={"variant": "standard", "review_tricks": True})
    play_cards(table, 9)
    view = seat_view(table, 0, ["present"] * 4, set())
    assert len(view["past_tricks"]) == 2 and sum(view["points_taken"]) == sum(
        t["points"] for t in view["past_tricks"])


def test_taken_tricks_and_points_are_shown_to_all_once_the_deal_is_over(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "s.db")
    table = new_table(store, seed=4)
    play_cards(table, 40)
    assert table.phase == "deal_over"
    for view in (seat_view(table, 1, ["present"] * 4, set()),
                 public_view(table, ["present"] * 4, set())):
        assert view["points_taken"] == view["summary"]["points"]
        assert len(view["past_tricks"]) == 10
        assert sum(t["points"] for t in view["past_tricks"]) == 120


def test_serve_is_a_command_and_refuses_a_negative_grace() -> None:
    from typer.testing import CliRunner

    from sueca.cli import app

    runner = CliRunner()
    assert "browser" in runner.invoke(app, ["serve", "--help"]).output
    assert runner.invoke(app, ["serve", "--grace", "-1"]).exit_code == 2


def test_a_socket_that_does_not_read_holds_a_bounded_queue() -> None:
    import asyncio

    from sueca.server.rooms import OUTBOX_LIMIT, Connection

    async def never(text: str) -> None:  # pragma: no cover - never called: no pump runs
        raise AssertionError

    async def scenario() -> None:
        conn = Connection(never)
        for i in range(10 * OUTBOX_LIMIT):
            conn.push("error", f"e{i}")
            conn.push("state", f"s{i}")
        queued = list(conn._outbox)
        assert len(queued) <= OUTBOX_LIMIT
        assert queued[-1] == ("state", f"s{10 * OUTBOX_LIMIT - 1}")  # the latest view is kept

    asyncio.run(scenario())


# ---- every table: bidding, double deck, the dummy -------------------------------------------


def italiana_table(store: SQLiteStorage, seed: int = 1) -> Table:
    rules = parse_rules({"variant": "italiana5", "match_target": 3})
    seats = parse_seats([{"kind": "human", "name": n} for n in "ABCDE"], rules)
    return Table.create("i5", rules, seats, store, random.Random(seed))


def test_an_italiana_table_restores_mid_auction_and_mid_play(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    store = SQLiteStorage(db)
    table = italiana_table(store)
    state = table.state
    assert state is not None and state.phase == "bidding" and table.actor() == state.deal.dealer
    table.bid(state.to_play, 70)
    table.bid(state.to_play, 0)

    def restored() -> Table:
        store.close()
        again_store = SQLiteStorage(db)
        (stored,) = again_store.open_tables()
        return Table.restore(stored, again_store, random.Random(5))

    again = restored()
    assert again.state is not None and again.state.bids == [70, 0]
    assert again.state.deal == state.deal and again.actor() == state.to_play
    store = again.storage  # type: ignore[assignment]
    for _ in range(3):
        again.bid(again.state.to_play, 0)
    with pytest.raises(TableError, match="waits for the declarer's called card"):
        again.play(again.state.to_play, again.state.hands[again.state.to_play].bit_length() - 1)
    again.call(again.state.to_play, 39)  # the ace of clubs
    play_cards(again, 3)
    third = restored()
    assert third.state is not None and third.state.contract == again.state.contract
    assert third.state.plays == again.state.plays and third.state.bids == [70, 0, 0, 0, 0]
    while third.phase != "match_over":
        if third.phase == "deal_over":
            third.deal_next()
        state = third.state
        assert state is not None
        if state.phase == "bidding":
            third.bid(state.to_play, 0)
        elif state.phase == "calling":
            third.call(state.to_play, 0)
        else:
            play_cards(third, 1)
    stored = third.storage.load_match(third.match_id)
    assert stored is not None and stored.finished is not None
    report = check(stored.record)
    assert report["valid"], report["error"]
    assert report["match"]["score"] == third.match.score and len(third.match.score) == 5


def test_bids_and_calls_are_checked_by_the_table(tmp_path: Path) -> None:
    table = italiana_table(SQLiteStorage(tmp_path / "s.db"))
    state = table.state
    assert state is not None
    version = table.version
    with pytest.raises(IllegalMoveError, match=r"beat|61 to 120"):
        table.bid(state.to_play, 50)
    with pytest.raises(TableError, match="turn"):
        table.bid((state.to_play + 1) % 5, 70)
    with pytest.raises(TableError, match="waits for a bid"):
        table.call(state.to_play, 0)
    assert table.version == version and state.bids == []


def test_the_views_of_a_bidding_table_keep_the_partner_secret(tmp_path: Path) -> None:
    table = italiana_table(SQLiteStorage(tmp_path / "s.db"), seed=2)
    state = table.state
    assert state is not None
    declarer = state.to_play
    table.bid(declarer, 80)
    for _ in range(4):
        table.bid(state.to_play, 0)
    # Call a card another seat holds: that seat is the secret partner.
    partner = (declarer + 2) % 5
    called = mask_cards(state.hands[partner])[-1]
    table.call(declarer, called)
    presence = ["present"] * 5
    for seat in range(5):
        view = seat_view(table, seat, presence, set())
        assert view["auction"]["contract"]["called_card"] == card_name(called)
        assert view["sides"][declarer] == 0
        assert (view["sides"][partner] == 0) == (seat == partner)
        if seat not in (declarer, partner):
            assert view["sides"][partner] is None and view["sides"][seat] == 1
    public = public_view(table, presence, set())
    assert public["sides"] == [0 if s == declarer else None for s in range(5)]
    assert [s["team"] for s in public["seats"]] == [None] * 5


def test_lobby_seats_with_a_dummy() -> None:
    rules = parse_rules({"variant": "standard", "dummy": 2})
    seats = parse_seats([{"kind": "human"}, {"kind": "bot"}, {}, {"kind": "bot"}], rules)
    assert [s.kind for s in seats] == ["human", "bot", "dummy", "bot"] and seats[2].token == ""
    with pytest.raises(TableError, match="seat 2 is the dummy"):
        parse_seats([{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
                    rules)
    with pytest.raises(TableError, match="kind must be"):
        parse_seats([{"kind": "dummy"}, {"kind": "bot"}, {}, {"kind": "bot"}], rules)
    with pytest.raises(TableError, match="8 seats"):
        parse_seats([{"kind": "bot"}] * 4, parse_rules({"variant": "double8"}))


# A database from before moves were stored as actions (and from before bidding tables):
# test_server_migration.py.
