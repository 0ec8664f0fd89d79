"""The one interface every player program implements: the CLI, the arena, the bot protocol and
the web server all seat a :class:`Bot` and hand it only an information state."""

from __future__ import annotations

import logging
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sueca.actions import (
    Action,
    AskBid,
    AskCall,
    AskCard,
    AskRedeal,
    Bid,
    Call,
    Play,
    Redeal,
    Request,
)
from sueca.auction import PASS, bid_error, call_error
from sueca.cards import CARDS_PER_SUIT, SUITS, Card, CardMask, card_rank, card_suit, make_card
from sueca.infostate import InformationState
from sueca.rules import Rules
from sueca.scoring import score_hand

log = logging.getLogger("sueca.bots")


def playable(info: InformationState) -> tuple[Card, ...]:
    """The cards a bot may choose from; a clear error when it is not this seat's turn (every
    bot asks here, so none fails with an index error on an empty hand)."""
    legal = info.legal_moves()
    if not legal:
        raise ValueError(f"seat {info.seat} has no card to play now")
    return legal


def beats(card: Card, best: Card, trump: int) -> bool:
    """Whether ``card``, played to a trick that ``best`` is winning, takes the lead: a higher
    card of its suit, or a trump on a card of another suit (of two copies of one card the first
    played holds)."""
    if card_suit(card) == card_suit(best):
        return card_rank(card) > card_rank(best)
    return card_suit(card) == trump


def winning_index(cards: Sequence[Card], trump: int) -> int:
    """The position of the card winning a trick, its cards in play order (the lead first)."""
    best = 0
    for index in range(1, len(cards)):
        if beats(cards[index], cards[best], trump):
            best = index
    return best


