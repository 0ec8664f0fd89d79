"""Shared helpers for the core engine's tests: the rule combinations that matter, an
independent reference implementation of the rules of play, random play-outs, a goal-directed
search for deals that end with a chosen score, and hand-built deals.

The reference functions here work from card *names* and RULES.md's rank order, not from the
engine's integer encoding or lookup tables, so that a bug in those cannot hide in the tests.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

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
from sueca.cards import (
    SUIT_LETTERS,
    Card,
    card_name,
    cards_mask,
    mask_cards,
    parse_card,
    parse_cards,
)
from sueca.deal import Deal, deal_cards
from sueca.record import GameRecord, dumps, read
from sueca.referee import Referee
from sueca.rules import STANDARD, Rules, preset
from sueca.state import IllegalMoveError, State

SWEEP = int(os.environ.get("SUECA_SWEEP", "1"))
"""Scale of the slow random sweeps: ``SUECA_SWEEP=10 pytest -m slow`` plays ten times more."""

# ---- the rule combinations that matter -----------------------------------------------------

RULE_SETS: dict[str, Rules] = {
    "standard": STANDARD,
    "brazil": preset("brazil"),
    "italiana": preset("italiana"),
    "pontos": preset("pontos"),
    "packets5": STANDARD.replace(deal_packets=5),
    "packets10": STANDARD.replace(deal_packets=10),
    "dealer_first": STANDARD.replace(trump_card="dealer_first"),
    "brazil_dealer_first": preset("brazil").replace(trump_card="dealer_first"),
    "redeal_point_trump": STANDARD.replace(redeal_point_trump=True),
    "last_trick_bonus": STANDARD.replace(last_trick_bonus=10),
    "maria_de_copas": STANDARD.replace(maria_de_copas=5),
    "dummy": STANDARD.replace(dummy=2),
    "open_hands": STANDARD.replace(open_hands=True),
    "open_dealer_dummy": STANDARD.replace(open_hands="dealer_dummy"),
    "no_looking_back": STANDARD.replace(no_looking_back=True),
    "review_tricks": STANDARD.replace(review_tricks=True),
    "italiana_bonuses": preset("italiana").replace(
        last_trick_bonus=7, maria_de_copas=3, deal_packets=5, trump_card="dealer_first"
    ),
    "italiana_dummy": preset("italiana").replace(dummy=1, redeal_point_trump=True),
    "bandeira_rolha_carry": STANDARD.replace(sweep="bandeira", rolha=True, tie_carry=True),
    "points_wins_match": STANDARD.replace(sweep="points_wins_match", tie_carry=True),
}
"""Every option that changes the deal, the play or the information a seat gets, alone and in
combination (scoring-only options are covered by test_scoring and test_match)."""

TABLE_RULES: dict[str, Rules] = {
    "double8": preset("double8"),
    "double6": preset("double6"),
    "italiana5": preset("italiana5"),
    "dummy": STANDARD.replace(dummy=2),
    "double8_variants": preset("double8").replace(
        deal_packets=5, trump_card="dealer_first", direction="clockwise", must_trump=True,
        maria_de_copas=3,
    ),
    "double6_variants": preset("double6").replace(
        must_trump=True, last_trick_bonus=10, review_tricks=True
    ),
    "double6_dummy": preset("double6").replace(dummy=4, open_hands=False),
    "italiana5_variants": preset("italiana5").replace(
        must_trump=True, bid_must_rise=False, last_trick_bonus=10, maria_de_copas=2
    ),
    "italiana5_open": preset("italiana5").replace(open_hands=True, review_tricks=True),
}
"""The tables of RULES.md sections 3 and 4 (double deck for eight and six, the five-player
auction, a dummy) alone and with the options that change their play or information."""


any_rules = st.builds(
    Rules.from_dict,
    st.fixed_dictionaries(
        {"variant": st.sampled_from(["standard", "brazil", "italiana", "pontos"])},
        optional={
            "direction": st.sampled_from(["counterclockwise", "clockwise"]),
            "deal_packets": st.sampled_from([1, 5, 10]),
            "trump_card": st.sampled_from(["dealer_last", "dealer_first"]),
            "redeal_point_trump": st.booleans(),
            "must_trump": st.booleans(),
            "review_tricks": st.booleans(),
            "open_hands": st.sampled_from([False, True, "dealer_dummy"]),
            "no_looking_back": st.booleans(),
            "dummy": st.one_of(st.none(), st.integers(0, 3)),
            "sweep": st.sampled_from(["points", "bandeira", "points_wins_match"]),
            "rolha": st.booleans(),
            "tie_carry": st.booleans(),
            "last_trick_bonus": st.integers(0, 20),
            "maria_de_copas": st.integers(0, 20),
            "weak_hand_redeal": st.booleans(),
            # The highest limits allowed too, so that random matches do annul deals often.
            "weak_hand_limits": st.sampled_from([[10, 5], [15, 15], [15, 0]]),
        },
    # Reviewing taken tricks and never looking back at them contradict each other.
    ).filter(lambda options: not (options.get("review_tricks")
                                  and options.get("no_looking_back"))),
)
"""Hypothesis: a rules object with any combination of options, from any preset."""


# ---- an independent reference for the rules of play -------------------------------------

# RULES.md: "Rank in every suit, high to low: A, 7, K, J, Q, 6, 5, 4, 3, 2."
REFERENCE_RANKS_HIGH_TO_LOW = "A7KJQ65432"
REFERENCE_POINTS = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}


def ref_suit(card: Card) -> str:
    return card_name(card)[1]


def ref_strength(card: Card) -> int:
    return -REFERENCE_RANKS_HIGH_TO_LOW.index(card_name(card)[0])


def ref_points(card: Card, rules: Rules) -> int:
    name = card_name(card)
    extra = rules.maria_de_copas if name == "QH" else 0
    return REFERENCE_POINTS.get(name[0], 0) + extra


def ref_trick_winner(cards: Sequence[Card], leader: int, trump: str, players: int = 4) -> int:
    """The seat that wins a trick: the highest trump, else the highest card of the suit led."""
    led = ref_suit(cards[0])
    trumps = [i for i, c in enumerate(cards) if ref_suit(c) == trump]
    candidates = trumps or [i for i, c in enumerate(cards) if ref_suit(c) == led]
    best = max(candidates, key=lambda i: ref_strength(cards[i]))
    return (leader + best) % players


def ref_legal(
    hand: Sequence[Card], trick: Sequence[Card], trump: str, must_trump: bool
) -> set[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (RULES.md sections 1 and 3)."""
    if not trick:
        return set(hand)
    led = ref_suit(trick[0])
    follow = {c for c in hand if ref_suit(c) == led}
    if follow:
        return follow
    trumps = {c for c in hand if ref_suit(c) == trump}
    if must_trump and trumps:
        return trumps
    return set(hand)


