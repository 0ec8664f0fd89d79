"""The card-by-card review of finished deals (docs/review.md): for every card a seat played,
what each legal card was worth *from what that seat knew*, the points lost, a label, the
facts behind the better card in plain words, the double-dummy view apart, the game-point
lines the deal's result crossed, and an evaluation graph (:mod:`sueca.review.svg`)."""

from sueca.review.deal import (
    LABELS,
    Budget,
    CardReview,
    Crossing,
    DealReview,
    DoubleDummy,
    ReviewError,
    Thresholds,
    review_deal,
)
from sueca.review.estimate import Estimate, estimate
from sueca.review.facts import KEYS, Fact, card_facts
from sueca.review.match import finished_deals, review_record, review_states, reviewable
from sueca.review.report import deal_json, reviews_json

__all__ = [
    "KEYS", "LABELS", "Budget", "CardReview", "Crossing", "DealReview", "DoubleDummy",
    "Estimate", "Fact", "ReviewError", "Thresholds", "card_facts", "deal_json", "estimate",
    "finished_deals", "review_deal", "review_record", "review_states", "reviewable",
    "reviews_json",
]
