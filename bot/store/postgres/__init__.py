"""The PostgreSQL backend of :class:`~bot.store.interface.StoreInterface` (asyncpg).

The same feature modules as the SQLite :class:`bot.store.Store` (their SQL written once,
:mod:`bot.store.sql`), on :class:`~bot.store.postgres.base.PostgresBase` (a pool, its
transactions and migrations); the schema is ``data/migrations_postgres/``, numbered as SQLite's
``data/migrations/`` so that one version means one schema in both. Chosen by ``DATABASE_URL``
(:func:`bot.store.open_store`).
"""

from __future__ import annotations

from bot.store.features import StoreFeatures
from bot.store.moves import MovesSql
from bot.store.postgres.base import (
    MIGRATIONS_DIR,
    PostgresBase,
    load_postgres_migrations,
    unavailable,
)


class PostgresStore(MovesSql, StoreFeatures, PostgresBase):
    """The PostgreSQL store. Open with :meth:`open` (a ``postgresql://`` URL), close with
    :meth:`close`."""


__all__ = ["MIGRATIONS_DIR", "PostgresStore", "load_postgres_migrations", "unavailable"]
