"""Seeing the game: card pictures in the texts, notes on a game's words, grammar."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest

from bot.card_art import emoji_name, emoji_names, emoji_png
from cogs.card_faces import FACES, card_face
from cogs.render import LeakError, guard_public, table_embed, trick_text
from cogs.words import GLOSSARY, MENTIONS, FirstMentions
from games.registry import GAMES
from tests.cogs.test_render import played


@pytest.fixture
def faces() -> Iterator[None]:
    """Every card picture known, with made-up ids as long as Discord's."""
    FACES.clear()
    FACES.emojis.update(
        {
            name: discord.PartialEmoji(name=name, id=10**18 + n)
            for n, name in enumerate(emoji_names())
        }
    )
    yield
    FACES.clear()


def test_every_picture_is_a_small_png() -> None:
    sizes = [len(emoji_png(name)) for name in emoji_names()]
    assert len(sizes) == 53
    assert all(png[:8] == b"\x89PNG\r\n\x1a\n" for png in map(emoji_png, emoji_names()))
    assert max(sizes) < 256 * 1024 // 8, "far below Discord's 256 KiB"


def test_a_card_is_its_picture_then_its_text(faces: None) -> None:
    assert card_face("TH") == f"<:c_TH:{FACES.emojis['c_TH'].id}> 10♥"
    FACES.clear()
    assert card_face("TH") == "10♥", "text alone without the picture"


def test_the_trick_shows_pictures_and_the_guard_knows_them(faces: None) -> None:
    table, _ = played("tarneeb/e7_declarers_reach_target", 30)
    fields = {f["name"]: f["value"] for f in table_embed(table).to_dict().get("fields", [])}
    assert fields["Trick"] == f"Carol <:c_QS:{FACES.emojis['c_QS'].id}> Q♠"
    assert trick_text([[0, "AS"]], ["Alice"]).startswith("Alice <:c_AS:")
    game = table.game
    assert game is not None
    hidden = sorted(game.hidden_cards(None))[0]
    with pytest.raises(LeakError):
        guard_public(game, f"look: <:{emoji_name(hidden)}:1>")


def test_the_longest_board_stays_inside_discord_limits_with_pictures(faces: None) -> None:
    table, _ = played("tarneeb/e7_declarers_reach_target", 30)
    embed = table_embed(table)
    assert len(embed) < 6000 and len(embed.description or "") < 4096
    assert all(len(f.value or "") <= 1024 for f in embed.fields)


def test_a_word_is_noted_while_it_first_shows_then_never_again() -> None:
    mentions = FirstMentions()
    first = mentions.notes(1, "thunee", ["", "Table Dan deals; Alice is trumpman."])
    assert first == [
        [],
        ["*trumpman: the player after the dealer, who sets trump unless a call moves it*"],
    ]
    assert mentions.notes(1, "thunee", ["", "Table Alice is trumpman."]) == first[:1] + first[1:]
    assert mentions.notes(1, "thunee", ["", "Table Alice plays."]) == [[], []]
    assert mentions.notes(1, "thunee", ["", "Table Bob is trumpman."]) == [[], []], "once"
    assert mentions.notes(2, "thunee", ["Trumpman?", ""])[0], "each table has its own"
    assert mentions.notes(3, "tarneeb", ["trumpman"]) == [[]], "another game's word"


@pytest.mark.parametrize(
    ("lang", "english", "word"),
    [
        ("fi", "Longest viable sequence: 5-6-7", "pisin kelpaava sarja"),
        ("no", "Hand over: Team A, the counting team, made 60 against 105.", "det tellende laget"),
        ("ar", "Hand over: Team A, the counting team, made 60 against 105.", "الفريق العادّ"),
    ],
)
def test_a_plain_word_is_noted_in_the_readers_words(lang: str, english: str, word: str) -> None:
    """A board in another language says the counting team in its own words: the note finds
    them there and names them so."""
    from cogs.engine_words import said

    game = "tunge" if "sequence" in english else "thunee"
    notes = FirstMentions().notes(1, game, ["", said(lang, english)], lang)
    assert len(notes[1]) == 1 and notes[1][0].startswith(f"*{word}: "), notes


@pytest.mark.parametrize(
    "example,upto,word",
    [("thunee/e01_exactly_105", 0, "trumpman"), ("tuppi/U2_row4_sooli_order", 4, "sooli")],
)
def test_the_board_notes_the_games_words(example: str, upto: int, word: str) -> None:
    table, _ = played(example, upto)
    MENTIONS.forget(table.id)
    text = str(table_embed(table).to_dict())
    assert text.count(f"*{word}: ") == 1, text
    MENTIONS.forget(table.id)


def test_engine_texts_take_the_teams_words() -> None:
    """Team A (never Team a) starts a sentence; a pair makes a contract in the plural."""
    table, _ = played("tarneeb/e7_declarers_reach_target")
    texts = " ".join(table.recent)
    assert " make the contract" in texts or " fail the contract" in texts
    assert " makes the contract" not in texts and " fails the contract" not in texts
    table, _ = played("norwegian_whist/N4_game_to_13")
    assert "Team A wins the game." in " ".join(table.recent)
    assert "Team a" not in " ".join(table.recent) and "Team b" not in " ".join(table.recent)


def test_every_game_has_its_glossary_entry() -> None:
    """Each of the bot's games has its line in the words glossary, empty where its table shows
    no word to explain: a new game cannot be left out of it silently."""
    ours = {game.name for game in GAMES}
    assert ours and ours == set(GLOSSARY)
