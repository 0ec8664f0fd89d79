"""The game loop of the terminal table: a match between humans and bots, seat by seat.

The loop is the referee. It alone holds the full :class:`~sueca.state.State`; every seat, human
or bot, is handed only ``state.information_state(seat)``, and what a screen draws is built from
an information state too (for the dummy, its controlling partner acts with the dummy's). A card
a human offers goes to :meth:`State.play`, so an illegal one is refused with the engine's reason
(phrased for the player) and changes nothing. At a bidding table (five-player Sueca Italiana)
each deal opens with the auction: bids and the declarer's call go to :meth:`State.bid` and
:meth:`State.call` the same way, and the secret partner reaches a screen only through the
seat's ``info.teams``.

With ``weak_hand_redeal`` each deal opens with the redeal question (:meth:`State.answer_redeal`):
a human whose hand is weak enough is asked whether he wants a new deal, and an ask annuls the
deal and the same dealer deals again.

The match is saved as a RECORD.md record after every bid, call and card, the deal in progress
included, with the fields ``seed`` and ``seats`` added: :func:`load_setup` and
:func:`sueca.record.replay` rebuild the table from it, so ``sueca play --resume`` continues
where the match stopped.

Drawing and reading are a :class:`Screen`'s business (``render.py`` has the Rich one and the
plain one); the loop only says what happened and asks for lines of input.
"""

from __future__ import annotations

import enum
import os
import random
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Final, Protocol

from sueca.arena.play import hash_seed
from sueca.auction import PASS
from sueca.bots import STRONGEST, Bot, make_bot
from sueca.bots.base import decide
from sueca.cards import (
    CLUBS,
    DECK_SIZE,
    DIAMONDS,
    HEARTS,
    SPADES,
    Card,
    CardMask,
    CardParseError,
    card_face,
    card_suit,
    cards_mask,
    held_copy,
    parse_card,
    suit_cards_high_to_low,
)
from sueca.infostate import InformationState, common_information
from sueca.match import Match
from sueca.record import GameRecord, RecordFormatError, dumps, read, replay
from sueca.redeal import hand_points, redeal_limit
from sueca.rules import MAX_BID, MIN_BID, Rules, RulesError
from sueca.scoring import HandResult
from sueca.state import (
    PHASE_BIDDING,
    PHASE_CALLING,
    PHASE_PLAY,
    PHASE_REDEAL,
    REASON_FOLLOW,
    REASON_NOT_HELD,
    REASON_TRUMP,
    IllegalMoveError,
    State,
)
from sueca.terminal.i18n import Language

HUMAN: Final = "human"
DUMMY: Final = "dummy"

# Suits in the order a hand is laid out: black and red alternate, as players sort them.
DISPLAY_SUITS: Final = (SPADES, HEARTS, CLUBS, DIAMONDS)

# The human pace: seconds after a bot's card, and after a trick is complete.
BOT_DELAY: Final = 0.9
TRICK_DELAY: Final = 1.6

# Answers to the redeal question (weak_hand_redeal), in English and Portuguese.
REDEAL_ASK_WORDS: Final = frozenset({"y", "yes", "s", "sim", "r", "redeal", "nova", "dar"})
REDEAL_KEEP_WORDS: Final = frozenset({"n", "no", "não", "nao", "k", "keep", "fico", "ficar"})


class SetupError(ValueError):
    """Seats, bots or a record that do not make a table; the message names the problem."""


# ---- the table's seats ---------------------------------------------------------------------


def parse_seat_list(text: str, players: int, option: str) -> list[int]:
    """``"0,2"`` → ``[0, 2]``; ``"none"`` or ``""`` → no seats; ``"all"`` → every seat."""
    text = text.strip().lower()
    if text in ("", "none"):
        return []
    if text == "all":
        return list(range(players))
    seats = []
    for item in text.split(","):
        if not item.strip().isdigit() or not 0 <= int(item) < players:
            raise SetupError(f"{option} takes seats from 0 to {players - 1}, not {item.strip()!r}")
        if int(item) in seats:
            raise SetupError(f"{option} names seat {int(item)} twice")
        seats.append(int(item))
    return seats


def make_seats(rules: Rules, humans: Sequence[int], bots: str | None = None
               ) -> tuple[str, ...]:
    """Who sits where: ``human``, a bot's name, or ``dummy`` for the dummy seat.

    ``bots`` is one bot for every seat that is not human, or one per seat (the entries at human
    seats and at the dummy are ignored; write ``-`` there); ``None`` for the strongest bot,
    which plays every table. The dummy cannot be a human: its partner plays it.
    """
    n = rules.players
    bots = bots if bots is not None else STRONGEST
    names = [b.strip() for b in bots.split(",")]
    if len(names) == 1:
        names *= n
    if len(names) != n:
        raise SetupError(f"--bots takes one bot or one per seat ({n}), not {len(names)}")
    seats: list[str] = []
    for seat in range(n):
        if seat == rules.dummy:
            if seat in humans:
                raise SetupError(
                    f"seat {seat} is the dummy: its partner, seat {rules.controller_of(seat)}, "
                    "plays it"
                )
            seats.append(DUMMY)
        elif seat in humans:
            seats.append(HUMAN)
        else:
            seats.append(names[seat])
    check_seats(rules, seats)
    return tuple(seats)


