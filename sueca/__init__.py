"""sueca: the rules, records, bots and tables of Sueca, Portugal's national card game."""

from sueca.cards import (
    Card,
    CardMask,
    card_name,
    card_points,
    card_rank,
    card_suit,
    card_symbol,
    cards_mask,
    format_cards,
    format_mask,
    mask_cards,
    parse_card,
    parse_cards,
)
from sueca.deal import Deal, DealError, deal_cards
from sueca.infostate import InformationState
from sueca.match import Match, MatchOverError
from sueca.rules import PRESETS, STANDARD, Rules, RulesError, preset
from sueca.scoring import HandResult, score_hand
from sueca.state import IllegalMoveError, State
from sueca.trick import Trick

__version__ = "0.1.0"

__all__ = [
    "PRESETS", "STANDARD", "Card", "CardMask", "Deal", "DealError", "HandResult",
    "IllegalMoveError", "InformationState", "Match", "MatchOverError", "Rules", "RulesError",
    "State", "Trick", "card_name", "card_points", "card_rank", "card_suit", "card_symbol",
    "cards_mask", "deal_cards", "format_cards", "format_mask", "mask_cards", "parse_card",
    "parse_cards", "preset", "score_hand",
]
