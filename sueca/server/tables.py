"""One table, held by the server: the referee of its match, its seats, and their persistence.

A :class:`Table` is plain synchronous code around a :class:`~sueca.referee.Referee`, the one
authoritative path for a move: the deck and every hand live in the referee's state and nowhere
else; every move, a person's or a bot's, is :meth:`Table.submit`-ted to it and checked by the
rules; a listener of the referee turns each deal and each accepted move into a
:class:`~sueca.server.storage.Write`, and a table is rebuilt from storage at the very move where
it stopped (its moves played again through a referee: :mod:`sueca.server.history`).

Store first: a change's writes wait in :attr:`Table.pending` until they are stored, in one
transaction (:meth:`Table.saved`), and nobody sees the change before. A table made with
``autosave`` (tests, tools) stores them at the end of each call; the server's rooms store them
on the writer thread (:mod:`sueca.server.writer`) and, when the store fails, take
:meth:`Table.rolled_back`: the table rebuilt from what the store holds of it (a copy the table
keeps of every write stored, played again as a restart would), without the change.

The bots of a match (a bot seat's own, and the stand-in for a person who is away) belong to
the table; the referee calls their hooks, and they are released once the match is won. The
asynchronous part (connections, the bots' thinking, timers) is :mod:`sueca.server.rooms`; what
each seat may see is :mod:`sueca.server.views`.
"""

from __future__ import annotations

import hmac
import random
import re
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from sueca.actions import (
    Action,
    AskBid,
    AskCall,
    AskCard,
    AskRedeal,
    Bid,
    Call,
    Denounce,
    Play,
    Redeal,
    Request,
)
from sueca.bots import BOTS, STRONGEST, Bot, make_bot
from sueca.cards import Card, card_name, format_mask
from sueca.deal import Deal, deal_cards
from sueca.infostate import InformationState
from sueca.match import Match
from sueca.referee import Event, EventKind, Referee
from sueca.rules import Rules, RulesError
from sueca.scoring import HandResult
from sueca.server.history import blank_referee, replay_stored
from sueca.server.storage import NEW_MATCH, Storage, StoredDeal, StoredMatch, StoredTable, Write
from sueca.state import IllegalMoveError, State

# A dummy seat (three players at a four-seat table) has nobody: its partner plays its cards.
SeatKind = Literal["human", "bot", "dummy"]
Phase = Literal["playing", "deal_over", "match_over"]

NAME_MAX = 24
# A table's turn timer (tables of strangers): each person's move has this many seconds, then
# his stand-in plays it; off (None) by default, and bounded so that neither a page nor a
# table can be stalled or hurried absurdly.
TURN_SECONDS_MIN, TURN_SECONDS_MAX = 5, 600
# The time a server bot's move may take (Bot.set_time_budget): a searching bot at the
# strongest level stops in time, whatever its own budget, so no table waits on one.
BOT_SECONDS = 1.0
SETS_KEPT = 20  # the latest match results a table keeps for its tally (gato, chapéu)
# What each move answers, and how a refusal names it and the move the table waits for.
_ASKED_BY: dict[type, type] = {Play: AskCard, Bid: AskBid, Call: AskCall, Redeal: AskRedeal}
_WHAT = {Play: "card may be played", Bid: "bid", Call: "card is to be called",
         Redeal: "redeal answer"}
_WANTED = {AskCard: "a card", AskBid: "a bid", AskCall: "the declarer's called card",
           AskRedeal: "an answer to the redeal question"}
# The names seat_names gives seats nobody named: words of no language, which each page and
# review puts into its reader's ("Lugar 3", "morto").
UNNAMED_SEAT = re.compile(r"Seat \d+|Dummy")
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
    account: int | None = None  # the account of the logged-in person who took it (accounts.py)

    def matches(self, token: str) -> bool:
        # compare_digest takes ASCII text only (a TypeError otherwise); a token is ASCII, so
        # anything else is simply not this seat's.
        return bool(self.token) and token.isascii() and hmac.compare_digest(self.token, token)


