"""Turn pings: a table's change that changes no ping starts no pass over its pings."""

from __future__ import annotations

import asyncio
import contextlib
import random
from types import SimpleNamespace
from typing import Any, cast

from bench.picture import showcase
from bot.sessions import TurnPing
from cogs.turn_ping import TurnPings, _TablePings, wanted_turns
from games.levels import choose_move


async def test_a_change_that_changes_no_ping_starts_no_pass() -> None:
    """Most changes of a table (a computer's move, a table edit) leave every ping as it is: no
    pass over the table's pings starts for them; one starts as soon as a ping is due to go."""
    table, seat = showcase()  # the table waits on its one person, who declined pings
    user = 100
    assert wanted_turns(table) == {user: table.moves}
    pings = TurnPings(cast(Any, SimpleNamespace(is_closed=lambda: False)))
    state = _TablePings(table, posted={}, declined={user: table.moves}, dirty=False)
    pings.states[table.id] = state
    pings.changed(table)
    assert state.task is None and not state.dirty, "a change that changes no ping"

    state.posted = {user: TurnPing(table.id, user, 2, 99, table.moves)}  # pinged after all
    state.declined = {}
    pings.changed(table)
    assert state.task is None, "the ping still stands for this turn"

    assert table.game is not None
    table.game.apply(seat, choose_move(table.game, seat, random.Random(1)))  # the person moves
    table.moves += 1
    table.note_situation(seat)
    pings.changed(table)
    task = state.task
    assert task is not None and state.dirty, "the ping of a turn that is over is deleted"
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
