"""Saying what happened at the table: referee listeners that turn events into words.

A :class:`Narrator` hears each :class:`~sueca.referee.Event` of a match and tells of it: a deal
dealt, a bid, the contract, a card played, a trick taken, a cry of *renúncia*, a deal's result,
an annulled deal, the match's winner. :class:`TableNarrator` speaks at the terminal table, in
the player's language, to the :class:`~sueca.terminal.view.Screen`, and draws the table between
turns; :class:`WatchNarrator` is ``sueca watch``: a bot match, trick by trick, on a console.

Whatever a narrator says of the cards it reads from the public information state (what every
seat knows): the cards of a trick as the trick is taken, when every seat has just seen them
played. The one private fact it tells, a person's own weak hand when he asks for a new deal, it
repeats from the question he was asked, and to him alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from sueca.actions import AskRedeal, Bid, Phase
from sueca.auction import PASS, bidding_order
from sueca.cards import Card, card_face, card_symbol
from sueca.infostate import InformationState, common_information
from sueca.match import Match
from sueca.referee import Event, Referee
from sueca.rules import Rules
from sueca.scoring import HandResult, renuncia_penalties
from sueca.state import State
from sueca.terminal.i18n import LANGUAGES, Language
from sueca.terminal.view import Screen, Views
from sueca.trick import Trick, trick_points

if TYPE_CHECKING:
    from rich.console import Console

# The human pace: seconds after a bot's card, and after a trick is complete.
BOT_DELAY: Final = 0.9
TRICK_DELAY: Final = 1.6


def public_info(state: State) -> InformationState:
    """What every seat knows of the deal (drawn from seat 0's place): the cards and the sides
    all of them know, and the public facts (every card played, the bids, the contract)."""
    infos = [state.information_state(s) for s in range(state.rules.players)]
    return common_information(infos, 0)


def taken_trick(info: InformationState) -> Trick:
    """The trick just completed, as the table has just seen it played: its leader, its cards in
    play order, its winner and its points (the last trick's bonus included)."""
    rules = info.rules
    n = rules.players
    cards = info.plays[-n:]
    last = len(info.trick_winners) == rules.hand_size
    return Trick(info.played_by()[-n], cards, info.trick_winners[-1],
                 trick_points(rules, cards, last))


class Narrator:
    """A referee listener that tells of each event: the method named after its kind
    (``played``, ``trick_taken``, ``deal_ended`` …) is called; one not written says nothing."""

    def __call__(self, event: Event) -> None:
        telling: Callable[[Event], None] | None = getattr(self, event.kind.value, None)
        if telling is not None:
            telling(event)


# ---- the terminal table ----------------------------------------------------------------------


@dataclass
class TableNarrator(Narrator):
    """What the terminal table says, in the player's language, as the referee plays the match;
    after each move it draws the table as it stands between turns (hidden hands at hot-seat)."""

    views: Views
    screen: Screen
    referee: Referee
    # The redeal question each person was last asked, by seat: its points are said back to him
    # alone when he asks for a new deal (nobody else learns how weak the hand was).
    redeal_questions: dict[int, AskRedeal] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        return self.views.setup.rules

    @property
    def solo(self) -> int | None:
        return self.views.setup.solo

    def say(self, key: str, **values: object) -> None:
        self.screen.say(self.views.setup.lang.text(key, **values))

    def by_bot(self, event: Event) -> bool:
        """Whether a bot made the move (else a person at the screen did)."""
        assert event.seat is not None
        return self.referee.decider(event.seat) is not None

    def after_move(self, event: Event) -> None:
        """Draw the table once a seat has moved: after a bot's move (with a pause after a
        card, unless it completed the trick, which has its own), and at hot-seat after a
        person's, for the screen is passed on next."""
        state = event.state
        setup = self.views.setup
        if self.by_bot(event):
            self.screen.show(self.views.between_turns(state))
            if not setup.fast and state.trick:
                self.screen.pause(BOT_DELAY)
        elif setup.hotseat:
            self.screen.show(self.views.between_turns(state))

    # ---- the events ------------------------------------------------------------------------

    def dealt(self, event: Event) -> None:
        info = public_info(event.state)
        names = self.views.names
        number = len(event.match.deals)
        dealer = names[info.dealer]
        if info.trump_card is None:  # a bidding table: the called card will make the trump
            self.say("deal_start_bidding", number=number, dealer=dealer)
            return
        lang = self.views.setup.lang
        self.say("deal_start", number=number, dealer=dealer, card=lang.card(info.trump_card),
                 suit=lang.suit(info.trump))

    def played(self, event: Event) -> None:
        assert event.seat is not None
        seat = event.seat
        info = public_info(event.state)
        card = info.plays[-1]
        lang = self.views.setup.lang
        names = self.views.names
        controller = self.rules.controller_of(seat)
        shown = lang.card(card)
        if seat != controller:
            if controller == self.solo:
                self.say("plays_dummy_you", card=shown)
            else:
                self.say("plays_dummy", seat=names[controller], card=shown)
        elif seat == self.solo:
            self.say("plays_you", card=shown)
        else:
            self.say("plays", seat=names[seat], card=shown)
        contract = info.contract
        if contract is not None and card_face(card) == card_face(contract.called_card):
            self.partner_shown(contract.declarer, seat, card)
        self.after_move(event)

    def partner_shown(self, declarer: int, holder: int, card: Card) -> None:
        """The called card is played: now everybody knows the sides."""
        names = self.views.names
        if holder == declarer:
            key = "alone_revealed_you" if holder == self.solo else "alone_revealed"
        elif holder == self.solo:
            key = "partner_revealed_you"
        elif declarer == self.solo:
            key = "partner_revealed_yours"
        else:
            key = "partner_revealed"
        self.say(key, card=self.views.setup.lang.card(card), seat=names[holder],
                 declarer=names[declarer])

    def bid(self, event: Event) -> None:
        assert event.seat is not None and isinstance(event.action, Bid)
        seat, value = event.seat, event.action.value
        names = self.views.names
        you = seat == self.solo
        if value == PASS and you:
            self.say("passes_you")
        elif value == PASS:
            self.say("passes", seat=names[seat])
        elif you:
            self.say("bids_you", bid=value)
        else:
            self.say("bids", seat=names[seat], bid=value)
        info = public_info(event.state)
        if info.phase == Phase.CALLING and max(info.bids) == PASS:
            self.say("all_passed", seat=names[info.dealer])
        self.after_move(event)

    def called(self, event: Event) -> None:
        contract = public_info(event.state).contract
        assert contract is not None
        lang = self.views.setup.lang
        key = "contract_you" if contract.declarer == self.solo else "contract"
        self.say(key, seat=self.views.names[contract.declarer], target=contract.target,
                 card=lang.card(contract.called_card), suit=lang.suit(contract.trump))
        self.after_move(event)

    def answered(self, event: Event) -> None:
        # A keep says nothing (an ask annuls the deal, and that is told). A bot's answer needs
        # no picture of its own; at hot-seat the screen passes on after a person's.
        if not self.by_bot(event) and self.views.setup.hotseat:
            self.screen.show(self.views.between_turns(event.state))

    def trick_taken(self, event: Event) -> None:
        info = public_info(event.state)
        trick = taken_trick(info)
        winner = trick.winner if trick.winner is not None else 0
        number = len(info.trick_winners)
        if winner == self.solo:
            self.say("takes_trick_you", number=number, points=trick.points)
        else:
            self.say("takes_trick", seat=self.views.names[winner], number=number,
                     points=trick.points)
        self.screen.show(self.views.between_turns(event.state))
        if not self.views.setup.fast:
            self.screen.pause(TRICK_DELAY)

    def denounced(self, event: Event) -> None:
        """A cry of *renúncia* and its outcome, told to everybody; never which card."""
        assert event.seat is not None
        seat = event.seat
        info = public_info(event.state)
        cry = info.denunciations[-1]
        proven, wrong = renuncia_penalties(self.rules)  # in the score's unit (pontos: points)
        key, penalty = ("denounced_right", proven) if cry.correct else ("denounced_wrong", wrong)
        if seat == self.solo:
            key += "_you"
        self.say(key, seat=self.views.names[seat], penalty=penalty)

    def deal_ended(self, event: Event) -> None:
        assert event.result is not None
        result = event.result
        match = event.match
        number = len(match.results)
        if result.contract is not None:
            self.contract_done(event.state, result, number)
        else:
            facing = self.views.facing
            us = self.rules.teams[facing if facing is not None else 0]
            them = 1 - us
            games = {"g_us": f"{result.game_points[us]:+d}",
                     "g_them": f"{result.game_points[them]:+d}"}
            if result.revoked_by is not None:
                key = "deal_renuncia_us" if result.revoked_by == us else "deal_renuncia_them"
                self.say(key, number=number, **games)
            elif result.tie:
                self.say("deal_tie", number=number)
                if result.carry:
                    self.say("deal_tie_carry", number=number, carry=result.carry)
            else:
                self.say("deal_result", number=number, us=result.points[us],
                         them=result.points[them], **games)
            score = match.score
            self.say("match_score", us=score[us], them=score[them])
        self.screen.show(self.views.between_turns(event.state))

    def contract_done(self, state: State, result: HandResult, number: int) -> None:
        """A bidding table's deal is over: made or failed, who the partner was (public now:
        the called card has been played), each player's game points and the match."""
        contract = result.contract
        assert contract is not None
        lang = self.views.setup.lang
        names = self.views.names
        teams = public_info(state).teams
        declarer = contract.declarer
        partner = next((s for s, side in enumerate(teams) if side == 0 and s != declarer), None)
        if partner is not None:
            side = lang.text("side_pair", seat=names[declarer], partner=names[partner])
        elif None not in teams:
            side = lang.text("side_alone", seat=names[declarer])
        else:
            side = names[declarer]  # the called card was never played: the partner is unknown
        key = "contract_made" if result.made else "contract_failed"
        self.say(key, number=number, side=side, points=result.points[0], target=contract.target)
        self.say("game_points_seats", list=self.seat_list(result.game_points, signed=True))
        self.say("match_score_seats", target=self.rules.match_target,
                 list=self.seat_list(self.views.match.score))

    def seat_list(self, values: Sequence[int], signed: bool = False) -> str:
        """``You +3 · Player 1 0 · …``: one number per seat, for a per-player score."""
        names = self.views.names
        return " · ".join(f"{names[s]} {v:+d}" if signed and v else f"{names[s]} {v}"
                          for s, v in enumerate(values))

    def deal_annulled(self, event: Event) -> None:
        """A seat asked for a new deal: the deal is set aside and the same dealer deals."""
        state = event.state
        asker = state.redeal_by
        assert asker is not None
        names = self.views.names
        dealer = names[public_info(state).dealer]
        question = self.redeal_questions.get(asker)
        if self.rules.controller_of(asker) == self.solo and question is not None:
            self.say("redeal_asked_you", points=question.points, dealer=dealer)
        else:
            self.say("redeal_asked", seat=names[asker], dealer=dealer)

    def match_ended(self, event: Event) -> None:
        self.announce_winner(event.match)

    def announce_winner(self, match: Match) -> None:
        winner = match.winner
        score = match.score
        if winner is None:
            return
        rules = self.rules
        if rules.scores_per_seat:
            # A bidding table: the match is won by a player.
            if winner == self.solo:
                self.say("match_won_you", score=score[winner])
            else:
                self.say("match_player_won", seat=self.views.names[winner], score=score[winner])
            return
        lang = self.views.setup.lang
        if self.solo is None:
            # Hot-seat or a table of bots: name the winning side by its seats.
            team = lang.text("us") if winner == 0 else lang.text("them")
            seats = "+".join(str(s + 1) for s in range(rules.players)
                             if rules.teams[s] == winner)
            self.say("match_team_won", team=f"{team} ({seats})",
                     score=f"{score[0]}–{score[1]}")
        else:
            us = rules.teams[self.solo]
            key = "match_won" if winner == us else "match_lost"
            self.say(key, us=score[us], them=score[1 - us])
        # Score-sheet lore (RULES.md section 5), for the traditional match to 4 games.
        if rules.scoring == "games" and rules.match_target == 4 and score[winner] >= 4:
            final = f"{score[winner]}–{score[1 - winner]}"
            if score[1 - winner] == 0:
                self.say("gato", score=final)
            elif score[1 - winner] == 1:
                self.say("chapeu", score=final)


# ---- sueca watch -----------------------------------------------------------------------------


@dataclass
class WatchNarrator(Narrator):
    """``sueca watch``: a match of bots printed trick by trick on ``console`` (Rich markup) in
    ``lang``, the bids and the contract with each deal's first card. Seats are numbered from 1
    for people, as everywhere a person reads them (records keep 0–3)."""

    console: Console
    rules: Rules
    lang: Language = field(default_factory=lambda: LANGUAGES["en"])

    def _say(self, key: str, **values: object) -> None:
        self.console.print(self.lang.text(key, **values))

    def _seats(self, seats: Sequence[int]) -> str:
        return self.lang.and_list([str(s + 1) for s in seats])

    def played(self, event: Event) -> None:
        info = public_info(event.state)
        if len(info.plays) != 1:
            return
        deal = len(event.match.results) + 1
        contract = info.contract
        if contract is None:
            assert info.trump_card is not None
            self._say("watch_deal", n=deal, dealer=info.dealer + 1,
                      card=card_symbol(info.trump_card))
            return
        # The bids and the called card are public; its holder is not (he shows himself by
        # playing it).
        order = bidding_order(self.rules, info.dealer)
        bids = ", ".join(f"{s + 1}:{b or self.lang.text('watch_pass')}"
                         for s, b in zip(order, info.bids, strict=True))
        self._say("watch_deal_bids", n=deal, dealer=info.dealer + 1, bids=bids,
                  declarer=contract.declarer + 1, target=contract.target,
                  card=card_symbol(contract.called_card))

    def trick_taken(self, event: Event) -> None:
        info = public_info(event.state)
        trick = taken_trick(info)
        n = self.rules.players
        cards = "  ".join(f"{trick.seat_of(i, n) + 1}:{card_symbol(c)}"
                          for i, c in enumerate(trick.cards))
        assert trick.winner is not None  # a taken trick
        self._say("watch_trick", k=f"{len(info.trick_winners):2d}", cards=cards,
                  winner=trick.winner + 1, points=trick.points)

    def denounced(self, event: Event) -> None:
        cry = public_info(event.state).denunciations[-1]
        self._say("watch_cry_right" if cry.correct else "watch_cry_wrong", seat=cry.seat + 1)

    def deal_ended(self, event: Event) -> None:
        assert event.result is not None
        result = event.result
        match = event.match
        if result.contract is not None:
            teams = public_info(event.state).teams
            side = [s for s in range(self.rules.players) if teams[s] == 0]
            self._say("watch_contract_made" if result.made else "watch_contract_lost",
                      seats=self._seats(side), points=result.points[0],
                      total=sum(result.points), games=" ".join(map(str, result.game_points)),
                      match=" ".join(map(str, match.score)))
            return
        self._say("watch_deal_end", a=result.points[0], b=result.points[1],
                  ga=result.game_points[0], gb=result.game_points[1],
                  ma=match.score[0], mb=match.score[1])

    def deal_annulled(self, event: Event) -> None:
        info = public_info(event.state)
        assert info.redeal_by is not None
        self._say("watch_redeal", seat=info.redeal_by + 1, dealer=info.dealer + 1)

    def match_ended(self, event: Event) -> None:
        match = event.match
        winner = match.winner or 0
        if self.rules.scores_per_seat:
            self._say("watch_player_won", seat=winner + 1, score=" ".join(map(str, match.score)))
            return
        seats = [s for s in range(self.rules.players) if self.rules.teams[s] == winner]
        self._say("watch_team_won", team=winner + 1, seats=self._seats(seats),
                  a=match.score[0], b=match.score[1])


__all__ = ["BOT_DELAY", "TRICK_DELAY", "Narrator", "TableNarrator", "WatchNarrator",
           "public_info", "taken_trick"]
