"""The three table rules of issue 15 at the terminal: renúncia (a revoke typed by name, the cry
of renúncia at any prompt and at the deal's end), à Descoberta as the seeds tell it (the dealer
and his partner face up) and no looking back (a taken trick is never drawn again)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from terminal_scripting import Scripted, always, lines, make_table
from typer.testing import CliRunner

from sueca.cards import card_name, mask_cards, parse_card
from sueca.cli import app
from sueca.record import check, read
from sueca.rules import STANDARD
from sueca.terminal.i18n import LANGUAGES, language
from sueca.terminal.input import parse_denounce
from sueca.terminal.render import PlainScreen, plain_table, render_table
from sueca.terminal.table import Outcome, Table
from sueca.terminal.view import TableView

EN = language("en")
RENUNCIA = STANDARD.replace(renuncia=True, match_target=1)


def revokes_of(view: TableView) -> list[int]:
    """The cards of the acting hand that are not the viewer's legal choices: revokes."""
    return [c for c in mask_cards(view.info.known[view.acting or 0]) if c not in view.choices]


# ---- renúncia -------------------------------------------------------------------------------


class Revoker:
    """Types, by name, the first card of the hand that breaks the rule of play, the first time
    one may be (at ``seat``'s prompt); the first legal card otherwise. At hot-seat, Enter
    passes the screen; at the deal's end, Enter plays on. ``then`` answers the first prompt of
    ``crier`` after the revoke."""

    def __init__(self, seat: int = 0, crier: int | None = None, then: str = "r") -> None:
        self.seat = seat
        self.crier = crier
        self.then = then
        self.typed: str | None = None
        self.views: list[TableView] = []
        self.cried = False

    def __call__(self, screen: Scripted, prompt: str) -> str | None:
        if prompt.startswith("Pass the screen") or prompt.startswith("The deal is over"):
            return ""
        view = screen.last_view
        if view.acting == self.seat and self.typed is None and revokes_of(view):
            self.typed = card_name(revokes_of(view)[0])
            self.views.append(view)
            return self.typed
        if view.acting == self.crier and self.typed is not None and not self.cried:
            self.cried = True
            return self.then
        return "1"


def test_a_revoke_typed_by_name_is_played_and_nothing_says_so(tmp_path: Path) -> None:
    answer = Revoker()
    table, screen = make_table(tmp_path, answer, rules=RENUNCIA, seed=5)
    assert table.run().outcome is Outcome.FINISHED
    assert answer.typed is not None, "seed 5 lets the person revoke"
    [view] = answer.views
    card = read(str(table.setup.path)).deals[0].plays[len(view.info.plays)]
    assert card == answer.typed  # played as typed, not refused
    assert not [v.message for v in screen.views if v.message]
    # The numbers stay for the legal cards: the revoke was typed by name.
    assert set(view.choices) == set(view.info.legal_moves())
    assert f"You play {EN.card(parse_card(answer.typed))}" in screen.said
    said_before_any_cry = []
    for text in screen.said:
        if "renúncia" in text:
            break
        said_before_any_cry.append(text)
    assert not any("revoke" in text.lower() for text in said_before_any_cry)
    report = check(read(str(table.setup.path)))
    assert report["valid"], report["error"]


def test_a_revoke_is_refused_where_the_table_does_not_play_renuncia(tmp_path: Path) -> None:
    answer = Revoker()
    table, screen = make_table(tmp_path, answer, rules=RENUNCIA.replace(renuncia=False), seed=5)
    table.run()
    assert answer.typed is not None
    refused = [v.message for v in screen.views if v.message]
    assert refused and refused[0].startswith("you must follow")


def test_a_bot_denounces_the_persons_revoke_and_the_narrator_says_so(tmp_path: Path) -> None:
    # Seed 5: the person revokes twice in the first two tricks, and a bot opponent proves it
    # when he plays the suit he had refused.
    def answer(screen: Scripted, prompt: str) -> str | None:
        view = screen.last_view
        return card_name(revokes_of(view)[0]) if revokes_of(view) else "1"

    table, screen = make_table(tmp_path, answer, rules=RENUNCIA.replace(match_target=2),
                               seed=5)
    assert table.run().outcome is Outcome.FINISHED
    assert "Player 2 cries renúncia! Proven: the other side revoked, and the deal ends" in (
        screen.said)
    assert "Deal 1: our revoke is proven; game points +0 / +4" in screen.said
    assert table.match.score == [0, 4]
    deal = check(read(str(table.setup.path)))["deals"][0]
    assert deal["denunciations"] == [{"after": 7, "seat": 1, "correct": True}]


