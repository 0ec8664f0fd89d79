"""``sueca replay``: step through a saved record trick by trick, every hand face up.

A record is a finished (or stopped) game, so nothing is hidden: each position is drawn from
the information state of a table whose rules lay every hand open and allow reviewing tricks.
At a bidding table every position shows the whole auction, the contract and the partner.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from sueca.actions import Action, Play
from sueca.record import GameRecord, replay
from sueca.scoring import HandResult
from sueca.state import State
from sueca.state import replay as replay_actions
from sueca.terminal.i18n import Language
from sueca.terminal.setup import SetupError
from sueca.terminal.view import Screen, TableView


@dataclass(frozen=True)
class Position:
    deal: int  # index of the deal in the record
    tricks: int  # tricks complete


def positions(states: list[State]) -> list[Position]:
    """Every deal as dealt, then after each of its complete tricks."""
    out = []
    for index, state in enumerate(states):
        for tricks in range(state.trick_number + 1):
            out.append(Position(index, tricks))
    return out


def until_cards(history: Sequence[tuple[int, Action]], cards: int
                ) -> list[tuple[int, Action]]:
    """The moves of a deal up to its first ``cards`` cards: the redeal answers (every seat
    kept: the deal was played), the whole auction, those cards, and any cry of renúncia made
    before the next card."""
    out: list[tuple[int, Action]] = []
    played = 0
    for seat, action in history:
        if isinstance(action, Play):
            if played == cards:
                break
            played += 1
        out.append((seat, action))
    return out


def position_view(record: GameRecord, states: list[State], results: list[HandResult],
                  position: Position, lang: Language) -> TableView:
    """The table at ``position``: every hand open, the trick just taken on the cloth."""
    played = states[position.deal]
    # Every hand face up and every trick reviewable (no_looking_back would forbid that).
    rules = dataclasses.replace(played.rules, open_hands=True, review_tricks=True,
                                no_looking_back=False)
    n = rules.players
    state = replay_actions(rules, played.deal, until_cards(played.history, position.tricks * n))
    seats = record.extra.get("seats")
    kinds = tuple(str(k) for k in seats) if isinstance(seats, list) and len(seats) == n else (
        ("",) * n)
    finished = position.tricks == played.trick_number and played.is_finished()
    done = results[: position.deal + (1 if finished else 0)]
    score = tuple(sum(r.game_points[t] for r in done) for t in range(rules.score_slots))
    total = len(states)
    if position.tricks == 0:
        message = lang.text("replay_start", deal=position.deal + 1, deals=total)
    else:
        message = lang.text("replay_position", deal=position.deal + 1, deals=total,
                            trick=position.tricks, tricks=rules.hand_size)
    return TableView(
        info=state.information_state(0),
        bottom=0,
        names=tuple(lang.text("seat", seat=s) for s in range(n)),
        seats=kinds,
        deal_number=position.deal + 1,
        results=tuple(done),
        score=score,
        message=message,
        review=True,
    )


def step_through(record: GameRecord, screen: Screen, lang: Language) -> int:
    """Show the record position by position: Enter next, ``b`` back, ``q`` quit. Returns how
    many positions were shown."""
    replayed = replay(record)
    if not replayed.states:
        reason = replayed.error["reason"] if replayed.error else "no deals"
        raise SetupError(f"nothing to replay: {reason}")
    if replayed.error is not None:
        screen.say(f"{replayed.error['reason']} (deal {replayed.error['deal'] + 1})")
    steps = positions(replayed.states)
    results = list(replayed.match.results)
    index = 0
    shown = 0
    while True:
        view = position_view(record, replayed.states, results, steps[index], lang)
        screen.show(dataclasses.replace(view, acting=None))
        shown += 1
        if index == len(steps) - 1:
            screen.say(lang.text("replay_end"))
        answer = screen.ask(lang.text("replay_prompt"))
        if answer is None or answer.strip().lower() in ("q", "quit", "sair"):
            break
        if answer.strip().lower() in ("b", "back", "v", "voltar"):
            index = max(0, index - 1)
        elif index < len(steps) - 1:
            index += 1
        else:
            break
    screen.close()
    return shown
