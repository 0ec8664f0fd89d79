"""What the command line prints of a checked record and a solved position (``sueca check``,
``sueca solve``): Rich tables on the console the CLI gives. Seats and teams are counted from 1,
as people count them; ``--json`` prints the record's own numbers, from 0 (RECORD.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from sueca.cards import SUIT_LETTERS, SUIT_SYMBOLS, card_symbol, parse_card
from sueca.rules import Rules

if TYPE_CHECKING:
    from sueca.solver import Solution
    from sueca.state import State


def print_check(report: dict[str, Any], rules: Rules, console: Console) -> None:
    """The check report as a table: per team at a partnership table (any number of seats),
    per player with the bids and the contract at a bidding table."""
    if rules.bidding:
        _bidding_report(report, console)
    else:
        _team_report(report, rules, console)
    if report["valid"]:
        console.print("[green]valid[/green]")
    else:
        error = report["error"]
        # Counted from 1 as the table's Deal column (--json keeps RECORD.md's indexes).
        where = f"deal {error['deal'] + 1}" + (
            f", card {error['play'] + 1}" if error["play"] is not None else ""
        )
        # The reason is the engine's, shared with --json, and names the record's seats.
        note = " (seats as the record numbers them, from 0)" if "seat" in error["reason"] else ""
        console.print(f"[red]invalid[/red] at {where}: {error['reason']}{note}", markup=True)


def _drop_empty_notes(table: Table) -> None:
    """The last column (unfinished deals, redeals, cries) only where some deal has a note: an
    empty, unlabelled column said nothing."""
    notes = table.columns[-1]
    if not any(str(cell) for cell in notes.cells):
        table.columns.pop()


def _bidding_report(report: dict[str, Any], console: Console) -> None:
    table = Table(title="Sueca record", title_justify="left")
    for column in ("Deal", "Trump", "Bids", "Contract", "Points", "Result", "Game points",
                   "Match", "Notes"):
        table.add_column(column, justify="right" if column in ("Deal", "Points") else "left")
    score: list[int] = []
    for index, deal in enumerate(report["deals"]):
        contract = deal.get("contract")
        bids = " ".join(str(b) if b else "-" for b in deal.get("bids", []))
        trump = SUIT_SYMBOLS[SUIT_LETTERS.index(deal["trump"])] if deal.get("trump") else ""
        called = result = ""
        if contract is not None:
            partner = contract.get("partner")
            called = (f"{contract['declarer'] + 1}: {contract['bid'] or 61} "
                      f"{card_symbol(parse_card(contract['called_card']))} "
                      + (f"+ {partner + 1}" if partner is not None else "alone"))
            made = contract.get("made")
            result = "" if made is None else "made" if made else "failed"
        if deal["finished"]:
            gained = deal["game_points"]
            score = [s + g for s, g in zip(score or [0] * len(gained), gained, strict=True)]
        table.add_row(
            str(index + 1), trump, bids, called,
            f"{deal['points'][0]}–{deal['points'][1]}", result,
            " ".join(map(str, deal["game_points"])) if deal["finished"] else "",
            " ".join(map(str, score)), "" if deal["finished"] else "unfinished",
        )
    _drop_empty_notes(table)
    console.print(table)
    console.print("Bids in bidding order from the dealer (- a pass); contract: declarer: bid, "
                  "called card + partner; points: the declarer's side – the defenders'; game "
                  "points and match per seat, seat 1 first.")
    match = report["match"]
    console.print("Match score: " + " ".join(map(str, match["score"]))
                  + (f", won by seat {match['winner'] + 1}" if match["winner"] is not None else ""))


def _team_report(report: dict[str, Any], rules: Rules, console: Console) -> None:
    table = Table(title="Sueca record", title_justify="left")
    for column in ("Deal", "Trump", "Tricks", "Points", "Game points", "Match", "Notes"):
        table.add_column(column, justify="right" if column not in ("Trump", "Notes") else "left")
    score = [0, 0]
    for index, deal in enumerate(report["deals"]):
        tricks = [0, 0]
        for trick in deal["tricks"]:
            tricks[rules.teams[trick["winner"]]] += 1
        if deal["finished"]:
            score = [s + g for s, g in zip(score, deal["game_points"], strict=False)]
        trump = SUIT_SYMBOLS[SUIT_LETTERS.index(deal["trump"])]
        table.add_row(
            str(index + 1),
            trump,
            f"{tricks[0]}–{tricks[1]}",
            f"{deal['points'][0]}–{deal['points'][1]}",
            f"{deal['game_points'][0]}–{deal['game_points'][1]}" if deal["finished"] else "",
            f"{score[0]}–{score[1]}",
            "; ".join(([] if deal["finished"] else ["unfinished"]) + [
                f"new deal asked by seat {r['asked_by'] + 1} ({r['points']} points)"
                for r in deal.get("redeals") or ()] + [
                f"renúncia cried by seat {d['seat'] + 1} after {d['after']} cards: "
                f"{'proven' if d['correct'] else 'wrong'}"
                for d in deal.get("denunciations") or ()]),
        )
    _drop_empty_notes(table)
    console.print(table)
    match = report["match"]
    console.print(f"Match score (team 1 – team 2): {match['score'][0]}–{match['score'][1]}"
                  + (f", won by team {match['winner'] + 1}" if match["winner"] is not None else ""))


def print_solution(state: State, solution: Solution, console: Console) -> None:
    """A solved position: the trick so far, what perfect play gives each team, and every legal
    card of the seat to move with its value (the best first)."""
    side = solution.side_to_move
    points = solution.points
    console.print(
        f"Trick {state.trick_number + 1}, seat {state.to_play + 1} (team {side + 1}) to play, "
        f"trump {SUIT_SYMBOLS[state.trump]}; trick so far: "
        f"{' '.join(card_symbol(c) for c in state.trick) or '(none)'}"
    )
    console.print(f"Perfect play: team 1 takes {points[0]}, team 2 takes {points[1]} "
                  f"of the {sum(points)} points left")
    table = Table(title_justify="left")
    for column in ("Card", "Team 1", "Team 2", "vs best"):
        table.add_column(column, justify="left" if column in ("Card", "vs best") else "right")
    ordered = sorted(solution.moves.items(), key=lambda item: (-item[1][side], item[0]))
    for card, (a, b) in ordered:
        loss = points[side] - (a, b)[side]
        table.add_row(card_symbol(card), str(a), str(b), "best" if loss == 0 else f"−{loss}")
    console.print(table)
