"""The rules an environment is asked for: a :class:`~sueca.rules.Rules`, a preset's name, or a
RECORD.md ``rules`` object (a preset under ``variant`` plus options by name)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sueca.rules import Rules, RulesError, preset


def rules_of(rules: Rules | str | Mapping[str, Any]) -> Rules:
    """``rules`` as a Rules value; :class:`~sueca.rules.RulesError` names what is wrong. A
    string that starts with ``{`` is read as a JSON rules object (OpenSpiel's parameters are
    strings)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
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
