"""Card faces: the application emojis the bot draws for its cards, and cards as text with them.

At start-up the bot lists its application's emojis and uploads only the card pictures that
are missing (by name, ``c_AS``), so a restart reuses them. It runs in the background: until it
is done, or if Discord refuses an upload, cards are shown as text (``A♠``), as before; nothing
waits for it. One registry per process, since an application's emojis are the process's; it
lives in this plain module (not an extension, which discord.py imports afresh on each load).

With shards on several processes only the one that owns shard 0 uploads; the others list the
emojis, and list them again a little later while some are missing (being uploaded meanwhile).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.card_art import BACK_NAME, emoji_name, emoji_names, emoji_png
from games.cards import display

log = logging.getLogger(__name__)
# A process that does not upload lists the emojis again after these pauses while some are
# missing; then it keeps what it found (the missing cards show as text).
RELIST_SECONDS = (2.0, 5.0, 10.0, 30.0, 60.0, 120.0)


@dataclass
class CardFaces:
    """The card emojis known so far, by name; what the last start-up did."""

    emojis: dict[str, discord.PartialEmoji] = field(default_factory=dict)
    created: int = 0
    failed: int = 0
    seconds: float = 0.0
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[CardFaces] | None = None

    def emoji(self, card: str) -> discord.PartialEmoji | None:
        return self.emojis.get(emoji_name(card))

    @property
    def back(self) -> discord.PartialEmoji | None:
        return self.emojis.get(BACK_NAME)

    def clear(self) -> None:
        self.emojis.clear()
        self.created = self.failed = 0
        self.ready = asyncio.Event()


FACES = CardFaces()


def card_face(card: str) -> str:
    """A card for a message: its picture then its text (``<:c_AS:1…> A♠``); text alone when
    the picture is not there. The text stays: it is what screen readers and search see."""
    emoji = FACES.emoji(card)
    return f"{emoji} {display(card)}" if emoji is not None else display(card)


def cards_face(cards: Sequence[str]) -> str:
    return " ".join(card_face(card) for card in cards)


@functools.cache  # checked for every hidden card of every public text
def face_tokens(card: str) -> tuple[str, ...]:
    """What a message shows for a card, text and picture: a public text naming a hidden card
    by either is a leak."""
    return (display(card), f":{emoji_name(card)}:")


async def _listed(client: discord.Client) -> dict[str, discord.PartialEmoji]:
    """The card emojis the application has, by name."""
    wanted = set(emoji_names())
    return {
        emoji.name: discord.PartialEmoji(name=emoji.name, id=emoji.id)
        for emoji in await client.fetch_application_emojis()
        if emoji.name in wanted
    }


async def ensure_faces(
    client: discord.Client,
    faces: CardFaces = FACES,
    *,
    upload: bool = True,
    relist: tuple[float, ...] = RELIST_SECONDS,
) -> CardFaces:
    """List the application's emojis, upload the missing card pictures, keep them all.

    ``upload`` False (a process without shard 0): list again after each pause of ``relist``
    while some are missing, and never upload.

    Never raises: a failed listing leaves cards as text; a failed upload leaves that card as
    text (logged once with the count).
    """
    started = time.perf_counter()
    faces.clear()
    try:
        known = await _listed(client)
        for pause in relist if not upload else ():
            if len(known) == len(emoji_names()):
                break
            await asyncio.sleep(pause)
            known = await _listed(client)
    except Exception as error:  # refused, unreachable, or no application id yet
        log.warning("card pictures unavailable (cannot list the emojis: %s); cards as text", error)
        faces.ready.set()
        return faces
    reused = len(known)
    loop = asyncio.get_running_loop()
    first_error: str | None = None
    for name in emoji_names() if upload else ():
        if name in known:
            continue
        image = await loop.run_in_executor(None, emoji_png, name)  # drawing takes ~15 ms
        try:
            made = await client.create_application_emoji(name=name, image=image)
        except discord.HTTPException as error:
            faces.failed += 1
            first_error = first_error or str(error)
            continue
        except Exception as error:  # the connection is closing: keep what is known
            log.warning("card pictures: uploads stopped (%s)", type(error).__name__)
            break
        known[name] = discord.PartialEmoji(name=made.name, id=made.id)
        faces.created += 1
    faces.emojis.update(known)  # all at once: a board never mixes pictures and text by chance
    faces.seconds = time.perf_counter() - started
    if faces.failed:
        log.warning(
            "%d card pictures could not be uploaded (%s); those cards show as text",
            faces.failed,
            first_error,
        )
    log.info(
        "card pictures: %d reused, %d created in %.2f s",
        reused,
        faces.created,
        faces.seconds,
    )
    faces.ready.set()
    return faces


def start_faces(client: discord.Client, *, upload: bool = True) -> asyncio.Task[CardFaces]:
    """Start :func:`ensure_faces` in the background (from a cog's setup, which runs after
    login, so the application id is known); nothing waits for it."""
    stop_faces()
    FACES.task = asyncio.get_running_loop().create_task(ensure_faces(client, upload=upload))
    return FACES.task


def stop_faces() -> None:
    """At shutdown: stop uploading (the HTTP session is about to close) and forget the faces,
    which belong to this connection's application."""
    if FACES.task is not None and not FACES.task.done():
        FACES.task.cancel()
    FACES.task = None
    FACES.clear()
