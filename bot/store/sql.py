"""The store's SQL, written once for SQLite and PostgreSQL: what a feature module stands on.

A feature (:mod:`bot.store.settings`, :mod:`bot.store.seats` ...) is a mixin of :class:`SqlStore`,
assembled into both :class:`bot.store.Store` and :class:`bot.store.postgres.PostgresStore`. Its
statements are written once:

- placeholders are PostgreSQL's numbered ``$1``, ``$2`` ...; SQLite reads the same numbers as
  ``?1``, ``?2`` (:func:`sqlite_sql`, one cached rewrite a statement). Every number up to the
  highest is used (PostgreSQL cannot type a parameter it never sees);
- where the two agree, standard SQL: ``CAST($1 AS BIGINT)`` where PostgreSQL must know a
  parameter's type, ``ON CONFLICT``, ``RETURNING``, ``TRUE``/``FALSE``, a qualified column in an
  upsert's ``DO UPDATE``;
- where they do not, a named fact of the backend's :class:`Dialect` (its row locks, its JSON, its
  lists as one parameter, its byte order of text).

A transaction's statements run on the :class:`Db` that :meth:`SqlStore.writing` gives; a read
outside one is :meth:`SqlStore._all`. Each backend's base provides both over its own connection,
with its own translation of errors (:class:`~bot.store.interface.StoreUnavailable`, raised by
the transaction or the read).
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from functools import lru_cache
from types import TracebackType
from typing import Any, ClassVar, Protocol


class Row(Protocol):
    """A result row of either driver (``sqlite3.Row``, ``asyncpg.Record``): by name or index."""

    def __getitem__(self, key: int | str, /) -> Any: ...


class Db(Protocol):
    """What a feature's statements run on (``$1`` placeholders, parameters as a sequence)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once for each parameter row."""
        ...

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row, or None when there is none."""
        ...

    async def fetch_value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row's first column, or None when there is no row."""
        ...


async def returning(db: Db, sql: str, params: Sequence[Any]) -> Row:
    """Run one ``... RETURNING`` statement; its one row, or LookupError when it changed none."""
    row = await db.fetch_one(sql, params)
    if row is None:
        raise LookupError(f"no row changed by: {sql.split()[0]} ...")
    return row


_NUMBERED = re.compile(r"\$(\d+)")


@lru_cache(maxsize=1024)
def sqlite_sql(sql: str) -> str:
    """A statement's ``$n`` placeholders as SQLite's ``?n`` (the same numbers, the same values)."""
    return _NUMBERED.sub(r"?\1", sql)


class Dialect(ABC):
    """Where SQLite and PostgreSQL differ, each difference named once."""

    name: ClassVar[str]
    # One write transaction at a time, holding the whole database from its start (SQLite): no
    # row needs a lock, and what is slow to read is read before the transaction takes the
    # database. PostgreSQL runs transactions side by side and locks the rows they share.
    one_writer: ClassVar[bool]
    # A collation ordering text by its bytes (SQLite's own default), after a column.
    bytewise: ClassVar[str]
    # A condition on a result_players row ``p`` of results ``r``: a computer played the seat for
    # its away player (the game's record calls the seat a stand-in).
    sat_out: ClassVar[str]
    # Serialises the transactions that read and then write a shared set of rows (one key, ``$1``,
    # a text); None where transactions run one at a time anyway.
    advisory_lock: ClassVar[str | None]

    @property
    def for_update(self) -> str:
        """Lock the rows read until the transaction ends, for writing (appended to a SELECT)."""
        return "" if self.one_writer else " FOR UPDATE"

    @property
    def for_share(self) -> str:
        """Keep the rows read from changing until the transaction ends (appended to a SELECT)."""
        return "" if self.one_writer else " FOR SHARE"

    @abstractmethod
    def json_value(self, column: str, key: str, sqltype: str) -> str:
        """The value at ``key`` of the JSON object kept as text in ``column``, as ``sqltype``
        (``boolean``, ``integer``); NULL when the object has no such key."""

    @abstractmethod
    def json_values(self, param: str, sqltype: str) -> str:
        """A subquery of the elements (each a ``sqltype``) of the JSON list in text ``param``."""

    @abstractmethod
    def one_of(self, param: str, sqltype: str) -> str:
        """The condition, after a column, that it is among the list parameter ``param``
        (:meth:`values` makes it); ``sqltype`` is the elements' type."""

    @abstractmethod
    def values(self, items: Iterable[Any]) -> Any:
        """A list as one parameter, for :meth:`one_of`."""


class SqliteDialect(Dialect):
    name = "sqlite"
    one_writer = True
    bytewise = ""
    sat_out = (
        "EXISTS (SELECT 1 FROM json_each(r.record, '$.seats') s"
        " WHERE json_extract(s.value, '$.seat') = p.seat AND json_extract(s.value, '$.stand_in'))"
    )
    advisory_lock = None

    def json_value(self, column: str, key: str, sqltype: str) -> str:
        return f"json_extract({column}, '$.{key}')"  # JSON's own types: true is 1, 7 is 7

    def json_values(self, param: str, sqltype: str) -> str:
        return f"(SELECT value FROM json_each({param}))"

    def one_of(self, param: str, sqltype: str) -> str:
        return f"IN {self.json_values(param, sqltype)}"

    def values(self, items: Iterable[Any]) -> Any:
        return json.dumps(list(items))


class PostgresDialect(Dialect):
    name = "postgres"
    one_writer = False
    bytewise = ' COLLATE "C"'
    sat_out = (
        "EXISTS (SELECT 1 FROM jsonb_array_elements(r.record::jsonb -> 'seats') s"
        " WHERE (s ->> 'seat')::integer = p.seat AND (s ->> 'stand_in')::boolean)"
    )
    advisory_lock = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))"

    def json_value(self, column: str, key: str, sqltype: str) -> str:
        return f"({column}::jsonb ->> '{key}')::{sqltype}"

    def json_values(self, param: str, sqltype: str) -> str:
        return f"(SELECT jsonb_array_elements_text({param}::jsonb)::{sqltype})"

    def one_of(self, param: str, sqltype: str) -> str:
        return f"= ANY({param}::{sqltype}[])"

    def values(self, items: Iterable[Any]) -> Any:
        return list(items)


SQLITE = SqliteDialect()
POSTGRES = PostgresDialect()


class Writing:
    """``async with store.writing() as db:``: the backend's own transaction, its connection
    handed over as a :class:`Db` (a plain class: a generator-based context manager around the
    transaction would cost a few microseconds a write)."""

    __slots__ = ("_adapt", "_transaction")

    def __init__(
        self, transaction: AbstractAsyncContextManager[Any], adapt: Callable[[Any], Db]
    ) -> None:
        self._transaction = transaction
        self._adapt = adapt

    async def __aenter__(self) -> Db:
        return self._adapt(await self._transaction.__aenter__())

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> bool | None:
        return await self._transaction.__aexit__(kind, error, trace)


class SqlStore(ABC):
    """What a feature mixin needs of its backend (the backend's base provides it)."""

    dialect: ClassVar[Dialect]

    @abstractmethod
    def writing(self) -> Writing:
        """``async with store.writing() as db:``: one transaction, all or nothing."""

    @abstractmethod
    async def _all(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Row]:
        """The rows of one read outside any transaction of its own (it takes no lock)."""

    @staticmethod
    @abstractmethod
    def breaks_move_number(error: Exception) -> bool:
        """``error`` is the moves log's unique key, one move number of a table, refusing a
        second writer of that move (another bot process)."""
