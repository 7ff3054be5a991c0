"""A gateway session (its sequence, its buffer for RESUME, the shard it owns) and the
websocket connection it is on (zlib-stream compressed if the client asked)."""

from __future__ import annotations

import asyncio
import json
import zlib
from typing import Any

from aiohttp import web

from .shards import shard_of


class Session:
    """A gateway session: it outlives its connection, so the bot may RESUME it."""

    def __init__(self, session_id: str, intents: int, shard: tuple[int, int] | None = None) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard  # (id, count); None: an unsharded session, which owns every guild
        self.seq = 0
        self.buffer: list[dict[str, Any]] = []
        self.conn: Connection | None = None

    @property
    def shard_id(self) -> int:
        return self.shard[0] if self.shard is not None else 0

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session gets the guild's events (None: a direct message, shard 0's)."""
        if self.shard is None:
            return True
        if guild_id is None:
            return self.shard[0] == 0
        return shard_of(guild_id, self.shard[1]) == self.shard[0]


class Connection:
    """One websocket; its frames are sent one at a time, through one zlib stream if asked."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.lock = asyncio.Lock()
        self.compressor = zlib.compressobj() if compress else None
        self.heartbeats = 0
        self.closed_by_server = False
        self.acks: set[asyncio.Task[None]] = set()  # heartbeat ACKs on their way back

    async def send(self, frame: dict[str, Any]) -> None:
        text = json.dumps(frame)
        async with self.lock:
            if self.ws.closed:
                return
            try:
                if self.compressor is not None:
                    data = self.compressor.compress(text.encode()) + self.compressor.flush(
                        zlib.Z_SYNC_FLUSH
                    )
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                pass
