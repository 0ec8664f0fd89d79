"""Seat bots, play deals and matches, and run duplicate series.

Duplicate at a partnership table (four seats, three with a dummy, six or eight with two
decks): each deal is played twice with the same cards, the teams swapped between the two
plays, so the luck of the cards cancels and the margin measures the players.

At a bidding table (five-player Sueca Italiana) the sides are made per deal by the auction, so
there are no teams to swap. There a board is the *seat rotation*: the deal is played once with
B in every seat (the baseline), then once for each seat with A in that seat and B in the
others; A's card points (its side's) and game points in each seat are compared with the
baseline's in the same seat, with the same cards and the same opponents. docs/arena.md.
"""

from __future__ import annotations

import random
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sueca.actions import Phase, Play
from sueca.arena.stats import mean_ci95
from sueca.bots import Bot, make_bot
from sueca.bots.base import BotError
from sueca.deal import Deal, deal_cards
from sueca.match import Match
from sueca.record import GameRecord, dumps
from sueca.referee import Event, EventKind, Referee
from sueca.rules import Rules
from sueca.scoring import HandResult, level, score_contract
from sueca.state import State

PlayListener = Callable[[State, int, int], None]  # state after the play, seat, card

# What a deal waits for before its opening lead.
_BEFORE_PLAY = (Phase.BIDDING, Phase.CALLING, Phase.REDEAL)


def _arena_referee(rules: Rules, bots: Sequence[Bot], first_dealer: int,
                   rng: random.Random | None = None) -> Referee:
    """A referee for bots that the arena has already seated (told :meth:`Bot.new_match`): a
    bot's illegal answer is an error, never replaced (it would falsify what is measured)."""
    return Referee(Match(rules, first_dealer=first_dealer), bots, rng=rng or random.Random(),
                   strict=True, where="arena", seated=True)


def _on_play(referee: Referee, on_play: PlayListener | None) -> None:
    if on_play is None:
        return

    def listener(event: Event) -> None:
        if event.kind == EventKind.PLAYED:
            assert event.seat is not None and isinstance(event.action, Play)
            on_play(event.state, event.seat, event.state.plays[-1])

    referee.listen(listener)


def play_auction(state: State, bots: Sequence[Bot]) -> None:
    """Everything before the opening lead: at a bidding table, ask each seat's bot for its
    bid, then the declarer's for the card he calls; with ``weak_hand_redeal``, ask each seat's
    bot in turn whether it wants a new deal (the state then ends ``redealt`` if one does).
    Nothing happens once the play has started."""
    referee = _arena_referee(state.rules, bots, state.deal.dealer)
    referee.resume(state)
    while state.phase in _BEFORE_PLAY and state.redeal_by is None and referee.step():
        pass


def play_deal(
    rules: Rules, deal: Deal, bots: Sequence[Bot], on_play: PlayListener | None = None
) -> State:
    """Play one deal to the end, each bot seeing only its own information state."""
    return play_out(State(rules, deal), bots, on_play)


def play_out(state: State, bots: Sequence[Bot], on_play: PlayListener | None = None) -> State:
    """Play a deal on from where it stands to the end (the auction or the redeal question
    first, if it is not over). A deal annulled by a seat asking for a new deal is returned as
    it stands (``state.phase == "redealt"``)."""
    referee = _arena_referee(state.rules, bots, state.deal.dealer)
    _on_play(referee, on_play)
    referee.resume(state)
    while referee.step():
        pass
    return state


def play_match(
    rules: Rules,
    bots: Sequence[Bot],
    rng: random.Random,
    first_dealer: int | None = None,
    on_play: PlayListener | None = None,
    on_deal: Callable[[Match, State], None] | None = None,
    on_redeal: Callable[[Match, State], None] | None = None,
) -> tuple[Match, list[State]]:
    """Play a whole match; ``on_deal`` hears of each finished deal, ``on_redeal`` of each deal
    annulled by a seat asking for a new deal (``weak_hand_redeal``). The states returned are
    every deal in order, the annulled ones included (:meth:`GameRecord.from_states` writes
    them as the ``redeals`` of the deal played after them)."""
    dealer = rng.randrange(rules.players) if first_dealer is None else first_dealer
    referee = Referee(Match(rules, first_dealer=dealer), bots, rng=rng, strict=True,
                      where="arena")
    states: list[State] = []
    _on_play(referee, on_play)

    def listener(event: Event) -> None:
        if event.kind == EventKind.DEALT:
            states.append(event.state)
        elif event.kind == EventKind.DEAL_ENDED and on_deal is not None:
            on_deal(event.match, event.state)
        elif event.kind == EventKind.DEAL_ANNULLED and on_redeal is not None:
            on_redeal(event.match, event.state)

    referee.listen(listener)
    referee.run()
    return referee.match, states


