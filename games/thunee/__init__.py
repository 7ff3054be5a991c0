"""Thunee (Thuni): the South African trick-taking game, for 4 (default), 2 or 6 players.

Contract: ``shared/rules/thunee.md``. Terms: a *hand* is one deal with its tricks and scoring; a
*ball* is one game point. The dealer ``D`` deals counter-clockwise (seat ``D+1`` first) a first
packet (4 cards; 2 or 3 with six players) and, after trump is set, a second packet. ``D+1`` is the
*trumpman*; the *trumper* ``T`` is the trumpman or the highest caller. The trumper's opponents
are the *counting team*: they need 105 (two players: ``two_player_target``) by
``points + last trick ±10 + call + own Jodhi − opponents' Jodhi``. Ranking J 9 A 10 K Q (Royals:
reversed), points 30 20 11 10 3 2 (304 in the deck).

Transcript actions (contract §1.24): ``demand_redeal``, ``decline_redeal``, ``call`` (``value``),
``pass``, ``blind`` (``contract``: ``thunee``/``royals``), ``trump`` (``card``), ``last_card``,
``thunee``, ``royals``, ``play`` (``card``), ``jodhi`` (``suit``), ``double``, ``khanaak``,
``challenge`` (``target``) and ``murial`` (``target``, ``suit``). Automatic steps (dealing, the
reveal, a pass that is a seat's only legal action, annulments, scoring) are never moves.

Replay ``result`` per deal: ``kind`` (normal, thunee, royals, blind_thunee, blind_royals, double,
khanaak, annulled, challenge), ``counting_team``, ``call``, ``points`` and ``jodhi`` per team,
``total`` and ``target`` (normal hands, with or without a declaration), ``balls`` per team, plus
``contract``, ``trumper``, ``trump``, ``caller``, ``game_target`` (the ball target the hand was
judged against) and, where they apply, ``success``, ``partner_catch``, ``declarer``, ``backside``,
``reason`` (annulments: ``weak_hand`` or ``no_trump``), ``challenger``/``accused``/``proven``.

Events (``to=None`` public, else private): ``new_deal``, ``redeal_demanded``/``redeal_declined``,
``call``, ``pass`` (``auto`` when the engine passes for a seat), ``auction_over``, ``blind``,
``trump_set`` (public, no suit) with ``trump_set_private`` (the trumper: card and suit) or
``trump_card_seen`` (last card, when visible to him), ``thunee``/``royals``, ``trump_cancelled``,
``trump_revealed``, ``card_played``, ``trick_won`` (points, trick number, team points), ``jodhi``
(claimant and value), ``double``/``khanaak``, ``target_raised``, ``blind_pickup`` (+ private
``cards_dealt``), ``second_half``, ``challenge``, ``murial``, ``hand_annulled``, ``hand_scored``
(the result; its text gives the counting total against its target), ``balls_awarded``,
``game_over``. ``history`` marks the ones for the channel history: ``hand_scored``,
``balls_awarded``, ``hand_annulled``, ``game_over``, ``target_raised`` and ``challenge``.

Dealing: the apply that ends a hand deals the next one (a seeded game shuffles it into
``self.deals`` then), so reads never change the game. ``waiting_for()`` gives the seat whose turn
it is (Jodhi claims and challenges are optional moves of other seats).

Rule choices where the contract is silent:
- Auction: a blind call is open to every seat on its turn, so with blind contracts enabled
  (the default) nobody is ever auto-passed in the auction; with them off, a seat of the holding
  team (or a seat facing a standing 104) passes automatically.
- The revealed trump card (normal hand, after the first card) is public: it is no longer a
  hidden card even while it sits in the trumper's hand. After a Thunee/Royals call a face-down
  trump card simply goes back to the trumper's hand (a last-card trump is then seen by him).
- Thunee, Royals and blind contracts follow ``thunee_must_win`` (caller or team) alike; a blind
  caller picks up his set-aside cards after as many tricks as his first packet had cards.
- A blind contract has no trumper (``trumper`` is ``None``); ``call`` still reports the
  standing call. Card points of the tricks played are reported for every kind of hand
  (for information: they do not count in Thunee, Royals, blind or challenge hands).
- After a Khanaak the target is ``balls_to_win + 1``. Corner house (one short of the target in
  force) only restricts Double.
- Two players: the no-trump annulment is checked only when the second half is dealt (the
  counting player held no trump among all twelve cards), per §3.2.8.
- Challenge mode: a false Jodhi claim is accepted and counts 20 (40 in trump) until an opponent
  answers it with Murial before the next card; a Murial against a valid claim costs nothing and
  the claim stands. A revoke or illegal undercut is accepted and recorded in hidden state that no
  view or event ever shows. A challenge hand reports ``total`` and ``target`` as ``None``. Every
  seat may challenge at any time during play, so in challenge mode every seat is in ``to_act``
  while cards are played; the computer player challenges only a revoke it can prove from the
  public tricks (the bot should run computer players only for the seat whose ``turn`` it is).
- Refused moves never change the game; challenge mode never accepts a card out of turn or a card
  not held.

Refusals: the legal moves are the single source of truth; :mod:`~games.thunee.reasons` explains
an illegal move as a typed :class:`~games.base.NotYourTurn`, :class:`~games.base.Malformed` or
:class:`~games.base.AgainstRules` with a stable ``code`` and ``params`` beside the English text.

Computer player (:mod:`games.players.thunee`, from the seat's view alone): demands a weak-hand
redeal, calls the next step (up to 40) only with a strong first packet and otherwise passes, never
calls blind, lays the lowest card of its longest (then strongest) suit as trump, calls Thunee only
holding nothing but top cards, claims every Jodhi it can, declares Double/Khanaak only with a card
that surely wins the last trick, leads a card that is the highest left in its suit (else its
cheapest), wins a trick with the cheapest winning card, and throws its cheapest card when the
partner is winning or it cannot win. It uses only what its seat may know.

Hidden information (§1.20): a seat sees its own hand, every call, pass, played card, completed
trick, Jodhi claim (claimant and value; the suit only with ``jodhi_reveal_suit``) and declaration.
The face-down trump card is known only to the trumper (and to nobody for a last-card trump unless
``last_card_visible_to_trumper``); the undealt cards and a blind caller's set-aside cards are known
to nobody. ``hidden_cards`` returns exactly those, and no view or event names them.

Layout (one concept per module): :mod:`~games.thunee.deck` (cards, ranks, dealing),
:mod:`~games.thunee.moves`, :mod:`~games.thunee.options`, :mod:`~games.thunee.state`,
:mod:`~games.thunee.scoring`, :mod:`~games.thunee.claims`, :mod:`~games.thunee.play`,
:mod:`~games.thunee.auction`, :mod:`~games.thunee.reasons`, :mod:`~games.thunee.view` and
:mod:`~games.thunee.engine`.
"""

from games.thunee.deck import (
    DECK,
    POINTS,
    deal_from_deck,
    first_dealer_by_jacks,
    packet_sizes,
    shuffled_deck,
)
from games.thunee.engine import Thunee

__all__ = [
    "DECK",
    "POINTS",
    "Thunee",
    "deal_from_deck",
    "first_dealer_by_jacks",
    "packet_sizes",
    "shuffled_deck",
]