def expected_refusal(state: State, card: Card) -> str:
    """Why the reference rules refuse ``card`` from the seat to move (it must be refused)."""
    if state.is_finished():
        return "hand_over"
    hand = list(mask_cards(state.hands[state.to_play]))
    if card not in hand:
        return "not_in_hand"
    if any(ref_suit(c) == ref_suit(state.trick[0]) for c in hand):
        return "must_follow"
    return "must_trump"


# ---- states -------------------------------------------------------------------------------


def snapshot(state: State) -> dict[str, Any]:
    """Every field of a state, lists copied: two equal snapshots are the same state."""
    out: dict[str, Any] = {}
    # The slots of the state's class and its bases: a two-deck state is a subclass with a
    # slot of its own, and its snapshot must still hold every field.
    names = [n for klass in type(state).__mro__ for n in getattr(klass, "__slots__", ())]
    assert len(names) > 20
    for name in names:
        value = getattr(state, name)
        out[name] = list(value) if isinstance(value, list) else value
    return out


def assert_refused(state: State, card: Card, reason: str, seat: int | None = None) -> None:
    """``card`` (offered by ``seat``, or by the seat to move) is refused with ``reason`` and a
    message a person can read, and the state is exactly as before."""
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as caught:
        if seat is None:
            state.push(card)
        else:
            state.play(card, seat)
    assert caught.value.reason == reason, str(caught.value)
    assert str(caught.value)
    assert snapshot(state) == before, "an illegal play changed the state"


