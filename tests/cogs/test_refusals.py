"""Refusals in the reader's language: chosen by code, filled from the parameters."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.bidi import LRI, PDI
from bot.sessions import UserError
from cogs.refusals import KINDS, SUITS, TEMPLATES, refusal_text
from games.base import IllegalMove, Move
from games.cards import display
from games.registry import get_game
from tests.cogs.test_engine_words import KEPT, SHARED, WORD


def follow(lang: str) -> str:
    error = UserError("You must follow hearts.", code="must_follow", params={"suit": "H"})
    return refusal_text(error, lang)


def test_english_readers_get_the_games_own_sentence() -> None:
    assert follow("en") == "You must follow hearts."


def test_a_rule_is_told_in_the_readers_language_with_its_parameters() -> None:
    assert follow("fi") == "Sinun on tunnustettava maata: hertta ♥."
    assert follow("no") == "Du må følge farge: hjerter ♥."
    assert follow("ar") == f"يجب أن تلعب من نفس النوع: كبة {LRI}♥{PDI}."


def test_seats_are_named_and_cards_shown_as_on_the_table() -> None:
    turn = UserError("It is Bob's turn.", code="not_your_turn", params={"turn": "Bob"})
    assert refusal_text(turn, "fi") == "Nyt on pelaajan Bob vuoro."
    card = UserError("You do not hold 10♥.", code="card_not_held", params={"card": "TH"})
    assert refusal_text(card, "no") == "Du har ikke 10♥."
    assert refusal_text(card, "ar") == f"ليست معك الورقة {LRI}10♥{PDI}."


def test_a_reason_the_phrasebook_does_not_know_is_told_by_its_kind_with_the_english_kept() -> None:
    error = UserError(
        "Double needs all of tricks 1-5 won.", code="declaration", kind="against_rules"
    )
    assert refusal_text(error, "fi") == (
        "Säännöt eivät salli tuota siirtoa nyt.\n-# Double needs all of tricks 1-5 won."
    )


def test_a_template_whose_parameter_is_missing_is_not_used() -> None:
    error = UserError("Bid higher than 8 hearts.", code="bid_too_low", params={"high": "8 H"})
    assert refusal_text(error, "no") == "Meld høyere enn det høyeste budet."
    error = UserError("Royals is not played at this table.", code="not_played")
    assert refusal_text(error, "fi") == "Sitä ei pelata tässä pöydässä."
    error.params = {"what": "Royals"}
    assert refusal_text(error, "fi") == "Royals ei ole käytössä tässä pöydässä."


def test_a_colour_is_told_in_the_readers_language() -> None:
    error = UserError(
        "You have a red card, so you cannot bid rami verbally.",
        code="must_bid_with_card",
        params={"colour": "red", "value": "rami"},
    )
    assert refusal_text(error, "fi") == (
        "Sinulla on punainen kortti, joten et voi tarjota rami ilman sitä."
    )


def test_the_session_layers_fixed_sentences_are_translated_as_they_are() -> None:
    assert refusal_text(UserError("The table is full."), "fi") == "Pöytä on täynnä."
    assert refusal_text(UserError("The table is full."), "no") == "Bordet er fullt."


def test_the_session_layers_refusals_with_parameters_are_translated_by_code() -> None:
    """A lobby or an option refused by the session layer, in the reader's language."""
    from bot.sessions import parse_options

    with pytest.raises(UserError) as taken:
        parse_options("target=7 hand_limit")
    assert refusal_text(taken.value, "en") == str(taken.value)
    assert refusal_text(taken.value, "no").startswith("Innstillinger skrives navn=verdi")
    seat = UserError("Seat 3 is taken.", code="seat_taken", params={"seat": 3})
    assert refusal_text(seat, "fi") == "Paikka 3 on varattu."


def test_a_list_of_seats_is_worded_in_the_readers_language() -> None:
    from cogs.refusals import seat_words

    assert seat_words("fi", (0, 2)) == "paikat 1 ja 3"
    assert seat_words("no", (1,)) == "plass 2"
    assert seat_words("ar", (0, 1, 3)) == "المقاعد 1، 2 و4"


def test_a_refusal_without_a_code_or_a_translation_stays_as_written() -> None:
    assert refusal_text(UserError("Something particular."), "fi") == "Something particular."


def test_every_kind_and_suit_is_a_template_text() -> None:
    """The kinds of the games' refusals (games/base.py) each have their sentence."""
    assert set(KINDS) >= {"not_your_turn", "against_rules", "malformed", "illegal"}
    assert set(SUITS) == set("SHDC")
    assert all(templates for templates in TEMPLATES.values())


