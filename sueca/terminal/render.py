"""Drawing the table: with Rich at a terminal, as plain text when the input is piped.

Both screens draw a :class:`~sueca.terminal.table.TableView`, which holds an information state
and never the full deal, so neither can show a card its viewer may not know.

The Rich table puts the viewer at the bottom and the others around the cloth in play order:
in Portugal play passes to the right (counter-clockwise), so the next player sits on the
viewer's right; with ``direction = clockwise`` (Brazil) on the left. Each card played lies on
the cloth in front of whoever played it.
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

from sueca.cards import (
    DIAMONDS,
    HEARTS,
    RANK_LETTERS,
    SUIT_SYMBOLS,
    Card,
    CardMask,
    card_rank,
    card_suit,
    suit_cards_high_to_low,
)
from sueca.terminal.i18n import Language
from sueca.terminal.table import DISPLAY_SUITS, DUMMY, HUMAN, TableView

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


def role_text(view: TableView, seat: int, lang: Language) -> str:
    """``parceiro · heuristic``, ``adversário · humano``, ``morto``."""
    rules = view.info.rules
    parts = []
    if seat != view.bottom:
        same = rules.teams[seat] == rules.teams[view.bottom]
        parts.append(lang.text("partner") if same else lang.text("opponent"))
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
    for card in suit_cards_high_to_low(mask, suit):
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
        cards = suit_cards_high_to_low(mask, suit)
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
    status = []
    if info.dealer == seat:
        status.append(lang.text("dealer"))
    if info.trick and info.leader == seat:
        status.append(lang.text("leads"))
    if info.to_play == seat and info.trick_number < info.rules.hand_size:
        status.append(lang.text("to_play"))
    if status:
        lines.append(Text(" · ".join(status), style="italic"))
    if info.dealer == seat and info.trump_card_held:
        trump = Text(f"{lang.text('trump')} ")
        trump.append_text(face_card(info.trump_card, lang))
        lines.append(trump)
    if seat != view.bottom and view.acting != seat:
        shown = info.known[seat]
        if info.dealer == seat and info.trump_card_held:
            shown &= ~(1 << info.trump_card)  # already shown beside the dealer
        if shown:
            lines.append(compact_hand(shown, lang))
    return Group(*lines)


def cloth(view: TableView, lang: Language) -> RenderableType:
    """The cloth: each card of the trick in front of whoever played it."""
    info = view.info
    n = info.rules.players
    grid = Table.grid(padding=(0, 1))
    for _ in range(3):
        grid.add_column(justify="center", min_width=7)
    spots: dict[str, Text] = {}
    caption = Text("")
    done = info.last_trick()
    if info.trick:
        cards, leader = info.trick, info.leader
    elif done is not None and done.winner is not None:
        leader, cards, winner = done.leader, done.cards, done.winner
        you = view.names[winner] == lang.text("you")
        caption = Text(lang.text("last_trick_you" if you else "last_trick",
                                 seat=view.names[winner], points=done.points), style="italic")
    else:
        cards, leader = (), info.leader
    for index, card in enumerate(cards):
        seat = (leader + index) % n
        spots[seat_position(view, seat)] = face_card(card, lang)
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
    """The score sheet: game points per deal under Nós and Eles, and the totals."""
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


def _games(value: int) -> str:
    return "" if value == 0 else f"{value:+d}" if value < 0 else str(value)


def render_table(view: TableView, lang: Language, log: Sequence[str] = ()) -> RenderableType:
    """The whole screen for one view of the table."""
    info = view.info
    rules = info.rules
    by_position = {seat_position(view, s): s for s in range(rules.players)}
    ring = Table.grid(expand=True, padding=(0, 1))
    ring.add_column(ratio=2)
    ring.add_column(ratio=3, justify="center")
    ring.add_column(ratio=2, justify="right")
    ring.add_row("", Align.center(seat_cell(view, by_position["top"], lang)), "")
    ring.add_row(seat_cell(view, by_position["left"], lang), cloth(view, lang),
                 Align.right(seat_cell(view, by_position["right"], lang)))
    ring.add_row("", Align.center(seat_cell(view, view.bottom, lang)), "")
    trick_no = min(info.trick_number + 1, rules.hand_size)
    title = (f"{lang.text('title')} · {lang.text('deal_title', number=view.deal_number)} · "
             f"{lang.text('trick_title', number=trick_no, total=rules.hand_size)} · "
             f"{lang.text('trump_suit', suit=lang.suit_label(info.trump))}")
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
    if rules.review_tricks:
        facts.append(Text(lang.text("points_taken", us=info.points_taken[view.us],
                                    them=info.points_taken[1 - view.us])))
    side.add_row(Group(*hands), Group(*facts))
    parts.append(side)
    if log:
        parts.append(Text("\n".join(log[-LOG_LINES:]), style="dim"))
    if view.hint is not None:
        card, reason = view.hint
        hint = lang.text("hint", card=lang.card(card), reason=lang.reason(reason))
        parts.append(Text(hint, style="cyan"))
    if view.message:
        parts.append(Text(view.message, style="bold yellow"))
    return Group(*parts)


# ---- plain text ------------------------------------------------------------------------------


def plain_hand(mask: CardMask, lang: Language, numbers: dict[Card, int]) -> str:
    """``♠ 1:A♠ 2:K♠ · ♥ 7♥ 2♥``: the numbered cards are those that may be played."""
    groups = []
    for suit in DISPLAY_SUITS:
        cards = suit_cards_high_to_low(mask, suit)
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
    trump = lang.text("trump_suit", suit=lang.suit(info.trump))
    if info.trump_card_held:
        trump = lang.text("trump_is", suit=lang.suit(info.trump),
                          card=lang.card(info.trump_card), seat=view.names[info.dealer])
    lines = [
        f"--- {lang.text('deal_title', number=view.deal_number)} · "
        f"{lang.text('trick_title', number=trick_no, total=rules.hand_size)} · {trump} · "
        f"{lang.text('us')} {view.score[us]} – {lang.text('them')} {view.score[1 - us]} ---"
    ]
    done = info.last_trick()
    if info.trick:
        played = [f"{view.names[(info.leader + i) % n]} {lang.card(c)}"
                  for i, c in enumerate(info.trick)]
        lines.append(" · ".join(played))
    elif done is not None and done.winner is not None:
        played = [f"{view.names[done.seat_of(i, n)]} {lang.card(c)}"
                  for i, c in enumerate(done.cards)]
        lines.append(" · ".join(played) + " → " + view.names[done.winner])
    else:
        lines.append(lang.text("cloth_empty"))
    if rules.review_tricks:
        lines.append(lang.text("points_taken", us=info.points_taken[us],
                               them=info.points_taken[1 - us]))
    numbers = ({card: i + 1 for i, card in enumerate(view.choices)}
               if view.acting is not None else {})
    for seat in range(n):
        if seat in (view.bottom, view.acting):
            continue
        shown = info.known[seat]
        if info.dealer == seat and info.trump_card_held:
            shown &= ~(1 << info.trump_card)  # already named in the heading
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
    if view.hint is not None:
        card, reason = view.hint
        lines.append(lang.text("hint", card=lang.card(card), reason=lang.reason(reason)))
    return lines


class PlainScreen:
    """Plain text, one line per event: for piped input and scripts. Each prompt reads one
    line of input, echoed so that the transcript reads like the game."""

    interactive = False

    def __init__(self, lang: Language, stdin: IO[str] | None = None,
                 stdout: IO[str] | None = None) -> None:
        self.lang = lang
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self._shown: tuple[int, int | None, int] | None = None

    def _print(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def show(self, view: TableView) -> None:
        if view.acting is None and not view.review:
            return
        # Redrawn only when something changed; a refusal prints just its message.
        key = (len(view.info.plays), view.acting, view.deal_number)
        if view.review:
            key = (len(view.info.plays), None, -view.deal_number)
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
        self._print(answer)  # echo: piped input is not shown by any terminal
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