def random_state(rules: Rules, rng: random.Random, plays: int | None = None,
                 dealer: int | None = None) -> State:
    """A random deal with ``plays`` random legal cards played (a random number when None)."""
    if dealer is None:
        dealer = rng.randrange(rules.players)
    state = State(rules, deal_cards(rules, dealer, rng))
    if plays is None:
        plays = rng.randrange(rules.deck_size + 1)
    for _ in range(plays):
        state.push(rng.choice(state.legal_moves()))
    return state


def ref_declarer(dealer: int, players: int, bids: Sequence[int]) -> tuple[int, int]:
    """RULES.md section 4: bids go round from the dealer; the highest bid wins (of equal bids
    the first made); if everybody passes the dealer plays with a bid of 0."""
    best = max(bids)
    if best == 0:
        return dealer, 0
    return (dealer + list(bids).index(best)) % players, best


def assert_auction_refused(state: State, action: Callable[[], None], reason: str) -> None:
    before = snapshot(state)
    try:
        action()
    except IllegalMoveError as error:
        assert error.reason == reason, str(error)
        assert str(error)
    else:
        raise AssertionError(f"accepted, though it should be refused as {reason!r}")
    assert snapshot(state) == before, "a refused action changed the state"


def play_auction(state: State, rng: random.Random, check: bool = False) -> None:
    """Random bids (about half of them passes) and a random called card, the declarer's own
    at times; with ``check``, every kind of out-of-phase or out-of-turn action on the way is
    refused with its reason and changes nothing, and the contract is the reference's."""
    rules = state.rules
    n = rules.players
    if not rules.bidding:
        assert state.phase == "play"
        if check:
            assert_auction_refused(state, lambda: state.bid(0), "auction")
            assert_auction_refused(state, lambda: state.call(0), "auction")
        return
    dealer = state.deal.dealer
    some_card = mask_cards(state.hands[(dealer + 1) % n])[0]
    while state.phase == "bidding":
        seat = state.to_play
        assert seat == (dealer + len(state.bids)) % n
        if check:
            other = (seat + rng.randrange(1, n)) % n
            assert state.legal_moves() == () and state.legal_mask() == 0
            assert_auction_refused(state, lambda: state.push(some_card), "auction")
            assert_auction_refused(state, lambda: state.play(some_card, seat),  # noqa: B023
                                   "auction")
            assert_auction_refused(state, lambda: state.bid(0, other),  # noqa: B023
                                   "not_your_turn")
            assert_auction_refused(state, lambda: state.call(some_card), "auction")
            assert_auction_refused(state, lambda: state.bid(60), "bad_bid")
        highest = max(state.bids, default=0)
        low = highest + 1 if rules.bid_must_rise and highest else 61
        value = 0 if rng.random() < 0.5 or low > 120 else rng.randint(low, min(low + 20, 120))
        state.bid(value, seat)
    declarer, bid = ref_declarer(dealer, n, state.bids)
    assert state.phase == "calling" and state.to_play == declarer
    if check:
        assert_auction_refused(state, lambda: state.bid(0), "auction")
        assert_auction_refused(state, lambda: state.push(some_card), "auction")
        other = (declarer + rng.randrange(1, n)) % n
        assert_auction_refused(state, lambda: state.call(some_card, other), "not_your_turn")
        for bad in (-1, rules.deck_size, True):
            assert_auction_refused(state, lambda: state.call(bad), "bad_call")  # noqa: B023
    if rng.random() < 0.2:
        called = rng.choice(mask_cards(state.hands[declarer]))
    else:
        called = rng.randrange(rules.deck_size)
    state.call(called, declarer)
    contract = state.contract
    assert contract is not None
    assert (contract.declarer, contract.bid, contract.called_card) == (declarer, bid, called)
    holder = next((s for s in range(n) if state.hands[s] >> called & 1), declarer)
    assert state.partner == (None if holder == declarer else holder)
    assert state.teams == tuple(0 if s in (declarer, holder) else 1 for s in range(n))
    assert SUIT_LETTERS[state.trump] == ref_suit(called)
    if check:
        assert_auction_refused(state, lambda: state.bid(0), "auction")
        assert_auction_refused(state, lambda: state.call(called), "auction")