@dataclass
class DuplicateSummary:
    """A's results against B over duplicate boards, with 95% confidence intervals.

    At a partnership table a board is a pair of plays (teams swapped) and A's figure is its
    team's card points, scaled to 120, B's the rest. At a bidding table a board is a seat
    rotation (see the module) and A's figures are compared with B's in the same seats: card
    points of the seat's side and the seat's game points, per deal."""

    bot_a: str
    bot_b: str
    pair_points: list[float] = field(default_factory=list)  # A's mean card points per board
    deals_won: list[int] = field(default_factory=lambda: [0, 0, 0])  # A, B, ties
    # A board is a small match: won by the side with more points over its plays.
    matches_won: list[int] = field(default_factory=lambda: [0, 0, 0])  # A, B, ties
    errors: list[str] = field(default_factory=list)  # what external bots did wrong
    rotation: bool = False  # boards are seat rotations (a bidding table)
    baseline_points: list[float] = field(default_factory=list)  # B's, same seats (rotation)
    # A's mean game points a deal: each deal's worth in games (partnership tables scored in
    # games), the seat's in a rotation, or a pair of whole matches' per deal.
    game_a: list[float] = field(default_factory=list)
    game_b: list[float] = field(default_factory=list)  # B's, in the same seats
    # Whole matches (``--matches``): A's share of each pair of matches, and the deals played.
    match_scores: list[float] = field(default_factory=list)
    match_deals: list[int] = field(default_factory=list)

    @property
    def whole_matches(self) -> bool:
        return bool(self.match_scores)

    @property
    def match_win_rate(self) -> float:
        """A's share of the matches won (each pair of duplicate matches one sample)."""
        return statistics.fmean(self.match_scores) if self.match_scores else 0.0

    @property
    def pairs(self) -> int:
        return len(self.pair_points)

    @property
    def mean_points(self) -> float:
        return statistics.fmean(self.pair_points) if self.pair_points else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return mean_ci95(self.pair_points)

    @property
    def margins(self) -> list[float]:
        """A's card-point margin over B on each board."""
        if self.rotation:
            return [a - b for a, b in zip(self.pair_points, self.baseline_points, strict=True)]
        return [2 * p - 120 for p in self.pair_points]

    @property
    def margin(self) -> float:
        """A's mean card-point margin over B per deal (A's points minus B's)."""
        margins = self.margins
        return statistics.fmean(margins) if margins else 0.0

    @property
    def margin_ci95(self) -> tuple[float, float]:
        return mean_ci95(self.margins)

    @property
    def game_margins(self) -> list[float]:
        """A's game points minus B's per board: each deal's worth in games (deals), the seat's
        (a rotation), or per deal of each pair of whole matches."""
        return [a - b for a, b in zip(self.game_a, self.game_b, strict=True)]

    def add(self, board: BoardResult) -> None:
        """Count one board."""
        self.pair_points.append(board.mean_points)
        if board.baseline:
            self.rotation = True
            self.baseline_points.append(statistics.fmean(board.baseline))
        if board.a_game:
            self.game_a.append(statistics.fmean(board.a_game))
            self.game_b.append(statistics.fmean(board.b_game))
        if board.match_wins:
            share = statistics.fmean(board.match_wins)
            self.match_scores.append(share)
            self.match_deals.extend(board.match_deals)
            for won in board.match_wins:
                self.deals_won[0 if won else 1] += 1  # here: the matches, one by one
            self.matches_won[_outcome(share - 0.5)] += 1  # the pair: won, lost or split
            self.errors.extend(board.errors)
            return
        for margin in board.margins:
            self.deals_won[_outcome(margin)] += 1
        self.matches_won[_outcome(board.margin)] += 1
        self.errors.extend(board.errors)

    def to_json(self) -> dict[str, object]:
        lo, hi = self.ci95
        m_lo, m_hi = self.margin_ci95
        out: dict[str, object] = {
            "a": self.bot_a,
            "b": self.bot_b,
            "deals": sum(self.deals_won),
            "pairs": self.pairs,
            "mean_points": round(self.mean_points, 2),
            "points_ci95": [round(lo, 2), round(hi, 2)],
            "margin": round(self.margin, 2),
            "ci95": [round(m_lo, 2), round(m_hi, 2)],
            "deals_won": {"a": self.deals_won[0], "b": self.deals_won[1],
                          "tied": self.deals_won[2]},
            "matches_won": {"a": self.matches_won[0], "b": self.matches_won[1],
                            "tied": self.matches_won[2]},
            "errors": len(self.errors),
        }
        if self.whole_matches:
            w_lo, w_hi = mean_ci95(self.match_scores)
            out["duplicate"] = "whole matches"
            del out["deals_won"], out["matches_won"]
            out["deals"] = sum(self.match_deals)
            out["matches"] = {
                "played": 2 * self.pairs,
                "won": {"a": self.deals_won[0], "b": self.deals_won[1]},
                "pairs_won": {"a": self.matches_won[0], "b": self.matches_won[1],
                              "split": self.matches_won[2]},
                "win_rate": round(self.match_win_rate, 4),
                "ci95": [round(max(w_lo, 0.0), 4), round(min(w_hi, 1.0), 4)],
                "deals_per_match": round(statistics.fmean(self.match_deals), 2),
            }
        if self.rotation:
            b_lo, b_hi = mean_ci95(self.baseline_points)
            out["duplicate"] = "seat rotation"
            out["b_mean_points"] = round(statistics.fmean(self.baseline_points), 2)
            out["b_points_ci95"] = [round(b_lo, 2), round(b_hi, 2)]
        if self.game_a:
            out["game_points"] = self._game_points_json()
        return out

    def _game_points_json(self) -> dict[str, object]:
        g_lo, g_hi = mean_ci95(self.game_margins)
        return {
            "a": round(statistics.fmean(self.game_a), 3),
            "b": round(statistics.fmean(self.game_b), 3),
            "margin": round(statistics.fmean(self.game_margins), 3),
            "ci95": [round(g_lo, 3), round(g_hi, 3)],
        }

    def _game_points_line(self) -> str:
        g_lo, g_hi = mean_ci95(self.game_margins)
        return (f"  game points per deal: {self.bot_a} {statistics.fmean(self.game_a):.3f}, "
                f"{self.bot_b} {statistics.fmean(self.game_b):.3f}, margin "
                f"{statistics.fmean(self.game_margins):+.3f} (95% CI {g_lo:+.3f} to {g_hi:+.3f})")

    def __str__(self) -> str:
        lo, hi = self.ci95
        m_lo, m_hi = self.margin_ci95
        if self.rotation:
            b_lo, b_hi = mean_ci95(self.baseline_points)
            text = (
                f"{self.bot_a} vs {self.bot_b}: {self.pairs} deals, {self.bot_a} in one seat "
                f"against {self.bot_b} in the others, compared with {self.bot_b} in that seat "
                f"({sum(self.deals_won)} seat plays)\n"
                f"  card points of the seat's side per deal: {self.bot_a} {self.mean_points:.2f} "
                f"(95% CI {lo:.2f} to {hi:.2f}), {self.bot_b} "
                f"{statistics.fmean(self.baseline_points):.2f} (95% CI {b_lo:.2f} to {b_hi:.2f})\n"
                f"  margin per deal: {self.margin:+.2f} (95% CI {m_lo:+.2f} to {m_hi:+.2f})\n"
                f"{self._game_points_line()}\n"
                f"  seat plays won on card points: {self.bot_a} {self.deals_won[0]}, "
                f"{self.bot_b} {self.deals_won[1]}, tied {self.deals_won[2]}\n"
                f"  deals won: {self.bot_a} {self.matches_won[0]}, {self.bot_b} "
                f"{self.matches_won[1]}, tied {self.matches_won[2]}"
            )
        elif self.whole_matches:
            w_lo, w_hi = mean_ci95(self.match_scores)
            text = (
                f"{self.bot_a} vs {self.bot_b}: {2 * self.pairs} matches ({self.pairs} "
                f"duplicate pairs, {sum(self.match_deals)} deals)\n"
                f"  matches won: {self.bot_a} {self.deals_won[0]}, {self.bot_b} "
                f"{self.deals_won[1]}; {self.bot_a}'s win rate {100 * self.match_win_rate:.1f}% "
                f"(95% CI {100 * max(w_lo, 0):.1f}% to {100 * min(w_hi, 1):.1f}%)\n"
                f"  pairs won: {self.bot_a} {self.matches_won[0]}, {self.bot_b} "
                f"{self.matches_won[1]}, split {self.matches_won[2]}\n"
                f"  card-point margin per deal: {self.margin:+.2f} "
                f"(95% CI {m_lo:+.2f} to {m_hi:+.2f})\n"
                f"{self._game_points_line()}"
            )
        else:
            text = (
                f"{self.bot_a} vs {self.bot_b}: {sum(self.deals_won)} deals "
                f"({self.pairs} duplicate pairs)\n"
                f"  {self.bot_a} mean card points per deal: {self.mean_points:.2f} "
                f"(95% CI {lo:.2f} to {hi:.2f})\n"
                f"  margin per deal: {self.margin:+.2f} (95% CI {m_lo:+.2f} to {m_hi:+.2f})\n"
                f"  deals won: {self.bot_a} {self.deals_won[0]}, {self.bot_b} "
                f"{self.deals_won[1]}, tied {self.deals_won[2]}\n"
                f"  pairs won: {self.bot_a} {self.matches_won[0]}, {self.bot_b} "
                f"{self.matches_won[1]}, tied {self.matches_won[2]}"
            )
            if self.game_a:
                text += "\n" + self._game_points_line()
        if self.errors:
            text += f"\n  bot errors: {len(self.errors)} (first: {self.errors[0]})"
        return text


