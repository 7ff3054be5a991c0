"""/history's replays: read in the reader's language (its words, its controls and its picture's),
from a cache of built replays that holds no words and never serves one game's for another."""

from __future__ import annotations

import random
import re
from functools import cache

import discord
import pytest

from bot.bidi import LRI
from bot.history import Export
from bot.pictures import Seating, draw_table
from bot.replay import Replay, Step, build_replay
from cogs import replay as replays
from cogs.replay import HandSelect, replay_message
from games.levels import choose_move
from games.registry import get_game
from games.transcript import Transcript

NAMES = ("Aino", "Ola", "Rami", "Erin")
WORD = re.compile(r"[A-Za-z]{3,}")
TABLE = 7


@cache
def transcript(seed: int = 3) -> dict[str, object]:
    """The first hands of a seeded Tarneeb game, played by the computer."""
    game = get_game("tarneeb").new({}, seed=seed)
    rng = random.Random(seed)
    moves = []
    while game.status == "in_progress" and len(moves) < 130:
        seat = game.to_act()[0]
        move = choose_move(game, seat, rng)
        game.apply(seat, move)
        moves.append((seat, move))
    return Transcript("tarneeb", {}, game.first_dealer, list(game.deals), moves).to_json()


def replay() -> Replay:
    return build_replay(TABLE, transcript(), NAMES)


def read(index: int, lang: str) -> list[str]:
    """Everything a reader of step ``index`` reads: the embed, the controls, the alt text."""
    embed, view, file = replay_message(replay(), index, lang)
    texts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for item in view.children:
        select = getattr(item, "item", None)
        if isinstance(select, discord.ui.Select):
            texts += [select.placeholder or "", *(o.label for o in select.options)]
    return [*texts, file.description or ""]


def english_left(lang: str, index: int) -> set[str]:
    """The English words of step ``index``'s message still in its ``lang`` reading (the seats'
    names and the game's own name aside)."""
    kept = {w.lower() for w in WORD.findall(" ".join((*NAMES, get_game("tarneeb").title)))}
    english = {w.lower() for text in read(index, "en") for w in WORD.findall(text)} - kept
    return english & {w.lower() for text in read(index, lang) for w in WORD.findall(text)}


@pytest.mark.parametrize("lang", ["fi", "ar", "no"])
def test_a_replay_step_is_read_in_the_readers_language(lang: str) -> None:
    built = replay()
    assert len(built.hand_starts()) > 1, "the hand menu is shown"
    for index in (0, 1, len(built.steps) - 1):
        assert english_left(lang, index) == set(), (lang, index, read(index, lang))


def test_a_finnish_and_an_arabic_reader_read_their_own_words() -> None:
    finnish = read(0, "fi")
    assert finnish[0] == f"Uusinta · Tarneeb · pöytä #{TABLE}"
    assert finnish[1].startswith("**Jako 1 · tikki 1** · vaihe 1/")
    assert "kenenkään kortteja ei paljasteta" in finnish[2]
    assert {"Siirry jakoon", "Jako 1", "Jako 2"} <= set(finnish)
    assert finnish[-1].startswith(f"Tarneeb · pöytä #{TABLE}")
    arabic = read(0, "ar")
    assert "إعادة عرض" in arabic[0] and "الجولة" in arabic[1] and "الأكلة" in arabic[1]
    assert LRI in arabic[1], "the numbers among Arabic words are isolated"
    assert "انتقل إلى جولة" in arabic


def test_a_steps_label_is_worded_when_shown() -> None:
    view = replay().steps[0].view
    assert Step(view, 2, trick=3).label("fi") == "Jako 2 · tikki 3"
    assert Step(view, 2, move=40).label("no") == "Runde 2 · trekk 40"
    assert Step(view, 2).label("ar") == "النهاية"
    assert Step(view, 2, trick=3).label() == "Hand 2 · trick 3"
    assert HandSelect(TABLE, {1: 0, 2: 9}, 2, "no").item.options[1].label == "Runde 2"


def test_readers_of_two_languages_get_their_own_pictures_from_one_built_replay() -> None:
    replays._BUILT.clear()
    exported = Export(TABLE, "tarneeb", transcript(), NAMES)
    built = replays._cached(exported)
    seen = {}
    for lang in ("fi", "ar", "fi", "en"):
        _, _, file = replay_message(replays._cached(exported), 1, lang)
        seen.setdefault(lang, (file.fp.read(), file.description))
        assert replays._cached(exported) is built, "one built replay serves every language"
    assert len({png for png, _ in seen.values()}) == 3 and len({a for _, a in seen.values()}) == 3
    for lang, (png, alt) in seen.items():
        title = built.seating(lang).title
        drawn = draw_table(built.steps[1].view, Seating(NAMES, (), True, title, lang), False)
        assert (png, alt) == (drawn.png, drawn.alt), lang
    replays._BUILT.clear()


def test_the_cache_tells_apart_games_of_one_table_number_and_a_forgotten_name() -> None:
    """A table number alone may be another database's game; a name changes when its person is
    forgotten: either way the replay is built again."""
    replays._BUILT.clear()
    game, other = transcript(), transcript(seed=4)
    assert len(game["moves"]) == len(other["moves"])  # type: ignore[arg-type]
    forgotten = ("Aino", "a forgotten player", "Rami", "Erin")
    built = replays._cached(Export(TABLE, "tarneeb", game, NAMES))
    assert replays._cached(Export(TABLE, "tarneeb", game, NAMES)) is built
    renamed = replays._cached(Export(TABLE, "tarneeb", game, forgotten))
    assert renamed.names == forgotten and built.names == NAMES
    elsewhere = replays._cached(Export(TABLE, "tarneeb", other, NAMES))
    assert elsewhere is not built and elsewhere is not renamed
    replays._BUILT.clear()
