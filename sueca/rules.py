"""The rules object: every option of RULES.md as one immutable value, and the named presets.

A table is configured exactly as RECORD.md's ``rules`` field says: a preset name under
``variant`` and overrides by option name.

>>> rules = Rules.from_dict({"variant": "standard", "must_trump": True})
>>> rules.must_trump, rules.match_target
(True, 4)
>>> Rules.from_dict({"variant": "pontos"}).match_target
500
>>> Rules.from_dict({"variant": "standard", "trumps": 1})
Traceback (most recent call last):
...
sueca.rules.RulesError: unknown rules option 'trumps'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar, cast

from sueca.cards import DECK_SIZE, RANK_POINTS

T = TypeVar("T")


class RulesError(ValueError):
    """An unknown preset, an unknown option or a value that an option does not take."""


# Each option's allowed values, where they are a closed set. Option names are a stable contract
# (RECORD.md's rules field), so they follow RULES.md's suggested names.
_CHOICES: Final[dict[str, tuple[object, ...]]] = {
    "direction": ("counterclockwise", "clockwise"),
    "deal_packets": (1, 5, 10),
    "trump_card": ("dealer_last", "dealer_first"),
    "sweep": ("points", "bandeira", "points_wins_match"),
    "scoring": ("games", "pontos"),
    "players": (4, 5, 6, 8),
    "decks": (1, 2),
}

POINTS_TARGET_DEFAULT: Final = 500
# The largest renúncia penalty, in games: beyond a few matches' worth it is a typing slip.
MAX_PENALTY: Final = 100
GAMES_TARGET_DEFAULT: Final = 4
# Upper bounds of the numeric options, checked where a table is set up: past them an option is
# a typing slip (or a lobby request meant to make a table that never ends), not a game.
MAX_GAMES_TARGET: Final = 1000  # games (and any bid's score in games)
MAX_POINTS_TARGET: Final = 100_000  # card points, Sueca de Pontos
MAX_CARD_POINTS: Final = 120  # a bonus or a weak-hand limit: at most a whole deck's card points


@dataclass(frozen=True)
class Rules:
    """One table's rules. Build it with :meth:`from_dict` or :func:`preset`."""

    variant: str = "standard"
    # The table: seat count, partnership of each seat, decks and hand size are data, so that
    # larger tables need no rewrite of the engine. Cards the hands do not take (two at the
    # six-player double-deck table) are set aside unseen. ``teams`` is empty where an auction
    # makes the sides of each deal (``bidding``).
    players: int = 4
    teams: tuple[int, ...] = (0, 1, 0, 1)
    decks: int = 1
    hand_size: int = 10
    # Five-player Sueca Italiana: an auction for the lead, a called card for trump and a
    # secret partner, game points by the bid's band (RULES.md section 4).
    bidding: bool = False
    bid_must_rise: bool = True
    bid_scores: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    # The deal.
    direction: str = "counterclockwise"
    deal_packets: int = 1
    trump_card: str = "dealer_last"
    redeal_point_trump: bool = False
    # Brazil, sometimes: before the opening lead a seat holding a weak hand may ask for a new
    # deal (RULES.md section 5, sueca.redeal): the opening leader with fewer card points than
    # the first limit, any other seat with fewer than the second.
    weak_hand_redeal: bool = False
    weak_hand_limits: tuple[int, int] = (10, 5)
    # The play.
    must_trump: bool = False
    review_tricks: bool = False
    # À Descoberta: every hand face up (true, for teaching), or as seeds 002/003 read it,
    # "the dealer and the dummy play with open hands" ("dealer_dummy": the dealer's hand and his
    # partner's are face up to everyone).
    open_hands: bool | str = False
    # No looking back (RULES.md section 1, "tricks already taken may not be looked at again"):
    # a trick is gathered the moment it is taken, so no seat is shown it again, not even until
    # the next lead; off, the trick just taken stays on the cloth until then (as today).
    no_looking_back: bool = False
    # Renúncia (RULES.md section 5): a person may play a card that fails to follow suit (or to
    # trump under must_trump); it is told to nobody, and any seat of the other side may
    # denounce it until the next deal starts. A proven revoke ends the deal: the offenders
    # score nothing and the other side scores renuncia_penalty games; a wrong denunciation
    # gives the other side false_renuncia_penalty games.
    renuncia: bool = False
    renuncia_penalty: int = 4
    false_renuncia_penalty: int = 1
    # Three players: this seat is a dummy, face up after the opening lead, played by its partner.
    dummy: int | None = None
    # The score.
    scoring: str = "games"
    match_target: int = GAMES_TARGET_DEFAULT
    sweep: str = "points"
    rolha: bool = False
    tie_carry: bool = False
    last_trick_bonus: int = 0
    maria_de_copas: int = 0
    # Derived tables, not options.
    _points: tuple[int, ...] = field(init=False, repr=False, compare=False)
    # Lookup tables that the engine derives from these rules (see ``derived``).
    _derived: dict[object, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            # Compare types too: JSON's true and 5.0 equal 1 and 5 but are not packet sizes.
            if not any(value == a and type(value) is type(a) for a in allowed):
                choices = ", ".join(repr(a) for a in allowed)
                raise RulesError(f"rules option {name!r} cannot be {value!r} (one of: {choices})")
        for name in ("must_trump", "review_tricks", "rolha", "tie_carry", "no_looking_back",
                     "redeal_point_trump", "bidding", "bid_must_rise", "weak_hand_redeal",
                     "renuncia"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"rules option {name!r} must be true or false")
        if not (isinstance(self.open_hands, bool) or self.open_hands == "dealer_dummy"):
            raise RulesError("rules option 'open_hands' must be true, false or "
                             "\"dealer_dummy\" (the dealer's hand and his partner's face up)")
        if self.no_looking_back and self.review_tricks:
            raise RulesError("rules options 'no_looking_back' and 'review_tricks' contradict "
                             "each other: taken tricks are either shown again or not")
        for name in ("renuncia_penalty", "false_renuncia_penalty"):
            value = getattr(self, name)
            if (not isinstance(value, int) or isinstance(value, bool)
                    or not 0 <= value <= MAX_PENALTY):
                raise RulesError(f"rules option {name!r} must be a whole number of games from 0 "
                                 f"to {MAX_PENALTY}")
        for name in ("last_trick_bonus", "maria_de_copas"):
            value = getattr(self, name)
            if (not isinstance(value, int) or isinstance(value, bool)
                    or not 0 <= value <= MAX_CARD_POINTS):
                raise RulesError(f"rules option {name!r} must be a whole number of card points "
                                 f"from 0 to {MAX_CARD_POINTS}")
        most = MAX_POINTS_TARGET if self.scoring == "pontos" else MAX_GAMES_TARGET
        if (
            not isinstance(self.match_target, int)
            or isinstance(self.match_target, bool)
            or not 1 <= self.match_target <= most
        ):
            unit = "card points" if self.scoring == "pontos" else "games"
            raise RulesError(f"rules option 'match_target' must be a whole number of {unit} "
                             f"from 1 to {most}")
        if self.dummy is not None and (
            not isinstance(self.dummy, int) or isinstance(self.dummy, bool)
            or not 0 <= self.dummy < self.players
        ):
            raise RulesError(f"rules option 'dummy' must be a seat from 0 to {self.players - 1}")
        self._check_table()
        points = [RANK_POINTS[card % 10] for card in range(self.deck_size)]
        if self.maria_de_copas:
            for queen_of_hearts in range(15, self.deck_size, DECK_SIZE):  # in every deck
                points[queen_of_hearts] += self.maria_de_copas
        object.__setattr__(self, "_points", tuple(points))
        object.__setattr__(self, "_derived", {})
        self._check_weak_hand_redeal()

    def _check_table(self) -> None:
        """Seats, sides, decks and hand size must make a table the engine can deal and score."""
        if type(self.hand_size) is not int or self.hand_size < 1:
            raise RulesError("rules option 'hand_size' must be a whole number >= 1")
        teams = self.teams
        if not isinstance(teams, tuple) or not {type(t) for t in teams} <= {int}:
            raise RulesError("rules option 'teams' must list a team, 0 or 1, for each seat")
        if self.bidding:
            # The auction makes the sides of each deal; nobody sits in a team before it.
            if teams:
                raise RulesError("rules option 'teams' must be empty when 'bidding' is on")
            if self.dummy is not None:
                raise RulesError("a bidding table has no dummy")
            if self.renuncia:
                # A denunciation names the other side, which the secret partner makes unknown.
                raise RulesError("rules option 'renuncia' needs partnerships: at a bidding "
                                 "table the sides are secret until the called card is played")
            if self.open_hands == "dealer_dummy":
                raise RulesError("open_hands \"dealer_dummy\" needs partnerships: a bidding "
                                 "table's dealer has no partner before the call")
            # Its score is the contract's (bid_scores); the partnership game's scoring options
            # would mean nothing there, so they are refused rather than ignored.
            for name, plain in (("scoring", "games"), ("sweep", "points"), ("rolha", False),
                                ("tie_carry", False)):
                if getattr(self, name) != plain:
                    raise RulesError(
                        f"rules option {name!r} does not apply at a bidding table (its score "
                        "is the contract's: bid_scores)"
                    )
            if self.decks != 1:
                # Two copies of the called card would make two partners, and a player seeing
                # either copy played could not tell which: the auction needs one deck.
                raise RulesError("a bidding table plays with one deck: the called card must be "
                                 "the only one of its kind")
        elif sorted(set(teams)) != [0, 1] or len(teams) != self.players:
            raise RulesError("rules option 'teams' must list a team, 0 or 1, for each seat")
        if self.hand_size * self.players > self.deck_size:
            raise RulesError(
                f"{self.players} hands of {self.hand_size} need more than the "
                f"{self.deck_size} cards of {self.decks} deck(s)"
            )
        if self.set_aside >= self.players:
            raise RulesError(
                f"{self.set_aside} cards would be left over: seats, decks and hand size do not "
                "make a table"
            )
        if self.hand_size % self.deal_packets:
            raise RulesError(
                f"hands of {self.hand_size} cannot be dealt in packets of {self.deal_packets}"
            )
        scores = self.bid_scores
        if (
            not isinstance(scores, tuple)
            or len(scores) != len(BID_BANDS)
            or not all(type(v) is int and 0 <= v <= MAX_GAMES_TARGET for v in scores)
        ):
            raise RulesError(
                f"rules option 'bid_scores' must list {len(BID_BANDS)} whole numbers from 0 to "
                f"{MAX_GAMES_TARGET}, one per bid band (0 and 61-70, 71-80, 81-90, 91-100, "
                "101-119, 120)"
            )

    def _check_weak_hand_redeal(self) -> None:
        limits = self.weak_hand_limits
        if (
            not isinstance(limits, tuple)
            or len(limits) != 2
            or not all(type(v) is int and 0 <= v <= MAX_CARD_POINTS for v in limits)
        ):
            raise RulesError(
                "rules option 'weak_hand_limits' must list two whole numbers from 0 to "
                f"{MAX_CARD_POINTS}: the card points the opening leader, then any other seat, "
                "must hold fewer than to ask for a new deal"
            )
        if self.weak_hand_redeal and self.bidding:
            # The auction is how a weak hand stays out of it there (a pass), and the opening
            # leader is not known until it is over.
            raise RulesError("rules option 'weak_hand_redeal' does not apply at a bidding "
                             "table (a weak hand passes in the auction)")
        # Some hand always holds at most the average hand's card points (30 of 120 at four), so
        # limits near it would deal again for ever. Half the average at most: at 15 and 15 a
        # four-player table asks on 29% of deals, at 20 and 20 it would on 64%.
        average = sum(self._points) * self.hand_size / self.deck_size
        if self.weak_hand_redeal and 2 * max(limits) > average:
            raise RulesError(
                f"rules option 'weak_hand_limits' {list(limits)}: a limit may be at most half "
                f"the card points of an average hand ({int(average / 2)} here); higher ones "
                "would annul most deals"
            )

    def derived(self, key: object, build: Callable[[], T]) -> T:
        """A table derived from these rules, built once: the engine's hot paths look it up here
        rather than hashing the whole rules object on every deal."""
        try:
            return cast(T, self._derived[key])
        except KeyError:
            value = self._derived[key] = build()
            return value

    # ---- building ------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, options: Mapping[str, Any] | None = None) -> Rules:
        """The rules of a RECORD.md ``rules`` object: a preset plus overrides by option name."""
        options = dict(options or {})
        name = options.pop("variant", "standard")
        base = preset(name)
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise RulesError(f"unknown rules option {unknown[0]!r}")
        if (
            options.get("scoring") == "pontos"
            and base.scoring != "pontos"
            and "match_target" not in options
        ):
            # Sueca de Pontos plays to 500 card points; 4 would end the match in one hand.
            options["match_target"] = POINTS_TARGET_DEFAULT
        for name in ("teams", "bid_scores", "weak_hand_limits"):
            if isinstance(options.get(name), list):
                options[name] = tuple(options[name])
        return dataclasses.replace(base, **options)

    def to_dict(self) -> dict[str, Any]:
        """The shortest RECORD.md ``rules`` object for these rules: preset plus differences."""
        base = preset(self.variant)
        out: dict[str, Any] = {"variant": self.variant}
        for name in OPTION_NAMES:
            value = getattr(self, name)
            if value != getattr(base, name):
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def replace(self, **options: Any) -> Rules:
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise RulesError(f"unknown rules option {unknown[0]!r}")
        return dataclasses.replace(self, **options)

    # ---- what the engine asks ------------------------------------------------------------

    @property
    def deck_size(self) -> int:
        return DECK_SIZE * self.decks

    @property
    def set_aside(self) -> int:
        """How many cards of the decks no hand receives (set aside unseen, worth nothing)."""
        return self.deck_size - self.hand_size * self.players

    @property
    def cards_in_play(self) -> int:
        return self.hand_size * self.players

    @property
    def teams_count(self) -> int:
        """Two sides at every table: the partnerships, or at a bidding table the declarer's
        side and the defenders."""
        return 2

    @property
    def scores_per_seat(self) -> bool:
        """Whether the match score is kept per player (a bidding table) rather than per team."""
        return self.bidding

    @property
    def score_slots(self) -> int:
        """How many scores the match keeps: one per team, or one per player."""
        return self.players if self.bidding else self.teams_count

    def bid_band(self, bid: int) -> int:
        """The band of a bid (0 for a pass or 61-70, … 5 for 120), an index of ``bid_scores``."""
        return next(i for i, top in enumerate(BID_BANDS) if bid <= top)

    @property
    def card_points(self) -> tuple[int, ...]:
        """Points of each card id under these rules (the Maria de Copas bonus included)."""
        return self._points

    @property
    def total_points(self) -> int:
        """Every point of the decks and the bonuses. Where cards are set aside unseen (the
        six-player table) the points in play are fewer: the sum of what the sides take."""
        return sum(self._points) + self.last_trick_bonus

    def team_of(self, seat: int) -> int:
        return self.teams[seat]

    def partner_of(self, seat: int) -> int:
        """The seat's partner (the next seat of its team, going round the table)."""
        if self.bidding:
            raise RulesError("at a bidding table partners are made by each deal's called card")
        n = self.players
        return next(
            (seat + k) % n for k in range(1, n) if self.teams[(seat + k) % n] == self.teams[seat]
        )

    def controller_of(self, seat: int) -> int:
        """Who decides the card of ``seat``: its partner when it is the dummy, else itself."""
        return self.partner_of(seat) if seat == self.dummy else seat


# The highest bid of each band of the bid score table: a pass (0) scores as 61-70.
BID_BANDS: Final = (70, 80, 90, 100, 119, 120)
MIN_BID: Final = 61
MAX_BID: Final = 120

OPTION_NAMES: Final = tuple(
    f.name for f in dataclasses.fields(Rules) if f.init and f.name != "variant"
)

PRESETS: Final[dict[str, Rules]] = {}


def register_preset(rules: Rules) -> None:
    PRESETS[rules.variant] = rules


def preset(name: str) -> Rules:
    """A named rule set: ``standard`` (Portugal), ``brazil``, ``italiana``, ``pontos``,
    ``double8``, ``double6``, ``italiana5``."""
    if not isinstance(name, str) or name not in PRESETS:
        known = ", ".join(sorted(PRESETS))
        raise RulesError(f"unknown rules variant {name!r} (known: {known})")
    return PRESETS[name]


register_preset(Rules())
# Brazil: play and deal clockwise, ten cards in one packet each, the bottom card turned.
register_preset(Rules(variant="brazil", direction="clockwise", deal_packets=10))
# Sueca Italiana in its four-player meaning: trumping is compulsory when void (obrigação).
register_preset(Rules(variant="italiana", must_trump=True))
# Sueca de Pontos, the tournament form: raw card points accumulate to 500.
register_preset(Rules(variant="pontos", scoring="pontos", match_target=POINTS_TARGET_DEFAULT))

# The double deck: 80 cards, two partnerships alternating round the table.
register_preset(Rules(variant="double8", players=8, decks=2, teams=(0, 1) * 4))
# Six players take 13 cards each; the last two cards of the deck are set aside unseen.
register_preset(
    Rules(variant="double6", players=6, decks=2, hand_size=13, teams=(0, 1) * 3)
)
# Five-player Sueca Italiana: eight cards each, an auction, a called card, a secret partner.
register_preset(
    Rules(variant="italiana5", players=5, hand_size=8, teams=(), bidding=True, match_target=10)
)

STANDARD: Final = PRESETS["standard"]