def check_seats(rules: Rules, seats: Sequence[str]) -> None:
    from sueca.bots import BOTS

    if len(seats) != rules.players:
        raise SetupError(f"{len(seats)} seats for a {rules.players}-seat table")
    for seat, kind in enumerate(seats):
        if (kind == DUMMY) != (seat == rules.dummy):
            raise SetupError(f"seat {seat} is {kind!r}, but the rules' dummy is {rules.dummy}")
        # A bot spec is NAME[:OPTION=VALUE…][+signals] or cmd:COMMAND (sueca.bots.make_bot);
        # the name is checked here, the options when the bot is made.
        name = kind.partition("+")[0].partition(":")[0].strip()
        if kind not in (HUMAN, DUMMY) and name not in BOTS and not kind.startswith("cmd:"):
            raise SetupError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})")


@dataclass(frozen=True)
class Setup:
    """Everything that makes one match at the terminal table."""

    rules: Rules
    seats: tuple[str, ...]  # per seat: "human", a bot's name, or "dummy"
    seed: int
    path: Path  # where the record is saved
    lang: Language
    hints: bool = False
    fast: bool = False

    def __post_init__(self) -> None:
        check_seats(self.rules, self.seats)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(s for s, kind in enumerate(self.seats) if kind == HUMAN)

    def controller_kind(self, seat: int) -> str:
        return self.seats[self.rules.controller_of(seat)]


def default_save_path(data_dir: Path, seed: int) -> Path:
    """A new file under the user's data directory, named by time and seed."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path = data_dir / "matches" / f"{stamp}-seed{seed}.json"
    suffix = 1
    while path.exists():
        suffix += 1
        path = data_dir / "matches" / f"{stamp}-seed{seed}-{suffix}.json"
    return path


def data_dir() -> Path:
    """Where matches are saved by default: the user's data directory (platformdirs)."""
    from platformdirs import user_data_path

    return user_data_path("sueca", appauthor=False)


def load_setup(path: Path, lang: Language, hints: bool = False, fast: bool = False
               ) -> tuple[Setup, GameRecord]:
    """The table saved in a record (its rules, seats and seed), to resume it."""
    try:
        record = read(str(path))
        rules = record.parsed_rules()
    except (RecordFormatError, RulesError) as error:
        raise SetupError(f"{path}: {error}") from None
    seats = record.extra.get("seats")
    seed = record.extra.get("seed")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise SetupError(f"{path}: not a record of a terminal table (no 'seats' list)")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError(f"{path}: not a record of a terminal table (no 'seed')")
    external = [s for s in seats if s.startswith("cmd:")]
    if external:
        # Records are shared freely (check, replay); resuming one must not run a program that
        # its author chose. An external bot is seated only from this user's own command line.
        raise SetupError(
            f"{path}: will not resume a match with an external program seated "
            f"({external[0]!r}): start a new match with --bots to seat it"
        )
    try:
        setup = Setup(rules, tuple(seats), seed, path, lang, hints, fast)
    except SetupError as error:
        raise SetupError(f"{path}: {error}") from None
    return setup, record


def find_unfinished(directory: Path) -> Path | None:
    """The most recently saved match under ``directory/matches`` that is not over."""
    folder = directory / "matches"
    if not folder.is_dir():
        return None
    for path in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            record = read(str(path))
            result = replay(record)
        except (RecordFormatError, RulesError):
            continue
        if result.error is None and not result.match.is_over and "seats" in record.extra:
            return path
    return None


# ---- what a screen is shown ------------------------------------------------------------------


def suit_cards(mask: CardMask, suit: int) -> list[Card]:
    """The cards of one suit in ``mask``, strongest first. With two decks a card held twice is
    there twice (its two copies, the first deck's first): both are drawn, both may be played."""
    faces = suit_cards_high_to_low(mask | mask >> DECK_SIZE, suit)
    return [copy for face in faces for copy in (face, face + DECK_SIZE) if mask >> copy & 1]


def hand_order(mask: CardMask) -> list[Card]:
    """A hand as laid out: by suit (♠ ♥ ♣ ♦), strongest first."""
    return [c for suit in DISPLAY_SUITS for c in suit_cards(mask, suit)]


def lowest_bid(rules: Rules, bids: Sequence[int]) -> int:
    """The lowest bid other than a pass that the next bidder may make (``MAX_BID + 1`` when
    only a pass is left): above the highest so far where bids must rise."""
    highest = max(bids, default=PASS)
    return max(MIN_BID, highest + 1) if rules.bid_must_rise else MIN_BID


def numbered_moves(info: InformationState) -> list[Card]:
    """The legal cards in the order the hand is laid out: card ``k`` is number ``k + 1``."""
    return hand_order(cards_mask(info.legal_moves()))


