"""The terminal table: a match between people and bots, driven by the referee.

A :class:`Table` seats a :class:`~sueca.referee.Referee` (a bot for each bot seat, ``None``
for each person), and plays the match: whatever the referee asks a bot is decided through
:meth:`Referee.play_for`, whatever it asks a person goes to the
:class:`~sueca.terminal.player.HumanPlayer` at the screen, who submits the answer. Nothing here
moves the deal or works out what a seat may do: the referee holds the full
:class:`~sueca.state.State`, each seat is asked its information state's request, and every
picture is built from an information state (:mod:`sueca.terminal.view`).

Two listeners hear the referee: the :class:`~sueca.terminal.narrator.TableNarrator`, which says
what happened, and the record keeper, which saves the match as a RECORD.md record after every
move (the deal in progress included), with the fields ``seed`` and ``seats`` added, so
``sueca play --resume`` (:func:`~sueca.terminal.setup.load_setup`,
:func:`~sueca.terminal.setup.restore`) continues where the match stopped.
"""

from __future__ import annotations

import enum
import os
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from sueca.actions import AskBid, AskCall, AskCard, AskRedeal, Request
from sueca.arena.play import hash_seed
from sueca.bots import Bot, make_bot
from sueca.deal import Deal, deal_cards
from sueca.match import Match
from sueca.record import GameRecord, dumps
from sueca.referee import Event, EventKind, Referee
from sueca.rules import Rules
from sueca.state import State
from sueca.terminal.i18n import Language
from sueca.terminal.input import InputEnded, Quit
from sueca.terminal.narrator import TableNarrator
from sueca.terminal.player import HumanPlayer
from sueca.terminal.setup import HUMAN, Setup, SetupError, restore
from sueca.terminal.view import Screen, Views

# What a bot decides, for its reseeding: each kind of question has its own seed sequence.
_DECISION = {AskCard: "card", AskBid: "bid", AskCall: "call", AskRedeal: "redeal"}


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


@dataclass
class Table:
    """A match at the terminal table. :meth:`run` plays it to the end or until the player
    quits; the record is saved after every move."""

    setup: Setup
    screen: Screen
    record: GameRecord | None = None  # a saved match to resume
    match: Match = field(init=False)
    states: list[State] = field(init=False)  # every deal dealt, the annulled ones too
    referee: Referee = field(init=False)
    views: Views = field(init=False)
    narrator: TableNarrator = field(init=False)
    people: HumanPlayer = field(init=False)

    def __post_init__(self) -> None:
        setup = self.setup
        rules = setup.rules
        if self.record is None:
            first = random.Random(f"{setup.seed}:first_dealer").randrange(rules.players)
            self.match = Match(rules, first_dealer=first)
            self.states = []
        else:
            self.match, self.states = restore(setup, self.record)
        seats: list[Bot | None] = []
        for seat in range(rules.players):
            kind = setup.controller_kind(seat)
            try:
                seats.append(None if kind == HUMAN else
                             make_bot(kind, seed=hash_seed(setup.seed, "seat", seat)))
            except ValueError as error:
                raise SetupError(str(error)) from None
        # A bot's bug must not end a person's match: the referee is not strict, and plays
        # the plain answer instead (sueca.bots.base.decide), logging it.
        self.referee = Referee(self.match, seats, deal_source=self.next_deal, where="terminal")
        if self.states:
            self.referee.resume(self.states[-1])
        else:
            self.referee.start()
        self.views = Views(setup, self.match)
        self.narrator = TableNarrator(self.views, self.screen, self.referee)
        self.people = HumanPlayer(setup, self.screen, self.views, self.referee)
        self.referee.listen(self.keep_record)
        self.referee.listen(self.narrator)

    # ---- names ---------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.setup.rules

    @property
    def lang(self) -> Language:
        return self.setup.lang

    def names(self) -> tuple[str, ...]:
        return self.setup.names()

    # ---- saving --------------------------------------------------------------------------

    def to_record(self) -> GameRecord:
        return GameRecord.from_states(
            self.rules, self.match.first_dealer, self.states,
            seed=self.setup.seed, seats=list(self.setup.seats),
        )

    def keep_record(self, event: Event) -> None:
        """The referee's listener that keeps the record: each deal as it is dealt, and the
        file saved after every move and every deal's end (a taken trick adds nothing)."""
        if event.kind == EventKind.DEALT:
            self.states.append(event.state)
        if event.kind != EventKind.TRICK_TAKEN:
            self.save()

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

    # ---- the match -----------------------------------------------------------------------

    def next_deal(self, match: Match) -> Deal:
        """Each deal is drawn from the seed and the deal's number (and, after a redeal on a
        weak hand, how many deals were annulled), so a resumed match deals what the unbroken
        one would have. Two decks: deal.number_copies numbers the copies from the faces
        alone, so the resumed match holds the very card ids of the unbroken one."""
        key = f"{self.setup.seed}:deal:{len(match.results)}"
        if match.annulled:  # weak_hand_redeal: the same dealer deals a fresh deal
            key += f":redeal:{len(match.annulled)}"
        return deal_cards(match.rules, match.dealer, random.Random(key))

    def run(self) -> TableResult:
        try:
            return self._run()
        finally:
            self.referee.close()
            self.people.close()
            self.screen.close()

    def _run(self) -> TableResult:
        self.views.facing = self.setup.solo
        try:
            if self.record is not None:
                self.screen.say(self.lang.text("resumed", path=self.setup.path))
            self.play()
        except Quit:
            return self.stop(Outcome.QUIT)
        except InputEnded:
            return self.stop(Outcome.INPUT_ENDED)
        except KeyboardInterrupt:
            return self.stop(Outcome.QUIT)
        self.save()
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

    def play(self) -> None:
        """Deal after deal, each move by whoever the referee asks: a bot, or a person at the
        screen; after each deal played out, the people may go on (or cry renúncia)."""
        referee = self.referee
        while True:
            if referee.deal_over:
                if self.match.is_over:
                    return
                referee.deal()
            asked = referee.asked()
            state = referee.state
            assert asked is not None and state is not None, "a deal in play asks a seat"
            controller, request = asked
            bot = referee.decider(request.seat)
            if bot is not None:
                self.reseed(bot, state, request)
                referee.play_for(controller, bot)
            else:
                if isinstance(request, AskRedeal):
                    self.narrator.redeal_questions[request.seat] = request
                self.people.answer(controller, request)
            if state.is_finished() and state.redeal_by is None:
                waiting = (self.screen.interactive and bool(self.setup.humans)
                           and not self.match.is_over)
                self.people.deal_over(waiting)

    def reseed(self, bot: Bot, state: State, request: Request) -> None:
        """Reseed a bot before each decision: its choice then depends only on what it sees and
        the match seed, so a resumed match plays on exactly as the unbroken one would have."""
        decision = _DECISION[type(request)]
        if decision == "card":
            step = len(state.plays)
        elif decision == "redeal":
            step = len(state.redeal_answers)
        else:
            step = len(state.bids)
        parts: tuple[object, ...] = (self.setup.seed, len(self.match.deals), step)
        bot.rng.seed(hash_seed(*parts) if decision == "card" else hash_seed(*parts, decision))
