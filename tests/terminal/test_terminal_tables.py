"""Every table of the rules at the terminal: five-player Sueca Italiana (the auction, the call,
the secret partner), the double deck at six and eight seats (a card held twice), the dummy, and
their records (check, resume, replay)."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from rich.console import Console
from terminal_scripting import Answer, Scripted, always, lines, make_table

from sueca.actions import AskBid, Bid
from sueca.cards import (
    CARDS_PER_SUIT,
    DECK_SIZE,
    SUITS,
    Card,
    card_face,
    card_name,
    make_card,
    parse_card,
)
from sueca.deal import deal_cards
from sueca.record import check, read, replay
from sueca.rules import Rules, preset
from sueca.state import State
from sueca.terminal.i18n import language
from sueca.terminal.input import parse_bid, parse_choice
from sueca.terminal.render import RichScreen, plain_table, render_table, side_parts
from sueca.terminal.replay import positions, step_through
from sueca.terminal.setup import Setup, make_seats
from sueca.terminal.table import Outcome, Table
from sueca.terminal.view import TableView, hand_order

EN = language("en")
ITALIANA = preset("italiana5").replace(match_target=1)  # one deal or so: the match is not the point
DOUBLE8 = preset("double8").replace(match_target=1)
DOUBLE6 = preset("double6").replace(match_target=1)


def rendered(view: TableView) -> str:
    """Everything both screens would draw for ``view``: the plain lines and the Rich table."""
    buffer = io.StringIO()
    Console(file=buffer, width=120, color_system=None).print(render_table(view, EN))
    return "\n".join(plain_table(view, EN)) + "\n" + buffer.getvalue()


def passing(items: list[str | None] | None = None) -> Answer:
    """Answer with ``items`` in turn, then pass every bid and play the first legal card (a
    card's number is no bid: answering "1" for ever would never end an auction)."""
    queue = list(items or [])

    def answer(screen: Scripted, prompt: str) -> str | None:
        if queue:
            return queue.pop(0)
        return "0" if "bid" in prompt else "1"

    return answer


def valid_report(path: Path) -> dict[str, object]:
    report = check(read(str(path)))
    assert report["valid"], report["error"]
    return report


# ---- parsing ------------------------------------------------------------------------------


def test_bids_are_numbers_or_a_pass() -> None:
    assert parse_bid(" 75 ") == 75
    assert [parse_bid(t) for t in ("0", "p", "Pass", "passo")] == [0, 0, 0, 0]
    assert parse_bid("seventy") is None
    assert parse_bid("-5") is None
    assert parse_bid("9" * 5000) is None and parse_bid("²") is None  # no crash either


def lowest_asked(rules: Rules, bids: list[int]) -> int:
    """The lowest bid the next bidder is asked for (the bid prompt's range is the request's,
    :meth:`InformationState.request`), after ``bids``."""
    state = State(rules, deal_cards(rules, 0, random.Random(1)))
    for value in bids:
        state.apply(state.to_play, Bid(value))
    request = state.information_state(state.to_play).request()
    assert isinstance(request, AskBid) and request.highest == 120
    return request.lowest


def test_the_lowest_bid_rises_over_the_highest() -> None:
    assert lowest_asked(ITALIANA, []) == 61
    assert lowest_asked(ITALIANA, [0, 75]) == 76
    assert lowest_asked(ITALIANA, [120]) == 121  # only a pass is left
    assert lowest_asked(ITALIANA.replace(bid_must_rise=False), [90]) == 61


def test_a_card_named_is_the_copy_the_hand_holds() -> None:
    ace = parse_card("AS")
    second = ace + DECK_SIZE
    assert parse_choice("AS", [], EN, hand=1 << second) == second
    assert parse_choice("as", [], EN, hand=1 << ace | 1 << second) == ace
    both = 1 << ace | 1 << second | 1 << parse_card("2S")
    assert [card_name(c) for c in hand_order(both)] == ["AS", "AS", "2S"]


# ---- five-player Sueca Italiana -------------------------------------------------------------


def missing_top_card(hand: int) -> Card:
    """The highest card the hand lacks, suit by suit: a call that makes a partner."""
    for suit in SUITS:
        for rank in reversed(range(CARDS_PER_SUIT)):
            card = make_card(rank, suit)
            if not hand >> card & 1:
                return card
    raise AssertionError("a hand of 8 lacks a card")


class Auctioneer:
    """The human's answers at seat 0: two refused bids, then 120 (nobody may outbid it), a
    line that is not a card, then the call of a card he lacks, then the first legal card."""

    def __init__(self) -> None:
        self.bids = ["50", "lots", "9" * 5000, "120"]
        self.calls = ["XX"]
        self.called: Card | None = None

    def __call__(self, screen: Scripted, prompt: str) -> str | None:
        if prompt.startswith("Your bid"):
            return self.bids.pop(0) if self.bids else "0"
        if prompt.startswith("Call a card"):
            if self.calls:
                return self.calls.pop(0)
            called = missing_top_card(screen.last_view.info.hand)
            if self.called is None:  # the first deal's call (later deals may have others)
                self.called = called
            return card_name(called)
        return "1"


@pytest.fixture(scope="module")
def italiana(tmp_path_factory: pytest.TempPathFactory) -> tuple[Table, Scripted, Auctioneer]:
    answer = Auctioneer()
    table, screen = make_table(tmp_path_factory.mktemp("italiana"), answer, rules=ITALIANA,
                               bots="random", seed=11)
    table.match.first_dealer = 0  # the human bids first: nobody has bid 120 before him
    assert table.run().outcome is Outcome.FINISHED
    return table, screen, answer


def test_the_human_bids_calls_and_plays_a_whole_deal(
        italiana: tuple[Table, Scripted, Auctioneer]) -> None:
    table, screen, answer = italiana
    first = table.states[0]
    assert first.contract is not None
    assert (first.contract.declarer, first.contract.bid) == (0, 120)
    assert first.contract.called_card == answer.called
    assert first.is_finished()
    messages = [v.message for v in screen.views if v.message]
    assert EN.text("bad_bid", bid="50", low=61, high=120) in messages
    assert EN.text("bad_bid", bid="lots", low=61, high=120) in messages
    assert EN.text("bad_bid", bid="9" * 40 + "…", low=61, high=120) in messages  # cut short
    assert EN.text("bad_call", text="XX") in messages
    assert "You bid 120" in screen.said
    assert any(s.startswith("You play for 120 and call") for s in screen.said)
    assert screen.prompts[0] == EN.text("prompt_bid", low=61, high=120)


def test_the_partner_is_never_named_before_the_called_card_is_played(
        italiana: tuple[Table, Scripted, Auctioneer]) -> None:
    table, screen, answer = italiana
    state = table.states[0]
    partner = state.partner
    assert partner is not None and partner != 0  # the human called a card he lacks
    name = table.names()[partner]
    assert answer.called is not None
    called = card_face(answer.called)
    before = [v for v in screen.views
              if v.deal_number == 1 and v.info.contract is not None
              and called not in {card_face(c) for c in v.info.plays}]
    after = [v for v in screen.views if v.deal_number == 1 and v.info.phase == "over"]
    assert before and after
    for view in before:
        assert view.info.teams[partner] is None
        assert "partner" not in side_parts(view, partner, EN)
        text = rendered(view)
        assert EN.text("partner_is", seat=name) not in text
        assert EN.text("partner_secret", card=EN.card(answer.called)) in text
    # Once the card is out everybody knows, the human too.
    assert EN.text("partner_is", seat=name) in rendered(after[-1])
    reveal = EN.text("partner_revealed_yours", card=EN.card(answer.called), seat=name)
    said = screen.said
    assert reveal in said
    assert not any(name in s and "partner" in s for s in said[:said.index(reveal)])


def test_the_deal_ends_with_the_contract_and_each_players_game_points(
        italiana: tuple[Table, Scripted, Auctioneer]) -> None:
    table, screen, _ = italiana
    result = table.match.results[0]
    partner = table.states[0].partner
    assert partner is not None
    side = EN.text("side_pair", seat="You", partner=table.names()[partner])
    key = "contract_made" if result.made else "contract_failed"
    assert EN.text(key, number=1, side=side, points=result.points[0], target=120) in screen.said
    assert any(s.startswith("Game points: You ") for s in screen.said)
    assert len(table.match.score) == 5


def test_an_italiana_record_passes_check_and_replays_with_its_contract(
        italiana: tuple[Table, Scripted, Auctioneer]) -> None:
    table, _, answer = italiana
    report = valid_report(table.setup.path)
    deal = report["deals"][0]  # type: ignore[index]
    assert deal["bids"][0] == 120
    assert deal["contract"]["called_card"] == card_name(answer.called or 0)
    record = read(str(table.setup.path))
    screen = Scripted(always(""))
    shown = step_through(record, screen, EN)
    assert shown == len(positions(replay(record).states))
    first = rendered(screen.views[0])
    assert "Bids: Player 1 120" in first  # seat 0 of the record, as people count
    assert f"calls {EN.card(answer.called or 0)}" in first
    assert "partner: Player" in first  # a record hides nothing


def test_hints_in_the_auction(tmp_path: Path) -> None:
    def answer(screen: Scripted, prompt: str) -> str | None:
        return "120" if "bid" in prompt else "AH" if prompt.startswith("Call") else None

    table, screen = make_table(tmp_path, answer, rules=ITALIANA, bots="random", hints=True,
                               seed=4)
    table.match.first_dealer = 0
    assert table.run().outcome is Outcome.INPUT_ENDED  # at the first card: enough here
    [bidding] = [v for v in screen.views if v.acting == 0 and v.info.phase == "bidding"]
    assert bidding.bid_hint is not None
    value, reason = bidding.bid_hint
    assert value == 0 or 61 <= value <= 120
    assert "card points, calling" in reason
    assert f"Hint: {value or 'pass'} — " in rendered(bidding)
    [calling] = [v for v in screen.views if v.acting == 0 and v.info.phase == "calling"]
    assert calling.hint is not None
    assert f"Hint: {EN.card(calling.hint[0])} — " in rendered(calling)


def test_an_italiana_match_stopped_in_the_auction_resumes(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path, lines([], then=None), rules=ITALIANA, bots="random",
                               seed=5)
    table.match.first_dealer = 3  # two bots bid, then the input ends at the human's bid
    assert table.run().outcome is Outcome.INPUT_ENDED
    assert len(read(str(table.setup.path)).deals[0].bids) == 2
    again, _ = make_table(tmp_path, passing(), rules=ITALIANA, bots="random", seed=5)
    resumed = Table(again.setup, again.screen, read(str(table.setup.path)))
    assert resumed.run().outcome is Outcome.FINISHED
    valid_report(table.setup.path)


def test_hot_seat_hides_the_hand_before_each_bid(tmp_path: Path) -> None:
    table, screen = make_table(tmp_path, passing(), rules=ITALIANA, humans=(0, 1),
                               bots="random", seed=6)
    table.match.first_dealer = 0
    table.run()
    events = screen.events
    for index, (kind, _) in enumerate(events):
        if kind == "hide":
            kind_next, view = events[index + 1]
            assert kind_next == "show" and isinstance(view, TableView)
            assert view.hidden and view.info.hand == 0
            assert all(side is None or seat == view.info.contract.declarer
                       for seat, side in enumerate(view.info.teams)
                       if view.info.contract is not None
                       and card_face(view.info.contract.called_card)
                       not in {card_face(c) for c in view.info.plays})
    assert screen.prompts[0].startswith("Pass the screen to Player 1")


# ---- the double deck --------------------------------------------------------------------------


class TwinTyper:
    """Types the name of a card the human holds twice (both copies legal) whenever there is
    one; the first legal card's number otherwise."""

    def __init__(self) -> None:
        self.typed: list[str] = []

    def __call__(self, screen: Scripted, prompt: str) -> str:
        choices = screen.last_view.choices
        faces = [card_face(c) for c in choices]
        twins = [c for c in choices if faces.count(card_face(c)) == 2]
        if twins:
            self.typed.append(card_name(twins[0]))
            return card_name(twins[0])
        return "1"


@pytest.mark.parametrize(("rules", "seed"), [(DOUBLE8, 2), (DOUBLE6, 2)])
def test_a_double_deck_deal_with_a_card_held_twice(tmp_path: Path, rules: object,
                                                   seed: int) -> None:
    assert rules in (DOUBLE8, DOUBLE6)
    answer = TwinTyper()
    table, screen = make_table(tmp_path, answer, rules=DOUBLE8 if rules is DOUBLE8 else DOUBLE6,
                               bots="heuristic", seed=seed)
    result = table.run()
    assert result.outcome is Outcome.FINISHED
    assert answer.typed, "this seed deals the human a card twice"
    assert f"You play {EN.card(parse_card(answer.typed[0]))}" in screen.said
    assert not any(v.message for v in screen.views)  # a face typed is never refused
    valid_report(table.setup.path)
    view = next(v for v in screen.views if v.acting == 0 and v.info.hand >> DECK_SIZE)
    text = rendered(view)
    for seat in range(2, table.rules.players + 1):  # the others, counted from 1
        assert f"Player {seat}" in text
    # Every card of the hand is drawn, both copies of a card held twice.
    [hand_line] = [line for line in plain_table(view, EN) if line.startswith("Your cards")]
    faces = [card_face(c) for c in hand_order(view.info.hand)]
    assert len(faces) > len(set(faces))
    for face in set(faces):
        assert hand_line.count(EN.card(face)) == faces.count(face)


def test_a_double_deck_match_resumes_as_it_would_have_gone_on(tmp_path: Path) -> None:
    whole, _ = make_table(tmp_path, always("1"), rules=DOUBLE8, bots="heuristic", seed=8,
                          name="whole.json")
    assert whole.run().outcome is Outcome.FINISHED
    part, _ = make_table(tmp_path, lines(["1"] * 4, then=None), rules=DOUBLE8,
                         bots="heuristic", seed=8, name="part.json")
    assert part.run().outcome is Outcome.INPUT_ENDED
    again, _ = make_table(tmp_path, always("1"), rules=DOUBLE8, bots="heuristic", seed=8,
                          name="part.json")
    resumed = Table(again.setup, again.screen, read(str(part.setup.path)))
    assert resumed.run().outcome is Outcome.FINISHED
    assert read(str(part.setup.path)).deals == read(str(whole.setup.path)).deals


# ---- three players --------------------------------------------------------------------------


def test_the_dummy_table_still_plays(tmp_path: Path) -> None:
    rules = preset("standard").replace(match_target=1, dummy=2)
    table, screen = make_table(tmp_path, always("1"), rules=rules, bots="heuristic")
    assert table.run().outcome is Outcome.FINISHED
    assert EN.text("prompt_dummy") in screen.prompts
    valid_report(table.setup.path)


# ---- the Rich screen ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["double8", "italiana5"])
def test_deals_on_the_rich_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  variant: str) -> None:
    # Pass every bid (0), call AH if the auction leaves the call to the human, then play the
    # first legal card ("0" is no card and "1" no bid: each is refused where it is wrong)
    # until the input ends, a trick or two in.
    monkeypatch.setattr("sys.stdin", io.StringIO("0\n" * 5 + "AH\n" + "0\n1\n" * 2))
    out = io.StringIO()
    rules = preset(variant).replace(match_target=1)
    setup = Setup(rules, make_seats(rules, [0], "heuristic"), 3, tmp_path / "m.json", EN,
                  fast=True)
    table = Table(setup, RichScreen(EN, Console(file=out, width=100, force_terminal=True)))
    assert table.run().outcome is Outcome.INPUT_ENDED
    drawn = out.getvalue()
    assert "Your cards" in drawn and f"Player {rules.players - 1}" in drawn
    assert ("Bids: " in drawn) == rules.bidding
    assert table.states[0].trick_number >= 1
    valid_report(setup.path)


def test_a_broken_bot_does_not_end_the_humans_match(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that answers illegally (an impossible bid, a card it does not hold) is replaced by
    the plain answer (sueca.bots.base.decide) and the match goes on to its end."""
    from sueca.bots import BOTS, Bot
    from sueca.infostate import InformationState

    class Cheater(Bot):
        name = "cheater"

        def choose(self, info: InformationState) -> Card:
            return next(c for c in range(40) if c not in info.legal_moves())

        def bid(self, info: InformationState) -> int:
            return 50

    monkeypatch.setitem(BOTS, "cheater", Cheater)
    italiana5 = preset("italiana5").replace(match_target=1)
    table, _ = make_table(tmp_path, always("1"), rules=italiana5, humans=(), bots="cheater")
    result = table.run()
    assert result.winner is not None
    assert check(read(str(result.path)))["valid"]
