"""Command line: try the bot without a Discord account.

    python -m tests.fakediscord serve [--port N]        the fake only; prints the env lines
    python -m tests.fakediscord play [--port N]         the fake and the bot; type commands
    python -m tests.fakediscord scenario FILE.jsonl     a scripted session (exit 1 on failure)

Play commands: ``as NAME``, ``/ping``, ``/table new game:thunee seats:4``, ``show``,
``click Join``, ``click 2 "Show my hand"`` (message #2 of ``show``), ``select 3 PLACEHOLDER v1 v2``,
``modal field=value ...``, ``wait SECONDS``, ``quit``.

Scenario lines (JSON objects): {"as": "alice"}, {"do": "/table new game:thunee"},
{"do": "click Join"}, {"expect": "text the current user sees"},
{"expect_not": "text"}, {"expect_ephemeral": "text"}, {"wait": 0.5}.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .errors import ClientRefused
from .server import FakeDiscord
from .users import FakeUser, InteractionResult

REPO = Path(__file__).resolve().parents[2]
# How long the bot must have been quiet before an action's answer is shown: longer than the
# pause in which it gathers a table's changes into one edit, so the echo shows the outcome.
SETTLE_SECONDS = 0.5


def env_lines(fake: FakeDiscord) -> str:
    return "\n".join(f"export {k}={shlex.quote(v)}" for k, v in fake.env().items())


class Session:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.current: FakeUser = fake.user("alice")

    def _message(self, number: str | None, label: str | None) -> Any:
        msgs = self.current.visible_messages()
        if number is not None:
            return msgs[int(number) - 1]
        for msg in reversed(msgs):
            if label is None or any(
                label in (b.get("label"), b.get("custom_id")) for b in msg.iter_components()
            ):
                return msg
        raise ClientRefused(f"no visible message has {label!r}")

    async def run(self, line: str) -> str:
        line = line.strip()
        if not line or line.startswith("#"):
            return ""
        if line.startswith("/"):
            words = shlex.split(line[1:])
            names = [w for w in words if ":" not in w]
            options: dict[str, Any] = {}
            for w in words:
                if ":" in w:
                    key, value = w.split(":", 1)
                    options[key] = value
            result = await self._slash(" ".join(names), options)
            return await self._settled(result)
        words = shlex.split(line)
        verb, args = words[0].lower(), words[1:]
        if verb == "as":
            self.current = self.fake.user(args[0], admin="admin" in args[1:])
            return f"you are now {self.current.name}"
        if verb == "show":
            return self.current.screen(args[0] if args else None) or "(nothing to see)"
        if verb == "click":
            number = args[0] if len(args) > 1 and args[0].isdigit() else None
            label = args[-1]
            result = await self.current.click(self._message(number, label), label)
            return await self._settled(result)
        if verb == "select":
            msg = self._message(args[0], None)
            return await self._settled(await self.current.select(msg, args[1], args[2:]))
        if verb == "modal":
            values = dict(a.split("=", 1) for a in args)
            return await self._settled(await self.current.submit_modal(values))
        if verb == "wait":
            await asyncio.sleep(float(args[0]))
            return ""
        raise ClientRefused(f"unknown command {verb!r}")

    async def _settled(self, result: InteractionResult) -> str:
        """The answer to an action once the bot's work for it is done: a click that edits the
        table answers at once and edits a moment later, and the echo must show the edit."""
        with contextlib.suppress(TimeoutError):  # a busy table (computers playing) goes on
            await self.fake.quiet(SETTLE_SECONDS, timeout=3)
        return describe(result)

    async def _slash(self, command: str, options: dict[str, Any]) -> InteractionResult:
        # Convert typed text to the option types of the synced schema.
        words = command.split()
        cmd = self.fake.commands_for(self.fake.default_guild.id).get(words[0])
        schema = (cmd.data.get("options") if cmd else None) or []
        for word in words[1:]:
            schema = next((o.get("options") or [] for o in schema if o["name"] == word), [])
        for opt in schema:
            if opt["name"] in options and opt["type"] == 4:
                options[opt["name"]] = int(options[opt["name"]])
        result = await self.current.slash(command, **options)
        if result.deferred:
            await result.wait_done()
        return result


def describe(result: InteractionResult) -> str:
    if result.failed:
        return "This interaction failed."
    if result.modal is not None:
        fields = [
            (r.get("component") or (r.get("components") or [{}])[0]).get("custom_id")
            for r in result.modal.get("components", [])
        ]
        return f"[modal {result.modal.get('title')!r}: fields {fields}] (answer with: modal f=v)"
    if result.choices:
        return "choices: " + ", ".join(str(c["name"]) for c in result.choices)
    tag = " (only you can see this)" if result.ephemeral else ""
    return (
        f"{result.text}{tag}" if result.message else f"(ok, response type {result.response_type})"
    )


async def start_bot(fake: FakeDiscord, db_dir: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, **fake.env(DATABASE_PATH=str(Path(db_dir) / "cardtable.sqlite3"))}
    log = open(Path(db_dir) / "bot.log", "ab")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot"], cwd=REPO, env=env, stdout=log, stderr=log
    )
    with contextlib.suppress(TimeoutError):
        await fake.wait_for(lambda: fake.connected or proc.poll() is not None, timeout=30)
    if not fake.connected:
        proc.kill()
        proc.wait()
        log.close()
        # Show the reason now: db_dir is a temporary folder, deleted when this exits.
        output = (Path(db_dir) / "bot.log").read_text(errors="replace").strip()
        raise SystemExit(f"the bot did not start:\n{output or '(it printed nothing)'}")
    await asyncio.sleep(0.3)
    return proc


async def serve(port: int) -> None:
    fake = await FakeDiscord().start(port=port)
    print("# fake Discord is up; start the bot with these lines:")
    print(env_lines(fake))
    print("# then: python -m bot     (Ctrl-C here to stop)")
    await asyncio.Event().wait()


async def play(port: int) -> None:
    fake = await FakeDiscord().start(port=port)
    with tempfile.TemporaryDirectory() as tmp:
        proc = await start_bot(fake, tmp)
        session = Session(fake)
        print("connected. you are alice. try: /ping, show, click Refresh, as bob, quit")
        loop = asyncio.get_running_loop()
        try:
            while True:
                line = await loop.run_in_executor(None, lambda: input(f"{session.current.name}> "))
                if line.strip() in ("quit", "exit"):
                    break
                try:
                    out = await session.run(line)
                except (ClientRefused, KeyError, IndexError, ValueError) as exc:
                    out = f"can't: {exc}"
                if out:
                    print(out)
        except (EOFError, KeyboardInterrupt):
            pass
        finally:
            proc.terminate()
            proc.wait(10)
            await fake.stop()


async def scenario(path: Path, port: int) -> int:
    fake = await FakeDiscord().start(port=port)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        proc = await start_bot(fake, tmp)
        session = Session(fake)
        try:
            for number, raw in enumerate(path.read_text().splitlines(), 1):
                if not raw.strip() or raw.lstrip().startswith("#"):
                    continue
                step = json.loads(raw)
                try:
                    if "as" in step:
                        out = await session.run(f"as {step['as']}")
                    elif "do" in step:
                        out = await session.run(step["do"])
                    elif "wait" in step:
                        out = await session.run(f"wait {step['wait']}")
                    elif "expect" in step:
                        await fake.quiet(0.1)
                        screen = session.current.screen()
                        assert step["expect"] in screen, f"not on screen: {step['expect']!r}"
                        out = "ok"
                    elif "expect_not" in step:
                        screen = session.current.screen()
                        assert step["expect_not"] not in screen, (
                            f"on screen: {step['expect_not']!r}"
                        )
                        out = "ok"
                    elif "expect_ephemeral" in step:
                        last = session.current.last_ephemeral()
                        assert last is not None and step["expect_ephemeral"] in last.text()
                        out = "ok"
                    else:
                        raise ValueError(f"unknown step {step}")
                    print(f"{number}: {raw.strip()}\n   {out}")
                except (AssertionError, ClientRefused, KeyError, ValueError) as exc:
                    failures += 1
                    print(f"{number}: {raw.strip()}\n   FAILED: {exc}")
        finally:
            proc.terminate()
            proc.wait(10)
            await fake.stop()
    print("unknown routes:", [f"{r.method} {r.path}" for r in fake.unknown_routes] or "none")
    return 1 if failures or fake.unknown_routes else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fakediscord")
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name in ("serve", "play"):
        p = sub.add_parser(name)
        p.add_argument("--port", type=int, default=8765 if name == "serve" else 0)
    p = sub.add_parser("scenario")
    p.add_argument("file", type=Path)
    p.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        if args.cmd == "serve":
            asyncio.run(serve(args.port))
        elif args.cmd == "play":
            asyncio.run(play(args.port))
        else:
            return asyncio.run(scenario(args.file, args.port))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