def _outcome(margin: float) -> int:
    """0 when A did better than B (a positive margin), 1 when B did, 2 for a tie."""
    return 0 if margin > 0 else 1 if margin < 0 else 2


@dataclass(frozen=True)
class BoardResult:
    """One deal played by A and B in each seating: A's card points (scaled to 120) in each
    play, and what the bots did wrong (external bots only). At a bidding table (a seat
    rotation) also B's card points in the same seats (``baseline``), and both bots' game
    points."""

    index: int
    a_points: tuple[float, ...]
    errors: tuple[str, ...] = ()
    baseline: tuple[float, ...] = ()  # B's card points in A's seat of each play (rotation)
    # A's game points in each play: the deal's worth in games (deals), the seat's (rotation),
    # or per deal of the match (whole matches); B's alike, in the same seats.
    a_game: tuple[float, ...] = ()
    b_game: tuple[float, ...] = ()
    # Whole matches (``sueca arena --matches``): per play, 1.0 when A won the match, and the
    # deals it took; ``a_points`` are then A's mean card points per deal of each match.
    match_wins: tuple[float, ...] = ()
    match_deals: tuple[int, ...] = ()

    @property
    def mean_points(self) -> float:
        return statistics.fmean(self.a_points)

    @property
    def margins(self) -> tuple[float, ...]:
        """A's card-point margin over B in each play."""
        if self.baseline:
            return tuple(a - b for a, b in zip(self.a_points, self.baseline, strict=True))
        return tuple(2 * a - 120 for a in self.a_points)

    @property
    def margin(self) -> float:
        return statistics.fmean(self.margins)

    @property
    def game_score(self) -> float:
        """The board as one game for A (an SPRT's sample): 1 won, 0 lost, 0.5 tied; for a
        pair of whole matches, its share of the two matches."""
        if self.match_wins:
            return statistics.fmean(self.match_wins)
        return (1.0, 0.0, 0.5)[_outcome(self.margin)]


