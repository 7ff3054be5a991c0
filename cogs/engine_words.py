"""The games' own texts (prompts, table lines, events, move labels) in the reader's language.

The games write their texts in English, seats as ``{s0}``... (golden transcripts pin them, and
the rules stay free of any catalogue). Each phrase here is one such English sentence as a
pattern, with its catalogue template: the parts the pattern captures (seats, cards, numbers,
the games' own words) go into the translated sentence as they are, a suit's name in the
reader's words. A text no phrase matches stays English: every text both Tarneebs, Norwegian
Whist and Tuppi write is matched (a test plays them at random and finds none left over); Thunee's
and Tunge's are still English.

The games' own words stay the games' own in every language (Tarneeb's bids, Norwegian Whist's
grand and nullo, Tuppi's rami and nolo, Thunee's Jodhi); ``/rules`` glosses them.

Lookups are cached per (language, text): a table redraw asks for the same few texts each time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache

from bot import i18n
from bot.i18n import N_

Convert = Callable[[str, str], str]  # (language, captured English) → the reader's words

SUIT_WORDS: Mapping[str, str] = {
    "spades": N_("spades"),
    "hearts": N_("hearts"),
    "diamonds": N_("diamonds"),
    "clubs": N_("clubs"),
    "no trump": N_("no trump"),
    "black": N_("black"),
    "red": N_("red"),
    "verbal": N_("verbal"),
    "token": N_("token"),
}


def suit_word(lang: str, english: str) -> str:
    """One of :data:`SUIT_WORDS` in ``lang`` (capitalised as the English was)."""
    key = english.lower()
    if key not in SUIT_WORDS:
        return english
    word = i18n._(lang, SUIT_WORDS[key])
    return word[:1].upper() + word[1:] if english[:1].isupper() else word


def _bid(lang: str, english: str) -> str:
    """A Tarneeb bid (``7``, ``8 hearts``, ``9 no trump``): the number stays, a strain is
    translated."""
    value, _, strain = english.partition(" ")
    return f"{value} {suit_word(lang, strain)}" if strain else value


def _seats(lang: str, english: str) -> str:
    """``{s0}, {s2}``: the seats as they are, joined the reader's way."""
    return i18n._(lang, ", ").join(english.split(", "))


def _revealed(lang: str, english: str) -> str:
    """``{s1} nullo (9♥), {s2} grand (verbal)``: each seat's bid, its card or how it bid."""
    out = []
    for item in english.split(", "):
        match = re.fullmatch(r"(\{s\d\}) (\w+) \((.+)\)", item)
        if match is None:
            out.append(item)
            continue
        how = match[3]
        if how.startswith("with "):
            how = how[5:]
        out.append(f"{match[1]} {match[2]} ({suit_word(lang, how)})")
    return i18n._(lang, ", ").join(out)


def _how(lang: str, english: str) -> str:
    """How a bid was made: ``with 9♥``, or ``verbally`` / ``with a token``."""
    card = re.fullmatch(rf"with ({A_CARD})", english)
    if card is not None:
        return i18n._(lang, "with {card}", card=card[1])
    ways = {"verbally": N_("verbally"), "with a token": N_("with a token")}
    return i18n._(lang, ways[english]) if english in ways else english


PEAKS = {"equal peaks": N_("equal peaks"), "the higher peak": N_("the higher peak")}
S = r"(?P<who>\{s\d\})"
TEAM = r"(?P<team>\{s\d\} & \{s\d\}|Team [AB])"
N = r"(?P<n>[-+−]?\d+)"
A_CARD = r"(?:10|[2-9JQKA])[♠♥♦♣]"
CARD = rf"(?P<card>{A_CARD})"
SUIT = r"(?P<suit>spades|hearts|diamonds|clubs)"

