"""Ratings: how a finished match counts, and the OpenSkill update of its players.

The model is OpenSkill's Plackett–Luce (Weng–Lin; the ``openskill`` package), made for teams:
a Sueca partnership is a team of two whose result moves both partners, each by his own
uncertainty (docs/ratings.md says why this and not Glicko-2 on team composites). Ratings are
kept apart per table kind (:func:`kind_of`): ``four`` (the partnership tables of four:
Portugal, Brazil, Italiana, Pontos) and ``italiana5`` (five each for himself, ranked by the
final score); the others are not rated.

A match is rated only between people (:func:`judge`): every seat an account's, four (or five)
different accounts, no bot seat, no dummy, not a practice table, and no seat whose stand-in
bot made more than :data:`MAX_STAND_IN_SHARE` of its moves. Such a match is recorded with
the reason it was not rated, and changes no rating. A match of bots alone, one level per side
and the sides' levels different, is rated on the bots' own ladder (each side one player: the
level).

>>> from openskill.models import PlackettLuce
>>> [[winner], [loser]] = PlackettLuce().rate([[PlackettLuce().rating()],
...                                             [PlackettLuce().rating()]])
>>> round(winner.mu - loser.mu, 3)
5.271
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

from sueca.match import Match
from sueca.rules import Rules
from sueca.scoring import level
from sueca.server.players import BOTS, PEOPLE, Judgement, PlayerRow, RatingChange, Ratings

if TYPE_CHECKING:
    from sueca.server.tables import Table
    from sueca.server.writer import StorageWriter

MAX_STAND_IN_SHARE = 0.25
"""A seat whose absent person was played for by a bot for more than this share of its moves
makes the match unrated."""

MODEL = PlackettLuce()  # OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


def kind_of(rules: Rules) -> str | None:
    """The ladder of a table's rules: ``four``, ``italiana5``, or None (not rated)."""
    if rules.dummy is not None or rules.decks != 1:
        return None
    if rules.players == 4 and not rules.bidding and rules.teams == (0, 1, 0, 1):
        return "four"
    if rules.players == 5 and rules.bidding:
        return "italiana5"
    return None


def rate(teams: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int],
         model: PlackettLuce = MODEL) -> list[list[tuple[float, float]]]:
    """Each team's players' (mu, sigma) after a match finished in ``ranks`` (0 the best;
    equal ranks: a tie), by the library's update."""
    rated = model.rate([[model.rating(mu=mu, sigma=sigma) for mu, sigma in team]
                        for team in teams], ranks=list(ranks))
    return [[(float(r.mu), float(r.sigma)) for r in team] for team in rated]


def standings(match: Match) -> list[int]:
    """Each team's (or, at a bidding table, each seat's) place in a finished match: 0 the
    winner's, by the final score."""
    score = list(match.score)
    if match.winner is not None and not match.rules.scores_per_seat:
        return [0 if team == match.winner else 1 for team in range(len(score))]
    order = sorted(set(score), reverse=True)
    return [order.index(s) for s in score]


def player_rows(match: Match, names: Sequence[str], accounts: Sequence[int | None]
                ) -> list[PlayerRow]:
    """Each seat's line of a finished match: won, deals, card points, capotes, bandeiras."""
    rules = match.rules
    places = standings(match)
    rows = []
    partnership = not rules.scores_per_seat
    for seat in range(rules.players):
        team = rules.team_of(seat) if partnership else seat
        card_points: int | None = 0 if partnership else None
        capotes = bandeiras = 0
        for result in match.results:
            if not partnership:
                continue
            points = result.points[team]
            card_points = (card_points or 0) + points
            games = level(rules, points)
            capotes += games == 2
            bandeiras += games == 4
        rows.append(PlayerRow(seat, accounts[seat], names[seat], team, places[team] == 0,
                              len(match.results), card_points, capotes, bandeiras))
    return rows


def judge(rules: Rules, seats: Sequence[dict[str, Any]], practice: bool,
          moves: dict[int, int], stand_ins: dict[int, int]) -> tuple[str | None, str | None]:
    """(ladder, None) for a rated match, or (None, why not). ``seats``: the table's seats
    (kind, account, level); ``moves`` and ``stand_ins``: per seat, its moves in the match and
    those a stand-in made."""
    kind = kind_of(rules)
    if kind is None:
        return None, "this kind of table is not rated"
    if practice:
        return None, "a practice table"
    kinds = {seat["kind"] for seat in seats}
    if kinds == {"bot"}:
        levels = [seats[s]["level"] for s in range(len(seats))]
        sides: dict[int, set[str]] = {rules.team_of(s): set() for s in range(len(seats))}
        for s, lvl in enumerate(levels):
            sides[rules.team_of(s)].add(lvl)
        if kind != "four" or any(len(v) != 1 for v in sides.values()):
            return None, "bots of mixed levels on a side"
        if len({next(iter(v)) for v in sides.values()}) == 1:
            return None, "the same level on both sides"
        return BOTS, None
    if kinds != {"human"}:
        return None, "a bot sat at the table"
    accounts = [seat.get("account") for seat in seats]
    if any(a is None for a in accounts):
        return None, "a guest played"
    if len(set(accounts)) != len(accounts):
        return None, "one account at two seats"
    for seat in range(len(seats)):
        made = moves.get(seat, 0)
        if made and stand_ins.get(seat, 0) > MAX_STAND_IN_SHARE * made:
            return None, f"a stand-in bot played more than {MAX_STAND_IN_SHARE:.0%} of a seat"
    return PEOPLE, None


