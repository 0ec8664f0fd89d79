"""The tables beyond four seats (RULES.md sections 3 and 4): invariants over random games at
the double deck for eight and six, five-player Sueca Italiana and a three-player (dummy) table,
and hand-built deals for what the double deck adds (identical cards, the set-aside pile, cards
named by their face).

Every random game is checked position by position against the independent reference of
``core_support`` (legal cards, trick winners, card points), undone and redone, recorded and
re-checked, and sampled from every seat's information state.
"""

from __future__ import annotations

import json
import random

import pytest
from core_support import (
    SWEEP,
    TABLE_RULES,
    assert_refused,
    expected_refusal,
    play_auction,
    ref_legal,
    ref_points,
    ref_trick_winner,
    snapshot,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from sueca.cards import (
    DECK_SIZE,
    SUIT_LETTERS,
    Card,
    card_face,
    card_name,
    cards_mask,
    held_copy,
    mask_cards,
    parse_card,
    parse_cards,
)
from sueca.deal import Deal, DealError, deal_cards
from sueca.match import Match
from sueca.record import DealRecord, GameRecord, check, dumps, loads, replay
from sueca.rules import Rules, preset
from sueca.scoring import level, score_hand
from sueca.state import State
from sueca.worlds import sample_state

# ---- one position, one finished game ------------------------------------------------------


def check_cards_accounted(state: State) -> None:
    """The hands are disjoint, and with the cards played and the set-aside pile they make the
    decks, each card once."""
    rules = state.rules
    union = 0
    for hand in state.hands:
        assert union & hand == 0, "a card in two hands"
        union |= hand
    played = cards_mask(state.plays)
    assert len(state.plays) == played.bit_count(), "a card played twice"
    assert union & played == 0
    # The pile as it lies now: with two decks a play may renumber its copy (_TwoDeckState).
    aside = ((1 << rules.deck_size) - 1) & ~(union | played)
    assert aside.bit_count() == rules.set_aside
    assert sorted(c % 40 for c in mask_cards(aside)) == sorted(
        c % 40 for c in mask_cards(state.deal.set_aside(rules)))
    assert len(state.trick) == len(state.plays) % rules.players


def check_position(state: State, rng: random.Random) -> None:
    """The legal cards are the reference's, every other card is refused with its reason and
    changes nothing, and so is the right card offered by the wrong seat."""
    rules = state.rules
    seat = state.to_play
    hand = list(mask_cards(state.hands[seat]))
    reference = ref_legal(hand, state.trick, SUIT_LETTERS[state.trump], rules.must_trump)
    moves = state.legal_moves()
    assert set(moves) == reference and len(moves) == len(reference)
    assert state.legal_mask() == cards_mask(reference)
    illegal = [c for c in range(rules.deck_size) if c not in reference]
    for card in rng.sample(illegal, min(3, len(illegal))):
        assert_refused(state, card, expected_refusal(state, card))
    other = (seat + rng.randrange(1, rules.players)) % rules.players
    assert_refused(state, moves[0], "not_your_turn", seat=other)


def check_finished(state: State) -> None:
    """Every dealt card was played once, each trick has a card per seat, was legal and won by
    the reference's winner (of identical cards the first played), and the points add up."""
    rules = state.rules
    n = rules.players
    trump = SUIT_LETTERS[state.trump]
    assert state.is_finished() and state.phase == "over"
    dealt = 0
    for hand in state.deal.hands:
        dealt |= hand
    # Faces: with two decks the plays number the copies in play order (_TwoDeckState), not as
    # dealt; one deck's ids are faces already.
    assert sorted(c % 40 for c in state.plays) == sorted(c % 40 for c in mask_cards(dealt))
    hands = [[c % 40 for c in mask_cards(h)] for h in state.deal.hands]
    leader = state.first_leader
    seat_points = [0] * n
    tricks = state.tricks()
    assert len(tricks) == rules.hand_size
    for number, trick in enumerate(tricks):
        cards = state.plays[number * n:(number + 1) * n]
        assert list(trick.cards) == cards and len(cards) == n and trick.leader == leader
        for position, card in enumerate(cards):
            seat = (leader + position) % n
            faces = [c % 40 for c in cards[:position]]
            assert card % 40 in ref_legal(sorted(hands[seat]), faces, trump, rules.must_trump)
            hands[seat].remove(card % 40)
        winner = ref_trick_winner(cards, leader, trump, n)
        assert trick.winner == winner
        points = sum(ref_points(c, rules) for c in cards)
        if number == rules.hand_size - 1:
            points += rules.last_trick_bonus
        assert trick.points == points
        seat_points[winner] += points
        leader = winner
    assert state.seat_points == seat_points
    dealt_points = sum(ref_points(c, rules) for c in mask_cards(dealt))
    assert sum(seat_points) == dealt_points + rules.last_trick_bonus
    sides = [0, 0]
    for seat, points in enumerate(seat_points):
        sides[state.teams[seat]] += points
    assert state.team_points() == sides
    assert sum(state.team_points()) == dealt_points + rules.last_trick_bonus
    for card in (0, state.plays[-1], rules.deck_size - 1):
        assert_refused(state, card, "hand_over")


def check_infos(state: State, rng: random.Random) -> None:
    """From every seat's information state a sampled state has the very same public history
    (and gives that seat the very same information state back)."""
    for seat in range(state.players):
        info = state.information_state(seat)
        sampled = sample_state(info, rng)
        assert sampled.plays == state.plays and sampled.bids == state.bids
        assert sampled.contract == state.contract and sampled.phase == state.phase
        assert sampled.trick_winners == state.trick_winners
        assert sampled.seat_points == state.seat_points
        assert sampled.to_play == state.to_play and sampled.first_leader == state.first_leader
        assert sampled.hands[seat] == state.hands[seat]
        assert [h.bit_count() for h in sampled.hands] == [h.bit_count() for h in state.hands]
        assert sampled.information_state(seat) == info
        world = info.sample_world(rng)
        for other, hand in enumerate(world):
            assert hand & info.known[other] == info.known[other]
            for suit in range(4):
                if info.voids[other] >> suit & 1:
                    assert not any(card_face(c) // 10 == suit for c in mask_cards(hand))


def check_record(state: State) -> None:
    """The deal, written and read back, checks valid with the same tricks and score."""
    rules = state.rules
    text = dumps(GameRecord.from_states(rules, state.deal.dealer, [state]))
    assert json.loads(text)["players"] == rules.players
    report = check(loads(text))
    assert report["valid"], report["error"]
    deal = report["deals"][0]
    assert deal["finished"] == state.is_finished()
    assert deal["points"] == state.team_points()
    assert [t["winner"] for t in deal["tricks"]] == state.trick_winners
    assert [c for t in deal["tricks"] for c in t["cards"]] == [
        card_name(c) for c in state.plays[:len(state.trick_winners) * rules.players]
    ]
    if rules.bidding:
        assert deal["seat_points"] == state.seat_points and deal["bids"] == state.bids
    if state.is_finished():
        match = Match(rules, first_dealer=state.deal.dealer)
        match.start_deal(state.deal)
        replayed = State(rules, state.deal)
        for bid in state.bids:
            replayed.bid(bid)
        if state.contract is not None:
            replayed.call(state.contract.called_card)
        for card in state.plays:  # by face, as a record replays: the copy the player holds
            replayed.push(held_copy(replayed.hands[replayed.to_play], card))
        assert replayed.plays == state.plays
        result = match.finish_deal(replayed)
        assert deal["game_points"] == list(result.game_points)
        assert report["match"]["score"] == match.score
        assert len(report["match"]["score"]) == rules.score_slots


def play_table_game(rules: Rules, rng: random.Random, infos: float = 0.1) -> State:
    """One random deal with every check along the way; ``infos`` is the share of positions
    whose information states are sampled from every seat."""
    state = State(rules, deal_cards(rules, rng.randrange(rules.players), rng))
    check_cards_accounted(state)
    play_auction(state, rng, check=True)
    assert state.phase == "play"
    assert state.to_play == state.leader == state.first_leader
    start = snapshot(state)
    history = []
    while not state.is_finished():
        check_cards_accounted(state)
        check_position(state, rng)
        if rng.random() < infos:
            check_infos(state, rng)
        history.append(snapshot(state))
        seat = state.to_play
        trick = list(state.trick)
        card = rng.choice(state.legal_moves())
        state.play(card, seat)
        if len(trick) == rules.players - 1:
            leader = (seat + 1) % rules.players
            winner = ref_trick_winner([*trick, card], leader, SUIT_LETTERS[state.trump],
                                      rules.players)
            assert state.to_play == state.leader == winner
        else:
            assert state.to_play == (seat + 1) % rules.players
    check_cards_accounted(state)
    check_finished(state)
    check_infos(state, rng)
    check_record(state)
    # pop back to the start, through every trick boundary and the last trick, then redo.
    finished = snapshot(state)
    plays = list(state.plays)
    taken_back = []
    for index in range(len(plays) - 1, -1, -1):
        # pop gives the card as its player held it: with two decks the copy may differ from
        # the play's anonymous number, and pushing it again redoes the very same play.
        card = state.pop()
        assert card % 40 == plays[index] % 40
        taken_back.append(card)
        assert snapshot(state) == history[index]
    assert snapshot(state) == start
    for card in reversed(taken_back):
        state.push(card)
    assert snapshot(state) == finished
    return state


TABLE_NAMES = sorted(TABLE_RULES)


@pytest.mark.parametrize("name", TABLE_NAMES)
def test_random_games_at_every_table_obey_the_rules(name: str) -> None:
    rng = random.Random(f"tables:{name}")
    for _ in range(2):
        play_table_game(TABLE_RULES[name], rng)


@pytest.mark.slow
@pytest.mark.parametrize("name", TABLE_NAMES)
def test_many_random_games_at_every_table(name: str) -> None:
    rng = random.Random(f"many tables:{name}")
    for _ in range(40 * SWEEP):
        play_table_game(TABLE_RULES[name], rng, infos=0.05)


@st.composite
def any_table_rules(draw: st.DrawFn) -> Rules:
    """A larger table with any combination of the options that change its deal, play,
    information or score."""
    variant = draw(st.sampled_from(["double8", "double6", "italiana5"]))
    options: dict[str, object] = {"variant": variant}
    for name, values in (
        ("direction", ["counterclockwise", "clockwise"]),
        ("must_trump", [False, True]),
        ("open_hands", [False, True]),
        ("review_tricks", [False, True]),
        ("last_trick_bonus", [0, 10]),
        ("maria_de_copas", [0, 5]),
        ("sweep", ["points", "bandeira", "points_wins_match"]),
        ("scoring", ["games", "pontos"]),
    ):
        if variant == "italiana5" and name in ("sweep", "scoring"):
            continue  # the contract scores a bidding table: those options are refused there
        if draw(st.booleans()):
            options[name] = draw(st.sampled_from(values))
    if variant == "italiana5":
        options["bid_must_rise"] = draw(st.booleans())
        options["deal_packets"] = draw(st.sampled_from([1]))
    else:
        options["trump_card"] = draw(st.sampled_from(["dealer_last", "dealer_first"]))
        options["redeal_point_trump"] = draw(st.booleans())
        options["dummy"] = draw(st.one_of(st.none(), st.integers(0, 5)))
        if variant == "double8":
            options["deal_packets"] = draw(st.sampled_from([1, 5, 10]))
    return Rules.from_dict(options)


@settings(max_examples=max(10, settings.default.max_examples // 4))  # whole checked games
@given(rules=any_table_rules(), seed=st.integers(0, 2**32))
def test_any_combination_of_options_at_the_larger_tables(rules: Rules, seed: int) -> None:
    play_table_game(rules, random.Random(seed), infos=0.03)


@given(name=st.sampled_from(TABLE_NAMES), seed=st.integers(0, 2**32), plays=st.integers(0, 80))
def test_any_position_refuses_and_undoes_exactly(name: str, seed: int, plays: int) -> None:
    """At a random position of any table: every illegal card is refused with its reason, every
    legal card is taken and taken back exactly, and a copy shares nothing."""
    rules = TABLE_RULES[name]
    rng = random.Random(seed)
    state = State(rules, deal_cards(rules, rng.randrange(rules.players), rng))
    play_auction(state, rng)
    for _ in range(min(plays, rules.cards_in_play)):
        state.push(rng.choice(state.legal_moves()))
    legal = set(state.legal_moves())
    for card in range(rules.deck_size):
        if card not in legal:
            assert_refused(state, card, expected_refusal(state, card))
    for card in (-1, rules.deck_size, 10_000):
        assert_refused(state, card, "hand_over" if state.is_finished() else "not_in_hand")
    before = snapshot(state)
    copy = state.copy()
    for card in legal:
        state.push(card)
        assert state.pop() == card
        assert snapshot(state) == before
    if legal:
        copy.push(min(legal))
        assert snapshot(state) == before


# ---- the double deck, hand-built ------------------------------------------------------------

DOUBLE8 = preset("double8")
DOUBLE6 = preset("double6")


def double_deal(rules: Rules, first: dict[int, str], dealer: int = 7, trump: str = "2C",
                aside: str = "", voids: dict[int, str] | None = None) -> Deal:
    """A deal whose hands start with the named cards (a face named twice is both copies);
    the rest of each hand is filled from the unused cards, seats with ``voids`` (suit letters)
    first and without those suits. The dealer holds the turned card ``trump``; ``aside``
    names the cards set aside at six seats."""
    hands: list[list[Card]] = [[] for _ in range(rules.players)]
    used = 0

    def take(face: Card) -> Card:
        nonlocal used
        card = face if not used >> face & 1 else face + DECK_SIZE
        assert not used >> card & 1, f"{card_name(face)} named three times"
        used |= 1 << card
        return card

    for seat, text in first.items():
        hands[seat] = [take(c) for c in parse_cards(text)]
    trump_card = take(parse_card(trump))
    hands[dealer].append(trump_card)
    for card in parse_cards(aside):
        take(card)
    rest = [c for c in range(rules.deck_size) if not used >> c & 1]
    voids = voids or {}
    for seat in sorted(range(rules.players), key=lambda s: s not in voids):
        allowed = [c for c in rest if SUIT_LETTERS[card_face(c) // 10] not in voids.get(seat, "")]
        while len(hands[seat]) < rules.hand_size:
            card = allowed.pop()
            rest.remove(card)
            hands[seat].append(card)
    deal = Deal.from_cards(dealer, hands, trump_card)
    deal.validate(rules)
    return deal


def play_trick(state: State, faces: dict[int, str]) -> None:
    """Play one trick: the named face for the seats given (the copy each holds), the lowest
    legal card for the others."""
    for _ in range(state.players):
        seat = state.to_play
        if seat in faces:
            state.play(held_copy(state.hands[seat], parse_card(faces[seat])), seat)
        else:
            state.play(state.legal_moves()[0], seat)


@pytest.mark.parametrize("swap", [False, True])
def test_of_two_identical_winning_cards_the_first_played_wins(swap: bool) -> None:
    """Seats 0 and 2 both hold the ace of spades: seat 0 leads it and seat 2's copy, played
    later, does not take the trick, whichever copy each holds."""
    # Everybody holds a spade, so nobody trumps.
    deal = double_deal(DOUBLE8, {0: "AS", 1: "2S", 2: "AS", 3: "3S", 4: "4S", 5: "5S",
                                 6: "6S", 7: "QS"})
    ace = parse_card("AS")
    if swap:  # the second deck's copy to seat 0
        both = (1 << ace) | (1 << (ace + DECK_SIZE))
        hands = list(deal.hands)
        hands[0] ^= both
        hands[2] ^= both
        deal = Deal(deal.dealer, tuple(hands), deal.trump_card)
    state = State(DOUBLE8, deal)
    assert state.to_play == 0
    play_trick(state, {0: "AS", 2: "AS"})
    assert state.trick_winners == [0], "the first AS played keeps the trick"
    # Plays number the copies in play order, whichever copy was dealt to whom.
    assert state.tricks()[0].cards[0] == ace


@pytest.mark.parametrize("swap", [False, True])
def test_of_two_identical_trumps_the_first_played_wins(swap: bool) -> None:
    """Clubs are trump; seats 1 and 3 are void in spades and both trump seat 0's ace with the
    seven of clubs: seat 1's, played first, wins the trick, whichever copy it is."""
    deal = double_deal(DOUBLE8, {0: "AS", 1: "7C", 3: "7C"}, voids={1: "S", 3: "S"})
    seven = parse_card("7C")
    if swap:
        both = (1 << seven) | (1 << (seven + DECK_SIZE))
        hands = list(deal.hands)
        hands[1] ^= both
        hands[3] ^= both
        deal = Deal(deal.dealer, tuple(hands), deal.trump_card)
    state = State(DOUBLE8, deal)
    assert SUIT_LETTERS[state.trump] == "C"
    play_trick(state, {0: "AS", 1: "7C", 3: "7C"})
    assert state.trick_winners == [1]
    assert state.seat_points[1] == sum(state.rules.card_points[c] for c in state.plays)


def test_the_record_names_faces_and_plays_resolve_to_the_copy_held() -> None:
    """A hand naming a face twice holds both copies; two hands naming it share the two
    copies; a third naming is refused; a play names the face and the engine takes the copy
    the player holds."""
    rules = DOUBLE8
    deal = double_deal(rules, {0: "AS AS", 1: "7H", 2: "7H"})
    record = DealRecord.from_state(State(rules, deal))
    assert record.hands[0].split().count("AS") == 2
    parsed = record.to_deal(decks=2)
    assert parsed.hands[0] >> parse_card("AS") & 1 and parsed.hands[0] >> (
        parse_card("AS") + DECK_SIZE) & 1
    sevens = [parsed.hands[s] >> parse_card("7H") & 1 for s in (1, 2)]
    sevens2 = [parsed.hands[s] >> (parse_card("7H") + DECK_SIZE) & 1 for s in (1, 2)]
    # One copy each; which is which is a coin tossed from the faces (deal.number_copies).
    assert sorted(zip(sevens, sevens2, strict=True)) == [(0, 1), (1, 0)]
    assert parsed == record.to_deal(decks=2), "the same faces always number the same way"
    parsed.validate(rules)
    three = DealRecord(record.dealer, list(record.hands), record.trump_card)
    three.hands[3] = "AS " + " ".join(three.hands[3].split()[1:])
    with pytest.raises(DealError, match="three times"):
        three.to_deal(decks=2)
    # At one deck a face named twice is an error, not a second copy.
    with pytest.raises(DealError, match="twice"):
        DealRecord(0, ["AS AS"], "AS").to_deal(decks=1)
    # Seat 2 holds one copy of 7H: "7H" resolves to that copy.
    state = State(rules, parsed)
    while state.to_play != 2:
        state.push(state.legal_moves()[0])
    seven = parse_card("7H")
    copy = seven if parsed.hands[2] >> seven & 1 else seven + DECK_SIZE
    played = held_copy(state.hands[2], seven)
    assert played == copy
    data = json.loads(dumps(GameRecord.from_states(rules, parsed.dealer, [state])))
    data["deals"][0]["plays"].append("7H")
    assert state.is_legal(played)  # a spade was led and seat 2 holds none
    replayed = replay(loads(json.dumps(data)))
    assert replayed.error is None, replayed.error
    assert replayed.states[0].plays[-1] == copy
    # A face the player holds neither copy of is refused as not in hand.
    data["deals"][0]["plays"][-1] = "AS"
    report = check(loads(json.dumps(data)))
    assert not report["valid"] and "not in seat 2's hand" in report["error"]["reason"]


@pytest.mark.parametrize("name", ["double8", "double6"])
def test_which_copy_a_seat_holds_says_nothing_about_the_other_hands(name: str) -> None:
    """A seat sees its own cards' ids. Were the copies numbered by seat order, holding a
    face's first copy alone would tell seat 5 that seats 0 to 4 hold none of it (and the
    world sampler, which knows nothing of such a rule, would draw impossible worlds): every
    seat holding one copy of a face must hold either copy about as often."""
    rules = preset(name)
    rng = random.Random(f"copies:{name}")
    first = [0] * rules.players
    single = [0] * rules.players
    for _ in range(150):
        deal = deal_cards(rules, rng.randrange(rules.players), rng)
        for seat, hand in enumerate(deal.hands):
            for face in range(DECK_SIZE):
                ours = hand >> face & 1, hand >> (face + DECK_SIZE) & 1
                if ours[0] != ours[1]:
                    single[seat] += 1
                    first[seat] += ours[0]
    for seat in range(rules.players):
        assert abs(first[seat] / single[seat] - 0.5) < 0.08, (seat, first[seat], single[seat])


def test_which_copy_is_turned_says_nothing_about_the_twin() -> None:
    """The turned card's id is public. Where the dealer holds both copies, either may be the
    turned one (a coin), so a turned second copy does not prove that he holds no twin: given
    "holds both", the turned copy is the second about half the time."""
    rules = preset("double8")
    rng = random.Random("turned twin")
    both = second = 0
    while both < 400:
        deal = deal_cards(rules, rng.randrange(8), rng)
        assert deal.trump_card is not None
        face = deal.trump_card % DECK_SIZE
        hand = deal.hands[deal.dealer]
        if hand >> face & 1 and hand >> (face + DECK_SIZE) & 1:
            both += 1
            second += deal.trump_card >= DECK_SIZE
    assert abs(second / both - 0.5) < 0.1, (second, both)



@pytest.mark.parametrize("which", ["turned", "twin"])
def test_the_dealer_playing_either_twin_plays_the_turned_card(which: str) -> None:
    """Where the dealer holds the turned card and its twin, the first of the two he plays,
    whichever copy he picks, is the turned card as the table sees it: nobody can tell
    identical cards apart, so the twin he keeps stays hidden (were the turned card left in his
    hand, every seat would learn he held two). Undoing the play restores everything."""
    rules = preset("double8")
    rng = random.Random("dealer's twins")
    while True:
        deal = deal_cards(rules, rng.randrange(8), rng)
        assert deal.trump_card is not None
        face = deal.trump_card % DECK_SIZE
        twins = (1 << face) | (1 << (face + DECK_SIZE))
        if deal.hands[deal.dealer] & twins == twins:
            break
    state = State(rules, deal)
    while state.to_play != deal.dealer or not state.legal_mask() & twins:
        legal = [c for c in state.legal_moves() if c % DECK_SIZE != face]
        state.push(rng.choice(legal))
    before = snapshot(state)
    turned = state.turned_card
    assert turned is not None
    card = turned if which == "turned" else turned ^ face ^ (face + DECK_SIZE)
    state.push(card)
    assert state.turned_card == state.plays[-1]
    assert not state.trump_card_held()
    for seat in range(rules.players):
        if seat != deal.dealer:
            assert not state.information_state(seat).known[deal.dealer] & twins
    assert state.hands[deal.dealer] & twins  # he still holds the twin, unseen
    assert state.pop() == card
    assert snapshot(state) == before

@pytest.mark.parametrize(("points", "in_play", "games"), [
    ((121, 119), 240, (1, 0)),
    ((120, 120), 240, (0, 0)),  # exactly half: a tie
    ((180, 60), 240, (1, 0)),
    ((181, 59), 240, (2, 0)),
    ((239, 1), 240, (2, 0)),
    ((0, 240), 240, (0, 4)),
    # Set aside: an ace and a seven (21 points) leave 219 in play.
    ((110, 109), 219, (1, 0)),
    ((109, 110), 219, (0, 1)),
    ((165, 54), 219, (2, 0)),  # 4 * 165 = 660 > 3 * 219 = 657
    ((164, 55), 219, (1, 0)),
    ((219, 0), 219, (4, 0)),
    # An ace and a king set aside: 225 in play, an odd total has no tie; a 7 alone: 230.
    ((115, 115), 230, (0, 0)),
    ((116, 114), 230, (1, 0)),
])
def test_double_deck_thresholds_follow_the_points_in_play(
    points: tuple[int, int], in_play: int, games: tuple[int, int]
) -> None:
    assert sum(points) == in_play
    result = score_hand(DOUBLE6, points, (7, 6))
    assert result.game_points == games
    assert result.tie == (games == (0, 0))
    assert level(DOUBLE6, points[0], in_play) == games[0]


def test_double6_scores_random_deals_on_the_points_dealt() -> None:
    """Over random six-player deals the game points follow the dealt points (the set-aside
    pile's points excluded), through the match and through the record's check alike."""
    rng = random.Random("double6 scores")
    seen_aside_points = False
    for _ in range(12):
        match = Match(DOUBLE6, first_dealer=rng.randrange(6))
        state = match.new_deal(rng)
        while not state.is_finished():
            state.push(rng.choice(state.legal_moves()))
        aside = state.deal.set_aside(DOUBLE6)
        aside_points = sum(ref_points(c, DOUBLE6) for c in mask_cards(aside))
        seen_aside_points |= aside_points > 0
        in_play = 240 - aside_points
        points = state.team_points()
        assert sum(points) == in_play
        result = match.finish_deal(state)
        games = [0, 0]
        for side in (0, 1):
            if points[side] == in_play:
                games[side] = 4
            elif 4 * points[side] > 3 * in_play:
                games[side] = 2
            elif 2 * points[side] > in_play:
                games[side] = 1
        assert list(result.game_points) == games
        report = check(loads(dumps(GameRecord.from_states(DOUBLE6, state.deal.dealer,
                                                          [state]))))
        assert report["deals"][0]["game_points"] == games
    assert seen_aside_points


def test_the_set_aside_cards_are_nobodys_and_unseen() -> None:
    deal = double_deal(DOUBLE6, {0: "AS"}, dealer=5, aside="AH 7H")
    aside = deal.set_aside(DOUBLE6)
    assert [card_name(c) for c in mask_cards(aside)] == ["7H", "AH"]
    state = State(DOUBLE6, deal)
    for seat in range(6):
        info = state.information_state(seat)
        assert not any(k & aside for k in info.known)
        assert info.unseen & aside == aside
        world = info.sample_world(random.Random(seat))
        assert len(world) == 6
        assert sum(h.bit_count() for h in world) == 78
    # A seventh... a deal missing more cards than the pile holds is refused.
    hands = list(deal.hands)
    hands[0] &= hands[0] - 1
    with pytest.raises(DealError):
        Deal(5, tuple(hands), deal.trump_card).validate(DOUBLE6)
    # A card of a third deck is no card of this table.
    with pytest.raises(DealError):
        Deal(5, (*hands[:5], hands[5] | 1 << 80), deal.trump_card).validate(DOUBLE6)
