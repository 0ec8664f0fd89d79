"""The web table: an authoritative game server (Starlette, WebSockets, SQLite).

``sueca serve`` runs it; :func:`create_app` builds the ASGI app for tests and embedding. The
server holds every hand; each socket receives only its seat's view (:mod:`.views`); every card
is stored as it is played (:mod:`.storage`), so a restarted server continues every table from
the same card.
"""

from __future__ import annotations

import sueca.protocol  # noqa: F401 (registers cmd:)
from sueca.server.app import create_app, serve
from sueca.server.rooms import Timing

__all__ = ["Timing", "create_app", "serve"]
