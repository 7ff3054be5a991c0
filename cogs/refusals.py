"""Refusals in the reader's language: a refusal's stable code and parameters pick the text.

The games and the session manager refuse with an English sentence, a ``code`` and ``params``
(:class:`bot.sessions.UserError`). English readers get the sentence as written. For another
language, a refusal without a code is looked up as it is: the session layer marks its fixed
sentences for the catalogue (one it did not mark stays English). A code picks a template here,
translated through the catalogue and filled from the parameters (seats already named, cards,
suits and colours shown the way the table shows them). A code without a template of its own
(one code, several reasons: Thunee's Double and Khanaak) gives its reason as the games' other
texts are given, through the phrasebook (:mod:`cogs.engine_words`); a reason the phrasebook does
not know is answered with its kind's translated sentence, the English one beneath it so that
nothing of the reason is lost.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

from bot import i18n
from bot.bidi import for_direction
from bot.i18n import N_
from bot.sessions import UserError
from bot.sessions.tournament_texts import TOO_FEW
from cogs.engine_words import said
from cogs.render import shown_name
from games.cards import display, display_suit

# code: its templates, the first whose placeholders the refusal's parameters all fill is used.
TEMPLATES: Mapping[str, tuple[str, ...]] = {
    "not_your_turn": (N_("It is {seat}'s turn."), N_("It is not your turn.")),
    "game_over": (N_("The game is over."),),
    "awaiting_deal": (N_("The next hand has not been dealt yet."),),
    "not_dealt": (N_("The cards have not been dealt yet."),),
    "already_committed": (N_("You have already committed your bid."),),
    "must_follow": (N_("You must follow suit: {suit}."),),
    "not_in_hand": (N_("You do not hold {card}."), N_("That card is not in your hand.")),
    "card_not_held": (N_("You do not hold {card}."), N_("That card is not in your hand.")),
    "bid_too_low": (N_("Bid at least {lowest}."), N_("Bid higher than the highest bid.")),
    "must_bid": (N_("Everyone else passed, so you must bid."),),
    "only_dealer_equals": (N_("Only the dealer may equal the highest bid."),),
    "auction_not_over": (N_("The bidding is not over yet."),),
    "auction_over": (N_("The bidding is over; play a card."),),
    "trump_settled": (N_("Trump is already settled for this hand."),),
    "no_bids_now": (N_("Bids are not being taken now."),),
    "bids_first": (N_("Bids are still being made."),),
    "no_play_now": (N_("No cards are being played now."),),
    "nothing_to_pass": (N_("There is nothing to pass on now."),),
    "no_sooli": (N_("Sooli is not played at this table."),),
    "no_sooli_now": (N_("Sooli can only be declared right after a rami reveal."),),
    "no_exchange_now": (N_("No cards are being exchanged now."),),
    "call_too_low": (N_("Your call must be higher than {call}."),),
    "no_undercut": (N_("You may not trump lower than the trump already in this trick."),),
    "jodhi_claimed": (N_("You have already claimed Jodhi in that suit."),),
    "can_draw": (N_("You can still draw, so you cannot pass."),),
    "can_play": (N_("You have a legal play, so you cannot pass."),),
    "nothing_to_draw": (N_("There is no card to draw."),),
    "not_trumper": (N_("Only {seat} sets trump."),),
    "not_trumpman": (N_("Only the trumpman, {seat}, decides about a redeal."),),
    "no_such_seat": (N_("There is no such seat at this table."),),
    "unknown_action": (N_("That is not a move of this game."),),
    "bidding_closed": (N_("Nobody can bid higher now."),),
    "trump_after_auction": (N_("Trump is named after the bidding."),),
    "no_double": (N_("You may not double now."),),
    "not_played": (
        N_("{what} is not played at this table."),
        N_("That is not played at this table."),
    ),
    "play_not_yet": (N_("Cards are played once the calling and trump are settled."),),
    "calling_over": (N_("The calling is over."),),
    "no_raising_partner": (N_("Nobody may raise their own partner's call."),),
    "trump_set": (N_("Trump has already been set."),),
    "single_card": (N_("A single card can only be played after an ace."),),
    "not_sequence": (N_("Those cards are neither a run nor a group."),),
    "repeats_sequence": (N_("That repeats the last sequence {reference}."),),
    # the bid cards of Tuppi and Norwegian Whist
    "token_bids": (N_("Bids are made with tokens here, not with a card."),),
    "not_a_bid_card": (N_("That card cannot be a bid card."),),
    "colour_means": (N_("A card of that colour means {value}."),),
    "must_bid_with_card": (N_("You have a {colour} card, so you cannot bid {value} without it."),),
    "no_redeal": (N_("A redeal is not possible now."),),
    "bids_over": (N_("A hand can only be exposed while bids are being made."),),
    "not_one_colour": (N_("Only a hand of one colour can be exposed."),),
    "exchange_order": (N_("It is {seat}'s turn to pass a card."),),
    # Tarneeb
    "lead_or_no_trump": (N_("Lead a card to make its suit trump, or call no trump."),),
    "name_trump_first": (N_("Name trump first."),),
    "no_trump_not_allowed": (N_("No trump is not played at this table; name a suit."),),
    "trump_in_bid": (N_("In Egyptian Tarneeb the trump is part of the bid."),),
    # Thunee
    "not_allowed_now": (N_("The rules do not allow that move now."),),
    "not_picked_up": (N_("You have not picked up that card yet."),),
    "redeal_first": (N_("The trumpman must first decide about a redeal."),),
    "bad_call": (N_("A call is 10, 20, … up to 100, or 104 over a call of 100."),),
    "dealer_team_opens": (N_("Only the dealer's team may open the calling."),),
    "already_highest": (N_("You already hold the highest call."),),
    "104_over_100": (N_("104 may only be called over a call of 100."),),
    "only_104": (N_("Over 100 the only call is 104."),),
    "single_step": (N_("Calls go up one step at a time: the next call is {next}."),),
    "blind_in_calling": (N_("A blind call can only be made during the calling."),),
    "bad_blind": (N_("A blind call is either Thunee or Royals."),),
    "trump_after_calling": (N_("Trump is set after the calling."),),
    "last_card_suits": (N_("Last card needs your first cards to be all of different suits."),),
    "trump_from_first": (N_("Choose one of your first-packet cards as the trump card."),),
    "thunee_window": (N_("{what} is called after the deal, before the first card is led."),),
    "trumper_only": (N_("Only the trumper may call {what} at this table."),),
    "six_of_a_suit": (N_("You hold six cards of one suit, so you may not call {what}."),),
    "bad_suit": (N_("Name a suit for Jodhi: S, H, D or C."),),
    "jodhi_in_play": (N_("Jodhi may only be claimed while the cards are played."),),
    "jodhi_normal_only": (N_("Jodhi is not used in Thunee, Royals or blind hands."),),
    "jodhi_window": (N_("Your team may not claim Jodhi now."),),
    "jodhi_cards": (N_("Jodhi needs the king and queen of that suit."),),
    "challenge_mode": (N_("That is only used in challenge mode."),),
    "challenge_in_play": (N_("A challenge can only be made while the cards are played."),),
    "bad_target": (N_("Name a seat."),),
    "challenge_opponent": (N_("You may only challenge an opponent."),),
    "murial_opponent": (N_("You may only answer an opponent's Jodhi."),),
    "murial_answered": (N_("That Jodhi claim has already been answered."),),
    "murial_window": (N_("Murial answers a Jodhi claim before the next card is played."),),
    # Tunge
    "no_details": (N_("That move takes no details."),),
    "ace_front": (N_("An ace can only stand at the front of a sequence."),),
    "mixed": (N_("A sequence is either a run or a group, not both."),),
    "zigzag": (N_("A run must go straight up or straight down."),),
    "repeats_part": (N_("That repeats part of the last sequence {reference}."),),
    "contains_part": (N_("That contains part of the last sequence {reference}."),),
    "no_cards": (N_("Choose the cards to play."),),
    "card_twice": (N_("You listed the same card twice."),),
    "not_a_card": (N_("{card} is not a card."),),
    # the session layer's
    "not_being_played": (N_("This game is not being played."),),
    "not_seated": (N_("You are not playing at this table."),),
    "stale": (N_("That button is out of date; here is your hand as it is now."),),
    "paused": (N_("The table is paused: your move was not saved. Try again in a moment."),),
    # the session layer's
    "seated_elsewhere": (
        N_("You are already seated at table #{table} in this server; leave it first."),
    ),
    "seat_taken": (N_("Seat {seat} is taken."),),
    "rematch_waiting": (N_("Waiting for {who} to press Join (or remove them to play without)."),),
    "bad_option": (N_("That option is not right: {reason}."),),
    "bad_length": (N_("That length does not fit these options: {reason}."),),
    "not_an_option": (N_("{name} is not an option name."),),
    "bad_option_value": (N_("A value is one word or a whole number, not {value}."),),
    "too_many_options": (N_("That is too many options ({n} characters)."),),
    "unknown_level": (N_("Choose one of the computer levels offered: {levels}."),),
    "option_syntax": (
        N_("Options are written name=value (a word or a whole number), not {part}."),
    ),
    "rematch_players_only": (N_("Only the players of table #{table} can ask for its rematch."),),
    "rematch_gone": (N_("The rematch (table #{table}) has already started or closed."),),
    "come_back_team": (
        N_(
            "You played {held} earlier in this game:"
            " you may come back to your own team's seats only ({allowed})."
        ),
    ),
    "come_back_seat": (
        N_(
            "You played {held} earlier in this game:"
            " you may come back to that seat only ({allowed})."
        ),
    ),
    "come_back_none_team": (
        N_(
            "You played {held} earlier in this game:"
            " you may come back to your own team's seats only, and no computer plays one now."
        ),
    ),
    "come_back_none_seat": (
        N_(
            "You played {held} earlier in this game:"
            " you may come back to that seat only, and no computer plays one now."
        ),
    ),
    "unknown_game": (N_("There is no game called {game}. Try one of: {games}."),),
    "bad_default": (N_("That is not a valid {game} option: {reason}."),),
    "no_default": (N_("{option} has no server default for {game}."),),
    "not_a_table_channel": (N_("{channel} is not in the list of table channels."),),
    "too_many_channels": (N_("At most {n} channels can host tables."),),
    "unknown_language": (N_("There is no language {value} here. Choose one of: {known}."),),
    # tournaments
    "round_minutes": (N_("A round lasts {low} to {high} minutes."),),
    "start_form": (N_("Give the start as minutes from now (45) or a UTC clock time (20:30)."),),
    "start_minutes": (N_("The start is 1 to {most} minutes from now."),),
    "start_clock": (N_("That is not a clock time: hours 0-23, minutes 00-59."),),
    "no_such_game": (N_("There is no game called {game}."),),
    "seated_by_tournament": (
        N_("{title} tables are seated by the tournament (three or four a table)."),
    ),
    "swiss_rounds": (N_("A Swiss tournament has 1 to {most} rounds."),),
    "too_few_players": (TOO_FEW["too_few_players"],),
    "too_few_pairs": (TOO_FEW["too_few_pairs"],),
    "each_for_themself": (N_("In {title} each plays for themself: entry is individuals."),),
    "one_against_one": (N_("{title} for two is one against one: entry is individuals."),),
    "four_or_two": (N_("Tournaments play {title} with four players (or two)."),),
    "no_knockout_free": (
        N_("A knockout needs head-to-head matches; {title} is played three or four a table."),
    ),
}

# The broad kinds of a game's refusal, for a code without a template of its own.
KINDS: Mapping[str, str] = {
    "not_your_turn": N_("It is not your turn."),
    "against_rules": N_("The rules do not allow that move now."),
    "malformed": N_("That is not a move of this game."),
    "illegal": N_("That is not a move of this game."),
}

SEAT_LISTS = ("held", "allowed")  # parameters that are seats (numbers from 0), worded here
COLOURS: Mapping[str, str] = {"red": N_("red"), "black": N_("black")}

SUITS: Mapping[str, str] = {
    "S": N_("spades"),
    "H": N_("hearts"),
    "D": N_("diamonds"),
    "C": N_("clubs"),
}


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def seat_words(lang: str, seats: Sequence[int]) -> str:
    """``seat 2`` or ``seats 1 and 3`` in ``lang`` (seats counted from 1, as the table shows)."""
    numbers = [i18n.number(lang, seat + 1) for seat in seats]
    if len(numbers) == 1:
        return i18n._(lang, "seat {n}", n=numbers[0])
    return i18n._(
        lang,
        "seats {seats} and {last}",
        seats=i18n._(lang, ", ").join(numbers[:-1]),
        last=numbers[-1],
    )


def _shown(lang: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters as the reader sees them: seats named, cards and suits shown."""
    shown = dict(params)
    for key in SEAT_LISTS:
        seats = shown.get(key)
        if isinstance(seats, (tuple, list)) and seats:
            shown[key] = seat_words(lang, seats)
    if "seat" not in shown and "turn" in shown:
        shown["seat"] = shown["turn"]
    card = shown.get("card")
    if isinstance(card, str) and len(card) == 2 and card[1] in SUITS:
        shown["card"] = display(card)
    suit = shown.get("suit")
    if isinstance(suit, str) and suit in SUITS:
        shown["suit"] = f"{i18n._(lang, SUITS[suit])} {display_suit(suit)}"
    colour = shown.get("colour")
    if isinstance(colour, str) and colour in COLOURS:
        shown["colour"] = i18n._(lang, COLOURS[colour])
    for key, value in shown.items():
        if isinstance(value, int) and not isinstance(value, bool):
            shown[key] = i18n.number(lang, value)
    return shown


def refusal_text(error: UserError, lang: str) -> str:
    """The refusal in ``lang``: the English sentence as written, else by its code; the names
    of people in it escaped (a display name is whatever its owner typed)."""
    english = error.shown(shown_name)
    if lang == i18n.ENGLISH:
        return english
    if error.code is None:  # the session layer's fixed sentences are catalogue texts as such
        text = error.shown(shown_name, i18n._(lang, error.template))
        return for_direction(lang in i18n.RIGHT_TO_LEFT, text)
    params = _shown(lang, error.params)
    for template in TEMPLATES.get(error.code, ()):
        if _placeholders(template) <= params.keys():
            text = error.shown(shown_name, i18n._(lang, template, **params))
            break
    else:  # one code, several reasons: the reason as the phrasebook words the games' texts
        worded = said(lang, error.template)
        kind = KINDS.get(error.kind or error.code)
        if worded != error.template:
            text = error.shown(shown_name, worded)
        elif kind is not None:
            text = f"{i18n._(lang, kind)}\n-# {english}"
        else:
            return english
    return for_direction(lang in i18n.RIGHT_TO_LEFT, text)