@dataclass(frozen=True)
class TableView:
    """One picture of the table for whoever faces the screen, built from what they may know."""

    info: InformationState  # already filtered: the seat's own, or the public view
    bottom: int  # the seat drawn at the bottom (the viewer)
    names: tuple[str, ...]
    seats: tuple[str, ...]  # human / bot name / dummy, per seat
    deal_number: int
    results: tuple[HandResult, ...]  # the finished deals of the match
    score: tuple[int, ...]
    acting: int | None = None  # the seat whose card the viewer now chooses
    hint: tuple[Card, str] | None = None  # a card to play, or to call in the auction
    message: str | None = None  # a refusal or a notice for the viewer
    hidden: bool = False  # hot-seat: the screen is waiting to be passed on
    review: bool = False  # a position of a saved record (sueca replay), drawn whole
    bid_hint: tuple[int, str] | None = None  # a bid and its reason, in the auction

    @property
    def us(self) -> int:
        """The side written *Nós* on the score sheet: the viewer's (0 where it is not known:
        a bidding table keeps its score per player, not per side)."""
        side = self.info.teams[self.bottom] if self.info.teams else None
        return side if side is not None else 0

    @property
    def per_player(self) -> bool:
        """A bidding table: the score is kept per player, the sides change every deal."""
        return self.info.rules.scores_per_seat

    @property
    def choices(self) -> list[Card]:
        return numbered_moves(self.info) if self.acting is not None else []


class Screen(Protocol):
    """Where the table is drawn and lines are read."""

    interactive: bool  # a person at a terminal: clear, pause and wait for Enter

    def show(self, view: TableView) -> None:
        """Draw the table as ``view`` shows it."""

    def say(self, text: str) -> None:
        """Tell what happened (a card played, a trick taken, a result)."""

    def ask(self, prompt: str) -> str | None:
        """Read one line; ``None`` at the end of the input."""

    def hide(self) -> None:
        """Hide every hand: the screen is about to pass to another player."""

    def pause(self, seconds: float) -> None:
        """Wait, so that a person can follow the play."""

    def close(self) -> None:
        """The match has stopped: show whatever was said since the table was last drawn."""


# ---- the loop --------------------------------------------------------------------------------


class Outcome(enum.Enum):
    FINISHED = "finished"
    QUIT = "quit"
    INPUT_ENDED = "input_ended"


@dataclass
class TableResult:
    outcome: Outcome
    score: tuple[int, ...]
    winner: int | None
    path: Path


class _Quit(Exception):
    """The player asked to quit and confirmed."""


class _InputEnded(Exception):
    """The input ran out before the match did."""


class ChoiceError(ValueError):
    """A line that names no card the player may choose by number or by name."""


def parse_choice(text: str, choices: Sequence[Card], lang: Language, hand: CardMask = 0
                 ) -> Card:
    """The card a player typed: its number among ``choices`` or the card itself (``7h``,
    ``AS``, ``♥7``). A name is a face: with two decks it is turned into the copy ``hand``
    holds. A card that is not legal is returned as is: the referee refuses it with its
    reason."""
    token = text.strip()
    if token.isdigit():
        number = int(token)
        if not 1 <= number <= len(choices):
            raise ChoiceError(lang.text("no_such_number", number=number, count=len(choices)))
        return choices[number - 1]
    try:
        return held_copy(hand, parse_card(token))
    except CardParseError:
        raise ChoiceError(lang.text("not_a_card", text=token)) from None


PASS_WORDS: Final = ("p", "pass", "passo", "passar", "passa")


def parse_bid(text: str) -> int | None:
    """A bid as typed: a number, or a pass (``0``, ``p``, ``pass``, ``passo``); ``None`` for
    anything else. Whether the number may be bid is the referee's to say."""
    token = text.strip().lower()
    if token in PASS_WORDS:
        return PASS
    return int(token) if token.isdigit() and len(token) <= 4 else None


def refusal(error: IllegalMoveError, card: Card, info: InformationState, lang: Language,
            acting_name: str | None) -> str:
    """The engine's reason for refusing ``card``, said to the player in their language.
    ``acting_name`` is the seat whose card it was when that is not the player's own (the
    dummy)."""
    suffix = "" if acting_name is None else "_other"
    if error.reason in (REASON_FOLLOW, REASON_TRUMP) and info.trick:
        led = card_suit(info.trick[0])
        cards = [lang.card(c) for c in numbered_moves(info)]
        key = ("must_follow" if error.reason == REASON_FOLLOW else "must_trump") + suffix
        return lang.text(key, suit=lang.suit(led), cards=lang.and_list(cards), seat=acting_name)
    if error.reason == REASON_NOT_HELD:
        return lang.text("not_held" + suffix, card=lang.card(card), seat=acting_name)
    return str(error)


