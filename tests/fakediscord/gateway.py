"""The gateway: websocket sessions (IDENTIFY, RESUME, heartbeats, shards), event dispatch to
the session that owns a guild, the payloads events carry, and where the gateway is (REST)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from typing import Any

from aiohttp import WSMsgType, web

from .gateway_sessions import Connection, Session
from .model import Channel, Guild, Message
from .shards import CLOSE_INVALID_SHARD, CLOSE_SHARDING_REQUIRED, guild_of, parse_shard, shard_of
from .state import API_VERSION, FakeState

INTENT_GUILD_MESSAGES = 1 << 9


class GatewayPart(FakeState):
    """The gateway's side of the fake."""

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        q = request.query
        if q.get("encoding", "json") != "json" or q.get("v", str(API_VERSION)) != str(API_VERSION):
            self.gateway_log.append({"error": "bad query", "query": dict(q)})
            await ws.close(code=4012 if q.get("v") != str(API_VERSION) else 4002)
            return ws
        compress = q.get("compress")
        if compress not in (None, "zlib-stream"):
            self.gateway_log.append({"error": f"unsupported compress {compress}"})
            await ws.close(code=4000, message=b"fake supports zlib-stream only")
            return ws
        conn = Connection(ws, compress == "zlib-stream")
        await conn.send(
            {
                "op": 10,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                "s": None,
                "t": None,
            }
        )
        session: Session | None = None
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    if msg.type is WSMsgType.BINARY:
                        await ws.close(code=4002)
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                data = frame.get("d")
                self.gateway_log.append({"recv": op})
                if op == 1:
                    conn.heartbeats += 1
                    ack = asyncio.create_task(self._acknowledge(conn))
                    conn.acks.add(ack)
                    ack.add_done_callback(conn.acks.discard)
                elif op == 2:
                    if session is not None:
                        await ws.close(code=4005)
                        break
                    if data.get("token") != self.token:
                        await ws.close(code=4004)
                        break
                    shard = parse_shard(data.get("shard"))
                    if isinstance(shard, str):
                        self.gateway_log.append({"error": shard})
                        await ws.close(code=CLOSE_INVALID_SHARD, message=shard.encode())
                        break
                    if self._guild_count(shard) > self.shard_rules.guilds_per_session:
                        await ws.close(code=CLOSE_SHARDING_REQUIRED)
                        break
                    if not self.shard_rules.may_identify(shard, self.clock.now()):
                        # Over max_concurrency: Discord answers Invalid Session (not resumable).
                        self.gateway_log.append({"refused": "identify", "shard": shard})
                        await conn.send({"op": 9, "d": False, "s": None, "t": None})
                        continue
                    session = await self._identify(conn, data, shard)
                elif op == 6:
                    resumed = self.sessions.get(data.get("session_id"))
                    if resumed is None or data.get("token") != self.token:
                        await conn.send({"op": 9, "d": False, "s": None, "t": None})
                        continue
                    session = await self._resume(conn, resumed, int(data.get("seq") or 0))
                elif op == 3:
                    continue
                elif op == 8:
                    await self._members_chunk(data)
                else:
                    await ws.close(code=4001)
                    break
        finally:
            for ack in list(conn.acks):
                ack.cancel()
            if session is not None and session.conn is conn:
                session.conn = None
                if ws.close_code in (1000, 1001) and not conn.closed_by_server:
                    # A clean close ends the session on Discord.
                    self.sessions.pop(session.id, None)
                if self.session is session:
                    self._connected.clear()
        return ws

    async def _acknowledge(self, conn: Connection) -> None:
        """HEARTBEAT_ACK (op 11), a network round trip after the heartbeat."""
        await asyncio.sleep(self.gateway_round_trip)
        await conn.send({"op": 11, "d": None, "s": None, "t": None})

    def _guild_count(self, shard: tuple[int, int] | None) -> int:
        if shard is None:
            return len(self.guilds)
        return sum(1 for g in self.guilds if shard_of(g, shard[1]) == shard[0])

    async def _identify(
        self, conn: Connection, data: dict[str, Any], shard: tuple[int, int] | None = None
    ) -> Session:
        self.identify_count += 1
        session = Session(secrets.token_hex(16), int(data.get("intents", 0)), shard)
        self.sessions[session.id] = session
        # A new session for a shard replaces the one before it (one bot: the latest wins).
        previous = self.shard_sessions.get(session.shard_id)
        if previous is not None and previous.conn is not None:
            old = previous.conn
            old.closed_by_server = True
            previous.conn = None
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000)
        self.session = session
        self.shard_sessions[session.shard_id] = session
        session.conn = conn
        guilds = [g for g in self.guilds.values() if session.owns(g.id)]
        await self._dispatch_to(
            session,
            "READY",
            {
                "v": API_VERSION,
                "user": {
                    **self.bot_user.payload(),
                    "verified": True,
                    "mfa_enabled": False,
                    "flags": 0,
                },
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "shard": list(shard or (0, 1)),
            },
        )
        for guild in guilds:
            await self._dispatch_to(session, "GUILD_CREATE", self.guild_payload(guild))
        self._connected.set()
        return session

    async def _resume(self, conn: Connection, session: Session, seq: int) -> Session:
        self.resume_count += 1
        if session.conn is not None and session.conn is not conn:
            old = session.conn
            old.closed_by_server = True
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000)
        session.conn = conn
        self.session = session
        self.shard_sessions[session.shard_id] = session
        for frame in session.buffer:
            if frame["s"] > seq:
                await conn.send(frame)
        await self._dispatch_to(session, "RESUMED", {})
        self._connected.set()
        return session

    async def _members_chunk(self, data: dict[str, Any]) -> None:
        guild = self.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or self.session is None:
            return
        members = [self.member_payload(guild, m.user.id) for m in guild.members.values()]
        chunk = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def _dispatch_to(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.buffer.append(frame)
        del session.buffer[:-2000]
        self.gateway_log.append({"send": event, "s": session.seq})
        if session.conn is not None:
            await session.conn.send(frame)

    async def dispatch(self, event: str, data: dict[str, Any]) -> bool:
        """Send an event to the session of the shard that owns its guild (DMs: shard 0's),
        buffered for RESUME if it is disconnected."""
        guild_id = guild_of(event, data)
        session = next((s for s in self.shard_sessions.values() if s.owns(guild_id)), None)
        if session is None:
            self.gateway_log.append({"dropped": event})
            return False
        if event.startswith("MESSAGE_") and not session.intents & INTENT_GUILD_MESSAGES:
            return False
        await self._dispatch_to(session, event, data)
        return session.conn is not None

    async def disconnect_bot(self, code: int = 4000) -> None:
        """Drop the bot's gateway connection (it should RESUME)."""
        if self.session is not None and self.session.conn is not None:
            self._connected.clear()
            self.session.conn.closed_by_server = True
            await self.session.conn.ws.close(code=code)

    async def wait_connected(self, timeout: float = 10.0) -> None:
        """Wait until a bot session is identified (or resumed) and its guilds were sent."""
        await asyncio.wait_for(self._connected.wait(), timeout)

    @property
    def connected(self) -> bool:
        return self.session is not None and self.session.conn is not None

    @property
    def connected_shards(self) -> set[int]:
        """The shards whose current session is connected."""
        return {i for i, s in self.shard_sessions.items() if s.conn is not None}

    # ------------------------------------------------------------------ payloads

    def member_payload(
        self, guild: Guild, user_id: int, channel: Channel | None = None
    ) -> dict[str, Any]:
        member = guild.members[user_id]
        perms = None if channel is None else guild.channel_permissions(user_id, channel)
        return member.payload(perms)

    def guild_payload(self, guild: Guild) -> dict[str, Any]:
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": guild.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "voice_states": [],
            "members": [m.payload() for m in guild.members.values()],
            "channels": [c.payload() for c in guild.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in guild.channels.values() if c.is_thread],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def message_event(self, msg: Message) -> dict[str, Any]:
        data = msg.payload()
        if msg.guild_id in self.guilds:
            guild = self.guilds[msg.guild_id]
            if msg.author.id in guild.members:
                member = guild.members[msg.author.id].payload()
                member.pop("user")
                data["member"] = member
        return data

    # ------------------------------------------------------------------ REST: where it is

    async def _get_gateway(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        return {"url": self.gateway_url}

    async def _get_gateway_bot(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        return {
            "url": self.gateway_url,
            "shards": self.shard_rules.recommended_shards,
            "session_start_limit": self.shard_rules.session_start_limit(self.identify_count),
        }