def find_plays(
    rules: Rules,
    deal: Deal,
    goal: Callable[[State], bool],
    feasible: Callable[[State], bool] = lambda state: True,
    seed: int = 0,
    budget: int = 200_000,
) -> State | None:
    """A finished play of ``deal`` whose final state meets ``goal``, found by a depth-first
    search in random move order; ``feasible`` prunes positions that cannot reach the goal."""
    rng = random.Random(seed)
    state = State(rules, deal)
    nodes = 0

    def search() -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget or not feasible(state):
            return False
        if state.is_finished():
            return goal(state)
        moves = list(state.legal_moves())
        rng.shuffle(moves)
        for card in moves:
            state.push(card)
            if search():
                return True
            state.pop()
        return False

    return state if search() else None


def play_to_points(
    rules: Rules, deal: Deal, team0: int, tricks0: int | None = None, seed: int = 0
) -> State:
    """A finished play of ``deal`` in which team 0 takes exactly ``team0`` points (and
    ``tricks0`` tricks, when given)."""
    total = rules.total_points

    def feasible(state: State) -> bool:
        taken = state.team_points()
        left = total - sum(taken)
        if not team0 - left <= taken[0] <= team0:
            return False
        if tricks0 is not None:
            won = state.team_tricks()[0]
            return won <= tricks0 <= won + rules.hand_size - state.trick_number
        return True

    def goal(state: State) -> bool:
        return state.team_points()[0] == team0 and (
            tricks0 is None or state.team_tricks()[0] == tricks0
        )

    for attempt in range(20):
        found = find_plays(rules, deal, goal, feasible, seed=seed * 1000 + attempt,
                           budget=20_000)
        if found is not None:
            return found
    raise AssertionError(f"no play found giving team 0 {team0} points")


FIXTURES = Path(__file__).parent / "fixtures"


def deal_to_points(
    rules: Rules, dealer: int, team0: int, tricks0: int | None = None, seed: int = 0
) -> State:
    """A deal by ``dealer``, played so that team 0 takes exactly ``team0`` points.

    Finding one is a search (up to seconds), so each is kept as a one-deal record under
    ``tests/fixtures/points/``: run with ``SUECA_WRITE_FIXTURES=1`` to write missing ones."""
    options = "-".join(f"{k}={v}" for k, v in sorted(rules.to_dict().items()))
    name = f"{options}-dealer{dealer}-team0_{team0}-tricks{tricks0}-seed{seed}.json"
    path = FIXTURES / "points" / name.replace(" ", "")
    if path.exists():
        deal_record = read(str(path)).deals[0]
        state = State(rules, deal_record.to_deal())
        for token in deal_record.plays:
            state.push(parse_card(token))
        return state
    state = search_deal_to_points(rules, dealer, team0, tricks0, seed)
    if os.environ.get("SUECA_WRITE_FIXTURES"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(GameRecord.from_states(rules, dealer, [state])), encoding="utf-8")
    return state


def search_deal_to_points(
    rules: Rules, dealer: int, team0: int, tricks0: int | None = None, seed: int = 0
) -> State:
    rng = random.Random(f"deal_to_points:{seed}")
    for _ in range(50):
        deal = deal_cards(rules, dealer, rng)
        try:
            return play_to_points(rules, deal, team0, tricks0, seed)
        except AssertionError:
            continue
    raise AssertionError(f"no deal found giving team 0 {team0} points")


def hand_cards(state: State, seat: int) -> list[Card]:
    return list(mask_cards(state.hands[seat]))


# ---- hand-built deals ---------------------------------------------------------------------

CLUBS_HIGH_TO_LOW = parse_cards("AC 7C KC JC QC 6C 5C 4C 3C")


