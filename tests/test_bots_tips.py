"""The seeds' tips as options of the heuristic (``heuristic:tips=...``, issue 20 §2): in each
constructed position the tip changes the card as seeds 002/003 say, and the plain heuristic
plays the other card (so ``heuristic`` without options stays as it was)."""

from __future__ import annotations

import re

import pytest

from sueca.bots import make_bot
from sueca.bots.heuristic import TIPS, HeuristicBot, parse_tips
from sueca.cards import Card, card_name, parse_card, parse_cards
from sueca.deal import Deal
from sueca.infostate import InformationState
from sueca.rules import STANDARD
from sueca.state import State


def _position(hands: dict[int, str], dealer: int, trump_card: str, plays: str
              ) -> InformationState:
    """A deal whose named cards are fixed (each seat's ``hands`` text; seat 0's hand whole)
    and the rest dealt out in order to the seats short of ten cards, played on by ``plays``;
    the information state of the seat to play."""
    fixed = {seat: parse_cards(text) for seat, text in hands.items()}
    taken = {card for cards in fixed.values() for card in cards}
    rest = iter(c for c in range(40) if c not in taken)
    masks = []
    for seat in range(4):
        cards = list(fixed.get(seat, []))
        while len(cards) < 10:
            cards.append(next(rest))
        masks.append(sum(1 << c for c in cards))
    state = State(STANDARD, Deal(dealer, tuple(masks), parse_card(trump_card)))
    for card in parse_cards(plays):
        state.play(card)
    return state.information_state(state.to_play)


def _cards(info: InformationState, tips: str) -> tuple[Card, Card]:
    plain = HeuristicBot(seed=0).choose(info)
    tipped = make_bot(f"heuristic:tips={tips}", seed=0).choose(info)
    return plain, tipped


def test_protect_the_partners_aces_plays_high_on_a_possible_singleton() -> None:
    # Seed 002/003: "if your partner leads a plain card that could be his singleton, play
    # your highest card of that suit to keep the lead in the partnership". Partner (seat 2)
    # leads his first heart, the 3; seat 3 plays the 4; we hold the 7 and the 2.
    info = _position({0: "7H 2H 2S 3S 4S 5S 2D 3D 4D 5D", 2: "3H", 3: "4H", 1: "AH 2C"},
                     dealer=1, trump_card="2C", plays="3H 4H")
    assert info.seat == 0
    plain, tipped = _cards(info, "aces")
    assert card_name(plain) == "2H"  # the plain heuristic: the opponents' trick, give nothing
    assert card_name(tipped) == "7H"


def test_the_partner_tip_leaves_a_lead_of_the_partners_master_alone() -> None:
    # The partner leads the ace: it is the suit's master and needs no help.
    info = _position({0: "7H 2H 2S 3S 4S 5S 2D 3D 4D 5D", 2: "AH", 3: "4H", 1: "2C"},
                     dealer=1, trump_card="2C", plays="AH 4H")
    plain, tipped = _cards(info, "aces")
    assert plain == tipped


def test_read_the_partners_third_hand_play_continues_his_suit() -> None:
    # Seed 002/003: "if your partner plays third in a trick, assume he signals that the suit
    # should be continued". We led the 2 of diamonds, partner played the king third hand and
    # took the trick; we win the next with the ace of hearts and lead again.
    info = _position({0: "2D 5D 6D AH 2S 4S 5S 6S 2C QC", 1: "4D 2H", 2: "KD KH", 3: "3D 3H 4C"},
                     dealer=3, trump_card="4C", plays="2D 4D KD 3D KH 3H AH 2H")
    assert info.seat == 0 and not info.trick
    plain, tipped = _cards(info, "partner")
    assert card_name(plain) == "2S"  # a blank from the longest suit
    assert card_name(tipped) == "5D"


def test_read_the_partners_discard_leads_away_from_his_suit() -> None:
    # Partner, void in hearts, threw the 2 of spades on our heart lead: not spades, he says.
    # We win the next trick with the ace of diamonds and lead a blank diamond, not a spade.
    info = _position({0: "2H AD 3S 4S 5S 6S 2D 3D 4D QC", 1: "3H 6D",
                      2: "2S 7S KS QD JD 5C 6C 4C 3C 2C", 3: "KH 5D JC"},
                     dealer=3, trump_card="JC", plays="2H 3H 2S KH 5D AD 6D QD")
    assert info.seat == 0 and not info.trick
    plain, tipped = _cards(info, "partner")
    assert card_name(plain) == "3S"  # a blank from the longest suit
    assert card_name(tipped) == "2D"