def test_the_other_side_cries_renuncia_at_its_prompt_and_the_deal_ends(tmp_path: Path) -> None:
    """Hot-seat, seats 0 and 1 opponents: seat 1 revokes, seat 0 cries r at its next card.
    The hands prove it: the deal ends and seat 0's side scores the penalty."""
    answer = Revoker(seat=1, crier=0)
    table, screen = make_table(tmp_path, answer, rules=RENUNCIA, humans=(0, 1), seed=1)
    assert table.run().outcome is Outcome.FINISHED
    assert answer.typed is not None and answer.cried
    assert "Player 1 cries renúncia! Proven: the other side revoked, and the deal ends" in (
        screen.said)
    assert table.match.score == [RENUNCIA.renuncia_penalty, 0]
    state = table.states[0]
    assert state.proven is not None and state.proven.seat == 0
    assert check(read(str(table.setup.path)))["valid"]


def test_a_wrong_cry_costs_the_penalty_and_the_deal_goes_on(tmp_path: Path) -> None:
    """Bots never revoke: every cry of the person's is wrong. Seed 4: the person leads the
    first trick, where a cry is refused (no card is down yet); at the next card "?" tells how
    to cry, and "r" costs the penalty, and the same card is asked for again."""
    table, screen = make_table(tmp_path, lines(["r", "1", "?", "r"]), rules=RENUNCIA, seed=4)
    assert table.run().outcome is Outcome.FINISHED
    views = [v for v in screen.views if v.acting is not None]
    assert not views[0].info.plays
    assert views[1].message == "No renúncia now: no card has been played yet"
    assert views[1].info == views[0].info
    help_view = next(v for v in views if v.message and EN.text("help_renuncia") in v.message)
    assert help_view.message is not None and help_view.message.startswith(EN.text("help"))
    cry = "You cry renúncia! Wrong: nobody on the other side revoked (1 to that side)"
    assert cry in screen.said
    state = table.states[0]
    assert [(d.seat, d.correct) for d in state.denunciations] == [(0, False)]
    assert state.is_finished() and state.proven is None  # played out to the last trick
    assert table.match.results[0].false_denunciations == (1, 0)
    assert check(read(str(table.setup.path)))["valid"]


def test_a_cry_at_the_deals_end_rescores_the_deal(tmp_path: Path) -> None:
    """After the last card a person may still cry until the next deal starts: a prompt asks
    (Enter plays on). A wrong cry there scores the deal again with the penalty."""
    def answer(screen: Scripted, prompt: str) -> str | None:
        if prompt.startswith("The deal is over"):
            return "r" if not table.states[0].denunciations else ""
        return "1"

    table, screen = make_table(tmp_path, answer, rules=RENUNCIA.replace(match_target=3),
                               seed=2)
    assert table.run().outcome is Outcome.FINISHED
    assert EN.text("prompt_renuncia") in screen.prompts
    first = table.states[0]
    assert [(d.after, d.correct) for d in first.denunciations] == [(40, False)]
    cry = screen.said.index("You cry renúncia! Wrong: nobody on the other side revoked "
                            "(1 to that side)")
    rescored = [s for s in screen.said[cry:] if s.startswith("Deal 1: ")]
    assert rescored, "the deal's result is said again"
    assert table.match.results[0].false_denunciations == (1, 0)
    report = check(read(str(table.setup.path)))
    assert report["valid"], report["error"]
    assert report["match"]["score"] == list(table.match.score)


def test_the_deals_end_prompt_helps_and_refuses_a_seat_not_at_the_screen(tmp_path: Path
                                                                          ) -> None:
    ending = ["?", "r 3", ""]

    def answer(screen: Scripted, prompt: str) -> str | None:
        if prompt.startswith("The deal is over"):
            return ending.pop(0) if ending else ""
        return "1"

    # A match to 2: the first deal does not win it (a won match asks nothing more).
    table, screen = make_table(tmp_path, answer, rules=RENUNCIA.replace(match_target=2),
                               seed=2)
    assert table.run().outcome is Outcome.FINISHED
    assert ending == []
    assert EN.text("help_renuncia") in screen.said
    assert "No renúncia now" not in " ".join(screen.said)
    assert EN.text("renuncia_no_seat", seat=3) in screen.said
    assert table.states[0].denunciations == []


