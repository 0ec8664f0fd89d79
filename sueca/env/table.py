"""One deal played by agents through the referee: what both environments share.

An environment's episode is one deal. Its moves go through :class:`~sueca.referee.Referee`
(every seat a "person": the agent submits), so the environments check moves, end, annul and
score a deal exactly as every other table does. Who decides is the referee's answer (a dummy's
partner for the dummy); what a player sees is the information state of the seat it decides for.

The return of each player is its seat's score for the deal, less the mean seat's, so every
table is zero-sum; a dummy's partner also takes the dummy's. The score is the one the match
gives a first deal (games, or card points under ``pontos``; at a bidding table each player's
own), and an annulled deal (``weak_hand_redeal``) ends the episode scoring nothing, as it does
in a match.
"""

from __future__ import annotations

from sueca.actions import Request
from sueca.deal import Deal
from sueca.env.actions import ActionCodec
from sueca.infostate import InformationState
from sueca.match import Match
from sueca.referee import Referee
from sueca.rules import Rules
from sueca.state import State


class IllegalAction(ValueError):
    """An action index the seat asked may not take now; nothing changes."""


def deciders(rules: Rules) -> tuple[int, ...]:
    """The seats that make decisions: every seat but a dummy (its partner decides for it)."""
    return tuple(s for s in range(rules.players) if s != rules.dummy)


def max_return(rules: Rules) -> float:
    """A bound on the absolute return of one player (its seat's, and a dummy's)."""
    if rules.bidding:
        best = max(rules.bid_scores)
    elif rules.scoring == "pontos":
        best = rules.total_points + rules.last_trick_bonus + rules.maria_de_copas
    else:
        best = max(4, rules.match_target)  # a sweep that wins the match scores its target
    return 2.0 * best


class AgentDeal:
    """A deal in play, its moves made by action index (:class:`~sueca.env.actions.ActionCodec`)."""

    def __init__(self, rules: Rules, deal: Deal, codec: ActionCodec | None = None) -> None:
        self.rules = rules
        self.codec = codec or ActionCodec(rules)
        self.referee = Referee(Match(rules, first_dealer=deal.dealer), [None] * rules.players)
        self.state: State = self.referee.deal(deal)
        self.moves: list[int] = []  # the action indexes so far, for a copy
        self._asked: tuple[tuple[int, Request] | None] | None = None  # until the next move

    @property
    def over(self) -> bool:
        """Finished, or annulled by a redeal."""
        return self.referee.deal_over

    def asked(self) -> tuple[int, Request] | None:
        """The seat that decides now and its request (``None`` once the deal is over)."""
        if self._asked is None:  # the referee works it out from an information state: once
            self._asked = (self.referee.asked(),)
        return self._asked[0]

    def legal(self) -> list[int]:
        asked = self.asked()
        return self.codec.legal(asked[1] if asked else None)

    def view(self, seat: int) -> tuple[InformationState, bool]:
        """What ``seat`` (a deciding seat) sees now, and whether it is the dummy's view: a
        dummy's partner, deciding for the dummy, sees the dummy's information state."""
        dummy = self.rules.dummy
        state = self.state
        if (dummy is not None and seat == self.rules.controller_of(dummy)
                and state.to_play == dummy and not self.over):
            return state.information_state(dummy), True
        return state.information_state(seat), False

    def apply(self, index: int) -> None:
        """The asked seat takes action ``index``; :class:`IllegalAction` says why not."""
        asked = self.asked()
        if asked is None:
            raise IllegalAction("the deal is over: no action is asked for")
        seat, request = asked
        if index not in self.codec.legal(request):
            described = (self.codec.describe(index) if type(index) is int
                         and 0 <= index < self.codec.size else repr(index))
            raise IllegalAction(f"action {index!r} ({described}) is not legal for seat {seat} "
                                "now")
        self._asked = None
        self.referee.submit(seat, self.codec.action(index))
        self.moves.append(index)

    def seat_scores(self) -> list[float]:
        """Each seat's score for the deal (0 everywhere until it is scored, or if annulled)."""
        match = self.referee.match
        if not match.results:
            return [0.0] * self.rules.players
        points = match.results[-1].game_points
        if self.rules.scores_per_seat:
            return [float(points[s]) for s in range(self.rules.players)]
        return [float(points[self.rules.team_of(s)]) for s in range(self.rules.players)]

    def returns(self) -> list[float]:
        """Per deciding seat (in :func:`deciders` order): its seat's score less the mean
        seat's, plus the dummy's where it decides for one."""
        scores = self.seat_scores()
        mean = sum(scores) / len(scores)
        out = []
        for seat in deciders(self.rules):
            value = scores[seat] - mean
            dummy = self.rules.dummy
            if dummy is not None and self.rules.controller_of(dummy) == seat:
                value += scores[dummy] - mean
            out.append(value)
        return out

    def copy(self) -> AgentDeal:
        """The same deal at the same point (replayed: the referee's match is rebuilt)."""
        twin = AgentDeal(self.rules, self.state.deal, self.codec)
        for index in self.moves:
            twin.apply(index)
        return twin
