"""The rules object: presets, overrides by option name, validation."""

from __future__ import annotations

from typing import Any

import pytest
from core_support import RULE_SETS

from sueca.rules import OPTION_NAMES, PRESETS, STANDARD, Rules, RulesError, preset


def test_presets_are_the_documented_tables() -> None:
    assert set(PRESETS) >= {"standard", "brazil", "italiana", "pontos"}
    standard = preset("standard")
    assert (standard.players, standard.teams, standard.hand_size) == (4, (0, 1, 0, 1), 10)
    assert (standard.deal_packets, standard.trump_card, standard.must_trump) == (1, "dealer_last",
                                                                                 False)
    assert (standard.scoring, standard.match_target, standard.sweep) == ("games", 4, "points")
    brazil = preset("brazil")
    assert (brazil.direction, brazil.deal_packets, brazil.trump_card) == ("clockwise", 10,
                                                                          "dealer_last")
    assert preset("italiana").must_trump
    pontos = preset("pontos")
    assert (pontos.scoring, pontos.match_target) == ("pontos", 500)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_to_dict_and_from_dict_round_trip(name: str) -> None:
    rules = RULE_SETS[name]
    assert Rules.from_dict(rules.to_dict()) == rules


def test_overrides_by_option_name() -> None:
    rules = Rules.from_dict({"variant": "brazil", "must_trump": True, "match_target": 10})
    assert rules.variant == "brazil" and rules.must_trump and rules.match_target == 10
    assert Rules.from_dict(None) == STANDARD
    assert Rules.from_dict({}) == STANDARD
    # Pontos on a games preset plays to 500 unless told otherwise.
    assert Rules.from_dict({"scoring": "pontos"}).match_target == 500
    assert Rules.from_dict({"scoring": "pontos", "match_target": 300}).match_target == 300
    assert Rules.from_dict({"teams": [0, 1, 0, 1]}) == STANDARD


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"variant": "sueca_nova"}, "unknown rules variant 'sueca_nova'"),
        ({"variant": 3}, "unknown rules variant 3"),
        ({"trumps": 1}, "unknown rules option 'trumps'"),
        ({"_points": 1}, "unknown rules option '_points'"),
        ({"deal_packets": 3}, "'deal_packets' cannot be 3"),
        ({"deal_packets": True}, "'deal_packets' cannot be True"),
        ({"deal_packets": 5.0}, "'deal_packets' cannot be 5.0"),
        ({"direction": "sideways"}, "'direction'"),
        ({"trump_card": "dealer_middle"}, "'trump_card'"),
        ({"sweep": "all"}, "'sweep'"),
        ({"scoring": "points"}, "'scoring'"),
        ({"players": 7}, "'players'"),
        ({"players": 5}, "'teams'"),
        ({"variant": "italiana5", "scoring": "pontos"}, "'scoring' does not apply"),
        ({"variant": "italiana5", "sweep": "bandeira"}, "'sweep' does not apply"),
        ({"variant": "italiana5", "rolha": True}, "'rolha' does not apply"),
        ({"variant": "italiana5", "tie_carry": True}, "'tie_carry' does not apply"),
        ({"decks": 3}, "'decks'"),
        ({"must_trump": 1}, "'must_trump' must be true or false"),
        ({"tie_carry": "yes"}, "'tie_carry' must be true or false"),
        ({"last_trick_bonus": -1}, "'last_trick_bonus'"),
        ({"maria_de_copas": 2.5}, "'maria_de_copas'"),
        ({"maria_de_copas": True}, "'maria_de_copas'"),
        ({"match_target": 0}, "'match_target'"),
        ({"match_target": "4"}, "'match_target'"),
        ({"match_target": 4.0}, "'match_target'"),
        ({"dummy": 4}, "'dummy'"),
        ({"dummy": True}, "'dummy'"),
        ({"teams": [0, 1]}, "'teams'"),
        ({"teams": ["a", "b", "a", "b"]}, "teams"),
        ({"hand_size": 10.0}, "hand"),
        ({"renuncia": 1}, "'renuncia' must be true or false"),
        ({"renuncia_penalty": -1}, "'renuncia_penalty' must be a whole number of games from 0"),
        ({"renuncia_penalty": 10**29}, "'renuncia_penalty' must be a whole number of games from "
                                       "0 to 100"),
        ({"false_renuncia_penalty": 0.5}, "'false_renuncia_penalty' must be a whole number"),
        ({"renuncia_penalty": True}, "'renuncia_penalty'"),
        ({"variant": "italiana5", "renuncia": True}, "'renuncia' needs partnerships"),
        ({"open_hands": "all"}, "'open_hands' must be true, false or \"dealer_dummy\""),
        ({"open_hands": 1}, "'open_hands' must be true, false"),
        ({"variant": "italiana5", "open_hands": "dealer_dummy"}, "needs partnerships"),
        ({"no_looking_back": "yes"}, "'no_looking_back' must be true or false"),
        ({"no_looking_back": True, "review_tricks": True}, "contradict each other"),
        # Upper bounds: a lobby request cannot set up a match that never ends.
        ({"match_target": 1001}, "'match_target' must be a whole number of games from 1 to 1000"),
        ({"match_target": 10**4000}, "'match_target' must be a whole number of games"),
        ({"scoring": "pontos", "match_target": 100_001},
         "'match_target' must be a whole number of card points from 1 to 100000"),
        ({"last_trick_bonus": 121}, "'last_trick_bonus' must be a whole number of card points "
                                    "from 0 to 120"),
        ({"maria_de_copas": 10**30}, "'maria_de_copas' must be a whole number of card points"),
        ({"weak_hand_limits": [10, 10**20]}, "'weak_hand_limits' must list two whole numbers "
                                             "from 0 to 120"),
        ({"variant": "italiana5", "bid_scores": [1, 2, 3, 4, 5, 1001]},
         "'bid_scores' must list 6 whole numbers from 0 to 1000"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message.replace("(", r"\(")):
        Rules.from_dict(options)