@pytest.mark.parametrize("game_name", ["tarneeb", "tuppi", "norwegian_whist", "thunee"])
def test_a_real_card_not_held_is_refused_in_finnish(game_name: str) -> None:
    """A game's own refusal of a card the next player holds, through the session layer's
    conversion (seats named), reads in Finnish."""
    from bot.sessions.moves import refusal as as_user_error

    game: Any = get_game(game_name).new(seed=3)
    rng = random.Random(3)
    while not any(m.action == "play" for m in game.legal_moves(game.to_act()[0])):
        game.apply(game.to_act()[0], rng.choice(game.legal_moves(game.to_act()[0])))
    seat = game.to_act()[0]
    card = game.hands[(seat + 1) % len(game.hands)][0]
    with pytest.raises(IllegalMove) as refused:
        game.check(seat, Move.of("play", card=card))

    class Table:  # what the conversion reads of a live table: the names
        names = [f"P{s}" for s in range(8)]

    text = refusal_text(as_user_error(refused.value, Table()), "fi")  # type: ignore[arg-type]
    assert text in {"Tuo kortti ei ole kädessäsi.", f"Sinulla ei ole korttia {display(card)}."}


def test_a_real_out_of_turn_move_names_whose_turn_it_is() -> None:
    from bot.sessions.moves import refusal as as_user_error

    game: Any = get_game("tarneeb").new(seed=3)
    turn = game.to_act()[0]
    other = (turn + 1) % 4
    with pytest.raises(IllegalMove) as refused:
        game.check(other, Move.of("pass"))

    class Table:
        names = ["Ana", "Bo", "Cy", "Di"]

    error = as_user_error(refused.value, Table())  # type: ignore[arg-type]
    assert refusal_text(error, "fi") == f"Nyt on pelaajan {Table.names[turn]} vuoro."
    assert refusal_text(error, "ar") == f"الدور على {LRI}{Table.names[turn]}{PDI}."
    assert refusal_text(error, "en") == f"It is {Table.names[turn]}'s turn."


# Codes without a template of their own, their reasons told through the phrasebook (each is
# tested below): Thunee's Double and Khanaak refusals give one of several reasons under one code,
# and a deal is never a person's. No code is left to its kind's sentence with the English beneath.
BY_REASON = {"declaration", "not_awaiting_deal"}
REFUSING = {"against", "rule", "malformed", "AgainstRules", "NotYourTurn", "Malformed"}
CODE = re.compile(r"^[a-z0-9_]+$")


def codes_in_the_games() -> set[str]:
    """Every refusal code written in games/ (the hard level's search refuses nothing)."""
    from games.tunge.reasons import TEXTS

    found = set(TEXTS)
    root = Path(__file__).resolve().parents[2] / "games"
    for path in root.rglob("*.py"):
        if "search" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            values = [k.value for k in node.keywords if k.arg == "code"]
            if name in REFUSING:
                values += node.args
            found |= {
                v.value
                for v in values
                if isinstance(v, ast.Constant) and isinstance(v.value, str) and CODE.match(v.value)
            }
    return found


def test_every_refusal_code_of_the_games_has_its_words() -> None:
    codes = codes_in_the_games()
    assert len(codes) > 50, "the scan finds the games' codes"
    assert codes - set(TEMPLATES) == BY_REASON


# --- Thunee's Double and Khanaak refused, each reason in the reader's words ---------------------
# Thunee's own words, kept in every language (corner house among them).
OWN = KEPT | {"corner", "house"}
LATIN = re.compile(r"[A-Za-z]")