# Format characters a name may hold: the joiners some scripts and emoji sequences need. Every
# other one (bidi overrides and isolates, marks, invisible separators) can disguise a name or
# reorder the text around it on every page that shows it.
_JOINERS = frozenset("\u200c\u200d")


def clean_name(name: str) -> str:
    """A player's name as the table keeps it: runs of spaces made one, cut to NAME_MAX; text
    with a lone surrogate (not Unicode: no page or store can encode it), a control character
    or a format character (bidi overrides, invisible marks) is refused (``bad_name``)."""
    cleaned = " ".join(name.split())[:NAME_MAX]
    for char in cleaned:
        category = unicodedata.category(char)
        if category in ("Cs", "Cc") or (category == "Cf" and char not in _JOINERS):
            raise TableError(f"a name cannot hold the character U+{ord(char):04X} "
                             f"(control, format or surrogate)", "bad_name")
    return cleaned


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
        try:
            name = clean_name(name)
        except TableError as error:
            raise TableError(f"seat {index}: {error}", error.code) from None
        seats.append(SeatConfig(kind=kind, name=name, level=level,
                                token=secrets.token_urlsafe(18) if kind == "human" else ""))
    return seats


def parse_turn_seconds(data: Any) -> int | None:
    """A lobby request's ``turn_seconds``: None (no timer) or a whole number of seconds in
    [:data:`TURN_SECONDS_MIN`, :data:`TURN_SECONDS_MAX`]."""
    if data is None:
        return None
    if type(data) is not int or not TURN_SECONDS_MIN <= data <= TURN_SECONDS_MAX:
        raise TableError(f"turn_seconds must be a whole number from {TURN_SECONDS_MIN} to "
                         f"{TURN_SECONDS_MAX} (or null: no turn timer)", "bad_turn_seconds")
    return data


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
        host: int | None = None,
        autosave: bool = True,
        practice: bool = False,
        deals_seed: int | None = None,
        turn_seconds: int | None = None,
    ) -> None:
        self.id = table_id
        self.rules = rules
        self.seats = seats
        self.storage = storage
        self.rng = rng
        self.open_seats = open_seats  # strangers may take an unclaimed human seat
        self.practice = practice  # a learner may ask for hints (practice.py); never rated
        # A duplicate tournament round's tables are dealt from the round's seed, deal by deal,
        # so every table of it holds the same cards (tournaments.py); else shuffled from rng.
        self.deals_seed = deals_seed
        # The turn timer: a person's move has this many seconds, then his stand-in makes it
        # (rooms.py); None: no timer.
        self.turn_seconds = turn_seconds
        self.created = created
        # The seat of whoever created the table (the first person's seat): its page may show
        # every free seat's invitation and put a bot in for a missing player (see rooms.py).
        self.host = host
        self.closed: float | None = None  # when the table was closed (nobody invited came)
        self.referee = blank_referee(Match(rules))  # each match gets its own (start_match)
        self.match_id = 0
        self.match_number = 0
        self.version = 0  # bumped on every change anyone can see
        self._bot_seeds: random.Random | None = None
        self._stand_ins: dict[int, Bot] = {}  # per person's seat: the bot playing while away
        self._rows = 0  # the match's deals stored so far (those annulled by a redeal too)
        self._row = -1  # the deal in play's row
        self._seq = 0  # its moves stored so far
        self._asked: tuple[tuple[int, int], tuple[int, Request] | None] | None = None
        # The matches won at this table (the web sheet's tally across rematches, kept in its
        # settings): per side, or per seat at a bidding table, and the latest results.
        self.sets = [0] * rules.score_slots
        self.set_results: deque[tuple[int, tuple[int, ...]]] = deque(maxlen=SETS_KEPT)
        self.counted_match: int | None = None  # the match_number the tally last counted
        # Store first: the writes of a change not stored yet, and what the store holds.
        self.autosave = autosave  # store at the end of each call (else the room stores them)
        self._pending: list[Write] = []
        self._stored: StoredTable | None = None

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
        autosave: bool = True,
        practice: bool = False,
        deals_seed: int | None = None,
        hosted: bool = True,
        turn_seconds: int | None = None,
    ) -> Table:
        """A new table, its first match started and dealt (its writes: one batch). Its host
        is the first person's seat (the lobby's "my seat"), or nobody at a table of bots or
        one not ``hosted`` (a tournament's: no seat may see another's invitation)."""
        host = next((i for i, seat in enumerate(seats) if seat.kind == "human"), None)
        table = cls(table_id, rules, seats, storage, rng, open_seats=open_seats, created=created,
                    host=host if hosted else None, autosave=autosave, practice=practice,
                    deals_seed=deals_seed, turn_seconds=turn_seconds)
        table._write("create_table", table_id, table.settings())
        table.start_match()
        return table

    @classmethod
    def restore(cls, stored: StoredTable, storage: Storage, rng: random.Random, *,
                autosave: bool = True) -> Table:
        """Rebuild a table from storage, at the very move where it stopped: its stored moves
        are played again through the referee (:mod:`sueca.server.history`)."""
        settings = stored.settings
        rules = Rules.from_dict(settings["rules"])
        seats = [SeatConfig(**seat) for seat in settings["seats"]]
        table = cls(stored.id, rules, seats, storage, rng,
                    open_seats=bool(settings.get("open", False)), created=stored.created,
                    host=settings.get("host"), autosave=autosave,
                    practice=settings.get("practice") is True,
                    deals_seed=settings.get("deals_seed"),
                    turn_seconds=settings.get("turn_seconds"))
        table.closed = settings.get("closed")
        table._restore_sets(settings.get("sets"))
        table._stored = stored
        if stored.match is None:
            table.start_match()
            return table
        replayed = replay_stored(stored.match)
        if replayed.error is not None:
            raise RuntimeError(f"table {stored.id}: stored match does not replay: "
                               f"{replayed.error}")
        table.match_id = stored.match.id
        table.match_number = stored.match.number
        table._rows = len(stored.match.deals)
        match, state = replayed.match, replayed.state
        if state is not None and state.redeal_by is None:  # a deal in play, or just over
            table._row, table._seq = table._rows - 1, len(stored.match.deals[-1].actions)
            table._seat(match)
            table.referee.resume(state)
        else:  # stopped before the first deal, or right after a redeal was asked: deal again
            first = table._deal(match)  # before the bots' seeds, as always
            table._seat(match)
            table.referee.deal(first)
        if match.results and (stored.match.score != list(match.score)
                              or stored.match.winner != match.winner
                              or (stored.match.finished is None and match.is_over)):
            table._store_score()  # the server stopped between a deal's last move and this
        for bot in table.referee.seats:  # told the match began: tell them where it stands
            if bot is not None:
                table._tell_score(bot)
        if match.is_over:
            table._tally()  # stored before the tally counted a match as it ended: count it now
            table.close()  # a won match asks no bot again
        table._settle()
        return table

    def settings(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": [asdict(seat) for seat in self.seats],
            "open": self.open_seats,
            "host": self.host,
            **({"practice": True} if self.practice else {}),
            **({} if self.deals_seed is None else {"deals_seed": self.deals_seed}),
            **({} if self.turn_seconds is None else {"turn_seconds": self.turn_seconds}),
            **({} if self.closed is None else {"closed": self.closed}),
            **({"sets": {"won": list(self.sets),
                         "last": [[w, list(score)] for w, score in self.set_results],
                         **({} if self.counted_match is None
                            else {"counted": self.counted_match})}}
               if any(self.sets) else {}),
        }

    def unvisited(self) -> bool:
        """Whether a table of people has never had one of them: no person's seat was ever
        taken (every invitation unused)."""
        people = [seat for seat in self.seats if seat.kind == "human"]
        return bool(people) and not any(seat.claimed for seat in people)

    def close_unvisited(self, when: float) -> None:
        """Close a table none of whose invited players ever came (stored: it is not restored
        again, and its links say it was closed)."""
        self.closed = when
        self._write("save_settings", self.id, self.settings())
        self.version += 1
        self._settle()

    # ---- the match -------------------------------------------------------------------------

    @property
    def sealed(self) -> bool:
        """Whether the table admits no spectators: its deals are dealt from a seed that other
        tables share (a duplicate round), so a card seen here is a hidden card there."""
        return self.deals_seed is not None

    @property
    def match(self) -> Match:
        return self.referee.match

    @property
    def state(self) -> State | None:
        """The deal in play (or just over): the referee's, which holds every hand."""
        return self.referee.state

    def start_match(self) -> None:
        """A new match at this table (the first, or a rematch), its first hand dealt."""
        self._tally()
        dealers = self.rng if self.deals_seed is None else random.Random(
            f"{self.deals_seed}/{self.match_number + 1}/dealer")
        match = Match(self.rules, first_dealer=dealers.randrange(self.rules.players))
        self._write("start_match", self.id, self.rules.to_dict(), match.first_dealer,
                    self.seat_names())
        self.match_id = NEW_MATCH  # the store's id, once stored (saved)
        self.match_number += 1
        self._rows = 0
        # Shuffled before the bots draw their seeds (_bot): a seeded server deals the cards it
        # always has.
        first = self._deal(match)
        self._seat(match)
        self.referee.deal(first)
        self._settle()

    def _tally(self) -> None:
        """Count the match just won, as soon as it is won, once (the sheet shows it at the
        match's end; stored with the table's settings, with the match number it counted: a
        restart neither loses nor counts it again)."""
        match = self.referee.match
        if match.is_over and match.winner is not None and self.counted_match != self.match_number:
            self.counted_match = self.match_number
            self.sets[match.winner] += 1
            self.set_results.append((match.winner, tuple(match.score)))
            self._write("save_settings", self.id, self.settings())

    def _restore_sets(self, data: Any) -> None:
        """The tally as the settings keep it; one that does not read (not this table's
        shape) starts again from nothing rather than stop the table."""
        slots = len(self.sets)
        if not isinstance(data, dict):
            return
        won, last = data.get("won"), data.get("last")
        if (not isinstance(won, list) or len(won) != slots
                or not all(type(n) is int and n >= 0 for n in won)
                or not isinstance(last, list)):
            return
        results: list[tuple[int, tuple[int, ...]]] = []
        for item in last[-SETS_KEPT:]:
            if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                    and 0 <= item[0] < slots and isinstance(item[1], list)
                    and all(type(n) is int for n in item[1])):
                return
            results.append((item[0], tuple(item[1])))
        self.sets = list(won)
        self.set_results.extend(results)
        counted = data.get("counted")
        self.counted_match = counted if type(counted) is int else None

    def _seat(self, match: Match) -> None:
        """A referee for ``match``: this match's bots at the bot seats, nobody at the others
        (a person's moves are submitted; a dummy is played by its partner)."""
        self.close()
        if self._bot_seeds is None:
            # Drawn once, after the table's first shuffle (a seeded server deals and seats
            # the same cards and bots on every run).
            self._bot_seeds = random.Random(self.rng.getrandbits(64))
        bots: list[Bot | None] = [self._bot(seat) if config.kind == "bot" else None
                                  for seat, config in enumerate(self.seats)]
        self.referee = Referee(match, bots, rng=self.rng, listeners=[self._store],
                               where=f"table {self.id}",
                               deal_source=None if self.deals_seed is None else self._deal)

    def _deal(self, match: Match) -> Deal:
        """The next deal of ``match``: shuffled from the table's rng, or at a table dealt from
        a seed the seed's deal of that number in that match (a duplicate round's tables all
        hold the same cards, deal by deal, and again after a restart)."""
        if self.deals_seed is None:
            return deal_cards(self.rules, match.dealer, self.rng)
        number = len(match.results) + len(match.annulled)
        return deal_cards(self.rules, match.dealer,
                          random.Random(f"{self.deals_seed}/{self.match_number}/{number}"))

    def deal_next(self) -> None:
        """Shuffle and deal the next hand of the match (stored before anyone sees it)."""
        self.referee.deal()
        self._settle()

    def _store(self, event: Event) -> None:
        """The referee's listener: each deal and each accepted move becomes a write, stored
        with the rest of the change before anyone sees it, so a restart loses nothing."""
        if event.kind is EventKind.DEALT:
            deal = event.state.deal
            self._row, self._seq = self._rows, 0
            self._rows += 1
            self._write("add_deal", self.match_id, self._row, deal.dealer,
                        [format_mask(hand) for hand in deal.hands],
                        None if deal.trump_card is None else card_name(deal.trump_card))
        elif event.action is not None and event.seat is not None:
            self._write("add_action", self.match_id, self._row, self._seq, event.seat,
                        event.action.to_dict())
            self._seq += 1
        elif event.kind is EventKind.DEAL_ENDED:
            self._store_score()
        self.version += 1

    def _store_score(self) -> None:
        self._write("score_match", self.match_id, list(self.match.score), self.match.winner)

    # ---- store first -----------------------------------------------------------------------

    def _write(self, method: str, *args: Any) -> None:
        self._pending.append(Write(method, args))

    def _settle(self) -> None:
        """End of a change: with ``autosave``, store its writes now."""
        if self.autosave and self._pending:
            self.saved(self.storage.save(self._pending))

    @property
    def pending(self) -> tuple[Write, ...]:
        """The writes of the change not stored yet (empty: the store holds the whole table).
        Nothing may be shown of a table with writes pending."""
        return tuple(self._pending)

    def saved(self, match_id: int | None) -> None:
        """The pending writes are stored (``match_id``: the id of a match they started)."""
        writes, self._pending = self._pending, []
        if match_id is not None and self.match_id == NEW_MATCH:
            self.match_id = match_id
        for write in writes:
            self._stored = _stored_after(self._stored, self.id, self.created, write, match_id)

    def rolled_back(self) -> Table:
        """This table as the store holds it, the writes pending dropped: rebuilt from the
        stored writes, played again exactly as after a restart (:meth:`restore`). Its version
        is past this one's, so whatever waited on this one looks again. This table's bots are
        released."""
        if self._stored is None:
            raise TableError("this table was never stored", "storage_unavailable")
        table = Table.restore(self._stored, self.storage, self.rng, autosave=self.autosave)
        table.version = self.version + 1
        self.close()
        return table

    @property
    def phase(self) -> Phase:
        if self.state is None or not self.state.is_finished():
            return "playing"
        return "match_over" if self.match.is_over else "deal_over"

    @property
    def deal_index(self) -> int:
        return len(self.match.deals) - 1

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
        """What the deal waits for: ``bidding``, ``calling``, ``redeal``, ``play`` or ``over``
        (None before the first deal); see :attr:`State.phase`."""
        return None if self.state is None else self.state.phase

    # ---- who is asked what, and moves ------------------------------------------------------

    def asked(self) -> tuple[int, Request] | None:
        """The seat that decides now (the partner for a dummy) and what it is asked, as the
        referee says (:meth:`~sueca.referee.Referee.asked`); ``None`` between deals. Every view
        of a change reads it, so it is worked out once per change."""
        key = (self.version, id(self.state))
        if self._asked is None or self._asked[0] != key:
            self._asked = (key, self.referee.asked())
        return self._asked[1]

    def move_key(self) -> tuple[int, int, int]:
        """Which move the table waits for (the match, the deal's row, the moves stored in
        it): the same while nobody moves, whatever else changes (a name, a cry that goes on);
        the turn timer's deadline belongs to one move."""
        return (self.match_number, self._row, self._seq)

    def actor(self) -> int | None:
        """The seat that decides the next move (the partner for a dummy)."""
        asked = self.asked()
        return None if asked is None else asked[0]

    def submit(self, seat: int, action: Action, *, stand_in: bool = False) -> None:
        """``seat`` (a person's or a bot's own seat: the dummy's partner for its cards) makes
        ``action``: the one way a move reaches the match. Raises :class:`TableError` (nothing
        is asked now, not that, or not of this seat) or
        :class:`~sueca.state.IllegalMoveError` (the rules refuse it, with its reason);
        nothing changes then. A denunciation (``renuncia``) is any seat's at any moment the
        rules allow. An ask for a new deal annuls the deal: the same dealer deals again at
        once."""
        if type(action) is not Denounce:
            self._check_turn(seat, action)
        row, seq = self._row, self._seq  # where the listener stores this move
        self.referee.submit(seat, action)
        if stand_in:  # a bot's move for an absent person: counted against rating the match
            self._write("add_stand_in", self.match_id, row, seq, seat)
        state = self.state
        if state is not None and state.redeal_by is not None:
            self.referee.deal()
        if self.match.is_over:
            self._tally()
            self.close()  # a won match asks no bot again: their memory goes now
        self._settle()

    def _check_turn(self, seat: int, action: Action) -> None:
        """Refuse, with the codes clients know, a move when nothing is asked, when something
        else is, or when another seat decides."""
        what = _WHAT[type(action)]
        asked = self.asked()
        if asked is None or self.phase != "playing":
            raise TableError(f"no {what} now: the hand is over", "not_playing")
        actor, request = asked
        if type(request) is not _ASKED_BY[type(action)]:
            raise TableError(f"no {what} now: the table waits for {_WANTED[type(request)]}",
                             "not_now")
        if seat != actor:
            raise TableError(f"it is seat {actor}'s turn, not seat {seat}'s", "not_your_turn")

    def play(self, seat: int, card: Card) -> None:
        """``seat`` plays ``card`` (for the dummy when ``seat`` controls it; with two decks a
        face: the copy the hand holds)."""
        self.submit(seat, Play(card))

    def bid(self, seat: int, value: int) -> None:
        """``seat`` bids ``value`` card points (0 passes) at a bidding table."""
        self.submit(seat, Bid(value))

    def call(self, seat: int, card: Card) -> None:
        """The declarer ``seat`` names ``card`` (a face of the deck): its suit is trump."""
        self.submit(seat, Call(card))

    def redeal(self, seat: int, ask: bool) -> None:
        """``seat`` keeps its hand or asks for a new deal (weak_hand_redeal)."""
        self.submit(seat, Redeal(ask))

    def denounce(self, seat: int) -> None:
        """``seat`` cries *renúncia!* (``renuncia``): see :meth:`submit`."""
        self.submit(seat, Denounce())

    # ---- bots ------------------------------------------------------------------------------

    def _bot(self, seat: int) -> Bot:
        """A new bot of ``seat``'s level, seeded from the table's bot seeds (see :meth:`_seat`)."""
        seeds = self._bot_seeds
        assert seeds is not None, "bots are made once a match is seated"
        bot = make_bot(self.seats[seat].level, seed=seeds.getrandbits(32))
        bot.set_time_budget(BOT_SECONDS)
        return bot

    def _tell_score(self, bot: Bot) -> None:
        """Tell a bot that joins a match in the middle (a restored table's, a stand-in) the
        score before the deal in play: told nothing, it would play as if at 0–0."""
        match = self.referee.match
        if match.results:
            bot.set_match_score(match.score, match.carry)

    def stand_in(self, seat: int) -> Bot:
        """The bot that plays for the person of ``seat`` while he is away (the seat's level),
        kept for the match."""
        bot = self._stand_ins.get(seat)
        if bot is None:
            bot = self._stand_ins[seat] = self._bot(seat)
            bot.new_match(self.rules, seat)
            self._tell_score(bot)
        return bot

    def bot_to_move(self, standing_in: bool) -> tuple[Bot, InformationState]:
        """The bot that decides what the table asks now, and the information state it decides
        from (the seat asked's: the dummy's, for its partner): the deciding seat's own bot, or
        with ``standing_in`` the stand-in for the person who decides."""
        asked, state = self.asked(), self.state
        if asked is None or state is None:
            raise TableError("nothing is asked now", "not_playing")
        bot = self.stand_in(asked[0]) if standing_in else self.referee.decider(state.to_play)
        if bot is None:
            raise TableError(f"no bot decides for seat {asked[0]}", "not_your_turn")
        return bot, state.information_state(state.to_play)

    def close(self) -> None:
        """Release the match's bots (:meth:`Bot.close`)."""
        self.referee.close()
        for bot in self._stand_ins.values():
            bot.close()
        self._stand_ins = {}

    # ---- seats -----------------------------------------------------------------------------

    def seat_names(self) -> list[str]:
        """Each seat's name; an unnamed bot gets one of :data:`BOT_NAMES`, an unnamed player
        "Seat N" (numbered from 1, as the lobby shows seats: :data:`UNNAMED_SEAT`)."""
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
            self._write("save_settings", self.id, self.settings())
            self.version += 1
            self._settle()

    def link_account(self, seat: int, account_id: int, name: str) -> None:
        """A logged-in person takes his seat: the seat is his account's from now on (its
        matches count for it) and bears the account's name. A seat already another
        account's is refused."""
        config = self.seats[seat]
        if config.account == account_id:
            return
        if config.account is not None:
            raise TableError("this seat was taken by another account", "other_account")
        config.account = account_id
        config.name = clean_name(name)
        self._write("save_settings", self.id, self.settings())
        self._write("name_seats", self.match_id, self.seat_names())
        self.version += 1

    def rename(self, seat: int, name: str) -> None:
        """A person names his own seat (the page asks an invited friend on joining): cleaned
        as every name is (:func:`clean_name`), stored, and the table's names from then on.
        The match under way says it in its history too (its stored seat names)."""
        cleaned = clean_name(name)
        if not cleaned:
            raise TableError("a name cannot be blank", "bad_name")
        config = self.seats[seat]
        if config.kind != "human":
            raise TableError(f"seat {seat} is not a person's", "bad_seat")
        if config.name != cleaned:
            config.name = cleaned
            self._write("save_settings", self.id, self.settings())
            self._write("name_seats", self.match_id, self.seat_names())
            self.version += 1
            self._settle()

    def take_open_seat(self, seat: int, name: str) -> str:
        """A stranger sits at an unclaimed human seat of an open table: a new token for the
        seat, his alone. The token the table was created with is handed out in its invitation
        link; giving it again would seat two people at one seat, so it stops working (whoever
        comes first, the invited player or the stranger, has the seat; the other is refused)."""
        if not self.open_seats:
            raise TableError("this table is by invitation only", "not_open")
        if not 0 <= seat < len(self.seats):
            raise TableError(f"no seat {seat}", "bad_seat")
        config = self.seats[seat]
        if config.kind != "human" or config.claimed or seat == self.host:
            raise TableError(f"seat {seat} is not free", "seat_taken")
        if name:
            config.name = clean_name(name)
        config.token = secrets.token_urlsafe(18)
        config.claimed = True
        self._write("save_settings", self.id, self.settings())
        if name:
            self._write("name_seats", self.match_id, self.seat_names())
        self.version += 1
        self._settle()
        return config.token


