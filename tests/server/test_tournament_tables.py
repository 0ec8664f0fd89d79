"""A duplicate round's tables (Table(deals_seed=...)): every table dealt from the same seed
holds the same cards deal after deal, after a restart too; another seed deals others; a
tournament table has no host (no seat sees another's invitation)."""

from __future__ import annotations

import random

from sueca.actions import AskCard
from sueca.rules import Rules
from sueca.server.storage import SQLiteStorage
from sueca.server.tables import SeatConfig, Table


def _table(name: str, seed: int | None, store: SQLiteStorage, rng_seed: int) -> Table:
    seats = [SeatConfig("human", f"{name}{i}", token=f"tok{name}{i}") for i in range(4)]
    return Table.create(name, Rules(match_target=100), seats, store, random.Random(rng_seed),
                        deals_seed=seed, hosted=False)


def _finish_deal(table: Table, pick: int) -> None:
    """Play the deal out, each seat its ``pick``-th legal card (modulo how many)."""
    while table.phase == "playing":
        asked = table.asked()
        assert asked is not None
        seat, request = asked
        assert isinstance(request, AskCard)
        table.play(seat, request.legal[pick % len(request.legal)])


def _hands(table: Table) -> list[object]:
    assert table.state is not None
    return [table.state.deal.dealer, table.state.deal.hands, table.state.deal.trump_card]


def test_tables_of_one_seed_hold_the_same_cards_deal_after_deal() -> None:
    store = SQLiteStorage(":memory:")
    a, b = _table("a", 77, store, 1), _table("b", 77, store, 2)
    other = _table("c", 78, store, 3)
    assert a.host is None and a.settings()["deals_seed"] == 77
    assert _hands(a) == _hands(b) and _hands(a) != _hands(other)
    for deal in range(3):
        _finish_deal(a, 0)
        _finish_deal(b, deal + 1)  # played differently: the next deal is still the same
        a.deal_next()
        b.deal_next()
        assert _hands(a) == _hands(b), deal
    stored = store.load_table("b")
    assert stored is not None
    restored = Table.restore(stored, store, random.Random(99))
    assert _hands(restored) == _hands(a)
    _finish_deal(restored, 0)
    _finish_deal(a, 0)
    restored.deal_next()
    a.deal_next()
    assert _hands(restored) == _hands(a)


def test_a_table_without_a_seed_shuffles_as_before() -> None:
    store = SQLiteStorage(":memory:")
    plain = _table("p", None, store, 5)
    assert "deals_seed" not in plain.settings()
    assert plain.host is None
    hosted = Table.create("h", Rules(), [SeatConfig("human", "x", token="t")] * 4, store,
                          random.Random(5))
    assert hosted.host == 0
