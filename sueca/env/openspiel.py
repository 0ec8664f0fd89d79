"""Sueca as an OpenSpiel game, registered with ``pyspiel`` as ``"sueca"``.

``pyspiel.load_game("sueca")`` is the standard game; ``pyspiel.load_game("sueca", {"rules":
"italiana5"})`` any preset, a RECORD.md rules object as JSON text (``'{"variant":
"standard", "must_trump": true}'``), or compact text (``"standard;must_trump:true"``, which
the game keeps as its parameter: game strings cannot carry ``,`` or ``=``). Importing this
module registers the game.

Chance deals the cards: first the dealer (uniform over the seats), then the deck's positions in
the rules' dealing order, the turned card's position first (public; with ``redeal_point_trump``
only a blank card, the distribution the reshuffle gives), each a card drawn uniformly from those
left (with two decks a face, weighted by the copies left). Nothing is seen until the deal is
complete: the cards are picked up together. Then the players bid, call, answer the redeal
question and play, by the action numbering of :mod:`sueca.env.actions`, moving through the
referee (:mod:`sueca.env.table`). Players are the seats that decide (every seat but a
dummy, whose partner plays it). Observation and information-state tensors and strings come
from the seat's information state (:mod:`sueca.env.observation`); the information state adds
the order of the plays (perfect recall). Returns are zero-sum, at the deal's end.

>>> import pyspiel
>>> game = pyspiel.load_game("sueca")
>>> game.num_players(), game.num_distinct_actions()
(4, 143)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from sueca.cards import DECK_SIZE, card_name
from sueca.deal import deal_from_deck, deal_order
from sueca.env.actions import ActionCodec
from sueca.env.observation import ObservationEncoder
from sueca.env.rules_arg import compact, rules_of
from sueca.env.table import AgentDeal, deciders, max_return
from sueca.infostate import InformationState, common_information
from sueca.rules import Rules

GAME_NAME = "sueca"

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Sueca (every table of the rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "standard"},
)


def _positions(rules: Rules, dealer: int) -> list[int]:
    """The deck positions chance fills, in order: the turned card's first."""
    order = deal_order(rules, dealer)
    positions = list(range(len(order)))
    if not rules.bidding:
        seats_positions = [p for p, seat in enumerate(order) if seat == dealer]
        turned = seats_positions[0 if rules.trump_card == "dealer_first" else -1]
        positions.remove(turned)
        positions.insert(0, turned)
    return positions


class _Progress:
    """Everything a state holds, in one attribute: OpenSpiel clones a Python state by
    deep-copying each attribute, and this copy replays the deal's moves instead of copying
    the referee's tables."""

    def __init__(self, rules: Rules, codec: ActionCodec) -> None:
        self.rules = rules
        self.codec = codec
        self.dealer: int | None = None
        self.order: list[int] = []  # the positions chance fills
        self.deck: dict[int, int] = {}  # position -> card (a face, with two decks)
        self.deal: AgentDeal | None = None

    def __getstate__(self) -> dict[str, Any]:
        """What OpenSpiel's serialization pickles: the rules, the chance outcomes and the
        moves, from which :meth:`__setstate__` plays the deal again."""
        return {"rules": self.rules.to_dict(), "dealer": self.dealer, "order": self.order,
                "deck": self.deck, "moves": self.deal.moves if self.deal else None}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.rules = Rules.from_dict(data["rules"])
        self.codec = ActionCodec(self.rules)
        self.dealer, self.order, self.deck = data["dealer"], data["order"], data["deck"]
        self.deal = None
        if data["moves"] is not None:
            self._deal_cards()
            assert self.deal is not None
            for index in data["moves"]:
                self.deal.apply(index)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Progress:
        twin = _Progress(self.rules, self.codec)
        twin.dealer, twin.order, twin.deck = self.dealer, self.order, dict(self.deck)
        twin.deal = self.deal.copy() if self.deal is not None else None
        return twin

    def chance_outcomes(self) -> list[tuple[int, float]]:
        rules = self.rules
        if self.dealer is None:
            return [(seat, 1.0 / rules.players) for seat in range(rules.players)]
        copies = [0] * DECK_SIZE
        for card in range(rules.deck_size):
            copies[card % DECK_SIZE] += 1
        for face in self.deck.values():
            copies[face] -= 1
        if not self.deck and not rules.bidding and rules.redeal_point_trump:
            copies = [k if rules.card_points[face] == 0 else 0 for face, k in enumerate(copies)]
        total = sum(copies)
        return [(face, k / total) for face, k in enumerate(copies) if k]

    def deal_chance(self, outcome: int) -> None:
        if self.dealer is None:
            self.dealer = outcome
            self.order = _positions(self.rules, outcome)
            return
        self.deck[self.order[len(self.deck)]] = outcome
        if len(self.deck) == len(self.order):
            self._deal_cards()

    def _deal_cards(self) -> None:
        """The deal, once chance has filled every position (a face's second copy is the
        second deck's id; the deal numbers the copies as every deal does)."""
        assert self.dealer is not None
        seen: set[int] = set()
        cards = []
        for position in range(len(self.order)):
            face = self.deck[position]
            cards.append(face + DECK_SIZE if face in seen else face)
            seen.add(face)
        self.deal = AgentDeal(self.rules, deal_from_deck(self.rules, self.dealer, cards),
                              self.codec)


class SuecaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """One deal of a table of the rules (the ``rules`` parameter)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules = rules = rules_of(str(params.get("rules", "standard")))
        # The compact text: OpenSpiel's game strings (serialization) cannot carry "," or "=".
        params["rules"] = compact(rules)
        self.codec = ActionCodec(rules)
        self.encoder = ObservationEncoder(rules)
        self.seats = deciders(rules)
        bound = max_return(rules)
        n = rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=max(DECK_SIZE, n),
            num_players=len(self.seats),
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            # redeal answers or the auction and the call, then every card
            max_game_length=2 * n + 1 + rules.cards_in_play,
        )
        super().__init__(_GAME_TYPE, info, params)

    def max_chance_nodes_in_history(self) -> int:
        return 1 + self.rules.cards_in_play

    def new_initial_state(self) -> SuecaState:
        return SuecaState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> SuecaObserver:
        return SuecaObserver(self, iig_obs_type or pyspiel.IIGObservationType(
            perfect_recall=False), params)


class SuecaState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: SuecaGame) -> None:
        super().__init__(game)
        self.progress = _Progress(game.rules, game.codec)

    def _player_of(self, seat: int) -> int:
        return deciders(self.progress.rules).index(seat)

    def current_player(self) -> int:
        deal = self.progress.deal
        if deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        asked = deal.asked()
        if asked is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._player_of(asked[0])

    def _legal_actions(self, player: int) -> list[int]:
        deal = self.progress.deal
        assert deal is not None and player == self.current_player()
        return deal.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.progress.deal is None
        return self.progress.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        progress = self.progress
        if progress.deal is None:
            progress.deal_chance(action)
        else:
            progress.deal.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.progress.dealer is None:
                return f"dealer {action}"
            return f"deal {card_name(action)}"
        return self.progress.codec.describe(action)

    def is_terminal(self) -> bool:
        deal = self.progress.deal
        return deal is not None and deal.over

    def returns(self) -> list[float]:
        deal = self.progress.deal
        if deal is None or not deal.over:
            return [0.0] * len(deciders(self.progress.rules))
        return deal.returns()

    def view(self, player: int, public: bool = False) -> tuple[InformationState, bool] | None:
        """What ``player`` sees (``None`` while the deal is being dealt)."""
        deal = self.progress.deal
        if deal is None:
            return None
        seat = deciders(self.progress.rules)[player]
        info, for_dummy = deal.view(seat)
        if public:
            state = deal.state
            infos = [state.information_state(s) for s in range(self.progress.rules.players)]
            info = common_information(infos, info.seat)
        return info, for_dummy

    def __str__(self) -> str:
        deal = self.progress.deal
        if deal is None:
            return f"dealing (dealer {self.progress.dealer}, {len(self.progress.deck)} cards)"
        return str(deal.state)


class SuecaObserver:
    """OpenSpiel's Python observer: the observation, or with ``perfect_recall`` the
    information state, of one player (``private_info`` single player), or only what every
    seat knows (``private_info`` none)."""

    def __init__(self, game: SuecaGame, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or not iig_obs_type.public_info:
            raise ValueError("the observer shows one seat's view or the public one, with "
                             "public information: no other observation type is offered")
        self.public = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.encoder = encoder = game.encoder
        size = encoder.size + (encoder.history_size if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {p.name: self.tensor[p.start:p.start + p.size] for p in encoder.pieces}
        if self.perfect_recall:
            self.dict["history"] = self.tensor[encoder.size:]

    def set_from(self, state: SuecaState, player: int) -> None:
        self.tensor.fill(0.0)
        seen = state.view(player, self.public)
        if seen is None:
            dealer = state.progress.dealer
            if dealer is not None:  # the only fact while the cards are dealt face down
                n = state.progress.rules.players
                seat = deciders(state.progress.rules)[player]
                self.dict["dealer"][(dealer - seat) % n] = 1.0
            return
        info, for_dummy = seen
        self.encoder.write(info, self.tensor, for_dummy)
        if self.perfect_recall:
            self.encoder.write_history(info, self.tensor)

    def string_from(self, state: SuecaState, player: int) -> str:
        seen = state.view(player, self.public)
        if seen is None:
            return f"dealing; dealer {state.progress.dealer}"
        info, for_dummy = seen
        return self.encoder.text(info, for_dummy, history=self.perfect_recall)


pyspiel.register_game(_GAME_TYPE, SuecaGame)

__all__ = ["GAME_NAME", "SuecaGame", "SuecaObserver", "SuecaState"]
