"""What each connection is sent: a seat's view, or the public view for spectators.

Every card in a view comes from an :class:`~sueca.infostate.InformationState` — the engine's one
filter of hidden information (boardgame.io calls this ``playerView``). A seat's view is built
from that seat's information state; the public view shows only what *every* seat knows (the
intersection of the seats' information states), so a spectator learns nothing a player at the
table could not. The table itself contributes only public facts: names, the score sheet, the
phase.

At a bidding table (five-player Sueca Italiana) the sides of a deal come from the viewer's
information state only (``sides``: 0 the declarer's, 1 the defenders', ``None`` unknown), so the
declarer's secret partner shows in nobody's view but his own until the called card is played;
the spectator's sides are those every seat knows. Rules-level teams (``rules.teams``) are empty
there and never used for a side.

What a seat is asked (the cards it may play, the range of bids, the redeal question's points
and limit) is the referee's request (:meth:`sueca.referee.Referee.asked`, from
:meth:`~sueca.infostate.InformationState.request`), rendered here and never worked out: at a
``renuncia`` table the request's ``revokes`` (the rest of the hand, which a person may still
play) go to that seat alone, and no view ever says a card revoked; every view hears each
denunciation and its outcome.

Cards are sent by name (``"7H"``). With two decks a hand may hold two cards of one name: the
browser sends the name back and the server plays the copy the hand holds
(:func:`sueca.cards.held_copy`); the two copies are alike in every way but the order played.
"""

from __future__ import annotations

import hmac
from typing import Any

from sueca.actions import AskBid, AskCard, AskRedeal, Denunciation, Request
from sueca.auction import bidding_order
from sueca.bots.levels import level_of
from sueca.cards import SUIT_LETTERS, Card, CardMask, card_name, card_suit, mask_cards
from sueca.infostate import InformationState, common_information
from sueca.rules import Rules
from sueca.scoring import renuncia_penalties as scored_penalties
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


def _auction(info: InformationState, request: Request | None) -> dict[str, Any]:
    """A bidding table's auction as everybody sees it: the bids in order, whose turn, the range
    of bids the seat to bid may make (the referee's request: public, as the bids are), and the
    contract once the card is called."""
    rules = info.rules
    contract = info.contract
    bid = request if type(request) is AskBid else None
    declarer = (contract.declarer if contract is not None
                else info.to_play if info.phase == "calling" else None)
    return {
        "order": list(bidding_order(rules, info.dealer)),
        "bids": list(info.bids),
        "to_bid": info.to_play if info.phase == "bidding" else None,
        # None when no bid is asked, or only a pass is left.
        "min_bid": bid.lowest if bid is not None and bid.may_bid else None,
        "max_bid": bid.highest if bid is not None else None,
        "declarer": declarer,
        "contract": None if contract is None else {
            "declarer": contract.declarer,
            "bid": contract.bid,
            "target": contract.target,
            "called_card": _NAMES[contract.called_card],
        },
    }


def _restriction(info: InformationState, request: AskCard) -> dict[str, str] | None:
    """Why the other cards of the hand asked may not be played, for a page to say on a click:
    ``must_follow`` the suit led, or ``must_trump`` (``suit``: the led suit or the trump), read
    off the request's legal cards (which the rules chose) and the card led, both the seat's
    own knowledge; ``None`` when every card of the hand may be played."""
    if not info.trick or not request.legal:
        return None
    led = card_suit(info.trick[0])
    held = info.known[request.seat] if request.seat != info.seat else info.hand
    if len(request.legal) == held.bit_count():
        return None  # nothing is held back (with renúncia, a revoke is still a choice)
    suit = card_suit(request.legal[0])
    code = "must_follow" if suit == led else "must_trump"
    return {"code": code, "suit": SUIT_LETTERS[suit]}


def _denunciation(found: Denunciation) -> dict[str, Any]:
    """A *renúncia!* as the whole table hears it: who cried it, after how many cards of the
    deal, and whether the hands proved it (never which card revoked)."""
    return {"after": found.after, "seat": found.seat, "correct": found.correct}


def renuncia_penalties(rules: Rules) -> dict[str, int]:
    """A renúncia table's penalties: in games, as the rules set them (``penalty``,
    ``false_penalty``), and what each scores the other side in the match score's unit
    (``penalty_scored``, ``false_penalty_scored``: card points under ``pontos``;
    :func:`sueca.scoring.renuncia_penalties`). The table's view and the history page both say
    them."""
    proven, wrong = scored_penalties(rules)
    return {"penalty": rules.renuncia_penalty, "false_penalty": rules.false_renuncia_penalty,
            "penalty_scored": proven, "false_penalty_scored": wrong}


