"""Tunge: a shedding game for two to four players (contract: shared/rules/tunge.md, Part D).

Terms
-----
- **sequence** (a *play*): 2+ cards ``[A]*k + tail``. With no leading ace the tail is a **run**
  (2+ consecutive number ranks 2..K, strictly up or strictly down, suits free, no ace, no
  wrap) or a **group** (2+ cards of one number rank). After one ace or more the tail may also be a
  single card; two aces or more may stand alone (a group of aces).
- **stock**: the face-down draw pile (``52 - 12n`` cards). **pile**: the face-up discard pile.
- **reference**: the sequence a play is compared with. While the stock has cards it is the most
  recently played sequence; once the stock is empty (the **end game**) it is the **LVS**, the
  longest viable sequence at the top of the pile, or ``(A) x`` (a **phantom ace** before the top
  card) when the top two cards are no sequence.
- **matches**: matched pairs between a play and the reference (per rank, the smaller count,
  summed; option ``pickup_count: distinct_ranks`` counts shared ranks instead). The next seat then
  makes a **forced pick-up** of that many cards, from the stock, then from the pile top; the rest
  is forgiven.
- **blocked** deal: ended by the engine (third repetition of a position, the turn limit, or every
  seat passing in succession) without a winner.

Actions (transcript moves)
--------------------------
``{"action": "play", "cards": ["AS", "6C", "7S"]}`` (order matters: the last card ends on top),
``{"action": "draw"}``, ``{"action": "pass"}``. Forced pick-ups, dealing and scoring are
mechanical.

Legal moves and the canonical order
-----------------------------------
Suits never matter in Tunge, so every legal play has many equivalents (the same ranks in the same
order with other cards of those ranks). :meth:`Tunge.legal_moves` lists exactly one play per
legal *rank sequence*: for each rank it uses the hand's first cards of that rank in suit order
S, H, D, C, and lists the cards of one rank in that suit order. :meth:`Tunge.normalise` maps any
play of held cards to that listed form, so :meth:`Tunge.check` (and :meth:`Tunge.is_legal`)
accept every legal play with any suits; the cards given are the cards played.

Modules
-------
:mod:`~games.tunge.grammar` (sequences, the reference, the enumeration of plays),
:mod:`~games.tunge.engine` (deals, turns, pick-ups, blocked deals), :mod:`~games.tunge.scoring`,
:mod:`~games.tunge.reasons` (refusals), :mod:`~games.tunge.view`, :mod:`~games.tunge.state`,
:mod:`~games.tunge.options` (the options and the engine's reading of them).
The computer player is :mod:`games.players.tunge`.

Choices where the contract is silent
------------------------------------
- ``players`` defaults to 4 (the bot sets it to the number seated, 2-4).
- ``match_target`` 0 means "none": each deal is a game. It needs ``scoring`` on.
- The forced pick-up is taken immediately after the play that causes it (that is the start of the
  next seat's turn; nothing can happen in between). With ``forced_pickup_ends_turn`` the taker's
  turn then ends and the seat after him acts; that skipped turn is not a move and does not count
  toward the turn limit.
- A turn is one move (play, draw or pass); the turn limit counts moves in the deal.
- A position (for the third-repetition rule) is recorded after every move while the stock is
  empty (it cannot repeat while the stock has cards: the stock only shrinks and the pile only
  grows); it is every hand as a set, the stock, the pile in order and the seat to act.
- A blocked deal has no winner (D.1.10), so a single-deal game (no ``match_target``) that ends
  blocked is a game without a winner: the outcome lists no winners and the seats are ranked by
  their points (the ``game_over`` event gives the ranking). A match ends after the deal in
  which a total reaches the target, blocked or not; the lowest total wins, ties share
  (``summary()["winner"]`` is then ``None`` and ``summary()["winners"]`` lists them).
- Hands in views and results are sorted aces first, then 2..K, suits S H D C within a rank
  (suits never matter, so a by-rank sort is what players want).

Hidden information
------------------
Hands and the stock are hidden. A card drawn or picked up from the stock is told only to the taker
(a private event; the public event gives the count). Cards taken from the pile were face up: they
are named publicly, and stay known (``known_cards`` in the view) until played again. When the
game is finished every hand is shown; the stock stays hidden.
"""

from __future__ import annotations

from games.tunge.engine import DRAW, HAND_SIZE, PASS, Tunge
from games.tunge.grammar import (
    PHANTOM,
    Reference,
    count_matches,
    describe,
    enumerate_plays,
    longest_viable,
    sequence_fault,
)
from games.tunge.reasons import sequence_error
from games.tunge.scoring import CARD_VALUES, hand_value
from games.tunge.view import sort_cards

__all__ = [
    "CARD_VALUES",
    "DRAW",
    "HAND_SIZE",
    "PASS",
    "PHANTOM",
    "Reference",
    "Tunge",
    "count_matches",
    "describe",
    "enumerate_plays",
    "hand_value",
    "longest_viable",
    "sequence_error",
    "sequence_fault",
    "sort_cards",
]
