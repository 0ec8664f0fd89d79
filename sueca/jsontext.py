"""Reading JSON that comes from outside (records, protocol lines, web messages).

``json.loads`` fails in three ways on hostile text: a syntax error, a number with too many
digits or bytes that are not UTF-8 (``ValueError``), and nesting deep enough to exhaust the
stack (``RecursionError``); and Python's reader takes ``NaN``, ``Infinity`` and ``-Infinity``,
which are not JSON at all (no other reader takes them back, and a NaN equals nothing).
Every reader of outside JSON goes through :func:`parse_json`, so
each refuses all three alike, with one message, and none crashes.

>>> parse_json('{"type": "ping"}')
{'type': 'ping'}
>>> parse_json("[" * 100_000)
Traceback (most recent call last):
...
sueca.jsontext.NotJsonError: not JSON: nested too deeply
>>> parse_json('{"seat": NaN}')
Traceback (most recent call last):
...
sueca.jsontext.NotJsonError: not JSON: NaN is not a JSON number
"""

from __future__ import annotations

import json
import math
from typing import Any


class NotJsonError(ValueError):
    """Text that is not JSON; the message says why in one line."""


def _refuse_constant(name: str) -> Any:
    raise NotJsonError(f"not JSON: {name} is not a JSON number")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999: JSON, but no float holds it (it would be inf)
        raise NotJsonError(f"not JSON: the number {text[:20]} is too large")
    return number


def parse_json(text: str | bytes) -> Any:
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite)
    except NotJsonError:
        raise
    except json.JSONDecodeError as error:
        raise NotJsonError(f"not JSON: {error.msg} at line {error.lineno}") from None
    except RecursionError:
        raise NotJsonError("not JSON: nested too deeply") from None
    except ValueError as error:  # a number too long, bytes that are not UTF-8
        raise NotJsonError(f"not JSON: {error}") from None
