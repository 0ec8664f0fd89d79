"""One table, held by the server: the authoritative match, its seats, and their persistence.

A :class:`Table` is plain synchronous game logic: the deck and every hand live here and nowhere
else, every accepted card is written to :class:`~sueca.server.storage.Storage` before the table
moves on, and a table can be rebuilt from storage exactly where it stopped. The asynchronous
part (connections, bots, timers) is :mod:`sueca.server.rooms`; what each seat may see is
:mod:`sueca.server.views`.
"""

from __future__ import annotations

import hmac
import random
import secrets
from dataclasses import asdict, dataclass
from typing import Any, Literal

from sueca.bots import BOTS, STRONGEST
from sueca.cards import Card, card_name, format_mask, held_copy
from sueca.match import Match
from sueca.record import replay
from sueca.rules import Rules, RulesError
from sueca.scoring import HandResult
from sueca.server.storage import Storage, StoredTable
from sueca.state import IllegalMoveError, State

# A dummy seat (three players at a four-seat table) has nobody: its partner plays its cards.
SeatKind = Literal["human", "bot", "dummy"]
Phase = Literal["playing", "deal_over", "match_over"]

NAME_MAX = 24
# Names for bots whose seat was given none: the web table shows a "bot" badge beside them.
BOT_NAMES = ("Rita", "Tomás", "Inês", "Vasco", "Beatriz", "Duarte", "Leonor", "Afonso")


class TableError(ValueError):
    """A request the table refuses; ``code`` is a stable machine-readable reason."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class SeatConfig:
    """Who sits at a seat. ``level`` is the bot that plays it (for a human: the stand-in while
    the player is away). ``claimed`` turns true the first time the seat's token is used."""

    kind: SeatKind
    name: str
    level: str = STRONGEST
    token: str = ""
    claimed: bool = False

    def matches(self, token: str) -> bool:
        return bool(self.token) and hmac.compare_digest(self.token, token)


def clean_name(name: str) -> str:
    """A player's name as the table keeps it: runs of spaces made one, cut to NAME_MAX."""
    return " ".join(name.split())[:NAME_MAX]


def parse_seats(data: Any, rules: Rules) -> list[SeatConfig]:
    """Seats from a lobby request: ``[{"kind": "human"|"bot", "name": …, "level": …}, …]``,
    one per seat of the rules; the rules' dummy seat is ``{"kind": "dummy"}`` (or kind left
    out): nobody sits there, its partner plays it."""
    players = rules.players
    if not isinstance(data, list) or len(data) != players:
        raise TableError(f"seats must be a list of {players} seats", "bad_seats")
    seats = []
    for index, item in enumerate(data):
        if not isinstance(item, dict):
            raise TableError(f"seat {index} must be an object", "bad_seats")
        if index == rules.dummy:
            if item.get("kind", "dummy") != "dummy":
                raise TableError(f"seat {index} is the dummy: nobody sits there, its partner "
                                 "plays it (kind 'dummy')", "bad_seats")
            seats.append(SeatConfig(kind="dummy", name=""))
            continue
        kind = item.get("kind", "human")
        if kind not in ("human", "bot"):
            raise TableError(f"seat {index}: kind must be 'human' or 'bot'", "bad_seats")
        level = item.get("level", STRONGEST)
        if not isinstance(level, str) or level not in BOTS:
            known = ", ".join(sorted(BOTS))
            raise TableError(f"seat {index}: unknown bot level {level!r} (known: {known})",
                             "bad_seats")
        name = item.get("name") or ""
        if not isinstance(name, str):
            raise TableError(f"seat {index}: name must be text", "bad_seats")
        name = clean_name(name)
        seats.append(SeatConfig(kind=kind, name=name, level=level,
                                token=secrets.token_urlsafe(18) if kind == "human" else ""))
    return seats


def parse_rules(data: Any) -> Rules:
    """The rules of a lobby request: a RECORD.md ``rules`` object."""
    if data is None:
        data = {"variant": "standard"}
    if not isinstance(data, dict):
        raise TableError("rules must be an object", "bad_rules")
    try:
        rules = Rules.from_dict(data)
    except (RulesError, TypeError) as error:
        raise TableError(str(error), "bad_rules") from None
    return rules