def _deal_part(table: Table, info: InformationState) -> dict[str, Any]:
    """The cards on the table as ``info`` sees them: a seat's information state, or what
    every seat knows (:func:`~sueca.infostate.common_information`) for spectators."""
    rules = info.rules
    sides = info.teams
    hand_sizes = list(info.hand_sizes)
    trump_card = info.trump_card
    part: dict[str, Any] = {
        "deal": table.deal_index,
        "stage": info.phase,
        "dealer": info.dealer,
        "trump_card": None if trump_card is None else _NAMES[trump_card],
        "trump": SUIT_LETTERS[info.trump] if info.trump >= 0 else None,
        "trump_held": info.trump_card_held,
        "to_play": info.to_play if table.phase == "playing" else None,
        "actor": table.actor(),
        "first_leader": info.opening_leader,
        "played": len(info.plays),
        "trick": {"leader": info.leader, "cards": _cards(info.trick)},
        "last_trick": _last_trick(info),
        "hand_sizes": hand_sizes,
        "known": [_mask(mask) for mask in info.known],
        "sides": list(sides),
        "tricks_won": [sum(1 for w in info.trick_winners if sides[w] == team)
                       for team in range(rules.teams_count)],
    }
    if rules.weak_hand_redeal:
        # Who asked for a new deal before this one (public), and each answer so far.
        part["redeals"] = table.redeals()
        part["redeal_answers"] = list(info.redeal_answers)
    if rules.bidding:
        asked = table.asked()
        part["auction"] = _auction(info, None if asked is None else asked[1])
        # Each player keeps his own tricks: his tricks and card points lie before him.
        part["seat_tricks"] = [info.trick_winners.count(s) for s in range(rules.players)]
        part["seat_points"] = list(info.seat_points)
    if rules.renuncia:
        # Every cry of renúncia and its outcome: public, as the whole table hears it.
        part["denunciations"] = [_denunciation(d) for d in info.denunciations]
    if info.points_taken:
        # Learners' tables may look back at taken tricks and the points in them, and every
        # table may once the deal is over: the information state says when (both or none).
        part["past_tricks"] = [
            {"leader": t.leader, "cards": _cards(t.cards), "winner": t.winner, "points": t.points}
            for t in info.past_tricks
        ]
        part["points_taken"] = list(info.points_taken)
    if table.phase != "playing":
        # Every card is down: the dealt hands are public now, rebuilt from the plays.
        dealt = info.hands_as_dealt(info.known)
        result = table.last_result
        assert result is not None
        part["summary"] = {
            "hands": [_mask(m) for m in dealt],
            "points": list(result.points),
            "tricks": list(result.tricks),
            "game_points": list(result.game_points),
            "tie": result.tie,
            "made": result.made,
        }
        if rules.renuncia:
            # The side whose revoke was proven (it lost the deal) and each side's wrong
            # denunciations: the penalties are in the game points.
            part["summary"]["revoked_by"] = result.revoked_by
            part["summary"]["false_denunciations"] = list(result.false_denunciations or (0, 0))
    return part


def table_part(table: Table, presence: list[str], ready: set[int], *,
               waits: list[float | None] | None = None,
               gathering: bool = False, turn: dict[str, Any] | None = None) -> dict[str, Any]:
    """The public facts about the table (no card in them): the same for every viewer, so a
    broadcast builds it once and passes it to each view as ``common``. ``waits``: per seat,
    the seconds left before a bot stands in for its missing person (the room's clock, so that
    every page counts down from the server's figure); ``gathering``: no card is played yet
    while an invited player has not come (the host may start with bots); ``turn``: the turn
    timer of the move asked now (``seat``, ``seconds``, ``left``: the server's figure), or
    None."""
    rules = table.rules
    names = table.seat_names()
    waits = waits or [None] * len(table.seats)
    return {
        "table": table.id,
        "version": table.version,
        "phase": table.phase,
        "rules": rules.to_dict(),
        "direction": rules.direction,
        "review_tricks": rules.review_tricks,
        "no_looking_back": rules.no_looking_back,  # the trick just taken is never shown
        "open_hands": rules.open_hands,  # false, true or "dealer_dummy": see ``known``
        "practice": table.practice,  # hints on request (practice.py)
        # renuncia: a revoke may be played and denounced; what a proven one and a wrong
        # denunciation score the other side.
        "renuncia": renuncia_penalties(rules) if rules.renuncia else None,
        "match_target": rules.match_target,
        "scoring": rules.scoring,
        "seats": [
            {"seat": i, "name": names[i], "named": bool(seat.name), "kind": seat.kind,
             "level": seat.level, "level_name": level_of(seat.level),
             # The partnerships of the rules; None at a bidding table (see ``sides``).
             "team": rules.teams[i] if rules.teams else None, "status": presence[i],
             "stand_in_in": waits[i]}
            for i, seat in enumerate(table.seats)
        ],
        "host": table.host,
        "gathering": gathering,
        # The turn timer: each person's move has turn_seconds, then his stand-in makes it.
        "turn_seconds": table.turn_seconds,
        "turn": turn,
        "players": rules.players,
        "dummy": rules.dummy,
        "bidding": rules.bidding,
        "score_per_seat": rules.scores_per_seat,  # the match score: per seat, not per team
        "score": {
            "match": list(table.match.score),
            "deals": [list(r.game_points) for r in table.match.results],
            "winner": table.match.winner,
            "number": table.match_number,
        },
        "ready": sorted(ready),
        # Matches won at this table across rematches (stored: a restart keeps them), and the
        # latest results, whose scores say a gato or a chapéu.
        "sets": {"won": list(table.sets),
                 "last": [{"winner": w, "score": list(score)} for w, score in table.set_results]},
    }


