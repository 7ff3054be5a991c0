"""What a search decision may spend (:class:`Budget`), and how it picks among the moves it
measured (:func:`preferred`): shared by the hard player of every game (:mod:`games.search.hard`)
and Tunge's fast path (:mod:`games.search.tunge_hard`), which both import it.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Move


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a decision may think: at most ``worlds`` sampled deals, and no new world once
    ``steps`` moves have been simulated (after at least ``min_worlds``); ``candidates`` caps the
    moves compared (the normal player's and a random choice of the others)."""

    worlds: int = 40
    steps: int = 4000
    min_worlds: int = 4
    candidates: int = 10
    attempts: int = 40  # failed samples before giving up on worlds
    endgame: int = 12  # cards left in all hands when the exact solver replaces the playouts
    dds: int = 36  # the same for DDS (games.search.dds), in the hands it models: bench.dds
    # measured the card decisions' 95th percentile at 105-117 ms of CPU (as before it) up to 36,
    # 203 ms at 40 in Egyptian Tarneeb (the worst 476 ms) and 449 ms at 44
    confidence: float = 1.0  # standard errors by which a move of Tunge must beat the normal one
    card_confidence: float = 1.0  # the same for a card of the trick games (two standard
    # errors, tried, played worse against the one of before: bench.match tarneeb, 30 deals,
    # -1.8 +- 0.8 points a deal); the careless-looking cards are kept out another way (natural)
    call_confidence: float = 2.0  # the same for bids, trumps and calls (one shot, many options)


def _beats(values: dict[Move, list[float]], one: Move, other: Move, confidence: float) -> bool:
    """Whether ``one`` beats ``other`` by more than ``confidence`` standard errors of their
    paired differences (the same worlds); equal values never beat each other."""
    gains = [mine - theirs for mine, theirs in zip(values[one], values[other], strict=True)]
    mean = sum(gains) / len(gains)
    if mean <= 0:
        return False
    if len(gains) < 2:
        return confidence <= 0
    spread = sum((gain - mean) ** 2 for gain in gains) / (len(gains) - 1)
    error = (spread / len(gains)) ** 0.5
    return bool(mean > confidence * error)


def preferred(values: dict[Move, list[float]], normal: Move, confidence: float) -> Move:
    """The move with the best mean value over the worlds, if it beats the normal move by more
    than ``confidence`` standard errors of their paired differences (the same worlds); else
    the normal move. Picking the best of many noisy means favours luck (most of all among many
    bids); the normal move is the prior that a lucky estimate has to beat."""
    means = {move: sum(scores) / len(scores) for move, scores in values.items()}
    best = max(means, key=means.__getitem__)
    return best if best != normal and _beats(values, best, normal, confidence) else normal