class Table:
    """The authoritative state of one table. Build with :meth:`create` or :meth:`restore`."""

    def __init__(
        self,
        table_id: str,
        rules: Rules,
        seats: list[SeatConfig],
        storage: Storage,
        rng: random.Random,
        *,
        open_seats: bool = False,
        created: float = 0.0,
    ) -> None:
        self.id = table_id
        self.rules = rules
        self.seats = seats
        self.storage = storage
        self.rng = rng
        self.open_seats = open_seats  # strangers may take an unclaimed human seat
        self.created = created
        self.match = Match(rules)
        self.match_id = 0
        self.match_number = 0
        self.state: State | None = None
        self.version = 0  # bumped on every change anyone can see

    # ---- building --------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        table_id: str,
        rules: Rules,
        seats: list[SeatConfig],
        storage: Storage,
        rng: random.Random,
        *,
        open_seats: bool = False,
        created: float = 0.0,
    ) -> Table:
        """A new table: stored, its first match started and dealt."""
        table = cls(table_id, rules, seats, storage, rng, open_seats=open_seats, created=created)
        storage.create_table(table_id, table.settings())
        table.start_match()
        return table

    @classmethod
    def restore(cls, stored: StoredTable, storage: Storage, rng: random.Random) -> Table:
        """Rebuild a table from storage, at the very card where it stopped."""
        settings = stored.settings
        rules = Rules.from_dict(settings["rules"])
        seats = [SeatConfig(**seat) for seat in settings["seats"]]
        table = cls(stored.id, rules, seats, storage, rng,
                    open_seats=bool(settings.get("open", False)), created=stored.created)
        if stored.match is None:
            table.start_match()
            return table
        replayed = replay(stored.match.record)
        if replayed.error is not None:
            raise RuntimeError(f"table {stored.id}: stored match does not replay: "
                               f"{replayed.error}")
        table.match = replayed.match
        table.match_id = stored.match.id
        table.match_number = stored.match.number
        table.state = replayed.dealt[-1] if replayed.dealt else None
        if table.state is not None and table.state.redeal_by is not None:
            table.state = None  # stopped right after a redeal was asked: deal again
        elif table.state is not None and table.state.phase == "redeal":
            # Stopped during the redeal question: the seats that kept have kept (a record
            # holds no keeps; the store does), so none of them may now ask instead.
            for _ in range(stored.match.redeal_kept):
                table.state.answer_redeal(False, table.state.to_play)
        if table.state is None and not table.match.is_over:
            table.deal_next()
        elif stored.match.finished is None and table.match.is_over:
            table._store_match_end()  # the server stopped between the last card and this
        return table

    def settings(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": [asdict(seat) for seat in self.seats],
            "open": self.open_seats,
        }

    # ---- the match -------------------------------------------------------------------------

    def start_match(self) -> None:
        """A new match at this table (the first, or a rematch), its first hand dealt."""
        self.match = Match(self.rules, first_dealer=self.rng.randrange(self.rules.players))
        self.match_id = self.storage.start_match(
            self.id, self.rules.to_dict(), self.match.first_dealer, self.seat_names()
        )
        self.match_number += 1
        self.state = None
        self.deal_next()

    def deal_next(self) -> None:
        """Shuffle and deal the next hand of the match (stored before anyone sees it)."""
        state = self.match.new_deal(self.rng)
        deal = state.deal
        self.storage.add_deal(
            self.match_id,
            self.stored_index,
            deal.dealer,
            [format_mask(hand) for hand in deal.hands],
            None if deal.trump_card is None else card_name(deal.trump_card),
        )
        self.state = state
        self.version += 1

    @property
    def phase(self) -> Phase:
        if self.state is None or not self.state.is_finished():
            return "playing"
        return "match_over" if self.match.is_over else "deal_over"

    @property
    def deal_index(self) -> int:
        return len(self.match.deals) - 1

    @property
    def stored_index(self) -> int:
        """The current deal's row in storage: deals annulled by a redeal have rows too."""
        return len(self.match.deals) - 1 + len(self.match.annulled)

    def redeals(self) -> list[int]:
        """Who asked for a new deal (weak_hand_redeal) before the current deal, in order:
        public, as every seat hears an ask."""
        current = len(self.match.deals) - 1
        return [a.asked_by for a in self.match.annulled if a.before == current]

    @property
    def last_result(self) -> HandResult | None:
        """The result of the current deal once it is finished."""
        if self.state is not None and self.state.is_finished() and self.match.results:
            return self.match.results[-1]
        return None

    @property
    def stage(self) -> str | None:
        """What the deal waits for: ``bidding``, ``calling``, ``play`` or ``over`` (None
        before the first deal); see :attr:`State.phase`."""
        return None if self.state is None else self.state.phase

    def actor(self) -> int | None:
        """The seat that decides the next bid, call or card (the partner for a dummy)."""
        if self.phase != "playing" or self.state is None:
            return None
        return self.rules.controller_of(self.state.to_play)

    def _check_turn(self, seat: int, stage: str, action: str) -> State:
        state = self.state
        if state is None or self.phase != "playing":
            raise TableError(f"no {action} now: the hand is over", "not_playing")
        if state.phase != stage:
            wanted = {"bidding": "a bid", "calling": "the declarer's called card",
                      "redeal": "an answer to the redeal question",
                      "play": "a card"}.get(state.phase, state.phase)
            raise TableError(f"no {action} now: the table waits for {wanted}", "not_now")
        actor = self.actor()
        if seat != actor:
            raise TableError(f"it is seat {actor}'s turn, not seat {seat}'s", "not_your_turn")
        return state

    def bid(self, seat: int, value: int) -> None:
        """``seat`` bids ``value`` card points (0 passes) at a bidding table. Raises
        :class:`TableError` or :class:`~sueca.state.IllegalMoveError`; nothing changes then."""
        state = self._check_turn(seat, "bidding", "bid")
        state.bid(value, seat)
        self._store_auction(state)

    def call(self, seat: int, card: Card) -> None:
        """The declarer ``seat`` names ``card`` (a face of the deck): its suit is trump."""
        state = self._check_turn(seat, "calling", "card is to be called")
        state.call(card, seat)
        self._store_auction(state)

    def redeal(self, seat: int, ask: bool) -> None:
        """``seat`` keeps its hand or asks for a new deal (weak_hand_redeal). An ask annuls
        the deal: it is stored as annulled and the same dealer deals again at once. Raises
        :class:`TableError` or :class:`~sueca.state.IllegalMoveError`; nothing changes then."""
        state = self._check_turn(seat, "redeal", "redeal answer")
        state.answer_redeal(ask, state.to_play)
        self.version += 1
        kept = state.redeal_answers.count(False)
        self.storage.set_redeal(self.match_id, self.stored_index, kept, state.redeal_by)
        if state.redeal_by is not None:
            self.match.annul_deal(state)
            self.deal_next()

    def _store_auction(self, state: State) -> None:
        contract = state.contract
        self.storage.set_auction(
            self.match_id, self.stored_index, list(state.bids),
            None if contract is None else card_name(contract.called_card))
        self.version += 1

    def play(self, seat: int, card: Card) -> None:
        """``seat`` plays ``card`` (for the dummy when ``seat`` controls it). A card named by
        its face is the copy the hand holds (two decks hold two of each). Raises
        :class:`TableError` or :class:`~sueca.state.IllegalMoveError`; nothing changes then."""
        state = self._check_turn(seat, "play", "card may be played")
        card = held_copy(state.hands[state.to_play], card)
        state.play(card, state.to_play)
        self.storage.add_play(self.match_id, self.stored_index, len(state.plays) - 1,
                              card_name(card))
        self.version += 1
        if state.is_finished():
            self.match.finish_deal(state)
            if self.match.is_over:
                self._store_match_end()

    def _store_match_end(self) -> None:
        self.storage.finish_match(self.match_id, list(self.match.score), self.match.winner)

    # ---- seats -----------------------------------------------------------------------------

    def seat_names(self) -> list[str]:
        """Each seat's name; an unnamed bot gets one of :data:`BOT_NAMES`, an unnamed player
        "Seat N" (numbered from 1, as the lobby shows seats)."""
        return [seat.name or (BOT_NAMES[i % len(BOT_NAMES)] if seat.kind == "bot"
                              else "Dummy" if seat.kind == "dummy" else f"Seat {i + 1}")
                for i, seat in enumerate(self.seats)]

    def seat_for_token(self, token: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.matches(token):
                return index
        return None

    def claim(self, seat: int) -> None:
        """Mark a human seat as taken (its token has been used); stored, so that a restart
        knows the player was there and may be away."""
        if not self.seats[seat].claimed:
            self.seats[seat].claimed = True
            self.storage.save_settings(self.id, self.settings())
            self.version += 1

    def take_open_seat(self, seat: int, name: str) -> str:
        """A stranger sits at an unclaimed human seat of an open table: the seat's token."""
        if not self.open_seats:
            raise TableError("this table is by invitation only", "not_open")
        if not 0 <= seat < len(self.seats):
            raise TableError(f"no seat {seat}", "bad_seat")
        config = self.seats[seat]
        if config.kind != "human" or config.claimed:
            raise TableError(f"seat {seat} is not free", "seat_taken")
        if name:
            config.name = clean_name(name)
        self.claim(seat)
        return config.token


__all__ = [
    "IllegalMoveError",
    "Phase",
    "SeatConfig",
    "Table",
    "TableError",
    "parse_rules",
    "parse_seats",
]
