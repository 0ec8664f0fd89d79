"""The people at the screen: whatever the referee asks one of them, put to them as a prompt.

:class:`HumanPlayer` answers one :data:`~sueca.actions.Request` at a time — a card, a bid, the call,
the redeal question — as the referee computed it from the seat's information state
(:meth:`~sueca.infostate.InformationState.request`): it draws the seat's view, reads lines until
one makes an action the referee takes (:meth:`Referee.submit`), and answers help, quitting and,
at a ``renuncia`` table, the cry of *renúncia* in between. At hot-seat the screen is hidden and
passed before anything of a person's is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

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
from sueca.arena.play import hash_seed
from sueca.bots import STRONGEST, Bot, make_bot
from sueca.cards import Card, CardParseError, parse_card
from sueca.infostate import InformationState
from sueca.referee import Referee
from sueca.rules import Rules
from sueca.state import IllegalMoveError, State
from sueca.terminal.i18n import Language
from sueca.terminal.input import (
    ChoiceError,
    InputEnded,
    Quit,
    echoed,
    is_quit,
    parse_bid,
    parse_choice,
    parse_denounce,
    parse_redeal,
    refusal,
)
from sueca.terminal.setup import Setup
from sueca.terminal.view import Screen, TableView, Views, numbered


@dataclass
class HumanPlayer:
    """The person at the screen, or at hot-seat the persons sharing it: the referee's ``None``
    seats. One class answers every request, whatever the phase asks."""

    setup: Setup
    screen: Screen
    views: Views
    referee: Referee
    hint_bots: dict[int, Bot] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        return self.setup.rules

    @property
    def lang(self) -> Language:
        return self.setup.lang

    @property
    def state(self) -> State:
        state = self.referee.state
        assert state is not None, "no deal is in play"
        return state

    def answer(self, controller: int, request: Request) -> None:
        """The person at ``controller`` (the dummy's partner for the dummy) answers
        ``request``; it returns once the referee has taken the answer (or a proven
        denunciation has ended the deal). :class:`Quit`, :class:`InputEnded` stop the match."""
        if isinstance(request, AskCard):
            self.card(controller, request)
        elif isinstance(request, AskBid):
            self.bid(controller, request)
        elif isinstance(request, AskCall):
            self.call(controller, request)
        else:
            self.redeal(controller, request)

    def submit(self, seat: int, action: Action) -> None:
        self.referee.submit(seat, action)

    # ---- the screen ------------------------------------------------------------------------

    def face(self, controller: int) -> None:
        """Hot-seat: before anything of ``controller``'s is shown (his hand, to bid, call or
        play), hide the table and wait until the screen has been passed to him."""
        views = self.views
        if self.setup.hotseat and views.facing != controller:
            views.facing = None
            self.screen.hide()
            self.screen.show(views.between_turns(self.state, bottom=controller))
            if self.screen.ask(self.lang.text("pass_to", seat=views.names[controller])) is None:
                raise InputEnded
        views.facing = controller

    def converse(self, make_view: Callable[[str | None], TableView], prompt: str, help_key: str,
                 act: Callable[[str], str | None], crier: int | None = None) -> None:
        """Draw the viewer's table and read lines until ``act`` takes one (it returns
        ``None``); its refusal, help (``?``) and quitting (``q``) are answered in between,
        and change nothing. At a ``renuncia`` table ``crier`` (the person asked) may cry
        *renúncia* here, for himself only: a proven cry ends the deal, and the question with
        it."""
        lang = self.lang
        message: str | None = None
        crying = crier is not None and self.rules.renuncia
        while True:
            self.screen.show(make_view(message))
            line = self.screen.ask(prompt)
            if line is None:
                raise InputEnded
            command = line.strip()
            message = None
            cries, named = parse_denounce(command) if crying else (False, None)
            if command == "?":
                message = lang.text(help_key)
                if crying:
                    message += "\n" + lang.text("help_renuncia")
            elif is_quit(command):
                self.confirm_quit()
                message = lang.text("not_quitting")
            elif cries and crier is not None:
                # At a person's own prompt r cries for that person only: at a shared screen,
                # "r N" here would let him cry (wrongly, at a cost to N's side) in another's
                # name. Another person cries at his own prompt, or at the deal's end.
                if named is not None and named != crier:
                    message = self.not_yours(crier, named)
                else:
                    message = self.cry(crier)
                if self.referee.deal_over:
                    return
            elif command:
                message = act(command)
                if message is None:
                    return

    def confirm_quit(self) -> None:
        answer = self.screen.ask(self.lang.text("confirm_quit"))
        if answer is None:
            raise InputEnded
        if answer.strip().lower()[:1] in ("y", "s"):
            raise Quit

    # ---- renúncia --------------------------------------------------------------------------

    def cry(self, seat: int) -> str | None:
        """``seat`` (a person) cries *renúncia*: the narrator tells everybody its outcome;
        a refusal is returned, phrased for the player."""
        lang = self.lang
        if seat not in self.setup.humans:
            return lang.text("renuncia_no_seat", seat=seat + 1)
        try:
            self.submit(seat, Denounce())
        except IllegalMoveError as error:
            if self.referee.match.is_over:
                reason = lang.text("renuncia_match_over")
            elif not self.state.plays:
                reason = lang.text("renuncia_too_early")
            else:
                reason = str(error)
            return lang.text("no_denouncing", reason=reason)
        return None

    def not_yours(self, crier: int, named: int) -> str:
        """The refusal of ``r N`` at ``crier``'s own prompt for another seat ``named``."""
        if named not in self.setup.humans:
            return self.lang.text("renuncia_no_seat", seat=named + 1)
        names = self.views.names
        return self.lang.text("renuncia_own_prompt", seat=names[crier], other=names[named])

    def deal_over(self, waiting: bool) -> None:
        """A deal has just been played out. At a ``renuncia`` table a person may still cry
        *renúncia* until the next deal starts: they are asked (Enter plays on). Elsewhere,
        with ``waiting`` (a person at a terminal, the match not over), Enter goes on."""
        lang = self.lang
        if self.rules.renuncia and self.may_cry():
            while self.may_cry():
                line = self.screen.ask(lang.text("prompt_renuncia"))
                if line is None:
                    raise InputEnded
                command = line.strip()
                cries, named = parse_denounce(command)
                notice = None
                if command == "?":
                    notice = lang.text("help_renuncia")
                elif is_quit(command):
                    self.confirm_quit()
                    notice = lang.text("not_quitting")
                elif cries:
                    notice = self.cry(named if named is not None else self.crier())
                else:
                    return
                if notice is not None:
                    # Said, then drawn: the Rich screen shows what was said when it redraws.
                    self.screen.say(notice)
                    self.screen.show(self.views.between_turns(self.state))
            return
        if waiting and self.screen.ask(lang.text("continue")) is None:
            raise InputEnded

    def may_cry(self) -> bool:
        """Whether a person at the table may still cry *renúncia* on the deal in play: the
        referee's word (never once the match is won: its result stands)."""
        return any(self.referee.may_denounce(s) for s in self.setup.humans)

    def crier(self) -> int:
        """Who cries at a prompt nobody's own: the person at the screen, else the first."""
        facing = self.views.facing
        return facing if facing is not None else self.setup.humans[0]

    # ---- the questions ---------------------------------------------------------------------

    def card(self, controller: int, request: AskCard) -> None:
        """A card from the seat's hand (the dummy's, for its partner): its number among the
        legal cards, or its name (at a ``renuncia`` table any card held: a revoke is played
        as any card is, and nothing says so)."""
        lang = self.lang
        self.face(controller)
        seat = request.seat
        info = self.state.information_state(seat)
        hint = self.hint(seat, info) if self.setup.hints else None
        acting_name = None if seat == controller else self.views.names[seat]
        if seat != controller:
            prompt = lang.text("prompt_dummy")
        elif self.setup.hotseat:
            prompt = lang.text("prompt_seat", seat=self.views.names[seat])
        else:
            prompt = lang.text("prompt")
        choices = numbered(request.legal)

        def act(command: str) -> str | None:
            try:
                card = parse_choice(command, choices, lang, info.hand)
            except ChoiceError as error:
                return str(error)
            try:
                self.submit(controller, Play(card))
            except IllegalMoveError as error:
                return refusal(error, card, info, lang, acting_name)
            return None

        self.converse(lambda message: self.views.view(info, controller, acting=seat, hint=hint,
                                                      message=message, legal=request.legal),
                      prompt, "help", act, crier=controller)

    def redeal(self, controller: int, request: AskRedeal) -> None:
        """The person keeps his hand or, when it is weak enough, asks for a new deal.

        With several persons at one screen every one of them is asked in turn, a hand that
        may only be kept too (he can only keep): were the screen passed only to a weak hand,
        everyone at the screen would see whose hand is weak. A single person among bots has
        nobody watching when he is asked, so a hand that may only be kept is kept for him
        without a question."""
        may_ask = request.may_ask
        if not may_ask and not self.setup.hotseat:
            self.submit(controller, Redeal(False))
            return
        lang = self.lang
        self.face(controller)
        seat = request.seat
        info = self.state.information_state(seat)
        points, limit = request.points, request.limit
        if may_ask:
            key = "prompt_redeal_seat" if self.setup.hotseat else "prompt_redeal"
            if seat != controller:
                key = "prompt_redeal_dummy"
        else:
            key = "prompt_keep_dummy" if seat != controller else "prompt_keep_seat"
        prompt = lang.text(key, points=points, limit=limit, seat=self.views.names[seat])

        def act(command: str) -> str | None:
            ask = parse_redeal(command)
            if ask is None:
                return lang.text("bad_redeal" if may_ask else "bad_keep", text=echoed(command))
            if ask and not may_ask:
                return lang.text("redeal_only_keep", points=points, limit=limit)
            try:
                self.submit(controller, Redeal(ask))
            except IllegalMoveError as error:
                return str(error)
            return None

        self.converse(lambda message: self.views.view(info, controller, acting=seat,
                                                      message=message),
                      prompt, "help_redeal", act)

    def bid(self, controller: int, request: AskBid) -> None:
        """The person's bid: the request's range in the prompt; a bid the referee refuses is
        refused with that range, and the auction waits for another."""
        lang = self.lang
        seat = request.seat
        self.face(seat)
        info = self.state.information_state(seat)
        hint = self.bid_hint(seat, info) if self.setup.hints else None
        low = request.lowest
        bid = max(info.bids, default=0)  # the bid to beat, when nothing but a pass is left
        key = "prompt_bid" if request.may_bid else "prompt_bid_pass"
        if self.setup.hotseat:
            key += "_seat"
        prompt = lang.text(key, low=low, high=request.highest if request.may_bid else bid,
                           seat=self.views.names[seat])

        def act(command: str) -> str | None:
            value = parse_bid(command)
            if value is not None:
                try:
                    self.submit(controller, Bid(value))
                    return None
                except IllegalMoveError:
                    pass
            if not request.may_bid:
                return lang.text("bad_bid_pass", bid=echoed(command), high=bid)
            return lang.text("bad_bid", bid=echoed(command), low=low, high=request.highest)

        self.converse(lambda message: self.views.view(info, seat, acting=seat, bid_hint=hint,
                                                      message=message),
                      prompt, "help_bid", act)

    def call(self, controller: int, request: AskCall) -> None:
        """The declarer names his card: its suit is trump, its holder his secret partner."""
        lang = self.lang
        seat = request.seat
        self.face(seat)
        info = self.state.information_state(seat)
        hint = self.call_hint(seat, info) if self.setup.hints else None
        prompt = lang.text("prompt_call_seat" if self.setup.hotseat else "prompt_call",
                           seat=self.views.names[seat])

        def act(command: str) -> str | None:
            try:
                self.submit(controller, Call(parse_card(command)))
            except CardParseError:
                return lang.text("bad_call", text=echoed(command))
            except IllegalMoveError as error:
                return str(error)
            return None

        self.converse(lambda message: self.views.view(info, seat, acting=seat, hint=hint,
                                                      message=message),
                      prompt, "help_call", act)

    # ---- hints ----------------------------------------------------------------------------

    def hint_bot(self, seat: int) -> Bot:
        """The hint giver of ``seat``: the strongest bot, playing from that seat."""
        if seat not in self.hint_bots:
            bot = make_bot(STRONGEST, seed=hash_seed(self.setup.seed, "hint", seat))
            bot.new_match(self.rules, seat)
            self.hint_bots[seat] = bot
        return self.hint_bots[seat]

    def hint(self, seat: int, info: InformationState) -> tuple[Card, str]:
        """The hint bot's card for ``seat``, from that seat's information, and why in plain
        words (the review's facts: :func:`sueca.terminal.review.hint_reason`)."""
        from sueca.terminal.review import hint_reason

        bot = self.hint_bot(seat)
        card = bot.choose(info)
        return card, hint_reason(self.lang, info, card, bot)

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

    def close(self) -> None:
        for bot in self.hint_bots.values():
            bot.close()
