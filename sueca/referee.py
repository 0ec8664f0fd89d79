"""The referee: one loop that drives every table, whoever sits at it.

A :class:`Referee` holds a :class:`~sueca.match.Match` and the deal in play, and knows what
each seat is: a :class:`~sueca.bots.Bot` it asks itself, or a person (``None``) whose actions a
front-end submits. It is the one authoritative path for a move (boardgame.io's): it says who
is asked what (:meth:`Referee.asked`, from that seat's
:meth:`~sueca.infostate.InformationState.request`), takes an action (:meth:`Referee.submit`),
finishes or annuls the deal and scores it, calls every bot's hooks at the same moments at every
table, and tells its listeners what happened as :class:`Event` values. Listeners turn events
into screens, socket views, protocol lines, stored rows and records; whatever they show of the
cards they read through an information state, so nothing hidden leaks through an event.

The arena, ``sueca watch``, the terminal, the web server and records' replay all drive a
referee; the server's asynchronous room only awaits people and bots, then submits.

>>> import random
>>> from sueca.bots import make_bot
>>> from sueca.match import Match
>>> from sueca.rules import STANDARD
>>> referee = Referee(Match(STANDARD, first_dealer=0), [make_bot("random", seed=s)
...                   for s in range(4)], rng=random.Random(1))
>>> referee.run()
>>> referee.match.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from sueca.actions import Action, Bid, Call, Denounce, Play, Redeal, Request
from sueca.bots.base import Bot, decide
from sueca.deal import Deal
from sueca.match import Match
from sueca.rules import Rules
from sueca.scoring import HandResult
from sueca.state import REASON_DENOUNCE, IllegalMoveError, State

REASON_SEAT = "not_your_seat"


class EventKind(StrEnum):
    DEALT = "dealt"
    BID = "bid"
    CALLED = "called"
    ANSWERED = "answered"  # a redeal answer
    PLAYED = "played"
    TRICK_TAKEN = "trick_taken"
    DENOUNCED = "denounced"
    DEAL_ENDED = "deal_ended"
    DEAL_ANNULLED = "deal_annulled"
    MATCH_ENDED = "match_ended"


_KIND_OF = {Play: EventKind.PLAYED, Bid: EventKind.BID, Call: EventKind.CALLED,
            Redeal: EventKind.ANSWERED, Denounce: EventKind.DENOUNCED}


@dataclass(frozen=True)
class Event:
    """Something that happened at the table. ``seat`` made ``action`` (the rules' seat: the
    dummy's own for its cards); ``state`` and ``match`` are the referee's, as they stand after
    it. A listener shows a seat only what that seat's information state holds."""

    kind: EventKind
    state: State
    match: Match
    seat: int | None = None
    action: Action | None = None
    result: HandResult | None = None  # deal_ended: the deal's score


Listener = Callable[[Event], None]


class RefereeError(IllegalMoveError):
    """An action the referee refuses before the rules see it (a seat acting for another)."""


@dataclass
class Referee:
    """Drives one match. ``seats`` has an entry per seat: a bot the referee asks, or ``None``
    for a person (a dummy with ``None`` is played by its partner, bot or person). ``strict``
    (the arena): a bot's illegal answer raises :class:`~sueca.bots.base.BotError`; otherwise
    the plain answer is used and the fault logged (:func:`~sueca.bots.base.decide`).
    ``deal_source`` makes each deal (default: shuffled from ``rng``)."""

    match: Match
    seats: Sequence[Bot | None]
    rng: random.Random = field(default_factory=random.Random)
    listeners: list[Listener] = field(default_factory=list)
    strict: bool = False
    deal_source: Callable[[Match], Deal] | None = None
    where: str = "table"
    seated: bool = False  # the bots were told of the match already (:meth:`Bot.new_match`)
    state: State | None = None

    def __post_init__(self) -> None:
        if len(self.seats) != self.match.rules.players:
            raise ValueError(f"{len(self.seats)} seats for {self.match.rules.players} players")
        # A bot that follows the table's events (one with a ``hear(event)`` method: the bot
        # protocol's ExternalBot, whose program must hear of a denunciation made after it was
        # told the deal's end) listens as any listener does, once however many seats it has.
        for bot in dict.fromkeys(b for b in self.seats if b is not None):
            hear = getattr(bot, "hear", None)
            if callable(hear):
                self.listeners.append(hear)

    # ---- the match -----------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.match.rules

    def start(self) -> None:
        """Tell every bot the match starts, once (:meth:`Bot.new_match`)."""
        if self.seated:
            return
        self.seated = True
        for seat, bot in enumerate(self.seats):
            if bot is not None:
                bot.new_match(self.rules, seat)

    def deal(self, deal: Deal | None = None) -> State:
        """Deal the next hand (``deal``, else from ``deal_source`` or ``rng``) and tell the
        listeners."""
        self.start()
        if deal is None and self.deal_source is not None:
            deal = self.deal_source(self.match)
        state = self.match.new_deal(self.rng) if deal is None else self.match.start_deal(deal)
        self.state = state
        self._emit(Event(EventKind.DEALT, state, self.match))
        return state

    def resume(self, state: State) -> None:
        """Take up a deal already in progress (restored from storage or a record)."""
        self.start()
        self.state = state

    @property
    def deal_over(self) -> bool:
        """Whether the deal in play is over (finished, or annulled): the next one may be
        dealt. True before the first deal."""
        state = self.state
        return state is None or state.is_finished() or state.redeal_by is not None

    # ---- who is asked what ---------------------------------------------------------------

    def asked(self) -> tuple[int, Request] | None:
        """The seat that decides now and what it is asked: the controller's seat (a dummy's
        partner for its cards and questions) and the request, computed from the information
        state of the seat the rules ask. ``None`` between deals."""
        state = self.state
        if state is None or state.is_finished() or state.redeal_by is not None:
            return None
        seat = state.to_play
        request = state.information_state(seat).request()
        if request is None:
            return None
        return self.rules.controller_of(seat), request

    def decider(self, seat: int) -> Bot | None:
        """The bot that decides for ``seat`` (the rules' seat), or ``None`` for a person: a
        dummy's own bot where one is seated, else its partner's."""
        bot = self.seats[seat]
        if bot is None and seat == self.rules.dummy:
            bot = self.seats[self.rules.controller_of(seat)]
        return bot

    def may_denounce(self, seat: int) -> bool:
        """Whether ``seat`` may cry *renúncia!* now: what the front-ends offer. The state's
        rule (``renuncia``, a card played, no revoke proven yet), until the next deal starts,
        and never once the match is won."""
        state = self.state
        return state is not None and not self.match.is_over and state.may_denounce(seat)

    # ---- moves ---------------------------------------------------------------------------

    def submit(self, seat: int, action: Action) -> None:
        """``seat`` (the person's or bot's own seat: a dummy's partner for its cards) makes
        ``action``. Refused with :class:`~sueca.state.IllegalMoveError` (nothing changes);
        accepted, the listeners hear of it, and of the trick, deal and match it ends."""
        state = self.state
        if state is None:
            raise IllegalMoveError("no deal is in play", "not_playing")
        if type(action) is Denounce:
            acting = seat
            if self.match.is_over and state.may_denounce(seat):
                # "Until the next deal starts": a won match has no next deal, and its result,
                # once announced, stands. (Where the deal's own rule refuses the cry, its
                # reason is the one given.)
                raise RefereeError("no denunciation now: the match is over", REASON_DENOUNCE)
        else:
            acting = state.to_play
            if self.rules.controller_of(acting) != seat:
                raise RefereeError(f"it is seat {self.rules.controller_of(acting)}'s turn, "
                                   f"not seat {seat}'s", "not_your_turn")
        tricks = state.trick_number
        finished = state.is_finished()
        state.apply(acting, action)
        self._emit(Event(_KIND_OF[type(action)], state, self.match, acting, action))
        if state.trick_number > tricks:
            self._emit(Event(EventKind.TRICK_TAKEN, state, self.match, state.trick_winners[-1]))
        if state.redeal_by is not None:
            self._annul(state)
        elif finished and type(action) is Denounce:
            self._end(state, rescore=True)  # the deal just over, denounced before the next
        elif state.is_finished():
            self._end(state)
        elif type(action) is Play and self._offer_denunciations(state):
            self._end(state)  # a bot proved a revoke: the deal ends here

    def _annul(self, state: State) -> None:
        self.match.annul_deal(state)
        for seat, bot in enumerate(self.seats):
            if bot is not None:
                bot.deal_annulled(state.information_state(seat))
        self._emit(Event(EventKind.DEAL_ANNULLED, state, self.match, state.redeal_by))

    def _end(self, state: State, rescore: bool = False) -> None:
        """Score the deal just ended (its last card, or a proven revoke) and tell everyone;
        ``rescore``: a denunciation after its last card, before the next deal, scores the
        deal again. Before the first scoring, the bots hear the deal is over and may still
        denounce it (a revoke in the last trick)."""
        if not rescore:
            played_out = len(state.trick_winners) == state.tricks_total
            for seat, bot in enumerate(self.seats):
                # Most bots do not listen: skip building their information states.
                if bot is not None and type(bot).deal_over is not Bot.deal_over:
                    info = state.information_state(seat)
                    # Every hand is public once every card is down; a deal a proven revoke
                    # ended shows each seat only what it saw (the cards played, its own).
                    hands = (state.deal.hands if played_out
                             else tuple(info.hands_as_dealt(info.known)))
                    bot.deal_over(info, hands)
            self._offer_denunciations(state)
        result = (self.match.rescore_last(state) if rescore
                  else self.match.finish_deal(state))
        self._emit(Event(EventKind.DEAL_ENDED, state, self.match, result=result))
        if self.match.is_over:
            self._emit(Event(EventKind.MATCH_ENDED, state, self.match))

    # ---- bots ----------------------------------------------------------------------------

    def step(self) -> bool:
        """Let a bot make the move it is asked for (a bot deciding for the seat asked);
        ``False`` when a person is asked, or nothing is."""
        asked = self.asked()
        if asked is None:
            return False
        state = self.state
        assert state is not None
        seat = state.to_play
        bot = self.decider(seat)
        if bot is None:
            return False
        self.play_for(asked[0], bot)
        return True

    def play_for(self, seat: int, bot: Bot) -> Action:
        """``bot`` decides what ``seat`` (a person's seat, or a bot's) is asked and it is
        submitted: a bot's own move, or a stand-in's for a person who is away. One policy for
        an illegal answer (:func:`~sueca.bots.base.decide`)."""
        state = self.state
        assert state is not None
        info = state.information_state(state.to_play)
        action = decide(bot, info, strict=self.strict, where=self.where)
        self.submit(seat, action)
        return action

    def _offer_denunciations(self, state: State) -> bool:
        """At a ``renuncia`` table, every bot that can prove a revoke by the other side
        denounces it (:meth:`Bot.denounce`), in seat order, until one ends the deal; whether
        one did (the caller scores it)."""
        if not self.rules.renuncia:
            return False
        for seat, bot in enumerate(self.seats):
            if bot is None or not self.may_denounce(seat):
                continue
            if bot.denounce(state.information_state(seat)):
                state.apply(seat, Denounce())
                self._emit(Event(EventKind.DENOUNCED, state, self.match, seat, Denounce()))
                if state.proven is not None:
                    return True
        return False

    def run(self) -> None:
        """Play on while bots are asked: to the end of the match when every seat is a bot,
        else until a person is asked."""
        while True:
            if self.deal_over:
                if self.match.is_over:
                    return
                self.deal()
            if not self.step():
                if self.deal_over and not self.match.is_over:
                    continue
                return

    def play_deal(self, deal: Deal | None = None) -> State:
        """Deal (``deal``, or the next) and let the bots play it to its end or its annulment."""
        state = self.deal(deal)
        while self.step():
            pass
        return state

    def close(self) -> None:
        """Release every bot (:meth:`Bot.close`)."""
        for bot in self.seats:
            if bot is not None:
                bot.close()

    # ---- listeners -----------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def _emit(self, event: Event) -> None:
        for listener in self.listeners:
            listener(event)


__all__ = ["Event", "EventKind", "Listener", "Referee", "RefereeError"]
