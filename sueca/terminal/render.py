"""Drawing the table: with Rich at a terminal, as plain text when the input is piped.

Both screens draw a :class:`~sueca.terminal.view.TableView`, which holds an information state
and never the full deal, so neither can show a card its viewer may not know (nor a side: at a
bidding table the secret partner is drawn from the viewer's ``info.teams``, where he is ``None``
until the called card is played).

The Rich table of four puts the viewer at the bottom and the others around the cloth in play
order: in Portugal play passes to the right (counter-clockwise), so the next player sits on the
viewer's right; with ``direction = clockwise`` (Brazil) on the left. Each card played lies on
the cloth in front of whoever played it. Larger tables (five, six, eight seats) and the auction
table are drawn compactly: one row per seat in play order from the viewer, with side, cards
left, points and the card each played to the trick.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Sequence
from typing import IO, Final

from rich import box
from rich.align import Align
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sueca.auction import PASS, bidding_order
from sueca.cards import (
    DIAMONDS,
    HEARTS,
    RANK_LETTERS,
    SUIT_SYMBOLS,
    Card,
    CardMask,
    card_face,
    card_rank,
    card_suit,
)
from sueca.infostate import InformationState
from sueca.terminal.i18n import Language
from sueca.terminal.input import echoed
from sueca.terminal.setup import DUMMY, HUMAN
from sueca.terminal.view import DISPLAY_SUITS, TableView, suit_cards
from sueca.trick import Trick

CLOTH: Final = "on dark_green"
RED_SUITS: Final = (HEARTS, DIAMONDS)
LOG_LINES: Final = 3  # the last events, under the table


# ---- pieces ----------------------------------------------------------------------------------


def card_style(card: Card) -> str:
    return "bold red" if card_suit(card) in RED_SUITS else "bold"


def card_text(card: Card, lang: Language, style: str = "") -> Text:
    return Text(lang.card(card), style=f"{card_style(card)} {style}".strip())


def face_card(card: Card, lang: Language) -> Text:
    """A card lying on the cloth: dark ink on a white card."""
    ink = "red3" if card_suit(card) in RED_SUITS else "black"
    return Text(f" {lang.card(card)} ", style=f"bold {ink} on grey93")


def seat_position(view: TableView, seat: int) -> str:
    """Where ``seat`` sits on the drawing: bottom, right, top or left."""
    n = view.info.rules.players
    offset = (seat - view.bottom) % n
    if view.info.rules.direction == "clockwise":
        offset = (-offset) % n
    return ("bottom", "right", "top", "left")[offset]


def side_parts(view: TableView, seat: int, lang: Language) -> list[str]:
    """``declarante``, ``parceiro``, ``adversário``, ``lado desconhecido``: the seat's side as
    the viewer knows it (``info.teams``), never more."""
    info = view.info
    teams = info.teams
    contract = info.contract
    parts = []
    if contract is not None and seat == contract.declarer:
        parts.append(lang.text("declarer"))
    if seat != view.bottom and teams:
        mine, theirs = teams[view.bottom], teams[seat]
        if mine is not None and theirs is not None:
            if mine == theirs:
                parts.append(lang.text("partner"))
            elif not parts:  # a declarer's opponents need not be told so
                parts.append(lang.text("opponent"))
        elif contract is not None and theirs is None:
            parts.append(lang.text("unknown_side"))
    return parts


def role_text(view: TableView, seat: int, lang: Language) -> str:
    """``parceiro · heuristic``, ``adversário · humano``, ``morto``."""
    parts = side_parts(view, seat, lang)
    kind = view.seats[seat]
    if kind == DUMMY:
        parts.append(lang.text("dummy"))
    elif kind == HUMAN:
        if seat != view.bottom:
            parts.append(lang.text("human"))
    elif kind:
        parts.append(kind)
    return " · ".join(parts)


def suit_line(mask: CardMask, suit: int, lang: Language, numbers: dict[Card, int],
              numbered: bool) -> Text:
    """One suit of a hand, strongest first; legal cards with their numbers when choosing."""
    line = Text()
    for card in suit_cards(mask, suit):
        if numbered:
            if card in numbers:
                line.append(f"{numbers[card]}", style="cyan")
                line.append(" ")
                line.append_text(card_text(card, lang))
            else:
                line.append_text(card_text(card, lang, "dim"))
        else:
            line.append_text(card_text(card, lang))
        line.append("  ")
    return line


def compact_hand(mask: CardMask, lang: Language) -> Text:
    """A face-up hand in one line: ``♠ A K 5  ♥ 7 2``."""
    text = Text()
    for suit in DISPLAY_SUITS:
        cards = suit_cards(mask, suit)
        if not cards:
            continue
        style = "red" if suit in RED_SUITS else ""
        ranks = " ".join(RANK_LETTERS[card_rank(c)] for c in cards)
        text.append(f"{SUIT_SYMBOLS[suit]} {ranks}  ", style=style)
    return text


def hand_panel(view: TableView, seat: int, title: str, lang: Language) -> RenderableType:
    """A hand laid out by suit, each suit strongest first, the trump suit marked."""
    info = view.info
    mask = info.known[seat]
    choosing = view.acting == seat
    numbers = {card: i + 1 for i, card in enumerate(view.choices)} if choosing else {}
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    if view.hidden:
        grid.add_row(Text(lang.text("hidden_hand"), style="dim"), "")
    for suit in DISPLAY_SUITS if not view.hidden else ():
        label = Text(lang.suit_label(suit), style="red" if suit in RED_SUITS else "")
        if suit == info.trump:
            label.append(f" ★ {lang.text('trump')}", style="bold yellow")
        grid.add_row(label, suit_line(mask, suit, lang, numbers, choosing))
    border = "bold cyan" if choosing else "white"
    return Panel(grid, title=title, title_align="left", border_style=border, box=box.ROUNDED)


def seat_cell(view: TableView, seat: int, lang: Language) -> RenderableType:
    """A seat around the table: name and cards left, role, who deals and leads, the turned
    trump card while the dealer holds it, and the hand where it lies face up."""
    info = view.info
    name = Text(view.names[seat], style="bold reverse" if info.to_play == seat else "bold")
    if seat != view.bottom:
        name.append(f" · {lang.text('cards_left', count=info.hand_sizes[seat])}", style="dim")
    lines = [name]
    role = role_text(view, seat, lang)
    if role:
        lines.append(Text(role, style="dim"))
    status = seat_status(view, seat, lang)
    if status:
        lines.append(Text(status, style="italic"))
    turned = turned_card(info)
    if info.dealer == seat and turned is not None:
        trump = Text(f"{lang.text('trump')} ")
        trump.append_text(face_card(turned, lang))
        lines.append(trump)
    if seat != view.bottom and view.acting != seat:
        shown = info.known[seat]
        if info.dealer == seat and turned is not None:
            shown &= ~(1 << turned)  # already shown beside the dealer
        if shown:
            lines.append(compact_hand(shown, lang))
    return Group(*lines)


def turned_card(info: InformationState) -> Card | None:
    """The turned trump card while it is still face up in the dealer's hand, else ``None``
    (always at a bidding table, which turns no card)."""
    return info.trump_card if info.trump_card_held else None


def trump_heading(info: InformationState, lang: Language, label: bool = True) -> str:
    """``trunfo: ♥ copas``, or that no card is called yet (a bidding table's auction)."""
    if info.trump < 0:
        return lang.text("trump_not_called")
    return lang.text("trump_suit", suit=lang.suit_label(info.trump) if label
                     else lang.suit(info.trump))


def cloth_trick(view: TableView) -> Trick:
    """The trick on the cloth: the one in progress (its winner ``None``), else the one just
    gathered until the next lead, else an empty one."""
    info = view.info
    done = info.last_trick()
    return done if done is not None else info.current_trick()


def taken_caption(view: TableView, trick: Trick, lang: Language) -> Text:
    """``Trick to Ana (12 points)`` under a gathered trick."""
    assert trick.winner is not None
    you = view.names[trick.winner] == lang.text("you")
    return Text(lang.text("last_trick_you" if you else "last_trick",
                          seat=view.names[trick.winner], points=trick.points), style="italic")


def seat_list(view: TableView, values: Sequence[int]) -> str:
    """``Tu 3 · Jogador 1 0 · …``: one number per seat."""
    return " · ".join(f"{view.names[s]} {v}" for s, v in enumerate(values))


def auction_lines(view: TableView, lang: Language) -> list[str]:
    """At a bidding table: the bids so far in bidding order, then the contract and what the
    viewer knows of the declarer's partner."""
    info = view.info
    if not info.rules.bidding:
        return []
    order = bidding_order(info.rules, info.dealer)
    bids = [f"{view.names[order[i]]} {lang.text('bid_pass') if b == PASS else b}"
            for i, b in enumerate(info.bids)]
    lines = [f"{lang.text('bids_title')}: {' · '.join(bids) if bids else '—'}"]
    contract = info.contract
    if contract is not None:
        lines.append(lang.text(
            "contract_line", seat=view.names[contract.declarer], target=contract.target,
            passed=lang.text("all_passed_short") if contract.bid == PASS else "",
            card=lang.card(contract.called_card), suit=lang.suit(contract.trump),
        ))
        lines.append(partner_text(view, lang))
    return lines


def partner_text(view: TableView, lang: Language) -> str:
    """The declarer's partner as the viewer knows him: secret until the called card is played,
    except to the partner himself (and to a declarer who holds the card: he plays alone)."""
    info = view.info
    contract = info.contract
    assert contract is not None
    card = lang.card(contract.called_card)
    declarer = view.names[contract.declarer]
    teams = info.teams
    if not teams or None in teams:
        return lang.text("partner_secret", card=card)
    partner = next((s for s, side in enumerate(teams) if side == 0 and s != contract.declarer),
                   None)
    called = card_face(contract.called_card)
    out = any(card_face(c) == called for c in info.plays)
    you = view.names[view.bottom] == lang.text("you")
    if not out and you and partner == view.bottom:
        return lang.text("partner_you", card=card, seat=declarer)
    if not out and you and partner is None and view.bottom == contract.declarer:
        return lang.text("alone_you", card=card)
    if partner is None:
        return lang.text("alone", seat=declarer)
    return lang.text("partner_is", seat=view.names[partner])


def seat_status(view: TableView, seat: int, lang: Language) -> str:
    info = view.info
    status = []
    if info.dealer == seat:
        status.append(lang.text("dealer"))
    if info.trick and info.leader == seat:
        status.append(lang.text("leads"))
    if info.to_play == seat and info.trick_number < info.rules.hand_size:
        status.append(lang.text("to_play"))
    return " · ".join(status)


def seat_rows(view: TableView, lang: Language) -> RenderableType:
    """The compact table for many seats: one row per seat in play order from the viewer,
    with name, side, cards left, card points taken and the card played to the trick (its
    place in the play order first)."""
    info = view.info
    n = info.rules.players
    trick = cloth_trick(view)
    winner = trick.winner
    played = {trick.seat_of(i, n): (i + 1, card) for i, card in enumerate(trick.cards)}
    grid = Table.grid(padding=(0, 2))
    for _ in range(6):
        grid.add_column(no_wrap=True)
    for k in range(n):
        seat = (view.bottom + k) % n
        name = Text(view.names[seat], style="bold reverse" if info.to_play == seat else "bold")
        play = Text("")
        if seat in played:
            number, card = played[seat]
            play.append(f"{number}. ", style="dim")
            play.append_text(face_card(card, lang))
            if winner == seat:
                play.append(" ✓", style="bold green")
        grid.add_row(
            name,
            Text(role_text(view, seat, lang), style="dim"),
            Text(lang.text("cards_left", count=info.hand_sizes[seat]), style="dim"),
            Text(lang.text("points_short", points=info.seat_points[seat])
                 if info.seat_points else ""),
            play,
            Text(seat_status(view, seat, lang), style="italic"),
        )
    body: list[RenderableType] = [grid]
    if winner is not None:
        body.append(taken_caption(view, trick, lang))
    elif not trick.cards and info.phase == "play":
        body.append(Text(lang.text("cloth_empty"), style="dim"))
    for line in auction_lines(view, lang):
        body.append(Text(line, style="bold" if line.startswith(lang.text("bids_title")) else ""))
    return Group(*body)


def cloth(view: TableView, lang: Language) -> RenderableType:
    """The cloth: each card of the trick in front of whoever played it."""
    info = view.info
    n = info.rules.players
    grid = Table.grid(padding=(0, 1))
    for _ in range(3):
        grid.add_column(justify="center", min_width=7)
    spots: dict[str, Text] = {}
    caption = Text("")
    trick = cloth_trick(view)
    cards = trick.cards
    if trick.winner is not None:
        caption = taken_caption(view, trick, lang)
    for index, card in enumerate(cards):
        spots[seat_position(view, trick.seat_of(index, n))] = face_card(card, lang)
    empty = Text("")
    grid.add_row(empty, spots.get("top", empty), empty)
    grid.add_row(spots.get("left", empty), Text("♣♦♥♠" if not cards else "", style="green"),
                 spots.get("right", empty))
    grid.add_row(empty, spots.get("bottom", empty), empty)
    body: list[RenderableType] = [Align.center(grid)]
    if caption.plain:
        body.append(Align.center(caption))
    elif not cards:
        body.append(Align.center(Text(lang.text("cloth_empty"), style="dim")))
    return Panel(Group(*body), style=CLOTH, box=box.ROUNDED, padding=(0, 2))


def score_sheet(view: TableView, lang: Language) -> RenderableType:
    """The score sheet: game points per deal under Nós and Eles, and the totals; at a bidding
    table, one column per player."""
    if view.per_player:
        return player_sheet(view, lang)
    us = view.us
    them = 1 - us
    target = lang.text("match_to", target=view.info.rules.match_target)
    sheet = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    sheet.add_column("", style="dim")
    sheet.add_column(lang.text("us"), justify="right")
    sheet.add_column(lang.text("them"), justify="right")
    for number, result in enumerate(view.results[-6:], start=max(1, len(view.results) - 5)):
        sheet.add_row(lang.text("deal_short", number=number),
                      _games(result.game_points[us]), _games(result.game_points[them]))
    sheet.add_row(Text(lang.text("total"), style="bold"), Text(str(view.score[us]), style="bold"),
                  Text(str(view.score[them]), style="bold"))
    return Panel(sheet, title=f"{lang.text('score_sheet')} · {target}", title_align="left",
                 box=box.ROUNDED, border_style="white")


def player_sheet(view: TableView, lang: Language) -> RenderableType:
    """A bidding table's score sheet: each player's game points, deal by deal."""
    n = view.info.rules.players
    target = lang.text("match_to", target=view.info.rules.match_target)
    sheet = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    sheet.add_column("", style="dim")
    you = lang.text("you")
    for seat in range(n):
        name = view.names[seat]
        sheet.add_column(name if name == you else lang.seat(seat, short=True),
                         justify="right")
    for number, result in enumerate(view.results[-6:], start=max(1, len(view.results) - 5)):
        sheet.add_row(lang.text("deal_short", number=number),
                      *(_games(result.game_points[s]) for s in range(n)))
    sheet.add_row(Text(lang.text("total"), style="bold"),
                  *(Text(str(view.score[s]), style="bold") for s in range(n)))
    return Panel(sheet, title=f"{lang.text('score_sheet')} · {target}", title_align="left",
                 box=box.ROUNDED, border_style="white")


def compact(view: TableView) -> bool:
    """Whether the table is drawn as rows of seats rather than round the cloth: more than four
    seats, or an auction."""
    rules = view.info.rules
    return rules.players != 4 or rules.bidding


def _games(value: int) -> str:
    return "" if value == 0 else f"{value:+d}" if value < 0 else str(value)


def render_table(view: TableView, lang: Language, log: Sequence[str] = ()) -> RenderableType:
    """The whole screen for one view of the table."""
    info = view.info
    rules = info.rules
    ring: RenderableType
    if compact(view):
        ring = seat_rows(view, lang)
    else:
        by_position = {seat_position(view, s): s for s in range(rules.players)}
        grid = Table.grid(expand=True, padding=(0, 1))
        grid.add_column(ratio=2)
        grid.add_column(ratio=3, justify="center")
        grid.add_column(ratio=2, justify="right")
        grid.add_row("", Align.center(seat_cell(view, by_position["top"], lang)), "")
        grid.add_row(seat_cell(view, by_position["left"], lang), cloth(view, lang),
                     Align.right(seat_cell(view, by_position["right"], lang)))
        grid.add_row("", Align.center(seat_cell(view, view.bottom, lang)), "")
        ring = grid
    trick_no = min(info.trick_number + 1, rules.hand_size)
    title = (f"{lang.text('title')} · {lang.text('deal_title', number=view.deal_number)} · "
             f"{lang.text('trick_title', number=trick_no, total=rules.hand_size)} · "
             f"{trump_heading(info, lang)}")
    parts: list[RenderableType] = [Panel(ring, title=title, box=box.HEAVY, border_style="green")]

    hands = []
    bottom_title = (lang.text("your_hand") if view.names[view.bottom] == lang.text("you")
                    else lang.text("hand_of", name=view.names[view.bottom]))
    hands.append(hand_panel(view, view.bottom, bottom_title, lang))
    if view.acting is not None and view.acting != view.bottom:
        hands.append(hand_panel(view, view.acting,
                                lang.text("dummy_hand", name=view.names[view.acting]), lang))
    side = Table.grid(padding=(0, 2))
    side.add_column()
    side.add_column()
    facts: list[RenderableType] = [score_sheet(view, lang)]
    if info.points_taken and not view.per_player:
        facts.append(Text(lang.text("points_taken", us=info.points_taken[view.us],
                                    them=info.points_taken[1 - view.us])))
    if rules.decks > 1:
        facts.append(Text(lang.text("two_decks"), style="dim"))
    side.add_row(Group(*hands), Group(*facts))
    parts.append(side)
    if log:
        parts.append(Text("\n".join(log[-LOG_LINES:]), style="dim"))
    hint = hint_text(view, lang)
    if hint:
        parts.append(Text(hint, style="cyan"))
    if view.message:
        parts.append(Text(view.message, style="bold yellow"))
    return Group(*parts)


def hint_text(view: TableView, lang: Language) -> str | None:
    """The hint line: a card to play or call, or a bid."""
    if view.bid_hint is not None:
        value, reason = view.bid_hint
        bid = lang.text("bid_pass") if value == PASS else str(value)
        return lang.text("hint", card=bid, reason=lang.reason(reason))
    if view.hint is not None:
        card, reason = view.hint
        return lang.text("hint", card=lang.card(card), reason=lang.reason(reason))
    return None


# ---- plain text ------------------------------------------------------------------------------


def plain_hand(mask: CardMask, lang: Language, numbers: dict[Card, int]) -> str:
    """``♠ 1:A♠ 2:K♠ · ♥ 7♥ 2♥``: the numbered cards are those that may be played."""
    groups = []
    for suit in DISPLAY_SUITS:
        cards = suit_cards(mask, suit)
        if cards:
            groups.append(" ".join(
                f"{numbers[c]}:{lang.card(c)}" if c in numbers else lang.card(c) for c in cards
            ))
    return " · ".join(groups) if groups else "—"


def plain_table(view: TableView, lang: Language) -> list[str]:
    """The table as a few lines of text, for a player whose input is piped or scripted."""
    info = view.info
    rules = info.rules
    n = rules.players
    us = view.us
    trick_no = min(info.trick_number + 1, rules.hand_size)
    trump = trump_heading(info, lang, label=False)
    turned = turned_card(info)
    if turned is not None:
        trump = lang.text("trump_is", suit=lang.suit(info.trump),
                          card=lang.card(turned), seat=view.names[info.dealer])
    if view.per_player:
        score = lang.text("match_score_seats", target=rules.match_target,
                          list=seat_list(view, view.score))
    else:
        score = f"{lang.text('us')} {view.score[us]} – {lang.text('them')} {view.score[1 - us]}"
    lines = [
        f"--- {lang.text('deal_title', number=view.deal_number)} · "
        f"{lang.text('trick_title', number=trick_no, total=rules.hand_size)} · {trump} · "
        f"{score} ---"
    ]
    if compact(view):
        lines.append(plain_seats(view, lang))
    trick = cloth_trick(view)
    if trick.cards:
        played = [f"{view.names[trick.seat_of(i, n)]} {lang.card(c)}"
                  for i, c in enumerate(trick.cards)]
        lines.append(" · ".join(played) + ("" if trick.winner is None
                                           else " → " + view.names[trick.winner]))
    elif info.phase == "play":
        lines.append(lang.text("cloth_empty"))
    lines.extend(auction_lines(view, lang))
    if info.points_taken and not view.per_player:
        lines.append(lang.text("points_taken", us=info.points_taken[us],
                               them=info.points_taken[1 - us]))
    numbers = ({card: i + 1 for i, card in enumerate(view.choices)}
               if view.acting is not None else {})
    for seat in range(n):
        if seat in (view.bottom, view.acting):
            continue
        shown = info.known[seat]
        if info.dealer == seat and turned is not None:
            shown &= ~(1 << turned)  # already named in the heading
        if shown:
            lines.append(f"{view.names[seat]}: {plain_hand(shown, lang, {})}")
    if view.acting is not None and view.acting != view.bottom:
        lines.append(f"{lang.text('dummy_hand', name=view.names[view.acting])}: "
                     f"{plain_hand(info.known[view.acting], lang, numbers)}")
    title = (lang.text("your_hand") if view.names[view.bottom] == lang.text("you")
             else lang.text("hand_of", name=view.names[view.bottom]))
    own = numbers if view.acting == view.bottom else {}
    hand = lang.text("hidden_hand") if view.hidden else plain_hand(info.known[view.bottom],
                                                                   lang, own)
    lines.append(f"{title}: {hand}")
    hint = hint_text(view, lang)
    if hint:
        lines.append(hint)
    return lines


def plain_seats(view: TableView, lang: Language) -> str:
    """Every seat in one line, in play order from the viewer: name, side, cards left (and at a
    bidding table the card points each has taken)."""
    info = view.info
    n = info.rules.players
    items = []
    for k in range(n):
        seat = (view.bottom + k) % n
        facts = side_parts(view, seat, lang)
        status = seat_status(view, seat, lang)
        if status:
            facts.append(status)
        facts.append(lang.text("cards_left", count=info.hand_sizes[seat]))
        if view.per_player:
            facts.append(lang.text("points_short", points=info.seat_points[seat]))
        items.append(f"{view.names[seat]} ({', '.join(facts)})")
    return " · ".join(items)


class PlainScreen:
    """Plain text, one line per event: for piped input and scripts. Each prompt reads one
    line of input, echoed so that the transcript reads like the game."""

    interactive = False

    def __init__(self, lang: Language, stdin: IO[str] | None = None,
                 stdout: IO[str] | None = None) -> None:
        self.lang = lang
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self._shown: tuple[object, ...] | None = None

    def _print(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def show(self, view: TableView) -> None:
        if view.acting is None and not view.review:
            return
        # Redrawn only when something changed; a refusal prints just its message.
        info = view.info
        key: tuple[object, ...] = (len(info.plays), len(info.bids), info.phase, view.acting,
                                   view.deal_number)
        if view.review:
            key = (len(info.plays), info.phase, None, -view.deal_number)
        if key != self._shown:
            self._shown = key
            for line in plain_table(view, self.lang):
                self._print(line)
        if view.message:
            self._print(view.message)

    def say(self, text: str) -> None:
        self._print(text)

    def ask(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self._print("")
            return None
        answer = line.rstrip("\r\n")
        self._print(echoed(answer))  # echo: piped input is not shown by any terminal
        return answer

    def hide(self) -> None:
        self._shown = None
        self._print("")

    def pause(self, seconds: float) -> None:
        time.sleep(seconds)

    def close(self) -> None:
        self.stdout.flush()


class RichScreen:
    """The full table, redrawn with Rich on each change, for a person at a terminal."""

    interactive = True

    def __init__(self, lang: Language, console: Console | None = None) -> None:
        self.lang = lang
        self.console = console if console is not None else Console(highlight=False)
        self.log: deque[str] = deque(maxlen=7)
        self._unseen: list[str] = []

    def show(self, view: TableView) -> None:
        self.console.clear()
        self.console.print(render_table(view, self.lang, list(self.log)))
        self._unseen = []

    def say(self, text: str) -> None:
        self.log.append(text)
        self._unseen.append(text)

    def ask(self, prompt: str) -> str | None:
        try:
            return self.console.input(prompt)
        except EOFError:
            return None

    def hide(self) -> None:
        self.console.clear()

    def pause(self, seconds: float) -> None:
        time.sleep(seconds)

    def close(self) -> None:
        for line in self._unseen:
            self.console.print(line, markup=False, highlight=False)
        self._unseen = []