def _stored_after(stored: StoredTable | None, table_id: str, created: float, write: Write,
                  match_id: int | None) -> StoredTable:
    """What the store holds of a table after ``write`` (its rows, as the store reads them
    back): the copy :meth:`Table.rolled_back` rebuilds from, kept in step write by write."""
    args = write.args
    if write.method == "create_table":
        return StoredTable(table_id, created, args[1], None)
    assert stored is not None, f"{write.method} before create_table"
    if write.method == "save_settings":
        return replace(stored, settings=args[1])
    if write.method == "start_match":
        assert match_id is not None
        number = 1 if stored.match is None else stored.match.number + 1
        return replace(stored, match=StoredMatch(
            match_id, table_id, number, args[1], args[2], [], list(args[3]), time.time(),
            None, None, None))
    match = stored.match
    assert match is not None, f"{write.method} before start_match"
    if write.method == "add_deal":
        match.deals.append(StoredDeal(args[1], args[2], list(args[3]), args[4]))
    elif write.method == "add_action":
        match.deals[-1].actions.append((args[3], args[4]))
    elif write.method == "add_stand_in":
        match.stand_ins[(args[1], args[2])] = args[3]
    elif write.method == "name_seats":
        return replace(stored, match=replace(match, seats=list(args[1])))
    elif write.method == "score_match":
        finished = match.finished if match.finished is not None or args[2] is None else time.time()
        return replace(stored, match=replace(match, score=list(args[1]), winner=args[2],
                                             finished=finished))
    return stored


__all__ = [
    "IllegalMoveError",
    "Phase",
    "SeatConfig",
    "Table",
    "TableError",
    "parse_rules",
    "parse_seats",
    "parse_turn_seconds",
]