def sides(info: InformationState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats this seat counts as partners and as opponents, from what it may know.

    At a team table every side is known. At a bidding table the declarer's partner is secret
    until the called card is played, but the play often gives him away: a seat that has shown
    a void in the called card's suit cannot hold it, so it defends; when one seat alone may
    hold it, that seat is the partner. A seat whose side stays in doubt is counted as an
    opponent (points are never fed to it, and its ruffs are feared)."""
    partners = set(info.partners())
    opponents = set(info.opponents())
    contract = info.contract
    me = info.seat
    unknown = [s for s in range(info.rules.players)
               if s != me and s not in partners and s not in opponents]
    if unknown and contract is not None and info.teams and info.teams[me] is not None:
        suit = card_suit(contract.called_card)
        declarer = contract.declarer
        # The seats that may still hold the called card (the declarer himself, playing
        # alone, unless he has shown the suit void).
        holders = [s for s in unknown if not info.is_void(s, suit)]
        declarer_may = me != declarer and not info.is_void(declarer, suit)
        mine = info.teams[me]
        for seat in unknown:
            if seat not in holders or (not declarer_may and holders == [seat]):
                # Cannot hold it: a defender. The one possible holder: the partner.
                side = 1 if seat not in holders else 0
                (partners if side == mine else opponents).add(seat)
    return tuple(sorted(partners)), tuple(sorted(opponents | (set(unknown) - partners)))


@dataclass(frozen=True)
class BotOption:
    """One option of a bot spec (``pimc:worlds=16``): its names (the first is the one listed
    and the key of :func:`parse_options`'s answer, the others aliases), its type, and its
    least value; with ``above`` the value must be greater than ``least``, not equal to it."""

    names: tuple[str, ...]
    kind: type[int] | type[float]
    least: float
    above: bool = False

    def parse(self, text: str) -> int | float | None:
        """The value ``text`` gives, or ``None`` when it is not one this option takes."""
        try:
            value = self.kind(text)
        except ValueError:
            return None
        # Written so that NaN, which compares false with everything, is refused too.
        return value if (value > self.least if self.above else value >= self.least) else None

    def wanted(self) -> str:
        number = "a whole number" if self.kind is int else "a number"
        return f"{number} {'above' if self.above else 'of at least'} {self.least:g}"


def parse_options(bot: str, options: Mapping[str, str], known: Sequence[BotOption]
                  ) -> dict[str, int | float]:
    """The values of a bot spec's options (``{"worlds": "16"}``), each under its option's
    first name. An unknown option, or a value of the wrong type or out of bounds, raises
    ``ValueError`` naming the bot, the option and the value; since nothing is returned in
    part, a bot that sets its options from the answer is left as it was."""
    by_name = {name: option for option in known for name in option.names}
    values: dict[str, int | float] = {}
    for key, text in options.items():
        option = by_name.get(key)
        if option is None:
            listed = ", ".join(o.names[0] for o in known)
            raise ValueError(f"{bot} has no option {key!r} (options: {listed})")
        value = option.parse(text)
        if value is None:
            raise ValueError(f"{bot} option {key}={text!r} is not a valid value "
                             f"({option.wanted()})")
        values[option.names[0]] = value
    return values


class Bot(ABC):
    """A player of one seat. Deterministic given its seed."""

    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        # Seconds the next moves may take, as the front-end tells them (the protocol's
        # ``time_ms``, a table's budget): a hard ceiling for the searching bots; None, their
        # own budget.
        self.time_budget: float | None = None
        # The match score per team and the games a tie carried over, before the deal in play,
        # as this seat follows them (:meth:`follow_deal`) or a front-end tells them
        # (:meth:`set_match_score`): what a bot playing for the match plays for.
        self.match_score: tuple[int, ...] = ()  # (): unknown, the start of a match
        self.match_carry = 0

    def set_time_budget(self, seconds: float | None) -> None:
        """The time each move may take from now on, told by the front-end (``None``: the
        bot's own budget). A searching bot stops in time, whatever its other budgets say."""
        if seconds is not None and not seconds > 0:
            raise ValueError(f"a move's time budget must be above 0 seconds, not {seconds!r}")
        self.time_budget = seconds

    def set_match_score(self, score: Sequence[int], carry: int = 0) -> None:
        """The match score per team before the deal in play, and the games a tie carried
        over: told by a front-end that takes a match up in the middle (a restored table)."""
        if any(type(s) is not int for s in score) or type(carry) is not int or carry < 0:
            raise ValueError(f"a match score is whole numbers, not {score!r} (carry {carry!r})")
        self.match_score = tuple(score)
        self.match_carry = carry

    def follow_deal(self, info: InformationState) -> None:
        """Move the match score this bot follows on by the deal ``info`` ended (its seat's
        last information state, every trick counted): what :meth:`deal_over` of a bot that
        plays for the match calls. A deal decided by a denunciation is scored as its cards
        fell (the rare case; the next deal's score is told again where a front-end knows)."""
        rules = info.rules
        if rules.scores_per_seat or not info.teams or None in info.teams:
            return
        teams = [t for t in info.teams if t is not None]
        sides = max(teams) + 1
        points = [0] * sides
        for seat, taken in enumerate(info.seat_points):
            points[teams[seat]] += taken
        tricks = [0] * sides
        for winner in info.trick_winners:
            tricks[teams[winner]] += 1
        score = self.match_score or (0,) * sides
        result = score_hand(rules, points, tricks, score, self.match_carry)
        self.match_score = tuple(s + d for s, d in zip(score, result.game_points, strict=True))
        self.match_carry = result.carry

    def new_match(self, rules: Rules, seat: int) -> None:
        """A match starts: the rules and the seat this bot plays (the score it follows starts
        at nothing)."""
        self.match_score = ()
        self.match_carry = 0

    @abstractmethod
    def choose(self, info: InformationState) -> Card:
        """The card to play; ``info`` is this seat's information state, its turn to play."""

    def bid(self, info: InformationState) -> int:
        """At a bidding table, this seat's bid (``info.phase == "bidding"``, its turn): card
        points from 61 to 120, or 0 to pass (see :mod:`sueca.auction`). The plain bot passes."""
        return PASS

    def call(self, info: InformationState) -> Card:
        """As declarer, the card to call: its suit is trump, its holder the partner. The plain
        bot calls the highest card it lacks in its longest suit."""
        hand = info.hand
        suit = max(SUITS, key=lambda s: (sum(hand >> make_card(r, s) & 1
                                             for r in range(CARDS_PER_SUIT)), s))
        for rank in reversed(range(CARDS_PER_SUIT)):
            card = make_card(rank, suit)
            if not hand >> card & 1:
                return card
        return make_card(CARDS_PER_SUIT - 1, suit)  # the whole suit: play alone

    def redeal(self, info: InformationState) -> bool:
        """With ``weak_hand_redeal`` (``info.phase == "redeal"``, this seat's turn): ask for a
        new deal (``True``) or keep the hand (``False``). The plain bot asks whenever its hand
        is weak enough to (:meth:`InformationState.may_ask_redeal`): a hand that weak is worth
        less than a fresh deal, whose expected share of the points is a fair one."""
        return info.may_ask_redeal()

    def denounce(self, info: InformationState) -> bool:
        """At a ``renuncia`` table, whether to cry *renúncia!* now. The plain bot never
        revokes and denounces every revoke by the other side that it can prove from what it
        saw (:meth:`InformationState.provable_revokes`), never a guess."""
        if not info.may_denounce():
            return False
        return bool(set(info.provable_revokes()) & set(info.opponents()))

    def explain(self, info: InformationState) -> tuple[Card, str]:
        """A card and a one-line reason for it (for hints); bots may say more."""
        return self.choose(info), f"{self.name} plays it"

    def deal_annulled(self, info: InformationState) -> None:
        """The deal was annulled before the opening lead: ``info.redeal_by`` asked for a new
        deal (``weak_hand_redeal``), and the same dealer deals again. No hand is shown."""

    def deal_over(self, info: InformationState, hands: tuple[CardMask, ...]) -> None:
        """The deal is over: the seat's last information state and every hand as dealt
        (shown to all once the play ends; where a proven revoke ended the deal before its last
        card, each hand as far as this seat saw it: its cards played, and what it knew).
        Bots that learn across deals listen here."""

    def close(self) -> None:
        """Release what the bot holds (a process, a file)."""


class BotError(RuntimeError):
    """A bot answered with a card, a bid or a call it may not make."""


def decide(bot: Bot, info: InformationState, *, strict: bool = True, where: str = "") -> Action:
    """The bot's move for what ``info``'s seat is asked (:meth:`InformationState.request`):
    its bid, its called card, its redeal answer or its card, checked against that request:
    the one policy for a bot's illegal answer, wherever bots are seated.

    ``strict`` (the arena, where a substitute would falsify what is measured): an illegal answer
    raises :class:`BotError` naming the bot and the reason. Otherwise (a table with people at
    it, which must never stop for a bot's bug): the plain answer is used instead — a pass, the
    plain call, keeping the hand, the first legal card — and the problem is logged with
    ``where``; a bot that raises is treated the same way."""
    request = info.request()
    if request is None:
        raise ValueError(f"seat {info.seat} is asked nothing now ({info.phase})")
    action: Action | None = None
    try:
        if type(request) is AskBid:
            value = bot.bid(info)
            error = bid_error(info.rules, info.bids, value)
            action = Bid(value)
        elif type(request) is AskCall:
            card = bot.call(info)
            error = call_error(info.rules, card)
            action = Call(card)
        elif type(request) is AskRedeal:
            answer = bot.redeal(info)
            error = (None if type(answer) is bool and (request.may_ask or not answer)
                     else f"{answer!r} is not an answer it may give (keep, or ask for a new "
                          "deal with a weak hand)")
            action = Redeal(bool(answer))
        else:
            assert type(request) is AskCard
            card = bot.choose(info)
            error = None if card in request.legal else f"{card!r} is not a legal card"
            action = Play(card)
    except Exception as failure:
        if strict:
            raise
        log.exception("%s: bot %r failed at seat %d", where or "table", bot.name, info.seat)
        error = f"it failed: {failure}"
    if error is None and action is not None:
        return action
    message = f"bot {bot.name!r} at seat {info.seat}: {error}"
    if strict:
        raise BotError(message)
    log.error("%s: %s; a plain %s is played instead", where or "table", message, info.phase)
    return plain_action(bot, info, request)


def plain_action(bot: Bot, info: InformationState, request: Request) -> Action:
    """The stand-in answer to ``request`` when a bot's own is refused, or a program gives
    none: a pass, the plain call (:meth:`Bot.call`'s), keeping the hand, the first legal
    card."""
    if type(request) is AskBid:
        return Bid(PASS)
    if type(request) is AskCall:
        return Call(Bot.call(bot, info))
    if type(request) is AskRedeal:
        return Redeal(False)  # keep: always allowed
    assert type(request) is AskCard
    return Play(request.legal[0])
