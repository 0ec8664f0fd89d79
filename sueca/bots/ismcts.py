"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012).

One tree is grown over the bot's information sets: every iteration draws a world uniformly
among those consistent with what the seat knows (:meth:`InformationState.sample_state`, exact
uniform sampling), walks the tree restricted to the moves that world allows, adds one node,
finishes the deal with a quick playout and backs the card points up. A child's exploration
term counts how often it was *available* rather than how often its parent was visited, since
in a hidden-information game a move exists only in some of the sampled worlds.

The bot is deterministic given its seed when the budget is an iteration count (the default);
a time budget (``time=0.5``) makes the number of iterations, and so the play, depend on the
machine.

>>> import random
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(3)))
>>> info = state.information_state(state.to_play)
>>> bot = IsmctsBot(seed=1, iterations=50)
>>> card = bot.choose(info)
>>> card in info.legal_moves() and card == IsmctsBot(seed=1, iterations=50).choose(info)
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from sueca.bots.base import Bot, BotOption, parse_options, playable
from sueca.bots.bidding import choose_bid, choose_call
from sueca.cards import DECK_SIZE, Card, card_name, one_per_face
from sueca.infostate import InformationState

if TYPE_CHECKING:
    from sueca.bots.equity import DealStakes
from sueca.state import State
from sueca.worlds import sample_state

DEFAULT_ITERATIONS = 1000
CEILING_SHARE = 0.9  # of a time budget, the share the iterations may use
OPTIONS = (
    BotOption(("iterations", "n"), int, 1),
    BotOption(("time",), float, 0, above=True),
    BotOption(("c", "exploration"), float, 0),
)