def test_the_upper_bounds_themselves_are_allowed() -> None:
    assert Rules.from_dict({"match_target": 1000}).match_target == 1000
    assert Rules.from_dict({"variant": "pontos", "match_target": 100_000}).match_target == 100_000
    bonus = Rules.from_dict({"last_trick_bonus": 120, "maria_de_copas": 120})
    assert (bonus.last_trick_bonus, bonus.maria_de_copas) == (120, 120)
    assert Rules.from_dict({"weak_hand_limits": [120, 0]}).weak_hand_limits == (120, 0)
    assert Rules.from_dict({"variant": "italiana5",
                            "bid_scores": [0, 0, 0, 0, 0, 1000]}).bid_scores[-1] == 1000
    for rules in PRESETS.values():
        assert Rules.from_dict(rules.to_dict()) == rules


def test_replace_refuses_unknown_options() -> None:
    with pytest.raises(RulesError, match="unknown rules option 'colour'"):
        STANDARD.replace(colour="red")


def test_rules_are_immutable_and_hashable() -> None:
    with pytest.raises(AttributeError):
        STANDARD.must_trump = True  # type: ignore[misc]
    assert hash(STANDARD) == hash(Rules())
    assert STANDARD.replace(must_trump=True) != STANDARD


def test_partners_and_the_dummy_controller() -> None:
    assert [STANDARD.partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    assert [STANDARD.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    dummy = STANDARD.replace(dummy=3)
    assert [dummy.controller_of(s) for s in range(4)] == [0, 1, 2, 1]
    assert [STANDARD.controller_of(s) for s in range(4)] == [0, 1, 2, 3]


def test_points_in_play_include_the_bonuses() -> None:
    assert STANDARD.total_points == 120
    rules = STANDARD.replace(last_trick_bonus=10, maria_de_copas=4)
    assert rules.total_points == 134
    assert rules.card_points[15] == 6  # the queen of hearts
    assert sum(rules.card_points) == 124


def test_option_names_are_the_contract() -> None:
    assert set(OPTION_NAMES) >= {
        "direction", "deal_packets", "trump_card", "redeal_point_trump", "must_trump",
        "review_tricks", "open_hands", "dummy", "scoring", "match_target", "sweep", "rolha",
        "tie_carry", "last_trick_bonus", "maria_de_copas", "renuncia", "renuncia_penalty",
        "false_renuncia_penalty", "no_looking_back",
    }


def test_the_three_table_rules_are_off_in_every_preset_and_round_trip() -> None:
    for name, rules in PRESETS.items():
        assert (rules.renuncia, rules.open_hands, rules.no_looking_back) == (False, False,
                                                                              False), name
        assert (rules.renuncia_penalty, rules.false_renuncia_penalty) == (4, 1)
    table = Rules.from_dict({"renuncia": True, "renuncia_penalty": 2, "open_hands":
                             "dealer_dummy", "no_looking_back": True})
    assert table.to_dict() == {"variant": "standard", "open_hands": "dealer_dummy",
                               "no_looking_back": True, "renuncia": True,
                               "renuncia_penalty": 2}
    assert Rules.from_dict(table.to_dict()) == table