# (English pattern, the catalogue's template, converters of the captured parts).
PHRASES: tuple[tuple[str, str, Mapping[str, Convert]], ...] = (
    # Both games: deals, plays, tricks, prompts.
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
    (rf"Play {CARD}", N_("Play {card}"), {}),
    (r"Pass", N_("Pass"), {}),
    (r"points", N_("points"), {}),
    # Tarneeb: the auction, trump, the contract, the score.
    (rf"{S} bids (?P<bid>\d+(?: [a-z ]+)?)\.", N_("{who} bids {bid}."), {"bid": _bid}),
    (
        r"Everybody passed: the hand is thrown in\.",
        N_("Everybody passed: the hand is thrown in."),
        {},
    ),
    (rf"{S} equals {N}\.", N_("{who} equals {n}."), {}),
    (rf"{S} passes\.", N_("{who} passes."), {}),
    (rf"{S} doubles\.", N_("{who} doubles."), {}),
    (
        rf"{S} doubles (?P<bid>\d+(?: [a-z ]+)?)\.",
        N_("{who} doubles {bid}."),
        {"bid": _bid},
    ),
    (rf"{S} to bid or pass\.", N_("{who} to bid or pass."), {}),
    (rf"{S} to name the trump suit\.", N_("{who} to name the trump suit."), {}),
    (
        rf"{S} to lead: the suit led becomes trump\.",
        N_("{who} to lead: the suit led becomes trump."),
        {},
    ),
    (
        rf"{S} wins the auction at (?P<bid>\d+): {TEAM} need (?P<need>\d+) tricks\.",
        N_("{who} wins the auction at {bid}: {team} need {need} tricks."),
        {},
    ),
    (
        rf"{S} declares (?P<bid>\d+(?: [a-z ]+)?)(?P<doubled> doubled)?: {TEAM} need "
        r"(?P<need>\d+) tricks\.",
        N_("{who} declares {bid}{doubled}: {team} need {need} tricks."),
        {"bid": _bid, "doubled": lambda lang, text: i18n._(lang, " doubled") if text else ""},
    ),
    (
        rf"The suit {S} leads first will be trump\.",
        N_("The suit {who} leads first will be trump."),
        {},
    ),
    (
        rf"{S} names {SUIT} (?P<sym>.) as trump\.",
        N_("{who} names {suit} {sym} as trump."),
        {"suit": suit_word},
    ),
    (r"No trump this hand\.", N_("No trump this hand."), {}),
    (
        rf"{CARD} is led: {SUIT} (?P<sym>.) are trump\.",
        N_("{card} is led: {suit} {sym} are trump."),
        {"suit": suit_word},
    ),
    (
        rf"{S} wins the trick\. (?P<us>\{{s\d\}} & \{{s\d\}}) have (?P<won>\d+) of "
        r"(?P<need>\d+); (?P<them>\{s\d\} & \{s\d\}) have (?P<other>\d+)\.",
        N_("{who} wins the trick. {us} have {won} of {need}; {them} have {other}."),
        {},
    ),
    (
        rf"{TEAM} make the contract of (?P<bid>\d+) with (?P<tricks>\d+) tricks?: "
        r"(?P<t0>\{s\d\} & \{s\d\}) (?P<p0>[-+]\d+), (?P<t1>\{s\d\} & \{s\d\}) (?P<p1>[-+]\d+)\. "
        r"Score (?P<a>-?\d+) to (?P<b>-?\d+)\.",
        N_(
            "{team} make the contract of {bid} with {tricks} tricks: {t0} {p0}, {t1} {p1}. "
            "Score {a} to {b}."
        ),
        {},
    ),
    (
        rf"{TEAM} fail the contract of (?P<bid>\d+) with (?P<tricks>\d+) tricks?: "
        r"(?P<t0>\{s\d\} & \{s\d\}) (?P<p0>[-+]\d+), (?P<t1>\{s\d\} & \{s\d\}) (?P<p1>[-+]\d+)\. "
        r"Score (?P<a>-?\d+) to (?P<b>-?\d+)\.",
        N_(
            "{team} fail the contract of {bid} with {tricks} tricks: {t0} {p0}, {t1} {p1}. "
            "Score {a} to {b}."
        ),
        {},
    ),
    (
        rf"{TEAM} win the game, (?P<a>-?\d+) to (?P<b>-?\d+)\.",
        N_("{team} win the game, {a} to {b}."),
        {},
    ),
    (
        rf"{TEAM} win the game with a kaboot, (?P<a>-?\d+) to (?P<b>-?\d+)\.",
        N_("{team} win the game with a kaboot, {a} to {b}."),
        {},
    ),
    (
        rf"Contract: {S} (?P<bid>\d+(?: [a-z ]+?)?)(?P<doubled> doubled)?\.",
        N_("Contract: {who} {bid}{doubled}."),
        {"bid": _bid, "doubled": lambda lang, text: i18n._(lang, " doubled") if text else ""},
    ),
    (r"Trump: no trump\.", N_("Trump: no trump."), {}),
    (rf"Trump: {SUIT} (?P<sym>.)\.", N_("Trump: {suit} {sym}."), {"suit": suit_word}),
    (r"Double", N_("Double"), {}),
    (r"No trump", N_("No trump"), {}),
    (
        r"(?P<suit>Spades|Hearts|Diamonds|Clubs) (?P<sym>.)",
        N_("{suit} {sym}"),
        {"suit": suit_word},
    ),
    (r"Bid (?P<bid>\d+(?: (?:NT|.))?)", N_("Bid {bid}"), {}),
    # Norwegian Whist (and the bid cards it shares with Tuppi).
    (rf"{S} has committed a bid\.", N_("{who} has committed a bid."), {}),
    (
        r"You bid (?P<bid>grand|nullo|rami|nolo) (?P<how>with \S+|verbally|with a token)\.",
        N_("You bid {bid} {how}."),
        {"how": _how},
    ),
    (
        rf"{S} shows (?P<bid>grand|nullo|rami|nolo) (?P<how>with \S+|verbally|with a token)\.",
        N_("{who} shows {bid} {how}."),
        {"how": _how},
    ),
    (rf"{S} grands\.", N_("{who} grands."), {}),
    (
        r"All four bid (?P<bid>nullo|nolo): the hand is (?P=bid)\.",
        N_("All four bid {bid}: the hand is {bid}."),
        {},
    ),
    (rf"{TEAM} wins the game\.", N_("{team} wins the game."), {}),
    (
        rf"{TEAM} (?P<n>[+−]\d+) \((?P<bid>grand|nullo), tricks A (?P<a>\d+), B (?P<b>\d+)\)\.",
        N_("{team} {n} ({bid}, tricks A {a}, B {b})."),
        {},
    ),
    (
        rf"{S} exposes a one-colour hand: (?P<cards>[^.]+)\. The hand is dealt again\.",
        N_("{who} exposes a one-colour hand: {cards}. The hand is dealt again."),
        {},
    ),
    (
        r"Commit a bid: a (?P<high_colour>black|red) card for (?P<high>grand|rami), "
        r"a (?P<low_colour>black|red) card for (?P<low>nullo|nolo)\.",
        N_("Commit a bid: a {high_colour} card for {high}, a {low_colour} card for {low}."),
        {"high_colour": suit_word, "low_colour": suit_word},
    ),
    (r"Committed: (?P<seats>[^.]+)\.", N_("Committed: {seats}."), {"seats": _seats}),
    (r"Revealed: (?P<bids>.+)\.", N_("Revealed: {bids}."), {"bids": _revealed}),
    (r"The hand is (?P<bid>grand|nullo|rami|nolo)\.", N_("The hand is {bid}."), {}),
    (
        rf"The hand is (?P<bid>grand|nullo|rami|nolo), by {S}\.",
        N_("The hand is {bid}, by {who}."),
        {},
    ),
    (r"Tricks: A (?P<a>\d+), B (?P<b>\d+)\.", N_("Tricks: A {a}, B {b}."), {}),
    (
        rf"(?P<bid>Grand|Nullo|Rami|Nolo) \((?P<how>{A_CARD}|verbal|token)\)",
        N_("{bid} ({how})"),
        {"how": suit_word},
    ),
    (r"Expose", N_("Expose"), {}),
    # Tuppi (its words stay: rami, nolo, sooli, nousussa).
    (
        r"Nousussa: team (?P<team>[AB]) \((?P<n>-?\d+)\)\.",
        N_("Nousussa: team {team} ({n})."),
        {},
    ),
    (
        rf"{TEAM} scores (?P<n>-?\d+) \((?P<bid>rami|nolo|sooli)\)\.",
        N_("{team} scores {n} ({bid})."),
        {},
    ),
    (
        rf"{TEAM} scores (?P<n>-?\d+), but team (?P<other>[AB]) had points: both totals go "
        r"back to (?P<zero>-?\d+)\.",
        N_("{team} scores {n}, but team {other} had points: both totals go back to {zero}."),
        {},
    ),
    (rf"{S}: declare sooli or pass\?", N_("{who}: declare sooli or pass?"), {}),
    (rf"{S} may declare sooli\.", N_("{who} may declare sooli."), {}),
    (
        rf"{S} declares sooli; (?P<out>\{{s\d\}}) sits out\.",
        N_("{who} declares sooli; {out} sits out."),
        {},
    ),
    (rf"{S} bid rami: the hand is rami\.", N_("{who} bid rami: the hand is rami."), {}),
    (
        rf"Sooli by {S}; (?P<out>\{{s\d\}}) sits out; aces are low\.",
        N_("Sooli by {who}; {out} sits out; aces are low."),
        {},
    ),
    (
        r"points \(only one team can have points\)",
        N_("points (only one team can have points)"),
        {},
    ),
    (r"Sooli", N_("Sooli"), {}),
    (
        r"Hand (?P<n>\d+) of (?P<of>\d+); peaks A (?P<a>-?\d+), B (?P<b>-?\d+)\.",
        N_("Hand {n} of {of}; peaks A {a}, B {b}."),
        {},
    ),
    (r"Give", N_("Give"), {}),
    (r"Return", N_("Return"), {}),
    (rf"{S} passes a card to the soloist\.", N_("{who} passes a card to the soloist."), {}),
    (
        rf"{S} returns a card to their partner\.",
        N_("{who} returns a card to their partner."),
        {},
    ),
    (
        rf"{S} passes a card to (?P<to>\{{s\d\}})\.",
        N_("{who} passes a card to {to}."),
        {},
    ),
    (
        rf"{S} passes {CARD} to (?P<to>\{{s\d\}})\.",
        N_("{who} passes {card} to {to}."),
        {},
    ),
    (
        rf"{S} passes a card back to (?P<to>\{{s\d\}})\.",
        N_("{who} passes a card back to {to}."),
        {},
    ),
    (
        rf"{S} passes {CARD} back to (?P<to>\{{s\d\}})\.",
        N_("{who} passes {card} back to {to}."),
        {},
    ),
    (
        r"Commit a bid: the red token for rami, the black token for nolo\.",
        N_("Commit a bid: the red token for rami, the black token for nolo."),
        {},
    ),
    (
        r"on (?P<peaks>equal peaks|the higher peak), (?P<a>-?\d+) to (?P<b>-?\d+)",
        N_("on {peaks}, {a} to {b}"),
        {"peaks": lambda lang, text: i18n._(lang, PEAKS[text])},
    ),
    (
        rf"{TEAM} wins the game on (?P<peaks>equal peaks|the higher peak), (?P<a>-?\d+) to "
        r"(?P<b>-?\d+), after (?P<n>\d+) hands?\.",
        N_("{team} wins the game on {peaks}, {a} to {b}, after {n} hands."),
        {"peaks": lambda lang, text: i18n._(lang, PEAKS[text])},
    ),
    (
        r"The game is a draw on (?P<peaks>equal peaks|the higher peak), (?P<a>-?\d+) to "
        r"(?P<b>-?\d+), after (?P<n>\d+) hands?\.",
        N_("The game is a draw on {peaks}, {a} to {b}, after {n} hands."),
        {"peaks": lambda lang, text: i18n._(lang, PEAKS[text])},
    ),
)