@dataclass
class Table:
    """A match at the terminal table. :meth:`run` plays it to the end or until the player
    quits; the record is saved after every bid, call and card."""

    setup: Setup
    screen: Screen
    record: GameRecord | None = None  # a saved match to resume
    match: Match = field(init=False)
    states: list[State] = field(init=False)
    bots: dict[int, Bot] = field(init=False)
    hint_bots: dict[int, Bot] = field(init=False)
    facing: int | None = field(init=False, default=None)  # the human now at the screen

    def __post_init__(self) -> None:
        setup = self.setup
        rules = setup.rules
        if self.record is None:
            first = random.Random(f"{setup.seed}:first_dealer").randrange(rules.players)
            self.match = Match(rules, first_dealer=first)
            self.states = []
        else:
            replayed = replay(self.record)
            if replayed.error is not None:
                raise SetupError(f"{setup.path}: the record is not valid: "
                                 f"{replayed.error['reason']}")
            if replayed.match.is_over:
                score = "–".join(map(str, replayed.match.score))
                raise SetupError(f"{setup.path}: that match is over ({score})")
            self.match = replayed.match
            self.states = replayed.dealt  # annulled deals too: the record keeps them
        self.bots = {}
        for seat in range(rules.players):
            kind = setup.controller_kind(seat)
            if kind != HUMAN:
                try:
                    bot = make_bot(kind, seed=hash_seed(setup.seed, "seat", seat))
                except ValueError as error:
                    raise SetupError(str(error)) from None
                bot.new_match(rules, seat)
                self.bots[seat] = bot
        self.hint_bots = {}

    # ---- names ---------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.setup.rules

    @property
    def lang(self) -> Language:
        return self.setup.lang

    @property
    def solo(self) -> int | None:
        """The one human at the table, who is called "you"; ``None`` in hot-seat or watching."""
        humans = self.setup.humans
        return humans[0] if len(humans) == 1 else None

    @property
    def hotseat(self) -> bool:
        return len(self.setup.humans) > 1

    def names(self) -> tuple[str, ...]:
        return tuple(
            self.lang.text("you") if seat == self.solo else self.lang.text("seat", seat=seat)
            for seat in range(self.rules.players)
        )

    # ---- saving --------------------------------------------------------------------------

    def to_record(self) -> GameRecord:
        return GameRecord.from_states(
            self.rules, self.match.first_dealer, self.states,
            seed=self.setup.seed, seats=list(self.setup.seats),
        )

    def save(self) -> None:
        """Write the record atomically: a stopped program never leaves half a file."""
        path = self.setup.path
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=".sueca-", suffix=".json")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(dumps(self.to_record()))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    # ---- views ---------------------------------------------------------------------------

    def view(self, info: InformationState, bottom: int, acting: int | None = None,
             hint: tuple[Card, str] | None = None, message: str | None = None,
             hidden: bool = False, bid_hint: tuple[int, str] | None = None) -> TableView:
        return TableView(
            info=info,
            bottom=bottom,
            names=self.names(),
            seats=self.setup.seats,
            deal_number=len(self.match.deals),
            results=tuple(self.match.results),
            score=tuple(self.match.score),
            acting=acting,
            hint=hint,
            message=message,
            hidden=hidden,
            bid_hint=bid_hint,
        )

    def public_info(self, state: State, bottom: int) -> InformationState:
        """What every seat knows: the view for a screen nobody in particular faces (between
        hot-seat turns, or a table of bots): the cards and the sides every seat knows (a
        secret partner stays secret here until the called card is played)."""
        infos = [state.information_state(s) for s in range(self.rules.players)]
        return common_information(infos, bottom)

    def spectator_view(self, state: State, bottom: int | None = None) -> TableView:
        """The table between turns: the facing human's own view, or the public one (drawn
        from ``bottom``'s seat, by default whoever faces the screen)."""
        if self.facing is not None and not self.hotseat:
            return self.view(state.information_state(self.facing), self.facing)
        if bottom is None:
            bottom = self.facing if self.facing is not None else (self.setup.humans or (0,))[0]
        return self.view(self.public_info(state, bottom), bottom, hidden=self.hotseat)

    # ---- the match -----------------------------------------------------------------------

    def run(self) -> TableResult:
        try:
            return self._run()
        finally:
            for bot in [*self.bots.values(), *self.hint_bots.values()]:
                bot.close()
            self.screen.close()

    def _run(self) -> TableResult:
        if self.solo is not None:
            self.facing = self.solo
        try:
            if self.record is not None:
                self.screen.say(self.lang.text("resumed", path=self.setup.path))
            while not self.match.is_over:
                if (not self.states or self.states[-1].is_finished()
                        or self.states[-1].redeal_by is not None):
                    self.start_deal()
                self.play_deal(self.states[-1])
        except _Quit:
            return self.stop(Outcome.QUIT)
        except _InputEnded:
            return self.stop(Outcome.INPUT_ENDED)
        except KeyboardInterrupt:
            return self.stop(Outcome.QUIT)
        self.save()
        self.announce_winner()
        self.screen.say(self.lang.text("record_saved", path=self.setup.path))
        return TableResult(Outcome.FINISHED, tuple(self.match.score), self.match.winner,
                           self.setup.path)

    def stop(self, outcome: Outcome) -> TableResult:
        self.save()
        lang = self.lang
        if outcome is Outcome.INPUT_ENDED:
            self.screen.say(lang.text("input_ended"))
        self.screen.say(lang.text("record_saved", path=self.setup.path))
        self.screen.say(lang.text("resume_file_hint", path=self.setup.path))
        return TableResult(outcome, tuple(self.match.score), None, self.setup.path)

    def start_deal(self) -> None:
        key = f"{self.setup.seed}:deal:{len(self.match.results)}"
        if self.match.annulled:  # weak_hand_redeal: the same dealer deals a fresh deal
            key += f":redeal:{len(self.match.annulled)}"
        rng = random.Random(key)
        # Two decks: deal.number_copies numbers the copies from the faces alone, so a resumed
        # match (read back from its record) holds the very card ids of the unbroken one.
        state = self.match.new_deal(rng)
        self.states.append(state)
        self.save()
        deal = state.deal
        number = len(self.match.deals)
        dealer = self.names()[deal.dealer]
        if deal.trump_card is None:  # a bidding table: the called card will make the trump
            self.screen.say(self.lang.text("deal_start_bidding", number=number, dealer=dealer))
            return
        self.screen.say(self.lang.text(
            "deal_start", number=number, dealer=dealer,
            card=self.lang.card(deal.trump_card), suit=self.lang.suit(deal.trump),
        ))

    def play_deal(self, state: State) -> None:
        """Bids and the call (at a bidding table) or the redeal question (weak_hand_redeal),
        then every card, each from the seat whose turn it is: a human at the screen or a bot."""
        while not state.is_finished() and state.redeal_by is None:
            seat = state.to_play
            phase = state.phase
            controller = self.rules.controller_of(seat)
            human = self.setup.seats[controller] == HUMAN
            if phase == PHASE_REDEAL:
                (self.human_redeal if human else self.bot_redeal)(state, seat, controller)
            elif phase == PHASE_BIDDING:
                (self.human_bid if human else self.bot_bid)(state, seat)
            elif phase == PHASE_CALLING:
                (self.human_call if human else self.bot_call)(state, seat)
            elif human:
                self.human_turn(state, seat, controller)
            else:
                self.bot_turn(state, seat)
            self.save()
            if phase == PHASE_PLAY and state.trick_start == len(state.plays):
                self.trick_done(state)
        if state.redeal_by is not None:
            self.deal_annulled(state)
            return
        result = self.match.finish_deal(state)
        self.save()
        for seat, bot in self.bots.items():
            bot.deal_over(state.information_state(seat), state.deal.hands)
        self.deal_done(state, result)

    def reseed(self, bot: Bot, state: State, action: str) -> None:
        """Reseed a bot before each decision: its choice then depends only on what it sees and
        the match seed, so a resumed match plays on exactly as the unbroken one would have."""
        step = len(state.plays) if action == "card" else len(state.bids)
        if action == "redeal":
            step = len(state.redeal_answers)
        parts: tuple[object, ...] = (self.setup.seed, len(self.match.deals), step)
        bot.rng.seed(hash_seed(*parts) if action == "card" else hash_seed(*parts, action))

    def after_bot(self, state: State) -> None:
        self.screen.show(self.spectator_view(state))
        if not self.setup.fast and state.trick_start != len(state.plays):
            self.screen.pause(BOT_DELAY)

    def bot_turn(self, state: State, seat: int) -> None:
        bot = self.bots[seat]
        self.reseed(bot, state, "card")
        # A bot's bug must not end the human's match: decide logs it and plays a plain card.
        card = decide(bot, state.information_state(seat), strict=False, where="terminal")
        state.play(card, seat)
        self.announce_play(state, seat, card)
        self.after_bot(state)

    def bot_redeal(self, state: State, seat: int, controller: int) -> None:
        bot = self.bots[seat]
        self.reseed(bot, state, "redeal")
        ask = decide(bot, state.information_state(seat), strict=False, where="terminal")
        state.answer_redeal(bool(ask), seat)

    def deal_annulled(self, state: State) -> None:
        """A seat asked for a new deal: the deal is set aside and the same dealer deals."""
        self.match.annul_deal(state)
        self.save()
        for seat, bot in self.bots.items():
            bot.deal_annulled(state.information_state(seat))
        asker = state.redeal_by
        assert asker is not None
        lang = self.lang
        names = self.names()
        points = hand_points(self.rules, state.deal.hands[asker])
        if self.rules.controller_of(asker) == self.solo:
            self.screen.say(lang.text("redeal_asked_you", points=points,
                                      dealer=names[state.deal.dealer]))
        else:
            self.screen.say(lang.text("redeal_asked", seat=names[asker],
                                      dealer=names[state.deal.dealer]))

    def bot_bid(self, state: State, seat: int) -> None:
        bot = self.bots[seat]
        self.reseed(bot, state, "bid")
        value = decide(bot, state.information_state(seat), strict=False, where="terminal")
        state.bid(value, seat)
        self.announce_bid(state, seat, value)
        self.after_bot(state)

    def bot_call(self, state: State, seat: int) -> None:
        bot = self.bots[seat]
        self.reseed(bot, state, "call")
        state.call(decide(bot, state.information_state(seat), strict=False, where="terminal"),
                   seat)
        self.announce_contract(state)
        self.after_bot(state)

    # ---- a human at the screen -----------------------------------------------------------

    def face(self, state: State, controller: int) -> None:
        """Hot-seat: before anything of ``controller``'s is shown (his hand, to bid, call or
        play), hide the table and wait until the screen has been passed to him."""
        if self.hotseat and self.facing != controller:
            self.facing = None
            self.screen.hide()
            self.screen.show(self.spectator_view(state, bottom=controller))
            if self.screen.ask(self.lang.text("pass_to", seat=self.names()[controller])) is None:
                raise _InputEnded
        self.facing = controller

    def converse(self, make_view: Callable[[str | None], TableView], prompt: str, help_key: str,
                 act: Callable[[str], str | None]) -> None:
        """Draw the viewer's table and read lines until ``act`` takes one (it returns
        ``None``); its refusal, help (``?``) and quitting (``q``) are answered in between,
        and change nothing."""
        lang = self.lang
        message: str | None = None
        while True:
            self.screen.show(make_view(message))
            line = self.screen.ask(prompt)
            if line is None:
                raise _InputEnded
            command = line.strip()
            message = None
            if command == "?":
                message = lang.text(help_key)
            elif command.lower() in ("q", "quit", "sair"):
                self.confirm_quit()
                message = lang.text("not_quitting")
            elif command:
                message = act(command)
                if message is None:
                    return

    def human_turn(self, state: State, seat: int, controller: int) -> None:
        lang = self.lang
        self.face(state, controller)
        info = state.information_state(seat)
        hint = self.hint(seat, info) if self.setup.hints else None
        acting_name = None if seat == controller else self.names()[seat]
        if seat != controller:
            prompt = lang.text("prompt_dummy")
        elif self.hotseat:
            prompt = lang.text("prompt_seat", seat=self.names()[seat])
        else:
            prompt = lang.text("prompt")

        def act(command: str) -> str | None:
            try:
                card = parse_choice(command, numbered_moves(info), lang, info.hand)
            except ChoiceError as error:
                return str(error)
            try:
                state.play(card, seat)
            except IllegalMoveError as error:
                return refusal(error, card, info, lang, acting_name)
            self.announce_play(state, seat, card)
            return None

        self.converse(lambda message: self.view(info, controller, acting=seat, hint=hint,
                                                message=message),
                      prompt, "help", act)
        if self.hotseat:
            self.screen.show(self.spectator_view(state))

    def human_redeal(self, state: State, seat: int, controller: int) -> None:
        """The human keeps his hand or, when it is weak enough, asks for a new deal.

        With several humans at one screen every one of them is asked in turn, a hand that may
        only be kept too (he can only keep): were the screen passed only to a weak hand,
        everyone at the screen would see whose hand is weak. A single human among bots has
        nobody watching when he is asked, so a hand that may only be kept is kept for him
        without a question."""
        info = state.information_state(seat)
        may_ask = info.may_ask_redeal()
        if not may_ask and not self.hotseat:
            state.answer_redeal(False, seat)
            return
        lang = self.lang
        self.face(state, controller)
        points = hand_points(self.rules, info.hand)
        limit = redeal_limit(self.rules, seat, info.opening_leader)
        if may_ask:
            key = "prompt_redeal_seat" if self.hotseat else "prompt_redeal"
            if seat != controller:
                key = "prompt_redeal_dummy"
        else:
            key = "prompt_keep_dummy" if seat != controller else "prompt_keep_seat"
        prompt = lang.text(key, points=points, limit=limit, seat=self.names()[seat])

        def act(command: str) -> str | None:
            answer = command.strip().lower()
            if answer in REDEAL_ASK_WORDS and may_ask:
                state.answer_redeal(True, seat)
            elif answer in REDEAL_ASK_WORDS:
                return lang.text("redeal_only_keep", points=points, limit=limit)
            elif answer in REDEAL_KEEP_WORDS:
                state.answer_redeal(False, seat)
            else:
                return lang.text("bad_redeal" if may_ask else "bad_keep", text=command)
            return None

        self.converse(lambda message: self.view(info, controller, acting=seat,
                                                message=message),
                      prompt, "help_redeal", act)
        if self.hotseat:
            self.screen.show(self.spectator_view(state))

    def human_bid(self, state: State, seat: int) -> None:
        """The human's bid: the legal range in the prompt; a bid the rules refuse is refused
        with that range, and the auction waits for another."""
        lang = self.lang
        self.face(state, seat)
        info = state.information_state(seat)
        hint = self.bid_hint(seat, info) if self.setup.hints else None
        low = lowest_bid(self.rules, state.bids)
        highest = max(state.bids, default=PASS)
        key = "prompt_bid" if low <= MAX_BID else "prompt_bid_pass"
        if self.hotseat:
            key += "_seat"
        prompt = lang.text(key, low=low, high=MAX_BID if low <= MAX_BID else highest,
                           seat=self.names()[seat])

        def act(command: str) -> str | None:
            value = parse_bid(command)
            try:
                if value is not None:
                    state.bid(value, seat)  # the referee's rule (sueca.auction.bid_error)
            except IllegalMoveError:
                value = None
            if value is None:
                if low > MAX_BID:
                    return lang.text("bad_bid_pass", bid=command, high=highest)
                return lang.text("bad_bid", bid=command, low=low, high=MAX_BID)
            self.announce_bid(state, seat, value)
            return None

        self.converse(lambda message: self.view(info, seat, acting=seat, bid_hint=hint,
                                                message=message),
                      prompt, "help_bid", act)
        if self.hotseat:
            self.screen.show(self.spectator_view(state))

    def human_call(self, state: State, seat: int) -> None:
        """The declarer names his card: its suit is trump, its holder his secret partner."""
        lang = self.lang
        self.face(state, seat)
        info = state.information_state(seat)
        hint = self.call_hint(seat, info) if self.setup.hints else None
        prompt = lang.text("prompt_call_seat" if self.hotseat else "prompt_call",
                           seat=self.names()[seat])

        def act(command: str) -> str | None:
            try:
                state.call(parse_card(command), seat)
            except CardParseError:
                return lang.text("bad_call", text=command)
            except IllegalMoveError as error:
                return str(error)
            self.announce_contract(state)
            return None

        self.converse(lambda message: self.view(info, seat, acting=seat, hint=hint,
                                                message=message),
                      prompt, "help_call", act)
        if self.hotseat:
            self.screen.show(self.spectator_view(state))

    def confirm_quit(self) -> None:
        answer = self.screen.ask(self.lang.text("confirm_quit"))
        if answer is None:
            raise _InputEnded
        if answer.strip().lower()[:1] in ("y", "s"):
            raise _Quit

    def hint_bot(self, seat: int) -> Bot:
        """The hint giver of ``seat``: the strongest bot, playing from that seat."""
        if seat not in self.hint_bots:
            bot = make_bot(STRONGEST, seed=hash_seed(self.setup.seed, "hint", seat))
            bot.new_match(self.rules, seat)
            self.hint_bots[seat] = bot
        return self.hint_bots[seat]

    def hint(self, seat: int, info: InformationState) -> tuple[Card, str]:
        """The hint bot's card and reason for ``seat``, from that seat's information."""
        return self.hint_bot(seat).explain(info)

    def bid_hint(self, seat: int, info: InformationState) -> tuple[int, str]:
        """The hint bot's bid, and why: what the bots' hand evaluation expects the hand to
        take with its best call (:func:`sueca.bots.bidding.best_call`)."""
        from sueca.bots.bidding import best_call

        card, expected = best_call(info.hand)
        return self.hint_bot(seat).bid(info), self.lang.text(
            "hint_bid_reason", points=round(expected), card=self.lang.card(card))

    def call_hint(self, seat: int, info: InformationState) -> tuple[Card, str]:
        """The hint bot's call, and the points its side is expected to take with it."""
        from sueca.bots.bidding import estimate_points

        card = self.hint_bot(seat).call(info)
        return card, self.lang.text("hint_call_reason",
                                    points=round(estimate_points(info.hand, card)))

    # ---- telling what happened -----------------------------------------------------------

    def announce_play(self, state: State, seat: int, card: Card) -> None:
        lang = self.lang
        names = self.names()
        controller = self.rules.controller_of(seat)
        shown = lang.card(card)
        if seat != controller:
            if controller == self.solo:
                self.screen.say(lang.text("plays_dummy_you", card=shown))
            else:
                self.screen.say(lang.text("plays_dummy", seat=names[controller], card=shown))
        elif seat == self.solo:
            self.screen.say(lang.text("plays_you", card=shown))
        else:
            self.screen.say(lang.text("plays", seat=names[seat], card=shown))
        contract = state.contract
        if contract is not None and card_face(card) == card_face(contract.called_card):
            self.announce_partner(contract.declarer, seat, card)

    def announce_partner(self, declarer: int, holder: int, card: Card) -> None:
        """The called card is played: now everybody knows the sides."""
        lang = self.lang
        names = self.names()
        shown = lang.card(card)
        if holder == declarer:
            key = "alone_revealed_you" if holder == self.solo else "alone_revealed"
        elif holder == self.solo:
            key = "partner_revealed_you"
        elif declarer == self.solo:
            key = "partner_revealed_yours"
        else:
            key = "partner_revealed"
        self.screen.say(lang.text(key, card=shown, seat=names[holder],
                                  declarer=names[declarer]))

    def announce_bid(self, state: State, seat: int, value: int) -> None:
        lang = self.lang
        you = seat == self.solo
        if value == PASS:
            text = lang.text("passes_you") if you else lang.text("passes",
                                                                 seat=self.names()[seat])
        else:
            text = (lang.text("bids_you", bid=value) if you
                    else lang.text("bids", seat=self.names()[seat], bid=value))
        self.screen.say(text)
        if state.phase == PHASE_CALLING and max(state.bids) == PASS:
            self.screen.say(lang.text("all_passed", seat=self.names()[state.deal.dealer]))

    def announce_contract(self, state: State) -> None:
        contract = state.contract
        assert contract is not None
        lang = self.lang
        values = {"seat": self.names()[contract.declarer], "target": contract.target,
                  "card": lang.card(contract.called_card), "suit": lang.suit(contract.trump)}
        key = "contract_you" if contract.declarer == self.solo else "contract"
        self.screen.say(lang.text(key, **values))

    def trick_done(self, state: State) -> None:
        trick = state.tricks()[-1]
        winner = trick.winner if trick.winner is not None else 0
        number = state.trick_number
        if winner == self.solo:
            text = self.lang.text("takes_trick_you", number=number, points=trick.points)
        else:
            text = self.lang.text("takes_trick", seat=self.names()[winner], number=number,
                                  points=trick.points)
        self.screen.say(text)
        self.screen.show(self.spectator_view(state))
        if not self.setup.fast:
            self.screen.pause(TRICK_DELAY)

    def seat_list(self, values: Sequence[int], signed: bool = False) -> str:
        """``You +3 · Player 1 0 · …``: one number per seat, for a per-player score."""
        names = self.names()
        return " · ".join(f"{names[s]} {v:+d}" if signed and v else f"{names[s]} {v}"
                          for s, v in enumerate(values))

    def deal_done(self, state: State, result: HandResult) -> None:
        lang = self.lang
        number = len(self.match.results)
        if result.contract is not None:
            self.contract_done(state, result, number)
        else:
            us = self.rules.teams[self.facing if self.facing is not None else 0]
            them = 1 - us
            if result.tie:
                self.screen.say(lang.text("deal_tie", number=number))
                if result.carry:
                    self.screen.say(lang.text("deal_tie_carry", number=number,
                                              carry=result.carry))
            else:
                self.screen.say(lang.text(
                    "deal_result", number=number, us=result.points[us], them=result.points[them],
                    g_us=f"{result.game_points[us]:+d}", g_them=f"{result.game_points[them]:+d}",
                ))
            score = self.match.score
            self.screen.say(lang.text("match_score", us=score[us], them=score[them]))
        self.screen.show(self.spectator_view(state))
        waiting = self.screen.interactive and self.setup.humans and not self.match.is_over
        if waiting and self.screen.ask(lang.text("continue")) is None:
            raise _InputEnded

    def contract_done(self, state: State, result: HandResult, number: int) -> None:
        """A bidding table's deal is over: made or failed, who the partner was (public now:
        the called card has been played), each player's game points and the match."""
        contract = result.contract
        assert contract is not None
        lang = self.lang
        names = self.names()
        teams = self.public_info(state, 0).teams
        declarer = contract.declarer
        partner = next((s for s, side in enumerate(teams) if side == 0 and s != declarer), None)
        if partner is not None:
            side = lang.text("side_pair", seat=names[declarer], partner=names[partner])
        elif None not in teams:
            side = lang.text("side_alone", seat=names[declarer])
        else:
            side = names[declarer]  # the called card was never played: the partner is unknown
        key = "contract_made" if result.made else "contract_failed"
        self.screen.say(lang.text(key, number=number, side=side, points=result.points[0],
                                  target=contract.target))
        self.screen.say(lang.text("game_points_seats",
                                  list=self.seat_list(result.game_points, signed=True)))
        self.screen.say(lang.text("match_score_seats", target=self.rules.match_target,
                                  list=self.seat_list(self.match.score)))

    def announce_winner(self) -> None:
        lang = self.lang
        winner = self.match.winner
        score = self.match.score
        if winner is None:
            return
        if self.rules.scores_per_seat:
            # A bidding table: the match is won by a player.
            if winner == self.solo:
                self.screen.say(lang.text("match_won_you", score=score[winner]))
            else:
                self.screen.say(lang.text("match_player_won", seat=self.names()[winner],
                                          score=score[winner]))
            return
        if self.solo is None:
            # Hot-seat or a table of bots: name the winning side by its seats.
            team = lang.text("us") if winner == 0 else lang.text("them")
            seats = "+".join(str(s) for s in range(self.rules.players)
                             if self.rules.teams[s] == winner)
            text = lang.text("match_team_won", team=f"{team} ({seats})",
                             score=f"{score[0]}–{score[1]}")
        else:
            us = self.rules.teams[self.solo]
            key = "match_won" if winner == us else "match_lost"
            text = lang.text(key, us=score[us], them=score[1 - us])
        self.screen.say(text)
        # Score-sheet lore (RULES.md section 5), for the traditional match to 4 games.
        if self.rules.scoring == "games" and self.rules.match_target == 4 and score[winner] >= 4:
            final = f"{score[winner]}–{score[1 - winner]}"
            if score[1 - winner] == 0:
                self.screen.say(lang.text("gato", score=final))
            elif score[1 - winner] == 1:
                self.screen.say(lang.text("chapeu", score=final))
