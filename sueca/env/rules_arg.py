"""The rules an environment is asked for: a :class:`~sueca.rules.Rules`, a preset's name, a
RECORD.md ``rules`` object (a preset under ``variant`` plus options by name), as a mapping or
as JSON text, or the compact text OpenSpiel's game strings can carry (no ``,`` and no ``=``):
``brazil;weak_hand_redeal:true;weak_hand_limits:[15 15]``.

>>> compact(Rules.from_dict({"variant": "brazil", "weak_hand_redeal": True}))
'brazil;weak_hand_redeal:true'
>>> rules_of('standard;dummy:2;open_hands:"dealer_dummy"').dummy
2
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sueca.rules import Rules, RulesError, preset

MAX_TEXT = 2000  # a rules text longer than every option written out is not a rules text


def compact(rules: Rules) -> str:
    """The rules as compact text: the preset, then ``;option:value`` for each difference
    (values in JSON, lists with spaces between their items)."""
    options = rules.to_dict()
    parts = [str(options.pop("variant"))]
    parts += [f"{key}:{json.dumps(value, separators=(' ', ':'))}"
              for key, value in options.items()]
    return ";".join(parts)


def rules_of(rules: Rules | str | Mapping[str, Any]) -> Rules:
    """``rules`` as a Rules value; :class:`~sueca.rules.RulesError` names what is wrong. A
    string that starts with ``{`` is read as a JSON rules object, one with ``;`` as compact
    text, any other as a preset's name."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        if len(rules) > MAX_TEXT:
            raise RulesError(f"the rules text is {len(rules):,} characters long: at most "
                             f"{MAX_TEXT:,}")
        if ";" in rules:
            return _from_compact(rules)
        if rules.lstrip().startswith("{"):
            try:
                options = json.loads(rules)
            except json.JSONDecodeError as error:
                raise RulesError(f"the rules are not a JSON object: {error.msg}") from None
            if not isinstance(options, dict):
                raise RulesError("the rules are not a JSON object")
            return Rules.from_dict(options)
        return preset(rules)
    if isinstance(rules, Mapping):
        return Rules.from_dict(rules)
    raise RulesError(f"rules must be a Rules value, a preset's name or a rules object, not "
                     f"{type(rules).__name__}")


def _from_compact(text: str) -> Rules:
    variant, *items = text.split(";")
    options: dict[str, Any] = {"variant": variant.strip()}
    for item in items:
        key, colon, value = item.partition(":")
        if not colon:
            raise RulesError(f"the rules text's {item.strip()[:40]!r} is not option:value")
        try:
            options[key.strip()] = json.loads(value.strip().replace(" ", ","))
        except json.JSONDecodeError:
            raise RulesError(f"the rules text's option {key.strip()[:40]!r} has no JSON value "
                             f"({value.strip()[:40]!r})") from None
    return Rules.from_dict(options)
