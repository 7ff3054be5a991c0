"""The results (:mod:`bot.store.results`) on PostgreSQL's base, as the moves log
(:mod:`bot.store.postgres.moves`) extends them: a game's last move closes its table inside the
move's own transaction, whose connection it hands to :meth:`PostgresResults._close`."""

from __future__ import annotations

import asyncpg

from bot.store.postgres.base import PostgresBase, PostgresDb
from bot.store.results import ResultsSql
from bot.store.rows import Result, TableRow


class PostgresResults(ResultsSql, PostgresBase):
    """The results part of :class:`bot.store.postgres.PostgresStore`, under its moves."""

    async def _close(
        self, db: asyncpg.Connection, table: TableRow, result: Result, now: float
    ) -> TableRow:
        return await self._close_in(PostgresDb(db), table, result, now)