def _seat_bots(rules: Rules, specs: Sequence[str], *seed_parts: object) -> list[Bot]:
    bots = [make_bot(spec, seed=hash_seed(*seed_parts, s)) for s, spec in enumerate(specs)]
    for seat, bot in enumerate(bots):
        bot.new_match(rules, seat)
    return bots


def _scaled(state: State, side: int) -> float:
    """A side's card points scaled to 120 (the points in play: two decks deal 240, or fewer
    with cards set aside)."""
    points = state.team_points()
    return points[side] * 120 / (sum(points) or 1)


def play_board(
    rules: Rules,
    bot_a: str,
    bot_b: str,
    index: int,
    seed: int = 0,
    records_dir: Path | None = None,
    duplicate: bool = True,
) -> BoardResult:
    """Deal number ``index`` of series ``seed``, played by A (seats of team 0) and B, then
    again with the teams swapped; at a bidding table, the seat rotation (see the module).
    Everything follows from ``(seed, index)``, so a board gives the same result whichever
    process plays it and in whatever order."""
    deal = deal_cards(rules, index % rules.players, random.Random(f"{seed}:deal:{index}"))
    if rules.bidding:
        return _play_rotation(rules, deal, bot_a, bot_b, index, seed, records_dir, duplicate)
    a_points = []
    a_game: list[float] = []
    b_game: list[float] = []
    errors: list[str] = []
    for swap in (0, 1) if duplicate else (0,):
        specs = [bot_b if (rules.teams[s] == 0) == bool(swap) else bot_a
                 for s in range(rules.players)]
        bots: list[Bot] = []
        states: list[State] = []
        try:
            bots = _seat_bots(rules, specs, seed, index, swap)
            states, result = _play_redealing(rules, deal.dealer, bots,
                                             random.Random(f"{seed}:deal:{index}"))
            state = states[-1]
        finally:
            for bot in bots:
                bot.close()
                errors.extend(f"deal {index}{'ab'[swap]}: {e}" for e in getattr(bot, "errors", ()))
        team_a = swap  # A holds team 0 in the first play, team 1 in the second
        a_points.append(_scaled(state, team_a))
        if rules.scoring == "games":
            games = _deal_games(rules, result)
            a_game.append(float(games[team_a]))
            b_game.append(float(games[1 - team_a]))
        if records_dir is not None:
            record = GameRecord.from_states(
                rules, deal.dealer, states, seats=specs, duplicate_pass=swap
            )
            name = f"deal{index:05d}{'ab'[swap]}.json"
            (records_dir / name).write_text(dumps(record), encoding="utf-8")
    return BoardResult(index, tuple(a_points), tuple(errors), a_game=tuple(a_game),
                       b_game=tuple(b_game))