# The hint's reasons (games/players/hints.py) of both Tarneebs and the bid-card games, as written.
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
HINT_PHRASES: tuple[tuple[str, str, Mapping[str, Convert]], ...] = (
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

_COMPILED = tuple(
    (re.compile(pattern), template, convert)
    for pattern, template, convert in (*PHRASES, *HINT_PHRASES)
)


def _team(lang: str, english: str | None) -> str:
    """A captured part as it is, but ``Team A`` in the reader's words."""
    if english in ("Team A", "Team B"):
        return i18n._(lang, "Team {team}", team=english[-1])
    return english or ""


@lru_cache(maxsize=8192)
def said(lang: str, text: str) -> str:
    """An engine's English ``text`` in ``lang`` (unchanged in English or where no phrase
    matches); seat placeholders are kept for the names."""
    if lang == i18n.ENGLISH or not text:
        return text
    own = i18n.translator_for(lang).gettext(text)  # the session layer's lines are catalogue texts
    if own != text:
        return own
    for pattern, template, convert in _COMPILED:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        values = {
            name: convert[name](lang, value or "") if name in convert else _team(lang, value)
            for name, value in match.groupdict().items()
        }
        return i18n._(lang, template, **values)
    return text


def matched(text: str) -> bool:
    """Whether a phrase knows this English text (the tests look for texts left over)."""
    return any(pattern.fullmatch(text) for pattern, _, _ in _COMPILED)
