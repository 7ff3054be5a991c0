"""What Tuppi and Norwegian (Minnesota) Whist share: secret bid cards, a reveal, no-trump tricks.

Both games deal 13 cards to each of four seats (two partnerships, team = seat % 2), let every seat
commit a secret **bid card** at the same time (its colour says "high" or "low"), reveal the
commitments one at a time and stop at the first "high" bid, then play thirteen tricks without
trumps. The subclasses (:mod:`games.tuppi`, :mod:`games.norwegian_whist`) supply the words
(rami/nolo, grand/nullo), which cards may carry a bid, the reveal order, the leaders and the
scoring.

Hidden information, as both contracts require:

- The commit is public only as "X has committed a bid". The value and the card are told to the
  committing seat alone (a private event and that seat's own view).
- Revealed bids (value and card, or "verbally") become public; the revealed card stays in the hand,
  so it is removed from :meth:`hidden_cards` of every reader until it is played.
- Bids the reveal never reached stay secret forever: no event, view or summary names them. They
  are ordinary cards of their owner's hand, so :meth:`hidden_cards` covers them. The public
  history a computer player is handed shows another seat's bid only once revealed
  (:meth:`BidCardGame.secret_move`).

The move that ends a hand deals the next one (inside ``apply``; reads never change the game).
The deal used is fixed in advance (the next transcript deal, or ``deal_rng(seed, index)``). Events
that mark results (a hand's score, totals reset, an exposed hand, the end of the game) carry
``history=True``. The computer player is :mod:`games.players.bidcards`.

Layout: :mod:`~games.bidcards.words` (the words, texts and shared events both games say) and
:mod:`~games.bidcards.engine` (:class:`BidCardGame`, the shared engine).
"""

from games.bidcards.engine import ORDERS, PASS_MOVE, BidCardGame
from games.bidcards.words import against, malformed, team_title, team_word

__all__ = ["ORDERS", "PASS_MOVE", "BidCardGame", "against", "malformed", "team_title", "team_word"]