def test_count_trumps_cashes_the_ace_before_drawing_trumps() -> None:
    # Seed 002/003: "when fewer than 4 trumps remain in the opponents' hands, you can safely
    # cash your aces and sevens". After our queen of clubs drew three trumps, two are left
    # out; long in trumps, the plain heuristic draws them with the ace.
    info = _position({0: "QC AC 7C KC JC AH 2S 3S 2H 2D", 1: "2C", 2: "3C", 3: "4C"},
                     dealer=3, trump_card="4C", plays="QC 2C 3C 4C")
    assert info.seat == 0 and not info.trick
    plain, tipped = _cards(info, "count")
    assert card_name(plain) == "AC"
    assert card_name(tipped) == "AH"


def test_count_trumps_waits_while_four_are_out() -> None:
    # The same hand before any trump has fallen: seven trumps are out, the tip says nothing.
    info = _position({0: "QC AC 7C KC JC AH 2S 3S 2H 2D", 1: "2C", 2: "3C", 3: "4C"},
                     dealer=3, trump_card="4C", plays="")
    plain, tipped = _cards(info, "count")
    assert plain == tipped


# Seven tricks all ours (109 points, the opponents none); we keep the master trump (the queen;
# the 6 of clubs is still out) and the master diamond (the king), and a blank spade.
SWEEP_HANDS = {
    0: "AC KC AS KS 5S AH KH AD QC KD",
    1: "2C 4C 6C QS 3S QH 3H 2D JD QD",
    2: "7C JC 7S JS 6S 7H JH 5H 7D 4D",
    3: "3C 5C 2S 4S 2H 4H 6H 3D 5D 6D",
}
SWEEP_PLAYS = ("AC 2C 7C 3C  KC 4C JC 5C  AS QS 7S 2S  KS 3S JS 4S  AH QH 7H 2H  KH 3H JH 4H"
               "  AD 2D 7D 3D")


def test_capotao_past_90_with_control_draws_the_last_trump() -> None:
    # Seed 002/003: "chase the capotão only when your team already has 90+ points and you
    # control all the remaining high cards". The plain heuristic leads its blank spade (both
    # opponents are void in spades: the 6 of clubs may ruff); pressing, we draw the trump.
    info = _position(SWEEP_HANDS, dealer=3, trump_card="3C", plays=SWEEP_PLAYS)
    assert info.seat == 0 and not info.trick
    assert sum(info.seat_points[s] for s in (0, 2)) == 109
    plain, tipped = _cards(info, "capotao")
    assert card_name(plain) == "5S"
    assert card_name(tipped) == "QC"


def test_capotao_is_not_chased_short_of_91() -> None:
    # The same cards a trick earlier: 88 points, not yet past 90, so nothing is risked.
    plays = SWEEP_PLAYS.rsplit("  ", 1)[0]
    info = _position(SWEEP_HANDS, dealer=3, trump_card="3C", plays=plays)
    plain, tipped = _cards(info, "capotao")
    assert plain == tipped


def test_tips_parse_all_none_and_names() -> None:
    assert parse_tips("all") == frozenset(TIPS)
    assert parse_tips("none") == frozenset()
    assert parse_tips("aces/count") == {"aces", "count"}
    with pytest.raises(ValueError, match="unknown tip 'ruff'"):
        make_bot("heuristic:tips=aces/ruff")
    with pytest.raises(ValueError, match="heuristic has no option 'depth'"):
        make_bot("heuristic:depth=2")
    assert make_bot("heuristic", seed=1).tips == frozenset()  # type: ignore[attr-defined]


def test_tips_refuse_an_empty_list_and_a_repeated_tip() -> None:
    for spec, words in [("heuristic:tips=", "tips is empty (write tips=none"),
                        ("heuristic:tips= ", "tips is empty"),
                        ("heuristic:tips=aces/aces", "names the tip 'aces' more than once"),
                        ("heuristic:tips=count/aces/count", "names the tip 'count' more"),
                        ("heuristic:tips=aces//count", "has an empty tip name"),
                        ("heuristic:tips=aces/", "has an empty tip name")]:
        with pytest.raises(ValueError, match=re.escape(words)):
            make_bot(spec)
    bot = HeuristicBot(seed=1, tips=frozenset({"aces"}))
    with pytest.raises(ValueError):
        bot.configure({"tips": "aces/aces"})
    assert bot.tips == {"aces"}  # a refused option changes nothing
