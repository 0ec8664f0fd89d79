"""A match: deals in turn, the dealer passing on, game points to the target.

>>> import random
>>> from sueca.rules import STANDARD
>>> match = Match(STANDARD, first_dealer=0)
>>> state = match.new_deal(random.Random(5))
>>> while not state.is_finished():
...     state.push(state.legal_moves()[0])
>>> result = match.finish_deal(state)
>>> sum(result.points)
120
>>> match.dealer
1
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from sueca.deal import Deal, deal_cards
from sueca.rules import Rules
from sueca.scoring import HandResult, match_winner, score_contract, score_hand, score_renuncia
from sueca.state import State


class MatchOverError(RuntimeError):
    """A deal was asked for after the match was won."""


@dataclass(frozen=True)
class AnnulledDeal:
    """A deal annulled before the opening lead because a seat asked for a new deal
    (``weak_hand_redeal``): nobody scored, and the same dealer dealt again. ``before`` is the
    index in :attr:`Match.deals` of the deal that was then played (or will be)."""

    deal: Deal
    asked_by: int
    before: int


@dataclass
class Match:
    """The running score of a match: per team, or at a bidding table per player (each
    player of a deal's winning side scores). Build each deal with :meth:`new_deal` (or
    :meth:`start_deal` for a given deal) and hand the finished state to :meth:`finish_deal`."""

    rules: Rules
    first_dealer: int = 0
    score: list[int] = field(default_factory=list)
    carry: int = 0
    results: list[HandResult] = field(default_factory=list)
    deals: list[Deal] = field(default_factory=list)
    winner: int | None = None
    annulled: list[AnnulledDeal] = field(default_factory=list)  # weak_hand_redeal's new deals
    # The score, carry and winner before the last deal was scored: a denunciation of that deal
    # (renuncia, until the next deal starts) scores it again from there.
    _before_last: tuple[list[int], int, int | None] | None = field(
        default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.score:
            self.score = [0] * self.rules.score_slots

    @property
    def dealer(self) -> int:
        """The dealer of the next deal: the deal passes to the next seat after each hand (an
        annulled deal is no hand: its dealer deals again)."""
        return (self.first_dealer + len(self.results)) % self.rules.players

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def winner_name(self) -> str:
        """Who won, in words: a team, or at a bidding table (scores per seat) a player."""
        return f"{'player' if self.rules.scores_per_seat else 'team'} {self.winner}"

    def new_deal(self, rng: random.Random) -> State:
        """Shuffle and deal the next hand."""
        return self.start_deal(deal_cards(self.rules, self.dealer, rng))

    def start_deal(self, deal: Deal) -> State:
        if self.is_over:
            raise MatchOverError(f"the match is over: {self.winner_name} has won it")
        if len(self.deals) > len(self.results):
            raise RuntimeError("the previous deal is not finished")
        if deal.dealer != self.dealer:
            raise ValueError(f"deal by seat {deal.dealer}, but seat {self.dealer} deals now")
        deal.validate(self.rules)
        self.deals.append(deal)
        return State(self.rules, deal)

    def annul_deal(self, state: State) -> AnnulledDeal:
        """Set aside a deal that a seat annulled by asking for a new deal (``state.phase`` is
        ``redealt``): no points, and the same dealer deals next."""
        if state.redeal_by is None:
            raise ValueError(f"the deal is not annulled ({state.phase}): nobody asked for a "
                             "new deal")
        if self.is_over:
            raise MatchOverError(f"the match is over: {self.winner_name} has won it")
        in_play = len(self.deals) > len(self.results)  # dealt by start_deal
        if in_play and self.deals[-1] != state.deal:
            raise ValueError("that deal is not this match's deal in progress")
        before = len(self.deals) - in_play
        if state.deal.dealer != self.dealer:
            raise ValueError(f"deal by seat {state.deal.dealer}, but seat {self.dealer} deals "
                             "now")
        last = self.annulled[-1] if self.annulled else None
        if last is not None and last.deal == state.deal and last.before == before:
            raise ValueError("that deal is already annulled")
        if in_play:
            self.deals.pop()  # no longer in play: the same dealer deals again
        annulled = AnnulledDeal(state.deal, state.redeal_by, before)
        self.annulled.append(annulled)
        return annulled

    def finish_deal(self, state: State) -> HandResult:
        """Score a finished hand and move the match on."""
        if state.redeal_by is not None:
            raise ValueError(f"the deal is annulled (seat {state.redeal_by} asked for a new "
                             "deal): set it aside with annul_deal")
        if not state.is_finished():
            raise ValueError("the hand is not finished")
        if self.is_over:
            raise MatchOverError(f"the match is over: {self.winner_name} has won it")
        self._before_last = (list(self.score), self.carry, self.winner)
        result = self._score(state)
        self.results.append(result)
        self.carry = result.carry
        self.score = [s + d for s, d in zip(self.score, result.game_points, strict=True)]
        self.winner = match_winner(self.rules, self.score, result)
        if len(self.deals) < len(self.results):
            self.deals.append(state.deal)
        return result

    def rescore_last(self, state: State) -> HandResult:
        """Score the last finished deal again after a denunciation made once its last card was
        down (``renuncia``: until the next deal starts), and move the match on from the score
        before it, as if it had been scored so the first time."""
        if self._before_last is None or not self.results or len(self.deals) != len(
                self.results) or self.deals[-1] != state.deal:
            raise ValueError("only the deal just finished may be scored again, before the next "
                             "deal starts")
        self.score, self.carry, self.winner = list(self._before_last[0]), *self._before_last[1:]
        self.results.pop()
        result = self._score(state)
        self.results.append(result)
        self.carry = result.carry
        self.score = [s + d for s, d in zip(self.score, result.game_points, strict=True)]
        self.winner = match_winner(self.rules, self.score, result)
        return result

    def _score(self, state: State) -> HandResult:
        if state.contract is not None:
            return score_contract(self.rules, state.contract, state.team_points(),
                                  state.teams, state.team_tricks())
        result = score_hand(
            self.rules, state.team_points(), state.team_tricks(), self.score, self.carry)
        if not state.denunciations:
            return result
        proven = state.proven
        wrong = [0, 0]
        for denunciation in state.denunciations:
            if not denunciation.correct:
                wrong[state.teams[denunciation.seat]] += 1
        revoked_by = None if proven is None else 1 - state.teams[proven.seat]
        return score_renuncia(self.rules, result, revoked_by, wrong)
