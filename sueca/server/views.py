"""What each connection is sent: a seat's view, or the public view for spectators.

Every card in a view comes from an :class:`~sueca.infostate.InformationState` — the engine's one
filter of hidden information (boardgame.io calls this ``playerView``). A seat's view is built
from that seat's information state; the public view shows only what *every* seat knows (the
intersection of the four information states), so a spectator learns nothing a player at the
table could not. The table itself contributes only public facts: names, the score sheet, the
phase.
"""

from __future__ import annotations

from typing import Any

from sueca.cards import SUIT_LETTERS, Card, CardMask, card_name, mask_cards
from sueca.infostate import InformationState, common_knowledge
from sueca.server.tables import Table

_NAMES = tuple(card_name(c) for c in range(80))  # views are built on every card: look names up


def _cards(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [_NAMES[c] for c in cards]


def _mask(mask: CardMask) -> list[str]:
    return _cards(mask_cards(mask))


def _last_trick(info: InformationState) -> dict[str, Any] | None:
    done = info.last_trick()
    if done is None:
        return None
    return {"leader": done.leader, "cards": _cards(done.cards), "winner": done.winner,
            "points": done.points}


def _deal_part(table: Table, info: InformationState, known: list[CardMask]) -> dict[str, Any]:
    """The cards on the table, as ``info`` sees them; ``known`` is, per seat, the cards of
    that seat's hand this viewer may see (its own whole hand for a seat's view)."""
    rules = info.rules
    hand_sizes = list(info.hand_sizes)
    part: dict[str, Any] = {
        "deal": table.deal_index,
        "dealer": info.dealer,
        "trump_card": _NAMES[info.trump_card],
        "trump": SUIT_LETTERS[info.trump],
        "trump_held": info.trump_card_held,
        "to_play": info.to_play if table.phase == "playing" else None,
        "actor": table.actor(),
        "played": len(info.plays),
        "trick": {"leader": info.leader, "cards": _cards(info.trick)},
        "last_trick": _last_trick(info),
        "hand_sizes": hand_sizes,
        "known": [_mask(mask) for mask in known],
        "tricks_won": [sum(1 for w in info.trick_winners if rules.teams[w] == team)
                       for team in range(rules.teams_count)],
    }
    if rules.review_tricks:
        # Learners' tables may look back at taken tricks, and so see the points taken.
        part["past_tricks"] = [
            {"leader": t.leader, "cards": _cards(t.cards), "winner": t.winner, "points": t.points}
            for t in info.past_tricks
        ]
        part["points_taken"] = list(info.points_taken)
    if table.phase != "playing":
        # Every card is down: the dealt hands are public now, rebuilt from the plays.
        dealt = [0] * rules.players
        for card, seat in zip(info.plays, info.play_seats(), strict=True):
            dealt[seat] |= 1 << card
        result = table.last_result
        assert result is not None
        part["summary"] = {
            "hands": [_mask(m) for m in dealt],
            "points": list(result.points),
            "tricks": list(result.tricks),
            "game_points": list(result.game_points),
            "tie": result.tie,
        }
    return part


def table_part(table: Table, presence: list[str], ready: set[int]) -> dict[str, Any]:
    """The public facts about the table (no card in them): the same for every viewer, so a
    broadcast builds it once and passes it to each view as ``common``."""
    rules = table.rules
    names = table.seat_names()
    return {
        "table": table.id,
        "version": table.version,
        "phase": table.phase,
        "rules": rules.to_dict(),
        "direction": rules.direction,
        "review_tricks": rules.review_tricks,
        "match_target": rules.match_target,
        "scoring": rules.scoring,
        "seats": [
            {"seat": i, "name": names[i], "named": bool(seat.name), "kind": seat.kind,
             "level": seat.level,
             "team": rules.teams[i], "status": presence[i]}
            for i, seat in enumerate(table.seats)
        ],
        "score": {
            "match": list(table.match.score),
            "deals": [list(r.game_points) for r in table.match.results],
            "winner": table.match.winner,
            "number": table.match_number,
        },
        "ready": sorted(ready),
    }


def seat_part(table: Table, seat: int) -> dict[str, Any]:
    """What only seat ``seat`` sees: the cards as its information state shows them."""
    view: dict[str, Any] = {"you": seat}
    state = table.state
    if state is not None:
        info = state.information_state(seat)
        view.update(_deal_part(table, info, list(info.known)))
        view["hand"] = _mask(info.hand)
        can_act = table.actor() == seat
        # A partner playing the dummy chooses from the dummy's hand.
        acting_for = state.to_play if can_act else None
        if acting_for is None:
            legal: tuple[Card, ...] = ()
        elif acting_for == seat:
            legal = info.legal_moves()
        else:
            legal = state.information_state(acting_for).legal_moves()
        view["legal"] = _cards(legal)
        view["acting_for"] = acting_for
    return view


def public_part(table: Table) -> dict[str, Any]:
    """What a spectator sees of the cards: only what every seat at the table knows."""
    view: dict[str, Any] = {"you": None}
    state = table.state
    if state is not None:
        infos = [state.information_state(s) for s in range(table.rules.players)]
        view.update(_deal_part(table, infos[0], list(common_knowledge(infos))))
        view["hand"] = []
        view["legal"] = []
        view["acting_for"] = None
    return view


def seat_view(table: Table, seat: int, presence: list[str], ready: set[int]) -> dict[str, Any]:
    """Everything seat ``seat`` may see now: the table's public facts and its own part."""
    return table_part(table, presence, ready) | seat_part(table, seat)


def public_view(table: Table, presence: list[str], ready: set[int]) -> dict[str, Any]:
    """Everything a spectator sees now."""
    return table_part(table, presence, ready) | public_part(table)
