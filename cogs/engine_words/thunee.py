"""Thunee's sentences: the redeal, the calling, trump laid face down, Jodhi, Double and
Khanaak (and why one is refused), challenges, the counting side's result, the balls; its hints.

Thunee's own words stay as players say them in every language: Thunee, Royals, Blind Thunee,
Blind Royals, Jodhi, Khanaak, Murial, Double (as a declaration), corner house, trumpman and
trumper.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot import i18n
from bot.i18n import N_
from cogs.engine_words.parts import CARD, CARDS, SUIT, Phrase, S, others, suit_word

CONTRACTS = ("Thunee", "Royals", "Blind Thunee", "Blind Royals")  # the game's own words
CONTRACT = "(?P<contract>" + "|".join(CONTRACTS) + ")"
SIDE = r"(?P<team>\{s\d\}|Team [AB])"  # a team, or the player in the two-player game
OTHER = r"(?P<other>\{s\d\})"
SCORE = r"(?P<a>\d+)–(?P<b>\d+)"

# The texts that are the game's own words alone (move labels), the same in every language.
OWN_WORDS = "|".join((*CONTRACTS, "Khanaak", r"Jodhi(?: [♠♥♦♣](?: \(\d+\))?)?"))
OWN_LABELS = rf"{OWN_WORDS}|Murial \{{s\d\}}"


def _balls(lang: str, values: Mapping[str, str]) -> str:
    return i18n.ngettext(
        lang,
        "{team} scores {n} ball ({a}–{b}).",
        "{team} scores {n} balls ({a}–{b}).",
        int(values["n"]),
        **others(values),
    )


def _target(lang: str, values: Mapping[str, str]) -> str:
    return i18n.ngettext(
        lang,
        "The game is now played to {n} ball.",
        "The game is now played to {n} balls.",
        int(values["n"]),
    )


def _trick(lang: str, values: Mapping[str, str]) -> str:
    return i18n.ngettext(
        lang,
        "{who} wins trick {trick} ({n} point).",
        "{who} wins trick {trick} ({n} points).",
        int(values["n"]),
        **others(values),
    )


DECLARED = "(?P<word>Double|Khanaak)"  # the last trick's declarations, the game's own words
# The game's reasons for refusing a Double or Khanaak (and a deal) that name nothing: as written.
REFUSALS: tuple[str, ...] = (
    N_("Only one Double or Khanaak may be declared in a hand."),
    N_("Only a team that won every trick so far may Double."),
    N_("A team is at corner house, so nobody may Double."),
    N_("Your team is at corner house and may not Double."),
    N_("Khanaak needs a Jodhi claimed by your team in this hand."),
    N_("Khanaak needs your team to have lost one of the earlier tricks."),
    N_("This game is not waiting for a deal."),
)


PHRASES: tuple[Phrase, ...] = (
    # The redeal and the calling.
    (rf"{S} deals hand (?P<n>\d+)\.", N_("{who} deals hand {n}."), {}),
    (rf"{S} deals; {OTHER} is trumpman\.", N_("{who} deals; {other} is trumpman."), {}),
    (
        rf"{S} may demand a redeal \(weak first packet\)\.",
        N_("{who} may demand a redeal (weak first packet)."),
        {},
    ),
    (rf"{S} demands a redeal \(weak hand\)\.", N_("{who} demands a redeal (weak hand)."), {}),
    (rf"{S} declines the redeal\.", N_("{who} declines the redeal."), {}),
    (rf"{S} to call or pass\.", N_("{who} to call or pass."), {}),
    (rf"{S} calls (?P<n>\d+)\.", N_("{who} calls {n}."), {}),
    (rf"{S} calls {CONTRACT}!", N_("{who} calls {contract}!"), {}),
    (
        rf"{S} wins the calling at (?P<n>\d+) and sets trump\.",
        N_("{who} wins the calling at {n} and sets trump."),
        {},
    ),
    (rf"No call: {S} sets trump\.", N_("No call: {who} sets trump."), {}),
    (rf"{S} may call Thunee or pass\.", N_("{who} may call Thunee or pass."), {}),
    # Trump.
    (rf"{S} to set trump\.", N_("{who} to set trump."), {}),
    (
        rf"{S} calls last card: their last card will be the trump card\.",
        N_("{who} calls last card: their last card will be the trump card."),
        {},
    ),
    (rf"{S} lays the trump card face down\.", N_("{who} lays the trump card face down."), {}),
    (
        rf"You set {CARD} face down: {SUIT} are trump\.",
        N_("You set {card} face down: {suit} are trump."),
        {"suit": suit_word},
    ),
    (
        rf"Your last card, {CARD}, is the trump card\.",
        N_("Your last card, {card}, is the trump card."),
        {},
    ),
    (
        rf"The trump is cancelled; the trump card goes back to {S}'s hand unseen\.",
        N_("The trump is cancelled; the trump card goes back to {who}'s hand unseen."),
        {},
    ),
    (
        r"(?P<suit>Spades|Hearts|Diamonds|Clubs) are trump\.",
        N_("{suit} are trump."),
        {"suit": suit_word},
    ),
    (
        rf"The trump card is {CARD}: {SUIT} are trump\.",
        N_("The trump card is {card}: {suit} are trump."),
        {"suit": suit_word},
    ),
    # The play, the second half of a two-player game.
    (rf"{S} to play\. Jodhi window open\.", N_("{who} to play. Jodhi window open."), {}),
    (rf"{S} wins trick (?P<trick>\d+) \((?P<n>\d+) points?\)\.", _trick, {}),
    (rf"{S} picks up their other cards\.", N_("{who} picks up their other cards."), {}),
    (rf"Second half: you receive {CARDS}\.", N_("Second half: you receive {cards}."), {}),
    (r"The second half is dealt\.", N_("The second half is dealt."), {}),
    # Claims, declarations, challenges.
    (rf"{S} claims Jodhi (?P<n>\d+)\.", N_("{who} claims Jodhi {n}."), {}),
    (rf"{S} claims Jodhi (?P<n>\d+) in trump\.", N_("{who} claims Jodhi {n} in trump."), {}),
    (
        rf"{S} claims Jodhi (?P<n>\d+) in {SUIT}\.",
        N_("{who} claims Jodhi {n} in {suit}."),
        {"suit": suit_word},
    ),
    (rf"{S} declares (?P<word>Double|Khanaak)!", N_("{who} declares {word}!"), {}),
    (r"The game is now played to (?P<n>\d+) balls?\.", _target, {}),
    (
        rf"{S} calls Murial: {OTHER}'s Jodhi is cancelled\.",
        N_("{who} calls Murial: {other}'s Jodhi is cancelled."),
        {},
    ),
    (
        rf"{S} calls Murial, but {OTHER}'s Jodhi stands\.",
        N_("{who} calls Murial, but {other}'s Jodhi stands."),
        {},
    ),
    (
        rf"{S} challenges {OTHER}: an illegal play is proven\.",
        N_("{who} challenges {other}: an illegal play is proven."),
        {},
    ),
    (
        rf"{S} challenges {OTHER}: no illegal play was made\.",
        N_("{who} challenges {other}: no illegal play was made."),
        {},
    ),
    # Why a Double or Khanaak is refused (the game's reasons, each told as the player reads it).
    (
        rf"{DECLARED} is not used in the two-player game\.",
        N_("{word} is not used in the two-player game."),
        {},
    ),
    (rf"{DECLARED} is not played at this table\.", N_("{word} is not played at this table."), {}),
    (
        rf"{DECLARED} may only be declared in the last trick of a normal hand\.",
        N_("{word} may only be declared in the last trick of a normal hand."),
        {},
    ),
    (
        rf"Declare {DECLARED} on your own turn in the last trick, before you play\.",
        N_("Declare {word} on your own turn in the last trick, before you play."),
        {},
    ),
    *((re.escape(reason), reason, {}) for reason in REFUSALS),
    # The hand's end, the balls, the game.
    (
        rf"The hand is annulled \(the trumpman's weak hand\); {S} deals again\.",
        N_("The hand is annulled (the trumpman's weak hand); {who} deals again."),
        {},
    ),
    (
        rf"The hand is annulled \(the counting side holds no trump\); {S} deals again\.",
        N_("The hand is annulled (the counting side holds no trump); {who} deals again."),
        {},
    ),
    (
        rf"Hand over: {SIDE}, the counting team, made (?P<total>-?\d+) against (?P<target>\d+)\.",
        N_("Hand over: {team}, the counting team, made {total} against {target}."),
        {},
    ),
    (
        rf"Hand over: {SIDE}, the counting side, made (?P<total>-?\d+) against (?P<target>\d+)\.",
        N_("Hand over: {team}, the counting side, made {total} against {target}."),
        {},
    ),
    (rf"Hand over \({CONTRACT}\)\.", N_("Hand over ({contract})."), {}),
    (r"Hand over \(challenge\)\.", N_("Hand over (challenge)."), {}),
    (rf"{SIDE} scores (?P<n>\d+) balls? \({SCORE}\)\.", _balls, {}),
    (rf"{SIDE} wins the game {SCORE}\.", N_("{team} wins the game {a}–{b}."), {}),
    (r"balls", N_("balls"), {}),
    # Move labels (the game's own words alone are OWN_LABELS).
    (r"Call (?P<n>\d+)", N_("Call {n}"), {}),
    (rf"Trump {CARD}", N_("Trump {card}"), {}),
    (r"Last card", N_("Last card"), {}),
    (r"Redeal", N_("Redeal"), {}),
    (r"Play on", N_("Play on"), {}),
    (rf"Challenge {S}", N_("Challenge {who}"), {}),
)

# The Hint button's reasons (games/players/hints.py), as written.
HINT_REASONS: tuple[str, ...] = (
    N_("your hand is weak: ask for a redeal"),
    N_("your first cards are strong: call the next step"),
    N_("your first cards are not strong enough to call: pass"),
    N_("make your longest suit trump, laying its lowest card"),
    N_("you hold only top cards: call Thunee"),
    N_("your hand could lose a trick: do not call Thunee"),
    N_("claim your Jodhi (the most valuable first)"),
    N_("you hold a true Jodhi: claim it"),
    N_("an opponent played off a suit they had shown void in: challenge"),
    N_("no card to play now: the normal player takes the first choice offered"),
    N_("your last card surely wins the last trick, and Khanaak holds"),
    N_("your last card surely wins the last trick: call Double"),
    N_("it is the only card you may play"),
    N_("you called it: you must win every trick, so play your strongest card"),
    N_("you hold the best trump and another: lead it to draw the trumps"),
    N_("lead a card that is the highest left in its suit"),
    N_("no sure winner to lead: lead your cheapest card, keeping trumps"),
    N_("your partner called it: never take a trick from them, play cheap"),
    N_("the trick is your partner's and you play last: give it your richest card"),
    N_("nothing left beats your partner's card: give it your richest card"),
    N_("your partner is winning the trick: throw your cheapest card"),
    N_("win the trick with your cheapest winning card"),
    N_("you cannot win this trick: throw your cheapest card"),
)
HINT_PHRASES: tuple[Phrase, ...] = tuple((re.escape(reason), reason, {}) for reason in HINT_REASONS)


def _double(lang: str, values: Mapping[str, str]) -> str:
    return i18n.pgettext(lang, "thunee", "Double")


# Thunee's texts that another game writes alike with another sense: Double is Thunee's own
# declaration on the last trick (its button), Tarneeb's the doubling of a bid.
IN_GAME: tuple[Phrase, ...] = ((r"Double", _double, {}),)