def test_a_won_match_offers_no_cry_and_a_late_one_is_refused(tmp_path: Path) -> None:
    """Seed 4: the first deal wins a match to 1. Its result stands: the deal's-end prompt is
    not offered (it was, and an r there scored the deal again and dealt Deal 2), and a cry
    made anyway is refused in the player's words."""
    cries: list[str] = []

    def answer(screen: Scripted, prompt: str) -> str | None:
        if prompt.startswith("The deal is over"):
            cries.append(prompt)
            return "r" if len(cries) == 1 else ""
        return "1"

    table, screen = make_table(tmp_path, answer, rules=RENUNCIA, seed=4)
    assert table.run().outcome is Outcome.FINISHED
    assert cries == [] and EN.text("prompt_renuncia") not in screen.prompts
    assert len(table.states) == 1 and table.match.score == [1, 0]
    assert table.people.cry(0) == EN.text("no_denouncing",
                                          reason=EN.text("renuncia_match_over"))
    assert table.states[0].denunciations == [] and table.match.score == [1, 0]
    assert check(read(str(table.setup.path)))["match"]["score"] == [1, 0]


def test_at_a_persons_own_prompt_r_cries_for_that_person_only(tmp_path: Path) -> None:
    """Hot-seat, seats 0 and 1 opponents. At Player 0's card prompt "r 1" is refused (it let
    him cry wrongly in Player 1's name, scoring for his own side); at the shared deal's-end
    prompt "r 1" is Player 1's cry."""
    # The prompts "r 2" (Player 2: seat 1, people count from 1) was typed at: a card's, then
    # the deal's end.
    typed: list[str] = []

    def answer(screen: Scripted, prompt: str) -> str | None:
        if prompt.startswith("Pass the screen"):
            return ""
        if prompt.startswith("The deal is over"):
            if len(typed) == 1:
                typed.append(prompt)
                return "r 2"
            return ""
        view = screen.last_view
        if not typed and view.acting == 0 and view.info.plays:
            typed.append(prompt)
            return "r 2"
        return "1"

    table, screen = make_table(tmp_path, answer, rules=RENUNCIA.replace(match_target=3),
                               humans=(0, 1), seed=1)
    assert table.run().outcome is Outcome.FINISHED
    assert typed[0].startswith("Player 1, your card") and len(typed) == 2
    refused = [v.message for v in screen.views if v.message]
    assert refused == [EN.text("renuncia_own_prompt", seat="Player 1", other="Player 2")]
    first = table.states[0]
    assert [(d.after, d.seat, d.correct) for d in first.denunciations] == [(40, 1, False)]
    assert table.match.results[0].false_denunciations == (0, 1)


def test_the_rich_screen_asks_at_the_deals_end_too(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from sueca.terminal.render import RichScreen

    # A match to 2: the first deal does not win it (a won match asks nothing more).
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 10 + "?\n\n" + "1\n" * 300))
    out = io.StringIO()
    table, _ = make_table(tmp_path, always("1"), rules=RENUNCIA.replace(match_target=2),
                          seed=2)
    rich = RichScreen(EN, Console(file=out, width=100, force_terminal=True))
    assert Table(table.setup, rich).run().outcome is Outcome.FINISHED
    drawn = out.getvalue()
    assert "The deal is over: r cries renúncia" in drawn
    assert "Renúncia: at this table" in drawn  # the help, drawn with the table


def test_a_cry_names_its_seat_by_number() -> None:
    assert parse_denounce(" R ") == (True, None)
    assert parse_denounce("renúncia 2") == (True, 1)  # Player 2: seat 1 of the engine
    assert parse_denounce("r 1") == (True, 0)
    assert parse_denounce("r 0") == (True, -1)  # no person's seat: refused as such
    for text in ("r two", "r ²", "r " + "9" * 5000, "r 1 2", "rr"):
        assert parse_denounce(text) == (False, None), text