def _deal_games(rules: Rules, result: HandResult) -> tuple[int, ...]:
    """What a finished deal of a partnership table is worth in games to each team, whatever
    the score: 1, 2 or 4 to the side past 60, 90 or 119 (none for a tie), before what a match
    makes of them (rolha, bandeira, a carried tie). A deal that a proven revoke decided
    (renúncia) is scored as the table scores it, the penalty's games included."""
    if result.revoked_by is not None or result.false_denunciations:
        return result.game_points
    total = sum(result.points)
    return tuple(level(rules, points, total) for points in result.points)


def play_match_board(
    rules: Rules,
    bot_a: str,
    bot_b: str,
    index: int,
    seed: int = 0,
    records_dir: Path | None = None,
) -> BoardResult:
    """Match number ``index`` of series ``seed`` as a duplicate pair: a whole match with A in
    the seats of team 0, then the same deal sequence (the same generator, the same first
    dealer) with the teams swapped, so the luck of the cards cancels over the two matches as
    it does over a board's two plays. A's card points per deal, game points per deal (its
    side's and B's), and the match won, in each."""
    if rules.bidding or rules.scoring != "games":
        raise ValueError("whole matches are played at game-scored partnership tables "
                         "(not at a bidding table, nor in Sueca de Pontos)")
    first_dealer = index % rules.players
    a_points, a_game, b_game, wins, lengths = [], [], [], [], []
    errors: list[str] = []
    for swap in (0, 1):
        specs = [bot_b if (rules.teams[s] == 0) == bool(swap) else bot_a
                 for s in range(rules.players)]
        bots: list[Bot] = []
        try:
            bots = _seat_bots(rules, specs, seed, "match", index, swap)
            match, states = play_match(rules, bots, random.Random(f"{seed}:match:{index}"),
                                       first_dealer)
        finally:
            for bot in bots:
                bot.close()
                errors.extend(f"match {index}{'ab'[swap]}: {e}"
                              for e in getattr(bot, "errors", ()))
        team_a = swap
        played = [st for st in states if st.redeal_by is None]
        deals = len(match.results)
        a_points.append(statistics.fmean(_scaled(st, team_a) for st in played))
        a_game.append(sum(r.game_points[team_a] for r in match.results) / deals)
        b_game.append(sum(r.game_points[1 - team_a] for r in match.results) / deals)
        wins.append(1.0 if match.winner == team_a else 0.0)
        lengths.append(deals)
        if records_dir is not None:
            record = GameRecord.from_states(rules, first_dealer, states, seats=specs,
                                            duplicate_pass=swap)
            (records_dir / f"match{index:05d}{'ab'[swap]}.json").write_text(
                dumps(record), encoding="utf-8")
    return BoardResult(index, tuple(a_points), tuple(errors), a_game=tuple(a_game),
                       b_game=tuple(b_game), match_wins=tuple(wins), match_deals=tuple(lengths))


