"""REST plumbing: the request log, injected 429s and faults, Discord's per-route limits,
reading a body (JSON or multipart uploads), finding the route, and knowing when the bot has
gone quiet."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .errors import DiscordError
from .records import FaultRule, RateLimitRule, Recorded
from .state import API_VERSION, FakeState

log = logging.getLogger("fakediscord")

THINKING_GRACE = 3.0  # quiet() waits this long at most for a deferred answer to be given

Handler = Callable[[web.Request, dict[str, str], Any], Awaitable[Any]]


class RestPart(FakeState):
    """Requests in, answers out: what every route has in common."""

    def rate_limit(
        self,
        pattern: str = "",
        *,
        retry_after: float = 0.05,
        times: int = 1,
        is_global: bool = False,
    ) -> None:
        """Answer the next ``times`` requests matching ``pattern`` ("METHOD /path" substring)
        with 429, as Discord does (``Via`` header, ``retry_after`` in the body)."""
        self.rate_limits.append(RateLimitRule(pattern, retry_after, times, is_global))

    def fail(
        self,
        pattern: str,
        status: int = 503,
        *,
        code: int = 0,
        message: str = "",
        times: int = 1,
    ) -> FaultRule:
        """Answer the next ``times`` requests matching ``pattern`` ("METHOD /path" substring)
        with ``status``, as Discord does when it is down (5xx), refuses (403) or lost something
        (404). The returned rule's ``remaining`` tells how many are still to come."""
        default = {
            403: (50013, "Missing Permissions"),
            404: (10008, "Unknown Message"),
            500: (0, "500: Internal Server Error"),
            502: (0, "502: Bad Gateway"),
            503: (0, "503: Service Unavailable"),
        }.get(status, (0, f"{status}"))
        rule = FaultRule(pattern, status, code or default[0], message or default[1], times)
        self.faults.append(rule)
        return rule

    async def quiet(self, idle: float = 0.1, timeout: float = 5.0) -> None:
        """Wait until the bot has made no request for ``idle`` seconds and owes no answer it
        deferred ("thinking") in the last few seconds: its work has settled. (A busy machine
        can leave more than ``idle`` between a deferral and the work that answers it.)"""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (
                self._in_flight == 0
                and time.monotonic() - self._last_activity >= idle
                and not self._thinking()
            ):
                return
            await asyncio.sleep(idle / 4)
        raise TimeoutError("the bot kept making requests")

    def _thinking(self) -> bool:
        """Whether a deferred answer younger than :data:`THINKING_GRACE` seconds is still
        "thinking" (older ones the bot failed to give: a test of that waits on its own)."""
        now = time.time()
        return any(m.loading and now - m.created < THINKING_GRACE for m in self.messages.values())

    # ------------------------------------------------------------------ plumbing

    @functools.cached_property
    def _routes(self) -> list[tuple[str, re.Pattern[str], Handler]]:
        """The routing table (the facade's), compiled at the first request."""
        return [(m, re.compile(p + r"/?$"), h) for m, p, h in self.route_table()]

    def route_table(self) -> list[tuple[str, str, Handler]]:
        """Every route the fake answers: (method, path pattern, handler)."""
        raise NotImplementedError

    @staticmethod
    def _json(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
        if status == 204 or body is None:
            return web.Response(status=204, headers=headers)
        # Exactly "application/json": discord.py parses nothing else as JSON.
        return web.Response(
            status=status,
            body=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **(headers or {})},
        )

    async def _read_body(self, request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
        files: list[dict[str, Any]] = []
        if request.content_type.startswith("multipart/"):
            body: Any = None
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    content = await part.read()  # type: ignore[union-attr]
                    files.append(
                        {
                            "name": part.name,  # type: ignore[union-attr]
                            "filename": part.filename,  # type: ignore[union-attr]
                            "size": len(content),
                            "data": bytes(content),  # kept for the tests, never sent back
                            "content_type": _sniff(content),
                        }
                    )
            return body, files
        raw = await request.read()
        if not raw:
            return None, files
        if request.content_type != "application/json":
            raise DiscordError(400, 50109, "The request body contains invalid JSON.")
        return json.loads(raw), files

    async def _rest(self, request: web.Request) -> web.Response:
        self._in_flight += 1
        self._last_activity = time.monotonic()
        try:
            return await self._rest_inner(request)
        finally:
            self._in_flight -= 1
            self._last_activity = time.monotonic()

    def _limit(self, method: str, path: str) -> web.Response | dict[str, str] | None:
        """With Discord's limits on: a 429 for a request over its bucket, else its headers."""
        if self.limits is None:
            return None
        verdict = self.limits.check(method, path, self.limits.now())
        if verdict.retry_after is None:
            return verdict.headers
        reply = {
            "message": "You are being rate limited.",
            "retry_after": math.ceil(verdict.retry_after * 1000) / 1000,
            "global": verdict.is_global,
        }
        headers = {
            **verdict.headers,
            "Retry-After": str(max(1, round(verdict.retry_after))),
            "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
        }
        self.requests.append(Recorded(method, path, 429, None, reply))
        return self._json(429, reply, headers)

    async def _rest_inner(self, request: web.Request) -> web.Response:
        prefix = f"/api/v{API_VERSION}"
        path = request.path
        body: Any = None
        if not path.startswith(prefix):
            rec = Recorded(request.method, path, 404, None, None)
            self.requests.append(rec)
            self.unknown_routes.append(rec)
            return self._json(404, {"message": "404: Not Found", "code": 0})
        path = path[len(prefix) :] or "/"
        key = f"{request.method} {path}"
        limited = self._limit(request.method, path)
        if isinstance(limited, web.Response):
            return limited
        for rule in self.rate_limits:
            if rule.remaining > 0 and rule.pattern in key:
                rule.remaining -= 1
                reply = {
                    "message": "You are being rate limited.",
                    "retry_after": rule.retry_after,
                    "global": rule.is_global,
                }
                headers = {
                    "Via": "1.1 google",
                    "Retry-After": str(max(1, round(rule.retry_after))),
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": str(rule.retry_after),
                    "X-RateLimit-Bucket": "fakebucket" + str(abs(hash(rule.pattern)) % 10000),
                    "X-RateLimit-Scope": "global" if rule.is_global else "user",
                }
                if rule.is_global:
                    headers["X-RateLimit-Global"] = "true"
                self.requests.append(Recorded(request.method, path, 429, None, reply))
                return self._json(429, reply, headers)
        for fault in self.faults:
            if fault.remaining > 0 and fault.pattern in key:
                fault.remaining -= 1
                reply = {"message": fault.message, "code": fault.code}
                self.requests.append(Recorded(request.method, path, fault.status, None, reply))
                log.info("fake discord: injected %s for %s", fault.status, key)
                if fault.status >= 500:  # Discord's own outage pages are not JSON
                    return web.Response(status=fault.status, text=fault.message)
                return self._json(fault.status, reply)
        for method, pattern, handler in self._routes:
            match = pattern.match(path)
            if match is None or method != request.method:
                continue
            try:
                body, files = await self._read_body(request)
                needs_auth = not path.startswith(("/interactions/", "/webhooks/"))
                if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                    raise DiscordError(401, 0, "401: Unauthorized")
                if files:
                    body = dict(body or {})
                    body["__files__"] = files
                result = await handler(request, match.groupdict(), body)
            except DiscordError as exc:
                rec = Recorded(request.method, path, exc.status, body, exc.body)
                self.requests.append(rec)
                self.errors.append(rec)
                log.info("fake discord: %s %s -> %s %s", request.method, path, exc.status, exc.body)
                return self._json(exc.status, exc.body)
            status = 204 if result is None else 200
            self.requests.append(Recorded(request.method, path, status, body, result))
            return self._json(status, result, limited)
        rec = Recorded(request.method, path, 404, None, None)
        self.requests.append(rec)
        self.unknown_routes.append(rec)
        return self._json(404, {"message": "404: Not Found", "code": 0})


def _sniff(content: bytes) -> str | None:
    """The media type Discord reports for an upload, read from its first bytes as Discord does
    (only the kinds the bot sends: PNG pictures and JSON files)."""
    if content.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if content.lstrip()[:1] in (b"{", b"["):
        return "application/json; charset=utf-8"
    return None
