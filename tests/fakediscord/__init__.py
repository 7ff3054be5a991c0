"""An in-repo fake of Discord's REST API and gateway, strict enough to catch real bugs.

See README.md in this folder. Main entry points: :class:`FakeDiscord`, ``fake.user(name)``.
"""

from .errors import ClientRefused
from .model import Clock, Message
from .server import DEFAULT_TOKEN, DiscordError, FakeDiscord, Recorded
from .users import FakeUser, InteractionResult

__all__ = [
    "DEFAULT_TOKEN",
    "ClientRefused",
    "Clock",
    "DiscordError",
    "FakeDiscord",
    "FakeUser",
    "InteractionResult",
    "Message",
    "Recorded",
]