def _play_redealing(rules: Rules, dealer: int, bots: Sequence[Bot], deal_rng: random.Random
                    ) -> tuple[list[State], HandResult]:
    """Deal a board from ``deal_rng`` and play it; with ``weak_hand_redeal``, while a seat
    asks for a new deal, the same dealer deals again from it. Each pass of a board draws from
    a generator seeded alike, so both passes meet the same cards unless their bots answer the
    redeal question differently. Every state, the annulled ones first, and how the deal
    played scored."""
    referee = _arena_referee(rules, bots, dealer)
    referee.deal_source = lambda match: deal_cards(rules, dealer, deal_rng)
    states = [referee.play_deal()]
    while states[-1].redeal_by is not None:
        states.append(referee.play_deal())
    return states, referee.match.results[-1]


def _play_rotation(
    rules: Rules,
    deal: Deal,
    bot_a: str,
    bot_b: str,
    index: int,
    seed: int,
    records_dir: Path | None,
    every_seat: bool,
) -> BoardResult:
    """The seat rotation of a bidding table: the deal with B everywhere (the baseline), then
    with A in each seat in turn (``every_seat``) or in seat ``index % players`` alone. The B
    bots of a seat get the same seed in every play, so where A's play changes nothing the
    deal runs as in the baseline."""
    n = rules.players
    seats = list(range(n)) if every_seat else [index % n]
    errors: list[str] = []
    results: dict[int | None, State] = {}
    for a_seat in [None, *seats]:
        specs = [bot_a if s == a_seat else bot_b for s in range(n)]
        bots: list[Bot] = []
        label = "base" if a_seat is None else f"s{a_seat}"
        try:
            bots = _seat_bots(rules, specs, seed, index)
            state = play_deal(rules, deal, bots)
        finally:
            for bot in bots:
                bot.close()
                errors.extend(f"deal {index} {label}: {e}" for e in getattr(bot, "errors", ()))
        results[a_seat] = state
        if records_dir is not None:
            record = GameRecord.from_states(rules, deal.dealer, [state], seats=specs,
                                            rotation_seat=a_seat)
            (records_dir / f"deal{index:05d}{label}.json").write_text(dumps(record),
                                                                    encoding="utf-8")
    base = results[None]
    base_game = _game_points(base)
    a_points = tuple(_scaled(results[s], results[s].teams[s]) for s in seats)
    baseline = tuple(_scaled(base, base.teams[s]) for s in seats)
    a_game = tuple(float(_game_points(results[s])[s]) for s in seats)
    b_game = tuple(float(base_game[s]) for s in seats)
    return BoardResult(index, a_points, tuple(errors), baseline, a_game, b_game)


def _game_points(state: State) -> tuple[int, ...]:
    """Each seat's game points for a finished deal of a bidding table."""
    assert state.contract is not None
    return score_contract(state.rules, state.contract, state.team_points(), state.teams,
                          state.team_tricks()).game_points


def run_duplicate(
    rules: Rules,
    bot_a: str,
    bot_b: str,
    deals: int,
    seed: int = 0,
    records_dir: Path | None = None,
    duplicate: bool = True,
    on_pair: Callable[[int], None] | None = None,
) -> DuplicateSummary:
    """Team A (the seats of team 0 first) against team B, each deal played twice with the teams
    swapped, or at a bidding table each deal's seat rotation; in this process (``sueca arena``
    runs the same boards on every core)."""
    summary = DuplicateSummary(bot_a, bot_b)
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
    for index in range(deals):
        summary.add(play_board(rules, bot_a, bot_b, index, seed, records_dir, duplicate))
        if on_pair is not None:
            on_pair(index)
    return summary


def hash_seed(*parts: object) -> int:
    """A stable seed from several parts (Python's own ``hash`` of a str varies by process)."""
    return random.Random(":".join(map(str, parts))).getrandbits(63)


def safe_name(spec: str) -> str:
    """A bot spec as a file name: ``cmd:python my bot.py`` → ``cmd_python_my_bot.py``."""
    return re.sub(r"[^A-Za-z0-9_.+=-]+", "_", spec).strip("_")[:80] or "bot"


__all__ = [
    "BoardResult", "BotError", "DuplicateSummary", "hash_seed", "mean_ci95", "play_board",
    "play_deal", "play_match", "play_match_board", "play_out", "run_duplicate", "safe_name",
]
