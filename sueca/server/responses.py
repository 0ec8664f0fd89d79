"""The server's answers: its pages (:func:`html_page`), and JSON as Starlette's, except that
text which is not Unicode cannot make one fail.

A lone surrogate (``"\\ud800"``) is a Python string but not Unicode: UTF-8 cannot encode it, and
Starlette's :class:`~starlette.responses.JSONResponse` raises while rendering. Names are
refused such text when given (:func:`sueca.server.tables.clean_name`), but a row stored before
that rule, or written by another program, may hold one; one such name must not take the
History down for everyone. Here it comes out as ``?``, and the answer goes out.

>>> JSONResponse({"name": "\\ud800B"}).body
b'{"name":"?B"}'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.responses import FileResponse
from starlette.responses import JSONResponse as StarletteJSONResponse


class JSONResponse(StarletteJSONResponse):
    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                          separators=(",", ":")).encode("utf-8", "replace")


def html_page(path: Path) -> FileResponse:
    """One of the web pages (static HTML; everything live comes over the API and sockets),
    never cached, so a new release's page is what the next load gets."""
    return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})
