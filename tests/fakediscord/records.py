"""What the fake keeps of each request, and the answers a test injects (faults, 429s)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Recorded:
    method: str
    path: str
    status: int
    body: Any
    response: Any
    at: float = field(default_factory=time.monotonic)


@dataclass
class FaultRule:
    """An injected failure: the next ``remaining`` matching requests get ``status``."""

    pattern: str  # substring of "METHOD /path"
    status: int
    code: int
    message: str
    remaining: int


@dataclass
class RateLimitRule:
    pattern: str  # substring of "METHOD /path"; "" matches everything
    retry_after: float
    remaining: int  # how many 429s still to give
    is_global: bool
