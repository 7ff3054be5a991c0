"""Tarneeb (``tarneeb``) and Egyptian Tarneeb (``tarneeb_egyptian``): the rules engines.

This package holds what both games share (dealing, play, scoring, views) and the Tarneeb auction;
:mod:`games.tarneeb_egyptian` holds the Egyptian auction. The computer player is
:mod:`games.players.tarneeb`. Results (a scored hand, a throw-in, the end of the game) are events
with ``history=True``.

Contract: shared/rules/tarneeb.md (Part A). Four players in two partnerships, team A = seats 0
and 2, team B = seats 1 and 3. Seats are numbered in the order of play; the game goes
counter-clockwise, so seat ``s + 1`` sits on ``s``'s right. 52 cards, ace high, 13 each.

Terms
- *tarneeb*: the trump suit. *Declarer*: the winner of the auction; his bid is the *contract*
  (a number of tricks, 7..13), and he leads to trick 1.
- *Throw-in*: every player passed; nobody scores and the cards are dealt again.
- *Kaboot*: one side takes all 13 tricks.
- Egyptian: a bid carries a *strain* (``C D H S`` or ``NT`` = no trump) which becomes trump;
  a *double* marks the opponents' highest bid so the declaring side's score counts twice.

Transcript moves (the contract's Actions tables)
- ``tarneeb``: ``{"action": "bid", "value": 9}``, ``{"action": "pass"}``,
  ``{"action": "trump", "suit": "S"}`` (``"NT"`` with ``allow_no_trump``), ``{"action": "play",
  "card": "JS"}``.
- ``tarneeb_egyptian``: ``{"action": "bid", "value": 8, "suit": "D"}`` (suit ``C D H S NT``),
  ``{"action": "double"}``, ``{"action": "pass"}``, ``{"action": "play", "card": "JS"}``.

Rule choices where the contract is silent
- Under ``trump_declaration: first_lead`` with ``allow_no_trump`` the declarer calls no trump with
  the move ``{"action": "trump", "suit": "NT"}`` before his first lead; any other suit is refused
  (the lead names it).
- ``all_pass: dealer_forced_7`` (both games): when the first three calls of an auction are passes,
  the fourth caller (the dealer) may not pass. In the single-round auction he must bid; in the
  open auction his bid ends the auction since everyone else passed.
- In the open auction a bid of 13 ends the auction at once; in the single-round auction later
  players still call and the dealer may still equal 13 (contract A.1.3 rule 4).
- Egyptian ``strain_order``: ``bridge`` (C < D < H < S < NT, the seed) or ``masrawy`` (the
  Jawaker order C < S < H < D, with NT still the highest strain, since that source ranks suits
  only). Egyptian ``all_pass`` takes the same three values as Tarneeb's.
- Egyptian ``kaboot_scoring``: the 16/26/-16 values replace ``t``/``b`` and are then doubled for
  a doubled contract; the defenders' ``2 * o`` after a failed 13 is never doubled.
- Both teams at or over the target after a hand (only possible with ``defenders_always_score``):
  the higher total wins; an exact tie plays another hand. An instant win (``instant_win``) ends the
  game at once whatever the totals.
- The replay summary gives every deal (throw-ins included) as ``{"dealer", "tricks", "result",
  "score_after"}``; ``result`` is ``{"throw_in": true, "points": [0, 0]}`` for a throw-in, else
  ``{"throw_in": false, "declarer", "team", "contract", "trump", "doubled", "tricks": [A, B],
  "made", "kaboot", "instant_win", "points": [A, B]}``.

Engine options (not rules of the game; the contract does not name them)
- ``hand_limit`` (both games, default 30, 10..1000): a safeguard that guarantees every game ends.
  With failed contracts costing the bid, totals can drift downwards for ever (uniformly random
  bidding does exactly that), so after ``hand_limit`` deals, throw-ins included, the game ends
  with the first scored hand that leaves the totals unequal, and the higher total wins. Real
  games end long before (41 points take a handful of hands), so tables never need to change it.

Hidden information: each player sees only his own hand; bids, passes, doubles, the trump and every
played card are public. Under ``first_lead`` nobody (the declarer included, formally) has a trump
until the first card is led, so there is no hidden trump to keep. Bids are written in words
("8 diamonds") in every text so that no bid can be mistaken for a card.

Layout (one concept per module, each layer a class built on the one below, as in
:mod:`games.thunee`): :mod:`~games.tarneeb.deck` (cards, ranks, deals), :mod:`~games.tarneeb.moves`
(the moves and the words for bids and teams), :mod:`~games.tarneeb.options`,
:mod:`~games.tarneeb.state` (typed attributes), :mod:`~games.tarneeb.scoring`,
:mod:`~games.tarneeb.play` (tricks), :mod:`~games.tarneeb.auction` (what both auctions share),
:mod:`~games.tarneeb.reasons` (refusals), :mod:`~games.tarneeb.view`, :mod:`~games.tarneeb.engine`
(both games' engine) and :mod:`~games.tarneeb.bidding` (Tarneeb's own auction: the
:class:`Tarneeb` game).
"""

from games.tarneeb.bidding import Tarneeb
from games.tarneeb.deck import RANK_VALUE
from games.tarneeb.scoring import hand_points

__all__ = ["RANK_VALUE", "Tarneeb", "hand_points"]
