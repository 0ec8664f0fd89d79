"""Reading JSON that comes from outside (records, protocol lines, web messages).

``json.loads`` fails in three ways on hostile text: a syntax error, a number with too many
digits or bytes that are not UTF-8 (``ValueError``), and nesting deep enough to exhaust the
stack (``RecursionError``). Every reader of outside JSON goes through :func:`parse_json`, so
each refuses all three alike, with one message, and none crashes.

>>> parse_json('{"type": "ping"}')
{'type': 'ping'}
>>> parse_json("[" * 100_000)
Traceback (most recent call last):
...
sueca.jsontext.NotJsonError: not JSON: nested too deeply
"""

from __future__ import annotations

import json
from typing import Any


class NotJsonError(ValueError):
    """Text that is not JSON; the message says why in one line."""


def parse_json(text: str | bytes) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise NotJsonError(f"not JSON: {error.msg} at line {error.lineno}") from None
    except RecursionError:
        raise NotJsonError("not JSON: nested too deeply") from None
    except ValueError as error:  # a number too long, bytes that are not UTF-8
        raise NotJsonError(f"not JSON: {error}") from None