def seat_part(table: Table, seat: int) -> dict[str, Any]:
    """What only seat ``seat`` sees: the cards as its information state shows them, and what
    the referee asks it, if anything (:meth:`InformationState.request`, rendered as it is)."""
    view: dict[str, Any] = {"you": seat}
    if seat == table.host:
        # The host may hand out each free seat's invitation at any time: the links of the seats
        # nobody has taken yet, in the host's view alone (every other view, a spectator's
        # included, never holds a token but its own seat's, which it already has).
        view["invites"] = [{"seat": i, "token": config.token}
                           for i, config in enumerate(table.seats)
                           if config.kind == "human" and not config.claimed and i != seat]
    state = table.state
    if state is not None:
        info = state.information_state(seat)
        view.update(_deal_part(table, info))
        view["hand"] = _mask(info.hand)
        asked = table.asked()
        request = asked[1] if asked is not None and asked[0] == seat else None
        # A partner playing the dummy chooses from the dummy's hand (the request's seat).
        legal: tuple[Card, ...] = request.legal if type(request) is AskCard else ()
        view["legal"] = _cards(legal)
        view["acting_for"] = None if request is None else request.seat
        if type(request) is AskCard:
            restriction = _restriction(info, request)
            if restriction is not None:
                view["restriction"] = restriction
        if type(request) is AskCard and request.revokes:
            # renuncia: the other cards of the hand may be played too (a revoke, told to
            # nobody). They are the viewer's own cards: the view says nothing new to him.
            view["revokes"] = _cards(request.revokes)
        if type(request) is AskRedeal:
            # The redeal question, to the seat deciding it: its hand's worth, and whether it
            # may ask (the one fact about its hand the rule lets it act on).
            view["redeal"] = {"may_ask": request.may_ask, "points": request.points,
                              "limit": request.limit}
        if table.rules.renuncia:
            # The referee's word: the state's rule, and never once the match is won (a won
            # match is not reopened), so no page offers a cry the referee would refuse.
            view["may_denounce"] = table.referee.may_denounce(seat)
    return view


def public_part(table: Table) -> dict[str, Any]:
    """What a spectator sees of the cards: only what every seat at the table knows."""
    view: dict[str, Any] = {"you": None}
    state = table.state
    if state is not None:
        infos = [state.information_state(s) for s in range(table.rules.players)]
        view.update(_deal_part(table, common_information(infos, 0)))
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


def history_visible(settings: dict[str, Any] | None, token: str | None) -> bool:
    """Whether a finished match of the table with these stored ``settings`` may be shown to a
    request holding ``token``: every match of an open table (strangers could sit there and
    watch it) and of a table of bots alone (nobody's game), a private table's only to whoever
    holds one of its seats' tokens (its players: the invitation links are their only key). A
    table whose settings are gone shows nothing."""
    if settings is None:
        return False
    seats = settings.get("seats")
    if not isinstance(seats, list):
        return False
    if settings.get("open") is True or not any(
            isinstance(seat, dict) and seat.get("token") for seat in seats):
        return True
    if not token or not token.isascii():
        return False
    return any(
        isinstance(seat, dict) and isinstance(seat.get("token"), str) and seat["token"]
        and hmac.compare_digest(seat["token"], token) for seat in seats)
