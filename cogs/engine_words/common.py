"""The sentences every trick-taking family writes alike: deals, plays, tricks, prompts,
the cards a player picks up."""

from __future__ import annotations

from bot.i18n import N_
from cogs.engine_words.parts import A_CARD, CARD, CARDS, Phrase, S

PHRASES: tuple[Phrase, ...] = (
    (rf"{S} deals\.", N_("{who} deals."), {}),
    (rf"{S} has dealt\.", N_("{who} has dealt."), {}),
    (rf"{S} deals the next hand\.", N_("{who} deals the next hand."), {}),
    (rf"{S} deals again\.", N_("{who} deals again."), {}),
    (rf"{S} plays {CARD}\.", N_("{who} plays {card}."), {}),
    (rf"{S} leads\.", N_("{who} leads."), {}),
    (rf"{S} wins the trick\.", N_("{who} wins the trick."), {}),
    (rf"{S} to play\.", N_("{who} to play."), {}),
    (rf"{S} to lead\.", N_("{who} to lead."), {}),
    (r"Waiting for the next deal\.", N_("Waiting for the next deal."), {}),
    (r"The game is over\.", N_("The game is over."), {}),
    (r"The game is a draw\.", N_("The game is a draw."), {}),
    (rf"Play (?P<card>{A_CARD}(?: {A_CARD})*)", N_("Play {card}"), {}),  # Tunge plays several
    (r"Pass", N_("Pass"), {}),
    (r"points", N_("points"), {}),
    (rf"You pick up {CARDS}\.", N_("You pick up {cards}."), {}),
)
