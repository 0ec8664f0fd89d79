"""The encoding of a seat's view as numbers, shared by the environments and the learned bot.

Two halves, one numbering each, built from a seat's :class:`~sueca.infostate.InformationState`
alone (the one filter of hidden information): the **observation tensor**
(:class:`ObservationEncoder`) and the **action codec** (:class:`ActionCodec`). They live in the
players layer so that a bot (:mod:`sueca.neural.bot`) reads the same tensor the environments
(:mod:`sueca.env.observation`, :mod:`sueca.env.actions`, which re-export them) hand an agent:
a network trained in either world plays in the other.

The observation tensor
----------------------
Both environments (:mod:`sueca.env.pettingzoo`, :mod:`sueca.env.openspiel`) encode what a seat
sees here, from its :class:`~sueca.infostate.InformationState` alone: the one filter of hidden
information, so no slice can hold a card the rules hide from that seat. Seats are *relative*:
slot 0 is the seat observed, slot 1 the next seat in seat order, and so on, so one policy
serves every seat. docs/env.md lists every slice (:meth:`ObservationEncoder.slices` prints the
same table).

The *information-state* tensor (OpenSpiel's, with perfect recall) is the observation followed
by the order of the plays: a seat remembers every card and when it came, and the observation
alone keeps who played what, not in which trick.

>>> import random
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(1)))
>>> encoder = ObservationEncoder(STANDARD)
>>> vector = encoder.observation(state.information_state(1))
>>> vector.shape, int(vector[encoder.slice("hand")].sum())
((652,), 10)

The action codec
----------------
An environment's action is an index into one flat range laid out by the rules:

=================  ==========================  ==========================================
indexes            action                      asked by
=================  ==========================  ==========================================
0 … 39             ``Play(card)``              :class:`~sueca.actions.AskCard`
40 … 100           ``Bid(0)`` (pass), then     :class:`~sueca.actions.AskBid`
                   ``Bid(61)`` … ``Bid(120)``
101 … 140          ``Call(card)``              :class:`~sueca.actions.AskCall`
141, 142           ``Redeal(False)``, ``True`` :class:`~sueca.actions.AskRedeal`
=================  ==========================  ==========================================

A card is a face (0-39): with two decks the two copies of a card play alike, and the state
plays the copy the hand holds, so one index stands for both. The legal indexes are read from
the seat's :meth:`~sueca.infostate.InformationState.request`, the one place that works them
out. Every table has the same 143 actions; those a table never asks are never legal there.

>>> from sueca.rules import STANDARD
>>> codec = ActionCodec(STANDARD)
>>> codec.size, codec.action(codec.index(Bid(75)))
(143, Bid(value=75))
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from sueca.actions import (
    Action,
    AskBid,
    AskCall,
    AskCard,
    AskRedeal,
    Bid,
    Call,
    Phase,
    Play,
    Redeal,
    Request,
)
from sueca.auction import PASS, bidding_order
from sueca.cards import DECK_SIZE, SUITS, card_name, format_mask, mask_cards
from sueca.infostate import InformationState
from sueca.redeal import redeal_order
from sueca.rules import MAX_BID, MIN_BID, Rules

PHASES = tuple(Phase)
Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Piece:
    name: str
    start: int
    size: int
    meaning: str


class ObservationEncoder:
    """The observation (and information-state) tensor of a table under ``rules``."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n, deck = rules.players, DECK_SIZE
        layout = [
            ("hand", deck, "the cards the seat holds now, by face (0-39: a card id, or with "
             "two decks either copy; a slot holds copies / decks)"),
            ("known", (n - 1) * deck, "per other seat (relative 1 … n-1): the cards of its hand "
             "the seat knows (open hands, the dummy's after the opening lead, the turned card "
             "while the dealer holds it)"),
            ("played", n * deck, "per seat (relative): the cards it has played this deal"),
            ("trick", n * deck, "per seat (relative): its card in the trick in progress"),
            ("turned", deck, "the turned trump card (none at a bidding table)"),
            ("trump", len(SUITS), "the trump suit (none before a bidding table's call)"),
            ("voids", n * len(SUITS), "per seat (relative): the suits it has shown it lacks"),
            ("hand_sizes", n, "per seat (relative): cards in hand / hand size"),
            ("dealer", n, "the dealer (relative seat, one-hot)"),
            ("opening_leader", n, "who leads the first trick (relative seat, one-hot)"),
            ("leader", n, "who led the trick in progress (relative seat, one-hot)"),
            ("to_play", n, "whose turn it is to play, bid, call or answer (relative, one-hot)"),
            ("sides", 3 * n, "per seat (relative): on the seat's side, on the other side, not "
             "known (a bidding table's secret partner before the called card shows)"),
            ("seat_points", n, "per seat (relative): card points taken / points of the deck"),
            ("tricks_won", n, "per seat (relative): tricks taken / hand size"),
            ("phase", len(PHASES), "the deal's phase: " + ", ".join(PHASES)),
            ("bids", 3 * n, "per seat (relative): has spoken, passed, its bid / 120 (bidding)"),
            ("declarer", n, "the declarer (relative seat, one-hot; bidding tables)"),
            ("contract", 1, "the declarer's bid / 120 (bidding tables)"),
            ("called", deck, "the called card (bidding tables)"),
            ("redeal", 2 * n, "per seat (relative): kept its hand, asked for a new deal "
             "(weak_hand_redeal)"),
            ("for_dummy", 1, "1 when the seat observed is the dummy and its partner decides"),
        ]
        pieces, start = [], 0
        for name, size, meaning in layout:
            pieces.append(Piece(name, start, size, meaning))
            start += size
        self.pieces = tuple(pieces)
        self.size = start
        self.plays = rules.cards_in_play
        self.history_size = self.plays * deck  # a face per play
        self._where = {p.name: p for p in self.pieces}

    def slice(self, name: str) -> slice:
        piece = self._where[name]
        return slice(piece.start, piece.start + piece.size)

    def layout_hash(self) -> str:
        """A digest of the slice table (names, offsets, sizes): a network's weights name the
        layout they were trained on, and a changed layout refuses them."""
        table = ";".join(f"{p.name}:{p.start}:{p.size}" for p in self.pieces)
        return hashlib.sha256(table.encode()).hexdigest()[:16]

    def slices(self) -> str:
        """The layout as a Markdown table (docs/env.md shows it for the standard game)."""
        rows = ["| slice | offset | size | meaning |", "|---|---|---|---|"]
        rows += [f"| `{p.name}` | {p.start} | {p.size} | {p.meaning} |" for p in self.pieces]
        rows.append(f"| `history` (information state only) | {self.size} | "
                    f"{self.history_size} | per play in order (slot k the k-th card of the "
                    "deal): its face, one-hot |")
        return "\n".join(rows)

    # ---- tensors --------------------------------------------------------------------------

    def observation(self, info: InformationState, for_dummy: bool = False) -> Vector:
        out = np.zeros(self.size, np.float32)
        self.write(info, out, for_dummy)
        return out

    def information_state(self, info: InformationState, for_dummy: bool = False) -> Vector:
        out = np.zeros(self.size + self.history_size, np.float32)
        self.write(info, out, for_dummy)
        self.write_history(info, out)
        return out

    def write_history(self, info: InformationState, out: Vector) -> None:
        for index, card in enumerate(info.plays):
            out[self.size + index * DECK_SIZE + card % DECK_SIZE] = 1.0

    def write(self, info: InformationState, out: Vector, for_dummy: bool = False) -> None:
        """Fill ``out`` (zeros, at least :attr:`size` long) with ``info``'s observation."""
        rules = self.rules
        n, deck, me = rules.players, DECK_SIZE, info.seat
        at = {p.name: p.start for p in self.pieces}
        copy = 1.0 / rules.decks  # with two decks a face's slot counts its copies, halved

        def cards(offset: int, mask: int) -> None:
            for card in mask_cards(mask):
                out[offset + card % deck] += copy

        def one_hot(name: str, seat: int) -> None:
            if seat >= 0:
                out[at[name] + (seat - me) % n] = 1.0

        cards(at["hand"], info.hand)
        for rel in range(1, n):
            cards(at["known"] + (rel - 1) * deck, info.known[(me + rel) % n])
        seats = info.played_by()
        trick_from = len(info.plays) - len(info.trick)
        for index, (card, seat) in enumerate(zip(info.plays, seats, strict=True)):
            rel = (seat - me) % n
            out[at["played"] + rel * deck + card % deck] += copy
            if index >= trick_from:
                out[at["trick"] + rel * deck + card % deck] += copy
        if info.trump_card is not None:
            out[at["turned"] + info.trump_card % deck] = 1.0
        if info.trump >= 0:
            out[at["trump"] + info.trump] = 1.0
        for seat in range(n):
            rel = (seat - me) % n
            for suit in SUITS:
                if info.voids[seat] >> suit & 1:
                    out[at["voids"] + rel * len(SUITS) + suit] = 1.0
            out[at["hand_sizes"] + rel] = info.hand_sizes[seat] / rules.hand_size
            out[at["seat_points"] + rel] = info.seat_points[seat] / rules.total_points
        one_hot("dealer", info.dealer)
        one_hot("opening_leader", info.opening_leader)
        one_hot("leader", info.leader)
        one_hot("to_play", info.to_play)
        mine = info.teams[me] if info.teams else None
        for seat in range(n):
            side = info.teams[seat] if info.teams else None
            column = 2 if side is None or mine is None else (0 if side == mine else 1)
            out[at["sides"] + 3 * ((seat - me) % n) + column] = 1.0
        for winner in info.trick_winners:
            out[at["tricks_won"] + (winner - me) % n] += 1.0 / rules.hand_size
        out[at["phase"] + PHASES.index(Phase(info.phase))] = 1.0
        if info.bids:
            for seat, bid in zip(bidding_order(rules, info.dealer), info.bids, strict=False):
                base = at["bids"] + 3 * ((seat - me) % n)
                out[base] = 1.0
                out[base + 1] = float(bid == 0)
                out[base + 2] = bid / MAX_BID
        contract = info.contract
        if contract is not None:
            one_hot("declarer", contract.declarer)
            out[at["contract"]] = contract.bid / MAX_BID
            out[at["called"] + contract.called_card % deck] = 1.0
        if info.redeal_answers:
            order = redeal_order(rules, info.opening_leader)
            for seat, ask in zip(order, info.redeal_answers, strict=False):
                out[at["redeal"] + 2 * ((seat - me) % n) + int(ask)] = 1.0
        out[at["for_dummy"]] = float(for_dummy)

    # ---- strings --------------------------------------------------------------------------

    def text(self, info: InformationState, for_dummy: bool = False,
             history: bool = False) -> str:
        """The same facts in words (OpenSpiel's observation and information-state strings):
        one seat's view, absolute seats. ``history`` adds the order of the plays."""
        parts = [f"seat {info.seat}" + (" (the dummy, its partner deciding)" if for_dummy
                                        else ""),
                 f"dealer {info.dealer}", f"phase {info.phase}", f"to play {info.to_play}"]
        if info.trump_card is not None:
            parts.append(f"turned {card_name(info.trump_card)}")
        if info.bids:
            parts.append("bids " + " ".join(map(str, info.bids)))
        if info.contract is not None:
            parts.append(f"contract {info.contract}")
        if info.redeal_answers:
            parts.append("redeal " + "".join("A" if a else "K" for a in info.redeal_answers))
        parts.append(f"hand {format_mask(info.hand)}")
        for seat, mask in enumerate(info.known):
            if seat != info.seat and mask:
                parts.append(f"known {seat}: {format_mask(mask)}")
        sides = "".join("?" if t is None else str(t) for t in info.teams)
        parts.append(f"sides {sides}")
        if history:
            parts.append("plays " + " ".join(card_name(c) for c in info.plays))
        else:
            seats = info.played_by()
            for seat in range(self.rules.players):
                mine = [c for c, s in zip(info.plays, seats, strict=True) if s == seat]
                if mine:
                    parts.append(f"played {seat}: {' '.join(map(card_name, mine))}")
            parts.append("trick " + " ".join(card_name(c) for c in info.trick))
            parts.append("tricks " + " ".join(map(str, info.trick_winners)))
            parts.append("voids " + " ".join(map(str, info.voids)))
        return "; ".join(parts)