class _Node:
    """One information set of the tree: the card that led to it, played by ``seat``."""

    __slots__ = ("avail", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        # The seat whose card led here: rewarded with its side's share in each sampled world
        # (at a bidding table the sides are the world's: the secret partner is sampled too).
        self.seat = seat
        # Keyed by the card's face: with two decks, the copy another seat holds changes from
        # one sampled world to the next, and both copies are the same move.
        self.children: dict[Card, _Node] = {}
        self.visits = 0
        self.avail = 0  # iterations in which the card leading here was legal
        self.reward = 0.0  # sum of the card-point shares of ``seat``'s side


class IsmctsBot(Bot):
    """SO-ISMCTS with random playouts and UCB1 over availability counts."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        time_limit: float | None = None,
        exploration: float = 0.7,
    ) -> None:
        super().__init__(seed)
        # None: DEFAULT_ITERATIONS, or as many as the time budget allows when there is one.
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.last_iterations = 0
        # "points": rewarded with the side's share of the card points; "match": with its
        # chance of winning the match once the deal ends (goal=match, sueca.bots.equity).
        self.goal = "points"
        self._stakes: DealStakes | None = None  # the move's stakes, playing for the match

    def configure(self, options: Mapping[str, str]) -> None:
        """Options from a bot spec such as ``ismcts:iterations=200:c=0.5`` or
        ``ismcts:time=0.5``; an unknown option or a bad value raises ``ValueError`` and
        changes nothing."""
        options = dict(options)
        goal = options.pop("goal", None)
        if goal is not None and goal not in ("points", "match"):
            raise ValueError(f"ismcts option goal={goal!r} is not a valid value "
                             "(points or match)")
        values = parse_options(self.name, options, OPTIONS)
        if "iterations" in values:
            self.iterations = int(values["iterations"])
        if "time" in values:
            self.time_limit = values["time"]
        if "c" in values:
            self.exploration = values["c"]
        if goal is not None:
            self.goal = goal

    def choose(self, info: InformationState) -> Card:
        return self.search(info)[0]

    def deal_over(self, info: InformationState, hands: tuple[int, ...]) -> None:
        self.follow_deal(info)  # the score it plays for next deal

    def bid(self, info: InformationState) -> int:
        """The heuristic's calibrated bid (:mod:`sueca.bots.bidding`): the search plays the
        cards, not the auction."""
        return choose_bid(info)

    def call(self, info: InformationState) -> Card:
        return choose_call(info)

    def explain(self, info: InformationState) -> tuple[Card, str]:
        card, root = self.search(info)
        child = root.children.get(card % DECK_SIZE)
        if child is None or not child.visits:
            return card, "the only legal card"
        if self._stakes is not None:
            return card, (
                f"ismcts: {card_name(card)} chosen in {child.visits} of {root.visits} "
                f"simulations, winning the match about {100 * child.reward / child.visits:.0f}%"
                " of the time")
        share = child.reward / child.visits * info.rules.total_points
        return card, (
            f"ismcts: {card_name(card)} chosen in {child.visits} of {root.visits} "
            f"simulations, expecting about {share:.0f} points for our side"
        )

    def search(self, info: InformationState) -> tuple[Card, _Node]:
        """The most visited card at the root, and the tree."""
        legal = playable(info)
        root = _Node(seat=-1)
        if len(one_per_face(legal)) == 1:  # one card, or two copies of it: nothing to search
            return legal[0], root
        rng = self.rng
        self._stakes = None
        from sueca.bots.equity import deal_stakes, plays_for_match  # (see pimc's _worth)

        if self.goal == "match" and plays_for_match(info.rules):
            teams = info.teams
            next_dealer = teams[(info.dealer + 1) % info.rules.players]
            assert next_dealer is not None
            self._stakes = deal_stakes(info.rules, self.match_score or (0, 0),
                                       self.match_carry, next_dealer)
        # The spec's time and the front-end's budget (a hard ceiling, less a margin for the
        # answer's way back), whichever is smaller.
        budgets = [b for b in (self.time_limit, self.time_budget) if b is not None]
        deadline = (time.perf_counter() + min(budgets) * CEILING_SHARE) if budgets else None
        done = 0
        if self.iterations is not None:
            limit = self.iterations  # with a time budget too, a ceiling
        else:
            limit = DEFAULT_ITERATIONS if deadline is None else 10**9
        while done < limit:
            self._iterate(root, sample_state(info, rng), rng)
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        root.visits = done
        children = root.children
        card = max(one_per_face(legal), key=lambda c: (
            children[c % DECK_SIZE].visits if c % DECK_SIZE in children else -1, -c))
        return card, root

    def _iterate(self, root: _Node, state: State, rng: random.Random) -> None:
        c = self.exploration
        two_decks = state.rules.deck_size > DECK_SIZE
        node = root
        path = []
        # Selection and expansion: descend while every legal card already has a child.
        while not state.is_finished():
            legal = state.legal_moves()
            if two_decks:
                legal = one_per_face(legal)
            children = node.children
            untried = [card for card in legal if card % DECK_SIZE not in children]
            for card in legal:
                child = children.get(card % DECK_SIZE)
                if child is not None:
                    child.avail += 1
            if untried:
                card = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = _Node(state.to_play)
                child.avail = 1
                children[card % DECK_SIZE] = child
                state.push(card)
                path.append(child)
                break
            best_card, best_score = legal[0], -1.0
            for card in legal:
                child = children[card % DECK_SIZE]
                score = child.reward / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best_card, best_score = card, score
            node = children[best_card % DECK_SIZE]
            state.push(best_card)
            path.append(node)
        # Playout: uniformly random legal cards to the end of the deal.
        while not state.is_finished():
            legal = state.legal_moves()
            state.push(legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0])
        points = state.team_points()
        teams = state.teams  # this world's sides
        stakes = self._stakes
        if stakes is not None:
            tricks = state.team_tricks()
            hand = state.rules.hand_size
            sweeper = 0 if tricks[0] == hand else 1 if tricks[1] == hand else None
            won0 = stakes.team0(points[0], sweeper)
            shares: tuple[float, ...] = (won0, 1.0 - won0)
        else:
            total = sum(points)  # the points in play (two decks deal 240; set-aside none)
            shares = tuple(p / total for p in points)
        for visited in path:
            visited.visits += 1
            visited.reward += shares[teams[visited.seat]]