def sweep_state(rules: Rules, dealer: int, lose_last: bool = False) -> State:
    """A deal that the leader's side takes whole: clubs are trump (the dealer's 2C is the
    turned card) and the leader holds every other club and one spade. He draws trumps nine
    times, then leads the spade: AS takes the tenth trick too; or, with ``lose_last``, he leads
    2S and the seat after him wins that trick with 5S over 3S and 4S: a trick without points.
    """
    leader = (dealer + 1) % 4
    last = parse_card("2S" if lose_last else "AS")
    reserve = dict(zip([(leader + k) % 4 for k in (1, 2, 3)],
                       parse_cards("5S 3S 4S"), strict=True)) if lose_last else {}
    hands: list[list[Card]] = [[] for _ in range(4)]
    hands[leader] = [*CLUBS_HIGH_TO_LOW, last]
    hands[dealer].append(parse_card("2C"))
    for seat, card in reserve.items():
        hands[seat].append(card)
    used = cards_mask(c for h in hands for c in h)
    rest = [c for c in range(40) if not used >> c & 1]
    for seat in ((leader + 1) % 4, (leader + 2) % 4, dealer):
        while len(hands[seat]) < 10:
            hands[seat].append(rest.pop())
    state = State(rules, Deal.from_cards(dealer, hands, parse_card("2C")))
    leads = [*CLUBS_HIGH_TO_LOW, last]
    while not state.is_finished():
        if state.to_play == leader:
            state.push(leads.pop(0))
        else:
            moves = [c for c in state.legal_moves() if c != reserve.get(state.to_play)]
            # Throw the richest card: the leader's side collects every point.
            state.push(max(moves or state.legal_moves(), key=rules.card_points.__getitem__))
    return state


# ---- people at a table: random answers through the referee ----------------------------------

RENUNCIA_RULES: dict[str, Rules] = {
    "standard": STANDARD.replace(renuncia=True),
    "italiana": preset("italiana").replace(renuncia=True),  # must_trump: a revoke may be a ruff
    "dummy": STANDARD.replace(renuncia=True, dummy=2),
    "dealer_dummy": STANDARD.replace(renuncia=True, open_hands="dealer_dummy"),
    "no_looking_back": STANDARD.replace(renuncia=True, no_looking_back=True),
    "penalties": STANDARD.replace(renuncia=True, renuncia_penalty=2, false_renuncia_penalty=3),
    "pontos": preset("pontos").replace(renuncia=True, renuncia_penalty=60),
    "redeal": preset("brazil").replace(renuncia=True, weak_hand_redeal=True,
                                       weak_hand_limits=(15, 15)),
    "double8": preset("double8").replace(renuncia=True, must_trump=True),
}
"""Tables playing renúncia (``renuncia``): every partnership table, with the options that
change what a revoke is, what a seat sees, or how a deal ends and scores."""


def person_action(request: Request, rng: random.Random, revoke: float = 0.0) -> Action:
    """A random answer to ``request``, as a person at the table might give it: a legal card,
    or (with chance ``revoke``, where the table allows it) a card that revokes; a pass about
    half the time, else a bid in the range; any card called; keep or, where allowed, ask."""
    if type(request) is AskCard:
        if request.revokes and rng.random() < revoke:
            return Play(rng.choice(request.revokes))
        return Play(rng.choice(request.legal))
    if type(request) is AskBid:
        if request.may_bid and rng.random() < 0.5:
            return Bid(rng.randint(request.lowest, min(request.lowest + 20, request.highest)))
        return Bid(0)
    if type(request) is AskCall:
        return Call(rng.randrange(request.deck_size))
    assert type(request) is AskRedeal
    return Redeal(request.may_ask and rng.random() < 0.5)


def play_people_deal(referee: Referee, rng: random.Random, revoke: float = 0.0,
                     denounce: float = 0.0, late: float = 0.0) -> State:
    """Deal the referee's next hand and play it to its end (or its annulment): bots where
    seated, people (random answers, :func:`person_action`) elsewhere. At a ``renuncia`` table
    after each card, with chance ``denounce``, a random person who may cries *renúncia!*, and
    with chance ``late`` one does once the last card is down."""
    state = referee.deal()
    people = [seat for seat, bot in enumerate(referee.seats) if bot is None]
    while (asked := referee.asked()) is not None:
        if referee.step():
            continue
        seat, request = asked
        referee.submit(seat, person_action(request, rng, revoke))
        if state.plays and rng.random() < denounce:
            criers = [s for s in people if referee.may_denounce(s)]
            if criers and not state.is_finished():
                referee.submit(rng.choice(criers), Denounce())
    if state.is_finished() and rng.random() < late:
        criers = [s for s in people if referee.may_denounce(s)]
        if criers:
            referee.submit(rng.choice(criers), Denounce())
    return state
