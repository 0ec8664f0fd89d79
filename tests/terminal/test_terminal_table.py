"""The game loop: whole matches through a scripted screen, what each seat is shown, illegal
input, quitting, resuming, hot-seat, the dummy, open hands and hints."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from terminal_scripting import Scripted, always, lines, make_table
from typer.testing import CliRunner

from sueca.cards import (
    SUIT_NAMES,
    Card,
    card_name,
    card_suit,
    mask_cards,
    parse_card,
    suit_cards_high_to_low,
)
from sueca.cli import app
from sueca.deal import Deal
from sueca.record import check, read
from sueca.rules import STANDARD, preset
from sueca.state import IllegalMoveError, State
from sueca.terminal.i18n import language
from sueca.terminal.input import ChoiceError, parse_choice, refusal
from sueca.terminal.setup import HUMAN, SetupError, load_setup, make_seats, parse_seat_list
from sueca.terminal.table import Outcome, Table, TableResult
from sueca.terminal.view import TableView, hand_order

EN = language("en")
SHORT = STANDARD.replace(match_target=1)  # one deal, where the whole match is not the point


def acting_views(screen: Scripted) -> list[TableView]:
    return [v for v in screen.views if v.acting is not None]


def record_of(path: Path) -> dict[str, object]:
    return json.loads(path.read_text(encoding="utf-8"))


def assert_valid_record(path: Path) -> dict[str, object]:
    report = check(read(str(path)))
    assert report["valid"], report["error"]
    return report


# ---- a whole match ----------------------------------------------------------------------------


@dataclass
class Played:
    table: Table
    screen: Scripted
    result: TableResult


@pytest.fixture(scope="module")
def whole_match(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """One match, seed 3, "1" at every prompt: several tests read it (it takes a moment)."""
    table, screen = make_table(tmp_path_factory.mktemp("whole"), always("1"))
    return Played(table, screen, table.run())


def test_a_whole_match_ends_with_a_valid_record(whole_match: Played) -> None:
    screen, result = whole_match.screen, whole_match.result
    assert result.outcome is Outcome.FINISHED
    assert result.winner in (0, 1)
    assert max(result.score) >= 4
    report = assert_valid_record(result.path)
    assert report["match"] == {"score": list(result.score), "winner": result.winner}
    saved = record_of(result.path)
    assert saved["seed"] == 3
    assert saved["seats"] == [HUMAN, "heuristic", "heuristic", "heuristic"]
    assert screen.said[-1] == f"Record saved: {result.path}"
    assert any(text.startswith(("We win the match", "They win the match"))
               for text in screen.said)


def test_number_one_is_always_the_first_legal_card(whole_match: Played) -> None:
    table, screen = whole_match.table, whole_match.screen
    record = read(str(table.setup.path))
    views = acting_views(screen)
    assert views
    played = [parse_card(c) for deal in record.deals for c in deal.plays]
    for view in views:
        legal = set(view.info.legal_moves())
        assert view.choices == hand_order(sum(1 << c for c in legal))
        # The card chosen is the one after this view's plays in the record.
        deal_offset = sum(len(d.plays) for d in record.deals[: view.deal_number - 1])
        assert played[deal_offset + len(view.info.plays)] == view.choices[0]


def test_the_same_seed_plays_the_same_match(whole_match: Played,
                                            tmp_path: Path) -> None:
    again, _ = make_table(tmp_path, always("1"))
    again.run()
    assert record_of(again.setup.path)["deals"] == record_of(whole_match.table.setup.path)["deals"]


# ---- what a seat is shown ------------------------------------------------------------------


def test_a_player_never_sees_a_hidden_card(whole_match: Played) -> None:
    screen = whole_match.screen
    for view in screen.views:
        info = view.info
        assert view.bottom == 0
        turned = 1 << info.trump_card if info.trump_card_held else 0
        for seat in (1, 2, 3):
            assert info.known[seat] & ~turned == 0, "another hand reached the screen"
        # Taken tricks are looked at again only once the deal is over (no review_tricks here).
        assert info.past_tricks == () or info.phase == "over"


def test_points_taken_are_shown_only_where_tricks_may_be_reviewed(tmp_path: Path) -> None:
    from io import StringIO

    from sueca.terminal.render import PlainScreen

    for review, expected in ((False, 0), (True, 1)):
        out = StringIO()
        screen = PlainScreen(EN, StringIO("1\n" * 400), out)
        rules = SHORT.replace(review_tricks=review)
        table, _ = make_table(tmp_path, always("1"), rules=rules, name=f"r{review}.json")
        Table(table.setup, screen).run()
        assert ("Card points taken" in out.getvalue()) == bool(expected)


# ---- input --------------------------------------------------------------------------------


def test_an_illegal_card_is_refused_with_its_reason_and_changes_nothing(tmp_path: Path) -> None:
    seen: dict[str, object] = {}
    path = tmp_path / "match.json"

    def answer(screen: Scripted, prompt: str) -> str | None:
        view = screen.last_view
        info = view.info
        if "card" in seen and "refused" not in seen:
            seen["refused"] = view
            seen["record_after"] = path.read_text(encoding="utf-8")
            return "1"
        if "card" not in seen and info.trick:
            led = card_suit(info.trick[0])
            other = [c for c in mask_cards(info.hand) if card_suit(c) != led]
            follow = suit_cards_high_to_low(info.hand, led)
            if follow and other:
                seen.update(card=other[0], follow=follow, led=led, before=view,
                            record_before=path.read_text(encoding="utf-8"))
                return card_name(other[0]).lower()
        return "1"

    table, _ = make_table(tmp_path, answer)
    table.run()
    before, after = seen["before"], seen["refused"]
    assert isinstance(before, TableView) and isinstance(after, TableView)
    follow = [EN.card(c) for c in seen["follow"]]  # type: ignore[attr-defined]
    held = follow[0] if len(follow) == 1 else ", ".join(follow[:-1]) + " and " + follow[-1]
    assert after.message == f"you must follow {SUIT_NAMES[seen['led']]}: you hold {held}"  # type: ignore[index]
    assert after.info == before.info
    assert seen["record_after"] == seen["record_before"]
    assert_valid_record(path)


def test_the_reason_names_the_suit_and_the_cards_held() -> None:
    hands = [
        "2S 3S 4S 5S 6S QS JS KS 7S AS",
        "3H 4H 5H 6H QH JH KH AH AD KD",
        "7H 2H 2D 3D 4D 5D 6D QD JD 7D",
        "2C 3C 4C 5C 6C QC JC KC 7C AC",
    ]
    deal = Deal.from_cards(0, [[parse_card(c) for c in h.split()] for h in hands],
                           parse_card("AS"))
    state = State(STANDARD, deal)
    state.play(parse_card("AH"), 1)
    with pytest.raises(IllegalMoveError) as error:
        state.play(parse_card("2D"), 2)
    info = state.information_state(2)
    two = parse_card("2D")
    assert refusal(error.value, two, info, EN, None) == (
        "you must follow hearts: you hold 7♥ and 2♥"
    )
    assert refusal(error.value, two, info, language("pt"), None) == (
        "tens de assistir a copas: tens 7♥ e 2♥"
    )
    assert refusal(error.value, two, info, EN, "Player 2") == (
        "you must follow hearts: Player 2 holds 7♥ and 2♥"
    )
    with pytest.raises(IllegalMoveError) as error:
        state.play(parse_card("AC"), 2)
    assert refusal(error.value, parse_card("AC"), info, EN, None) == "you do not hold A♣"


def test_the_reason_for_not_trumping_under_obligation() -> None:
    hands = [
        "2S 3S 4S 5S 6S QS JS KS AD KD",
        "2H 3H 4H 5H 6H QH JH KH 7H AH",
        "7S AS 2D 3D 4D 5D 6D QD JD 7D",
        "2C 3C 4C 5C 6C QC JC KC 7C AC",
    ]
    rules = preset("italiana")
    deal = Deal.from_cards(0, [[parse_card(c) for c in h.split()] for h in hands],
                           parse_card("KS"))
    state = State(rules, deal)
    state.play(parse_card("AH"), 1)
    with pytest.raises(IllegalMoveError) as error:
        state.play(parse_card("2D"), 2)
    assert refusal(error.value, parse_card("2D"), state.information_state(2), EN, None) == (
        "you must trump: you have no hearts and hold A♠ and 7♠"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("zz", "not a card: 'zz'"),
        ("99", "there is no card number 99"),
        ("0", "there is no card number 0"),
        # Said back cut short (it was echoed whole), and read without a crash (int refuses
        # 5000 digits; "²" is a digit int does not read).
        ("9" * 5000, "there is no card number " + "9" * 40 + "… \\(1–1\\)$"),
        ("x" * 100_000, "not a card: '" + "x" * 40 + "…' — "),
        ("²", "not a card: '²'"),
    ],
)
def test_unreadable_input_is_refused(text: str, message: str) -> None:
    with pytest.raises(ChoiceError, match=message):
        parse_choice(text, [parse_card("7H")], EN)


def test_a_long_line_is_echoed_and_refused_cut_short(tmp_path: Path) -> None:
    """Piped input is echoed, and a line that is no card refused: of a 100 kB line, both
    say its first 40 characters and "…"."""
    result = CliRunner().invoke(app, ["play", "--seed", "4", "--fast", "--bots", "heuristic",
                                      "--lang", "en", "--save", str(tmp_path / "m.json")],
                                input="x" * 100_000 + "\nq\ny\n")
    assert result.exit_code == 0, result.output[-500:]
    cut = "x" * 40 + "…"
    assert f"Your card (number or card, ? help, q quit): {cut}\n" in result.output
    assert f"not a card: '{cut}'" in result.output
    assert "x" * 41 not in result.output


def test_cards_are_typed_in_any_form() -> None:
    seven = parse_card("7H")
    for text in ("7h", "7H", "♥7", "7♥", "h7", " 7h "):
        assert parse_choice(text, [], EN) == seven
    assert parse_choice("2", [parse_card("AS"), seven], EN) == seven


def test_bad_lines_change_nothing_and_help_is_shown(tmp_path: Path) -> None:
    table, screen = make_table(tmp_path, lines(["?", "zz", "42", "", "1"]), rules=SHORT)
    table.run()
    views = acting_views(screen)
    assert views[1].message == EN.text("help")
    assert views[2].message is not None and views[2].message.startswith("not a card")
    assert views[3].message == "there is no card number 42 (1–" + str(len(views[0].choices)) + ")"
    assert views[4].message is None
    assert {v.info for v in views[:5]} == {views[0].info}
    assert views[5].info != views[0].info


# ---- quitting and resuming ----------------------------------------------------------------


def test_quit_asks_first_and_saves_a_resumable_match(whole_match: Played,
                                                     tmp_path: Path) -> None:
    full = whole_match.table

    script = ["1"] * 12 + ["q", "n", "1", "q", "y"]
    table, screen = make_table(tmp_path, lines(script), name="quit.json")
    result = table.run()
    assert result.outcome is Outcome.QUIT
    assert EN.text("confirm_quit") in screen.prompts
    assert any(v.message == EN.text("not_quitting") for v in screen.views)
    saved = read(str(result.path))
    assert len(saved.deals[-1].plays) < 40  # the deal in progress is in the record
    assert_valid_record(result.path)

    setup, record = load_setup(result.path, EN, fast=True)
    assert setup.seats == table.setup.seats and setup.seed == table.setup.seed
    resumed = Table(setup, Scripted(always("1")), record)
    assert resumed.run().outcome is Outcome.FINISHED
    # Bots reseed per card and deals come from the seed: the resumed match is the same match.
    assert record_of(result.path)["deals"] == record_of(full.setup.path)["deals"]


def test_input_ending_early_saves_the_match(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path, lines(["1"] * 5, then=None))
    result = table.run()
    assert result.outcome is Outcome.INPUT_ENDED
    report = assert_valid_record(result.path)
    assert report["deals"][-1]["finished"] is False


def test_a_finished_match_cannot_be_resumed(whole_match: Played) -> None:
    setup, record = load_setup(whole_match.table.setup.path, EN)
    with pytest.raises(SetupError, match="that match is over"):
        Table(setup, Scripted(always("1")), record)


def test_resuming_never_runs_a_program_the_record_names(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path, lines(["1"] * 3, then=None))
    path = table.run().path
    data = json.loads(path.read_text(encoding="utf-8"))
    marker = tmp_path / "ran"
    data["seats"][1] = f"cmd:touch {marker}"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SetupError, match="external program"):
        load_setup(path, EN)
    assert not marker.exists()


def test_a_record_without_seats_is_not_resumable(tmp_path: Path) -> None:
    path = tmp_path / "plain.json"
    path.write_text('{"rules": {"variant": "standard"}, "deals": []}', encoding="utf-8")
    with pytest.raises(SetupError, match="no 'seats' list"):
        load_setup(path, EN)


# ---- hot-seat -----------------------------------------------------------------------------


def test_hot_seat_hides_each_hand_before_the_screen_passes(tmp_path: Path) -> None:
    def answer(screen: Scripted, prompt: str) -> str | None:
        return "" if prompt.startswith("Pass the screen") else "1"

    table, screen = make_table(tmp_path, answer, humans=(0, 2))
    assert table.run().outcome is Outcome.FINISHED
    assert_valid_record(table.setup.path)
    facing = None
    passes = 0
    for index, (kind, item) in enumerate(screen.events):
        if kind == "ask" and str(item).startswith("Pass the screen"):
            passes += 1
            # Just before the prompt: the screen was cleared, then a table with no hand.
            assert screen.events[index - 2][0] == "hide"
            hidden = screen.events[index - 1][1]
            assert isinstance(hidden, TableView) and hidden.hidden and hidden.acting is None
            facing = int(str(item).split("Player ")[1].split()[0]) - 1  # people count from 1
        if kind == "show" and isinstance(item, TableView):
            info = item.info
            turned = 1 << info.trump_card if info.trump_card_held else 0
            if item.acting is not None:
                assert item.bottom == facing == item.acting, "a hand shown before the pass"
                other = 2 - item.acting
                assert info.known[other] & ~turned == 0
            else:
                for seat in (0, 2):
                    assert info.known[seat] & ~turned == 0, "a hand left on a shared screen"
    assert passes >= 2
    names = table.names()
    assert names == ("Player 1", "Player 2", "Player 3", "Player 4")


def test_all_four_humans_can_play(tmp_path: Path) -> None:
    table, screen = make_table(tmp_path, always(""), humans=(0, 1, 2, 3), rules=SHORT)
    # Empty lines only pass the screen: answer cards when asked for one.
    screen.answer = lambda s, prompt: "" if prompt.startswith("Pass") else "1"
    assert table.run().outcome is Outcome.FINISHED
    assert_valid_record(table.setup.path)


# ---- three players: the dummy -------------------------------------------------------------


def test_three_players_the_partner_plays_the_dummy_for_a_whole_match(tmp_path: Path) -> None:
    rules = STANDARD.replace(dummy=2)
    table, screen = make_table(tmp_path, always("1"), rules=rules)
    result = table.run()
    assert result.outcome is Outcome.FINISHED
    assert table.setup.seats == (HUMAN, "heuristic", "dummy", "heuristic")
    report = assert_valid_record(result.path)
    assert report["match"]["winner"] is not None
    assert record_of(result.path)["rules"] == {"variant": "standard", "dummy": 2}
    dummy_views = [v for v in acting_views(screen) if v.acting == 2]
    assert dummy_views and EN.text("prompt_dummy") in screen.prompts
    for view in dummy_views:
        assert view.bottom == 0 and view.info.seat == 2  # the dummy's own information state
        assert view.info.known[0].bit_count() == view.info.hand_sizes[0]


def test_the_dummy_is_face_up_to_the_opponents_only_after_the_opening_lead(
    tmp_path: Path,
) -> None:
    rules = STANDARD.replace(dummy=2)
    table, screen = make_table(tmp_path, always("1"), rules=rules, humans=(1,), seed=1)
    table.run()
    assert table.match.first_dealer == 0  # so the human leads the first deal
    assert table.setup.seats == ("heuristic", HUMAN, "dummy", "heuristic")
    before = after = 0
    for view in screen.views:
        info = view.info
        turned = 1 << info.trump_card if info.trump_card_held else 0
        if not info.plays:
            assert info.known[2] & ~turned == 0
            before += 1
        else:
            assert info.known[2].bit_count() == info.hand_sizes[2]
            after += 1
    assert before and after


def test_the_dummy_cannot_be_a_human() -> None:
    with pytest.raises(SetupError, match="seat 3 is the dummy: its partner, seat 1, plays it"):
        make_seats(STANDARD.replace(dummy=2), [0, 2])


# ---- open hands and hints -----------------------------------------------------------------


def test_open_hands_show_every_hand(tmp_path: Path) -> None:
    rules = SHORT.replace(open_hands=True)
    table, screen = make_table(tmp_path, always("1"), rules=rules)
    assert table.run().outcome is Outcome.FINISHED
    for view in screen.views:
        info = view.info
        for seat in range(4):
            assert info.known[seat].bit_count() == info.hand_sizes[seat]


def test_hints_give_the_best_bots_card_and_reason_before_the_choice(tmp_path: Path) -> None:
    table, screen = make_table(tmp_path, always("1"), hints=True,
                               rules=SHORT.replace(open_hands=True))
    table.run()
    views = acting_views(screen)
    assert views
    for view in views:
        assert view.hint is not None
        card, reason = view.hint
        assert card in view.info.legal_moves() and reason


def test_no_hints_unless_asked(tmp_path: Path) -> None:
    table, screen = make_table(tmp_path, always("1"), rules=SHORT)
    table.run()
    assert all(v.hint is None for v in screen.views)


# ---- seats --------------------------------------------------------------------------------


def test_seat_lists() -> None:
    # People count seats from 1; the engine's seats (and the records') from 0.
    assert parse_seat_list("1,3", 4, "--humans") == [0, 2]
    assert parse_seat_list("4", 4, "--humans") == [3]
    assert parse_seat_list("all", 4, "--humans") == [0, 1, 2, 3]
    assert parse_seat_list("none", 4, "--humans") == []
    for bad in ("5", "x", "1,1", "²", "9" * 5000, "-1"):
        with pytest.raises(SetupError):
            parse_seat_list(bad, 4, "--humans")
    with pytest.raises(SetupError) as refused:
        parse_seat_list("9" * 5000, 4, "--humans")
    assert len(str(refused.value)) < 100  # the bad value is quoted short, not echoed whole


def test_seat_0_of_the_old_numbering_is_refused_saying_seats_count_from_1() -> None:
    """Seats counted from 0 before session 10: an old ``--humans 0,2`` must not silently
    seat someone else, so 0 is refused with the reason, in any list."""
    for old in ("0", "0,2", "2,0"):
        with pytest.raises(SetupError, match=r"--humans counts seats from 1 \(1 to 4\)"):
            parse_seat_list(old, 4, "--humans")
    with pytest.raises(SetupError, match=r"counts seats from 1 \(1 to 8\)"):
        parse_seat_list("0", 8, "--humans")


def test_bots_per_seat_and_unknown_bots() -> None:
    assert make_seats(STANDARD, [0], "-,random,heuristic,random") == (
        HUMAN, "random", "heuristic", "random")
    with pytest.raises(SetupError, match="unknown bot 'nobody'"):
        make_seats(STANDARD, [0], "nobody")
    with pytest.raises(SetupError, match="one bot or one per seat"):
        make_seats(STANDARD, [0], "random,random")
    assert make_seats(STANDARD, [0], "heuristic+signals")[1] == "heuristic+signals"


def test_bad_bot_options_are_refused_when_the_table_is_made(tmp_path: Path) -> None:
    with pytest.raises(SetupError, match="heuristic has no option 'depth'"):
        make_table(tmp_path, always("1"), bots="heuristic:depth=3")


def test_a_table_of_bots_can_be_watched(tmp_path: Path) -> None:
    table, screen = make_table(tmp_path, always("1"), humans=(), rules=SHORT)
    assert table.run().outcome is Outcome.FINISHED
    assert screen.prompts == []
    cards: list[Card] = []
    for view in screen.views:
        turned = 1 << view.info.trump_card if view.info.trump_card_held else 0
        cards += [c for s in range(4) for c in mask_cards(view.info.known[s] & ~turned)]
    assert cards == []


@pytest.mark.parametrize(("score", "lore"), [((5, 0), "5–0: a gato"), ((4, 1), "4–1: a chapéu"),
                                             ((4, 2), None)])
def test_score_sheet_lore_at_the_end_of_a_match(tmp_path: Path, score: tuple[int, int],
                                                lore: str | None) -> None:
    table, screen = make_table(tmp_path, always("1"))
    table.match.score = list(score)
    table.match.winner = 0
    table.narrator.announce_winner(table.match)
    assert screen.said[0] == f"We win the match, {score[0]}–{score[1]}!"
    assert (screen.said[1:] == []) if lore is None else screen.said[1].startswith(lore)