def test_every_language_tells_how_to_cry_renuncia() -> None:
    for lang in LANGUAGES.values():
        assert " r " in lang.text("help_renuncia")
        assert "r" in lang.text("prompt_renuncia").split()


def test_renuncia_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    result = CliRunner().invoke(app, ["play", "--seed", "5", "--fast", "--bots", "heuristic",
                                      "--lang", "en", "--save", str(path), "--set",
                                      "renuncia=true", "--set", "match_target=2"],
                                input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "The deal is over: r cries renúncia" in result.output
    assert read(str(path)).rules == {"variant": "standard", "renuncia": True,
                                     "match_target": 2}


# ---- à Descoberta: the dealer and his partner face up -------------------------------------------


def test_the_dealer_and_his_partner_play_face_up_to_everyone(tmp_path: Path) -> None:
    rules = STANDARD.replace(open_hands="dealer_dummy", match_target=2)
    table, screen = make_table(tmp_path, always("1"), rules=rules, seed=4)
    assert table.run().outcome is Outcome.FINISHED
    dealers = set()
    for view in screen.views:
        info = view.info
        dealer = info.dealer
        dealers.add(dealer)
        open_seats = {dealer, rules.partner_of(dealer)}
        turned = 1 << info.trump_card if info.trump_card is not None and info.trump_card_held \
            else 0
        for seat in range(4):
            if seat in open_seats or seat == view.bottom:
                assert info.known[seat].bit_count() == info.hand_sizes[seat]
            else:
                assert info.known[seat] & ~turned == 0, "a closed hand reached the screen"
        if view.acting is not None and dealer not in (0, 2):
            text = "\n".join(plain_table(view, EN))
            for seat in open_seats:
                if info.known[seat] & ~turned:  # the turned card is named in the heading
                    assert f"Player {seat + 1}: " in text
    assert len(dealers) > 1  # both sides dealt: each was face up in turn


def test_open_dealer_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "d.json"
    result = CliRunner().invoke(app, ["play", "--seed", "6", "--fast", "--bots", "heuristic",
                                      "--lang", "en", "--open-dealer", "--save", str(path),
                                      "--set", "match_target=1"], input="1\n" * 200)
    assert result.exit_code == 0, result.output
    assert read(str(path)).rules == {"variant": "standard", "open_hands": "dealer_dummy",
                                     "match_target": 1}
    both = CliRunner().invoke(app, ["play", "--open", "--open-dealer"], input="")
    assert both.exit_code == 2


# ---- no looking back ----------------------------------------------------------------------


def plain_transcript(tmp_path: Path, name: str, no_looking_back: bool) -> str:
    out = io.StringIO()
    rules = STANDARD.replace(match_target=1, no_looking_back=no_looking_back)
    table, _ = make_table(tmp_path, always("1"), rules=rules, seed=3, name=name)
    Table(table.setup, PlainScreen(EN, io.StringIO("1\n" * 400), out)).run()
    return out.getvalue()


def test_the_plain_table_never_prints_a_taken_trick_again(tmp_path: Path) -> None:
    looking = plain_transcript(tmp_path, "a.json", no_looking_back=False)
    assert " → " in looking  # the trick just taken, drawn again with its winner
    gathered = plain_transcript(tmp_path, "b.json", no_looking_back=True)
    assert " → " not in gathered
    # The same match (the rule changes no card): where the cloth showed the trick just
    # taken, it is empty.
    assert gathered.count(EN.text("cloth_empty")) == (
        looking.count(EN.text("cloth_empty")) + looking.count(" → "))
    assert [line for line in gathered.splitlines() if "takes trick" in line or "take trick"
            in line] == [line for line in looking.splitlines() if "takes trick" in line
                         or "take trick" in line]


def test_the_rich_table_shows_no_gathered_trick(tmp_path: Path) -> None:
    rules = STANDARD.replace(match_target=1, no_looking_back=True)
    table, screen = make_table(tmp_path, always("1"), rules=rules, seed=3)
    table.run()
    after_a_trick = [v for v in screen.views if v.acting is not None and not v.info.trick
                     and v.info.trick_winners]
    assert after_a_trick
    for view in after_a_trick:
        assert view.info.last_trick() is None
        console = Console(record=True, width=100, file=io.StringIO())
        console.print(render_table(view, EN))
        text = console.export_text()
        assert "Trick to" not in text and EN.text("cloth_empty") in text