def declaration_refusals() -> list[IllegalMove]:
    """Real Thunee positions refusing a Double or Khanaak, one for each reason the game gives."""
    from tests.games.test_thunee import game_from

    def refused(game: Any, seat: int, action: str) -> IllegalMove:
        game._legal = None  # the position was changed by hand: legal moves are worked out anew
        with pytest.raises(IllegalMove) as refusal:
            game.check(seat, Move.of(action))
        return refusal.value

    found = []
    for word in ("double", "khanaak"):
        found += [
            refused(get_game("thunee").new({"players": 2}, seed=1), 0, word),
            refused(get_game("thunee").new({word: False}, seed=1), 0, word),
            refused(get_game("thunee").new(seed=1), 0, word),  # the calling, not the last trick
            refused(game_from("e08_double", 12), 2, word),  # not the declarer's turn
        ]
    declared = game_from("e09_double_fails", 29)
    declared.apply(0, Move.of("double"))
    found.append(refused(declared, 0, "khanaak"))
    found.append(refused(game_from("e11_khanaak", 30), 1, "double"))  # team B lost trick 3
    corner = game_from("e09_double_fails", 29)
    corner.balls = [11, 5]
    found.append(refused(corner, 0, "double"))
    corner.options["corner_house_scope"] = "either_team"
    corner.balls = [5, 11]
    found.append(refused(corner, 0, "double"))
    found.append(refused(game_from("e08_double", 29), 1, "khanaak"))  # no Jodhi of team B
    unlost = game_from("e11_khanaak", 30, {"khanaak_requires_lost_trick": True})
    unlost.winners = [1, 1, 3, 1, 1]
    found.append(refused(unlost, 1, "khanaak"))
    return found


def reasons_of_the_game() -> set[str]:
    """Every reason ``_declaration_ok`` returns, read from its source (``{word}`` as each)."""
    import inspect
    import textwrap

    from games.thunee.claims import Claims

    source = textwrap.dedent(inspect.getsource(Claims._declaration_ok))
    reasons: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            reasons.add(node.value.value)
        elif isinstance(node.value, ast.JoinedStr):
            parts = [p.value if isinstance(p, ast.Constant) else "{}" for p in node.value.values]
            reasons |= {"".join(parts).format(word) for word in ("Double", "Khanaak")}
    return reasons


def english_left(lang: str, english: str, text: str) -> set[str]:
    """The English words of ``english`` still in ``text`` (Thunee's own words aside)."""
    words = {word.lower() for word in WORD.findall(english)} - OWN - SHARED.get(lang, set())
    return words & {word.lower() for word in WORD.findall(text)}


def user_error(refused: IllegalMove) -> UserError:
    from bot.sessions.moves import refusal as as_user_error

    class Table:  # what the conversion reads of a live table: the names
        names = [f"P{s}" for s in range(4)]

    return as_user_error(refused, Table())  # type: ignore[arg-type]


def test_every_reason_for_refusing_a_double_or_khanaak_is_reached() -> None:
    refusals = declaration_refusals()
    assert {r.code for r in refusals} == {"declaration"}
    assert {str(r) for r in refusals} == reasons_of_the_game()
    assert len(reasons_of_the_game()) == 14


@pytest.mark.parametrize("lang", ["fi", "no", "ar"])
def test_a_double_or_khanaak_refused_reads_in_the_readers_words(lang: str) -> None:
    """Each reason the game gives, alone and in the reader's words: no English word is left but
    Thunee's own, and no English line beneath it."""
    for refused in declaration_refusals():
        english = str(refused)
        text = refusal_text(user_error(refused), lang)
        assert english_left(lang, english, text) == set(), (lang, english, text)
        assert "\n" not in text and text != english, (lang, text)
        if lang == "ar":  # each left-to-right run (Double, corner house) isolated
            assert not LATIN.search(re.sub(f"{LRI}[^{PDI}]*{PDI}", "", text)), text
            assert LRI in text or not LATIN.search(english), text


def test_a_reason_keeps_thunees_own_words() -> None:
    by_reason = {str(r): user_error(r) for r in declaration_refusals()}
    assert refusal_text(by_reason["Double is not played at this table."], "fi") == (
        "Double ei ole käytössä tässä pöydässä."
    )
    corner = by_reason["Your team is at corner house and may not Double."]
    assert refusal_text(corner, "no") == "Laget ditt står på corner house og kan ikke melde Double."
    khanaak = by_reason["Khanaak needs a Jodhi claimed by your team in this hand."]
    assert refusal_text(khanaak, "ar") == (
        f"يحتاج {LRI}Khanaak{PDI} إلى {LRI}Jodhi{PDI} أعلنه فريقك في هذه الجولة."
    )


@pytest.mark.parametrize("lang", ["fi", "no", "ar"])
def test_a_deal_not_awaited_is_refused_in_the_readers_words(lang: str) -> None:
    from tests.games.test_thunee import game_from

    game = game_from("e08_double", 29)
    with pytest.raises(IllegalMove) as refused:
        game.add_deal(game.deals[0])
    text = refusal_text(user_error(refused.value), lang)
    assert english_left(lang, str(refused.value), text) == set() and "\n" not in text, text
