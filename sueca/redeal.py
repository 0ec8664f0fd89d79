"""The redeal on a weak hand (``weak_hand_redeal``, RULES.md section 5; Brazilian tables).

Before the opening lead each seat in turn, from the opening leader round the table, is asked
whether it wants a new deal. The opening leader may ask holding fewer than
``weak_hand_limits[0]`` card points (10 by default), any other seat with fewer than
``weak_hand_limits[1]`` (5). Every seat answers, eligible or not (a seat that may only keep
still says so), so the order of the questions tells nobody who could have asked. The first ask
annuls the deal: nobody scores, and the same dealer shuffles and deals again.

These functions are the rule; :class:`~sueca.state.State` asks the questions with them.

>>> from sueca.cards import parse_mask
>>> from sueca.rules import preset
>>> rules = preset("brazil").replace(weak_hand_redeal=True)
>>> redeal_order(rules, first_leader=3)
(3, 0, 1, 2)
>>> weak = parse_mask("KS QS 6S 5S 4S 3S 2S 6H 5H 4H")  # 4 + 2 = 6 points
>>> redeal_error(rules, weak, seat=3, first_leader=3) is None
True
>>> print(redeal_error(rules, weak, seat=0, first_leader=3)[:60])
seat 0 holds 6 card points: a seat other than the opening le
"""

from __future__ import annotations

from sueca.cards import CardMask, mask_cards
from sueca.rules import Rules

KEEP = False
ASK = True


def redeal_order(rules: Rules, first_leader: int) -> tuple[int, ...]:
    """The seats in the order they are asked: the opening leader first, then round the table
    in the order of play."""
    n = rules.players
    return tuple((first_leader + k) % n for k in range(n))


def hand_points(rules: Rules, hand: CardMask) -> int:
    """The card points of a hand under ``rules`` (a Maria de Copas bonus included: it is a
    card point like the others)."""
    points = rules.card_points
    return sum(points[card] for card in mask_cards(hand))


def redeal_limit(rules: Rules, seat: int, first_leader: int) -> int:
    """A seat may ask for a new deal holding fewer card points than this."""
    leader_limit, other_limit = rules.weak_hand_limits
    return leader_limit if seat == first_leader else other_limit


def may_ask(rules: Rules, hand: CardMask, seat: int, first_leader: int) -> bool:
    """Whether ``seat``, holding ``hand`` as dealt, may ask for a new deal."""
    return hand_points(rules, hand) < redeal_limit(rules, seat, first_leader)


def redeal_error(rules: Rules, hand: CardMask, seat: int, first_leader: int) -> str | None:
    """Why ``seat`` may not ask for a new deal holding ``hand`` (``None`` when it may)."""
    if not rules.weak_hand_redeal:
        return "this table does not play the redeal on a weak hand (weak_hand_redeal)"
    points = hand_points(rules, hand)
    limit = redeal_limit(rules, seat, first_leader)
    if points < limit:
        return None
    who = "the opening leader" if seat == first_leader else "a seat other than the opening leader"
    return (f"seat {seat} holds {points} card points: {who} may ask for a new deal only "
            f"with fewer than {limit}")
