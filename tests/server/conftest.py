"""The live server every socket-level test of this folder plays against."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_support import LiveServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(str(tmp_path / "sueca.db")) as live:
        yield live
