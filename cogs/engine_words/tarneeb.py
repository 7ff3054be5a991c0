"""Both Tarneebs' sentences: the auction, trump, the contract, the score (their bids keep
their numbers, a strain is in the reader's words)."""

from __future__ import annotations

from bot import i18n
from bot.i18n import N_
from cogs.engine_words.parts import CARD, SUIT, TEAM, N, Phrase, S, suit_word


def _bid(lang: str, english: str) -> str:
    """A Tarneeb bid (``7``, ``8 hearts``, ``9 no trump``): the number stays, a strain is
    translated."""
    value, _, strain = english.partition(" ")
    return f"{value} {suit_word(lang, strain)}" if strain else value


PHRASES: tuple[Phrase, ...] = (
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
        rf"{S} declares (?P<bid>\d+(?: [a-z ]+?)?)(?P<doubled> doubled)?: {TEAM} need "
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
)
