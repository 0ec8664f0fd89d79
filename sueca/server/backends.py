"""Which store ``--db`` names: a SQLite file (the embedded default) or a PostgreSQL server.

>>> store = open_storage(":memory:")
>>> type(store).__name__
'SQLiteStorage'
>>> store.close()
"""

from __future__ import annotations

from pathlib import Path

from sueca.server.storage import SQLiteStorage, Storage, StorageError


def is_postgres_url(where: str | Path) -> bool:
    """Whether ``where`` names a PostgreSQL server (``postgresql://…``) rather than a file."""
    return str(where).startswith(("postgresql://", "postgres://"))


def open_storage(where: str | Path, *, lock: bool = True) -> Storage:
    """The store at ``where``: a ``postgresql://user:password@host:port/database`` URL
    (:class:`~sueca.server.postgres.PostgresStorage`; the ``cluster`` extra installs psycopg),
    or the path of a SQLite file (:class:`~sueca.server.storage.SQLiteStorage`). ``lock``:
    hold the database for this process's life, as a server alone does; the workers of a
    cluster pass False (their tables are leased instead)."""
    if is_postgres_url(where):
        try:
            from sueca.server.postgres import PostgresStorage
        except ImportError as error:
            raise StorageError(f"PostgreSQL storage needs psycopg: pip install "
                               f"'sueca[cluster]' ({error})") from None
        return PostgresStorage(str(where), lock=lock)
    return SQLiteStorage(where, lock=lock)
