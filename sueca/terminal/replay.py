"""``sueca replay``: step through a saved record trick by trick, every hand face up.

A record is a finished (or stopped) game, so nothing is hidden: each position is drawn from
the information state of a table whose rules lay every hand open and allow reviewing tricks.
At a bidding table every position shows the whole auction, the contract and the partner; at a
``renuncia`` table each cry is shown where it came, with its outcome (which card was the
revoke, the open hands and the record's ``revokes`` tell).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from sueca.actions import Action, Denounce, Play
from sueca.record import GameRecord, replay
from sueca.scoring import HandResult, renuncia_penalties
from sueca.state import State
from sueca.state import replay as replay_actions
from sueca.terminal.i18n import Language
from sueca.terminal.setup import SetupError
from sueca.terminal.view import Screen, TableView


@dataclass(frozen=True)
class Position:
    deal: int  # index of the deal in the record
    tricks: int  # tricks complete
    cards: int  # cards played: the tricks' cards, and those of a trick not complete
    cry: int | None = None  # a cry of renúncia shown: its index among the deal's denunciations


def positions(states: list[State]) -> list[Position]:
    """Every deal as dealt, then after each of its complete tricks; at a ``renuncia`` table
    also at each cry, where it came (after a taken trick or in the middle of one), and at the
    deal's last card where that is in a trick not complete (a proven cry ended the deal
    there, or the record stops there)."""
    out = []
    for index, state in enumerate(states):
        n = state.rules.players
        marks: list[tuple[int, int | None]] = [
            (tricks * n, None) for tricks in range(state.trick_number + 1)]
        if len(state.plays) > state.trick_number * n:
            marks.append((len(state.plays), None))
        marks += [(cry.after, number) for number, cry in enumerate(state.denunciations)]
        # A card's position comes before the cries made after it, the cries in their order.
        marks.sort(key=lambda mark: (mark[0], -1 if mark[1] is None else mark[1]))
        out += [Position(index, cards // n, cards, cry) for cards, cry in marks]
    return out


def moves_until(history: Sequence[tuple[int, Action]], position: Position
                ) -> list[tuple[int, Action]]:
    """The moves of a deal up to ``position``: the redeal answers (every seat kept: the deal
    was played), the whole auction, the position's cards, and the cries made before the last
    of them; at a cry's position, the cries up to that one."""
    out: list[tuple[int, Action]] = []
    played = cried = 0
    for seat, action in history:
        if isinstance(action, Play):
            if played == position.cards:
                break
            played += 1
        elif isinstance(action, Denounce):
            if position.cry is None:
                if played == position.cards:  # a cry after the last card shown: its own position
                    break
            elif cried > position.cry:
                break
            cried += 1
        out.append((seat, action))
    return out


def position_view(record: GameRecord, states: list[State], results: list[HandResult],
                  position: Position, lang: Language) -> TableView:
    """The table at ``position``: every hand open, the trick just taken (or the one in play)
    on the cloth, the cry of renúncia made there said with its outcome. The deal's score
    counts once its last move is shown (a cry after the last card may still change it)."""
    played = states[position.deal]
    # Every hand face up and every trick reviewable (no_looking_back would forbid that).
    rules = dataclasses.replace(played.rules, open_hands=True, review_tricks=True,
                                no_looking_back=False)
    n = rules.players
    moves = moves_until(played.history, position)
    state = replay_actions(rules, played.deal, moves)
    seats = record.extra.get("seats")
    kinds = tuple(str(k) for k in seats) if isinstance(seats, list) and len(seats) == n else (
        ("",) * n)
    finished = played.is_finished() and len(moves) == len(played.history)
    done = results[: position.deal + (1 if finished else 0)]
    score = tuple(sum(r.game_points[t] for r in done) for t in range(rules.score_slots))
    names = tuple(lang.seat(s) for s in range(n))
    total = len(states)
    where = {"deal": position.deal + 1, "deals": total, "tricks": rules.hand_size}
    if position.cards == 0:
        message = lang.text("replay_start", **where)
    elif position.cards % n:
        message = lang.text("replay_in_trick", trick=position.tricks + 1, **where)
    else:
        message = lang.text("replay_position", trick=position.tricks, **where)
    if position.cry is not None:
        cry = played.denunciations[position.cry]
        proven, wrong = renuncia_penalties(played.rules)
        key, penalty = ("denounced_right", proven) if cry.correct else ("denounced_wrong", wrong)
        message = lang.text("replay_cry", where=message,
                            cry=lang.text(key, seat=names[cry.seat], penalty=penalty))
    return TableView(
        info=state.information_state(0),
        bottom=0,
        names=names,
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
