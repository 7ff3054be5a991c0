"""The Hint button's reasons (games/players/hints.py) of both Tarneebs and the bid-card
games, as written."""

from __future__ import annotations

import re

from bot.i18n import N_
from cogs.engine_words.parts import Phrase

HINT_REASONS: tuple[str, ...] = (
    N_("what the normal computer player would do here"),
    N_("it is the only move you have"),
    N_("any legal move will do"),
    N_("name your longest suit trump"),
    N_("you cannot bid higher: pass"),
    N_("you may not pass: bid the cheapest bid"),
    N_("your side holds the bid: pass"),
    N_("you may not pass: bid"),
    N_("their bid is high and you hold four quick tricks: double"),
    N_("at most one high card: declare sooli"),
    N_("too many high cards for sooli: pass"),
    N_("give your partner your lowest card"),
    N_("give back your highest card"),
    N_("your first lead names trump: lead high from your long suit"),
    N_("lead a master: no higher card of its suit is still out"),
    N_("no master to lead: lead low, keeping your trumps"),
    N_("your partner is winning the trick: discard low"),
    N_("win the trick as cheaply as you can"),
    N_("you cannot win this trick: discard low, keeping your trumps"),
    N_("enough high cards to take tricks: bid high"),
    N_("too few high cards to take tricks: bid low"),
    N_("your side wants tricks: lead your highest card"),
    N_("no king or ace to lead: lead your lowest card"),
    N_("you want no tricks: lead your lowest card"),
    N_("your partner is winning the trick: play low"),
    N_("you play last: win with your cheapest winning card"),
    N_("win the trick with your highest card"),
    N_("you cannot win this trick: play low"),
    N_("you want no tricks: play just under the winning card"),
    N_("the trick is yours anyway: get rid of your highest card"),
    N_("you cannot stay under: play your lowest card"),
    N_("you cannot follow suit: throw your highest card"),
)
PHRASES: tuple[Phrase, ...] = (
    *((re.escape(reason), reason, {}) for reason in HINT_REASONS),
    (
        r"your hand is worth about (?P<n>\d+) tricks: bid the cheapest bid",
        N_("your hand is worth about {n} tricks: bid the cheapest bid"),
        {},
    ),
    (
        r"your hand is worth about (?P<n>\d+) tricks, less than the next bid: pass",
        N_("your hand is worth about {n} tricks, less than the next bid: pass"),
        {},
    ),
    (
        r"your hand is worth about (?P<n>\d+) tricks: bid your longest suit",
        N_("your hand is worth about {n} tricks: bid your longest suit"),
        {},
    ),
)