def changes(ladder: str, kind: str, rules: Rules, match: Match, players: Sequence[str],
            current: Ratings) -> tuple[RatingChange, ...]:
    """The rating changes of a rated match. ``players``: per seat, its player on the ladder
    (an account's id, a bot level); ``current``: their ratings so far (a newcomer: the
    model's first rating)."""
    places = standings(match)
    if ladder == BOTS or rules.scores_per_seat:
        # Bots: each side is one player (its level); italiana5: each seat for himself.
        if ladder == BOTS:
            groups = {rules.team_of(s): [players[s]] for s in range(rules.players)}
        else:
            groups = {s: [players[s]] for s in range(rules.players)}
    else:
        groups = {}
        for seat in range(rules.players):
            groups.setdefault(rules.team_of(seat), []).append(players[seat])
    order = sorted(groups)
    before = [[_current(current, p) for p in groups[g]] for g in order]
    after = rate(before, [places[g] for g in order])
    out = []
    for g, team_before, team_after in zip(order, before, after, strict=True):
        for player, (mu0, s0), (mu1, s1) in zip(groups[g], team_before, team_after, strict=True):
            out.append(RatingChange(player, mu0, s0, mu1, s1))
    return tuple(out)


def _current(current: Ratings, player: str) -> tuple[float, float]:
    if player in current:
        return current[player][0], current[player][1]
    return float(MODEL.mu), float(MODEL.sigma)


async def record_finished(writer: StorageWriter, table: Table) -> dict[str, Any] | None:
    """Record a table's finished match (its seats, how it counts, its rating changes), once,
    and what its players are shown at the end: ``{"match", "kind", "rated", "reason",
    "changes": [{"seat", "before", "after"}]}``. None for a match of guests (nobody's)."""
    match_id, rules = table.match_id, table.rules
    seats = [asdict(seat) for seat in table.seats]
    rows = writer.storage.players()
    linked = [seat["account"] for seat in seats if seat.get("account") is not None]
    if linked:  # an account deleted during the match is a guest's seat now
        alive = await writer.call(rows.names, linked)
        for config in seats:
            if config.get("account") is not None and config["account"] not in alive:
                config["account"] = None
    accounts = [seat.get("account") for seat in seats]
    people = any(a is not None for a in accounts)
    if not people and {s["kind"] for s in seats} != {"bot"}:
        return None
    kind = kind_of(rules) or "other"
    stored = await writer.load_match(match_id)
    moves: dict[int, int] = {}
    for deal in stored.deals if stored is not None else ():
        for seat, _ in deal.actions:
            moves[seat] = moves.get(seat, 0) + 1
    stand_ins = await writer.call(rows.stand_in_moves, match_id)
    ladder, reason = judge(rules, seats, table.practice, moves, stand_ins)
    players = ([str(a) for a in accounts] if ladder == PEOPLE
               else [str(s["level"]) for s in seats])
    match = table.match

    def update(current: Ratings) -> tuple[RatingChange, ...]:
        assert ladder is not None
        return changes(ladder, kind, rules, match, players, current)

    lines = player_rows(match, table.seat_names(), accounts) if people else []
    await writer.call(rows.record_match, match_id, Judgement(kind, ladder, reason), lines,
                      players if ladder is not None else [], update)
    judged = await writer.call(rows.judgement, match_id)
    if judged is None:
        return None
    by_player = {c.player: c for c in judged.changes}
    shown = []
    for seat, player in enumerate(players if judged.ladder is not None else []):
        change = by_player.get(player)
        if change is not None:
            shown.append({"seat": seat, "before": round(change.before, 2),
                          "after": round(change.after, 2)})
    return {"match": match_id, "kind": kind, "rated": judged.ladder is not None,
            "ladder": judged.ladder, "reason": judged.reason,
            "reason_code": None if judged.reason is None else _REASONS.get(judged.reason,
                                                                           "stand_in"),
            "changes": shown}


# A reason's code, which the pages say in their language (i18n.js: unrated_CODE).
_REASONS = {"this kind of table is not rated": "kind", "a practice table": "practice",
            "bots of mixed levels on a side": "bot_levels",
            "the same level on both sides": "bot_levels", "a bot sat at the table": "bot",
            "a guest played": "guest", "one account at two seats": "twice"}
