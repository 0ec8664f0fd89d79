"""Outside JSON (sueca/jsontext.py): NaN, Infinity and numbers no float holds are refused
with a reason, like any other text that is not JSON; ordinary numbers read as before."""

from __future__ import annotations

import pytest

from sueca.jsontext import NotJsonError, parse_json


@pytest.mark.parametrize("text, reason", [
    ('{"seat": NaN}', "NaN is not a JSON number"),
    ("[Infinity]", "Infinity is not a JSON number"),
    ('{"a": [1, -Infinity]}', "-Infinity is not a JSON number"),
    ('{"deal": 1e999}', "the number 1e999 is too large"),
    ("-1E400", "the number -1E400 is too large"),
])
def test_non_finite_numbers_are_not_json(text: str, reason: str) -> None:
    with pytest.raises(NotJsonError, match=reason):
        parse_json(text)


def test_finite_numbers_read_as_before() -> None:
    assert parse_json('[0, -3, 2.5, 1e300, -0.0, 12345678901234567890]') == [
        0, -3, 2.5, 1e300, -0.0, 12345678901234567890]