BID_VALUES = (PASS, *range(MIN_BID, MAX_BID + 1))


class ActionCodec:
    """The index of every action of a table under ``rules``, and back."""

    def __init__(self, rules: Rules) -> None:
        deck = DECK_SIZE
        self.bid_base = deck
        self.call_base = deck + len(BID_VALUES)
        self.redeal_base = self.call_base + deck
        self.size = self.redeal_base + 2

    def index(self, action: Action) -> int:
        if type(action) is Play:
            return action.card % DECK_SIZE
        if type(action) is Bid:
            return self.bid_base + BID_VALUES.index(action.value)
        if type(action) is Call:
            return self.call_base + action.card % DECK_SIZE
        if type(action) is Redeal:
            return self.redeal_base + int(action.ask)
        raise ValueError(f"{action!r} has no index: denunciations are not environment actions")

    def action(self, index: int) -> Action:
        """The action of ``index``; :class:`ValueError` names an index out of range."""
        if type(index) is not int or not 0 <= index < self.size:
            raise ValueError(f"action {index!r} is not an index from 0 to {self.size - 1}")
        if index < self.bid_base:
            return Play(index)
        if index < self.call_base:
            return Bid(BID_VALUES[index - self.bid_base])
        if index < self.redeal_base:
            return Call(index - self.call_base)
        return Redeal(bool(index - self.redeal_base))

    def legal(self, request: Request | None) -> list[int]:
        """The indexes ``request`` allows, ascending (empty for ``None``). A ``renuncia``
        table's revokes are not offered: agents play as the bots do (docs/env.md)."""
        if request is None:
            return []
        if type(request) is AskCard:
            return sorted({card % DECK_SIZE for card in request.legal})
        if type(request) is AskBid:
            values = [PASS, *range(request.lowest, request.highest + 1)]
            return [self.bid_base + BID_VALUES.index(v) for v in values]
        if type(request) is AskCall:
            faces = {card % DECK_SIZE for card in range(request.deck_size)}
            return [self.call_base + face for face in sorted(faces)]
        if type(request) is AskRedeal:
            return [self.redeal_base, self.redeal_base + 1][: 2 if request.may_ask else 1]
        raise ValueError(f"{request!r} is not a request")

    def describe(self, index: int) -> str:
        """The action in words, as OpenSpiel's action strings give it."""
        action = self.action(index)
        if type(action) is Play:
            return f"play {card_name(action.card)}"
        if type(action) is Bid:
            return "pass" if action.value == PASS else f"bid {action.value}"
        if type(action) is Call:
            return f"call {card_name(action.card)}"
        assert type(action) is Redeal
        return "ask for a new deal" if action.ask else "keep the hand"
