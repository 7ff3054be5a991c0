"""The table picture: small palette PNGs, the golden positions, names in any script, secrecy.

Golden pictures: ``tests/bot/pictures/golden/*.png``, written by
``python -m bench.table_picture --golden tests/bot/pictures/golden`` (run it after changing the
picture on purpose, and look at them). A picture must match its golden one within
:data:`TOLERANCE` (mean absolute difference per channel, 0-255): font rasterisers differ a
little between machines, a layout change differs a lot.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from bench.table_picture import (
    DOCS,
    POSITIONS,
    Position,
    at,
    picture_at,
    played,
    seating,
    write_golden,
)
from bot.pictures import Seating, draw_table, picture_key
from bot.pictures.fonts import DEJAVU, name_text, pick
from bot.pictures.hand import draw_hand, trick_seats
from bot.pictures.table import FELT, TABLE
from cogs.table_picture import table_lines
from games.base import Deal
from games.cards import display
from games.registry import get_game
from games.views import TableView, TarneebView, ThuneeView, TrickView, TungeView
from tests.games.test_seen_twins import Played, plays, rename, replay

GOLDEN = Path(__file__).parent / "pictures" / "golden"
TOLERANCE = 1.5
needs_dejavu = pytest.mark.skipif(
    not (DEJAVU / "DejaVuSans.ttf").exists(), reason="the golden pictures are drawn with DejaVu"
)


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png))


def difference(first: Image.Image, second: Image.Image) -> float:
    """Mean absolute difference per channel (0: equal, 255: black against white)."""
    diff = ImageChops.difference(first.convert("RGB"), second.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


@needs_dejavu
@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.name)
def test_fixed_positions_look_as_their_golden_pictures(position: Position) -> None:
    drawn = image(picture_at(position).png)
    golden = Image.open(GOLDEN / f"{position.name}.png")
    assert drawn.size == golden.size
    assert difference(drawn, golden) < TOLERANCE, (
        f"{position.name} changed; if on purpose, regenerate: "
        "python -m bench.table_picture --golden tests/bot/pictures/golden"
    )


def test_the_golden_comparison_sees_a_changed_trick() -> None:
    """The tolerance is tight enough that one card more or less on the table fails it."""
    game = at(POSITIONS[0])
    view = game.view(None)
    assert view.trick
    seats = seating(game)
    fewer = dataclasses.replace(view, trick=view.trick[:-1], winning=view.trick[0][0])
    assert (
        difference(image(draw_table(view, seats).png), image(draw_table(fewer, seats).png))
        >= TOLERANCE / 3
    )  # a card is a small part of the picture: well above noise all the same


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.name)
def test_a_picture_is_a_small_palette_png_with_words_beside_it(position: Position) -> None:
    picture = picture_at(position)
    drawn = image(picture.png)
    assert drawn.format == "PNG" and drawn.mode == "P" and drawn.size == (640, 400)
    assert len(picture.png) < 40_000
    game = at(position)
    assert game.view(None).players == len(seating(game).names)
    assert picture.alt.startswith(f"{type(game).title} · table #7") and len(picture.alt) <= 1000
    assert "score" in picture.alt


def test_every_picture_maps_onto_one_palette_with_the_flat_colours_exact() -> None:
    """The palette is chosen once, not per picture (choosing one cost most of a picture's CPU),
    and the felt, plates and cards keep their exact colours."""
    pictures = [image(picture_at(position).png) for position in POSITIONS]
    first = pictures[0].getpalette()
    assert all(picture.getpalette() == first for picture in pictures[1:])
    felt = pictures[0].convert("RGB")
    assert felt.getpixel((2, 2)) == FELT and felt.getpixel((320, 120)) == TABLE


def test_the_card_winning_the_trick_is_marked_and_said() -> None:
    game = at(POSITIONS[0])  # a Tarneeb trick in progress
    view = game.view(None)
    seats = seating(game)
    assert view.trick and view.winning is not None
    unmarked = dataclasses.replace(view, winning=None)
    assert draw_table(view, seats).png != draw_table(unmarked, seats).png
    said = draw_table(view, seats).alt
    assert f"({name_text(seats.names, view.winning)} winning)" in said


def test_whose_turn_shows_only_while_the_game_is_live() -> None:
    game = at(POSITIONS[0])
    view, seats = game.view(None), seating(game)
    live, over = draw_table(view, seats, live=True), draw_table(view, seats, live=False)
    assert live.png != over.png
    assert "to act" in live.alt and "to act" not in over.alt


def test_a_name_in_another_script_is_shaped_or_falls_back() -> None:
    arabic = "محمد"
    shown = pick(arabic, 14, True)[1]
    if (DEJAVU / "DejaVuSans-Bold.ttf").exists():
        assert shown == arabic, "DejaVu Sans has Arabic letters: the whole name is drawn"
    assert name_text(["🂡🂡"], 0) in {"🂡🂡", "Seat 1"}  # a font with the signs draws them
    assert name_text(["\U000f0000"], 0) == "Seat 1", "a name no font can draw: its seat"
    assert name_text(["  "], 0) == "Seat 1"
    mixed = name_text(["Ann \U000f0000"], 0)
    assert mixed.startswith("Ann")
    view = at(POSITIONS[0]).view(None)
    names = ("Zoë", arabic, "李小龍", "\U000f0000")
    picture = draw_table(view, Seating(names, teams=True, title="Tarneeb · table #1"))
    assert image(picture.png).size == (640, 400)
    assert "Seat 4" in picture.alt or "Seat 4" not in " ".join(names)


def test_the_key_changes_with_what_the_picture_shows() -> None:
    game = at(POSITIONS[0])
    view, seats = game.view(None), seating(game)
    assert picture_key(view, seats) == picture_key(game.view(None), seating(game))
    assert picture_key(view, seats) != picture_key(view, dataclasses.replace(seats, away=()))
    assert picture_key(view, seats) != picture_key(view, seats, live=False)
    moved = dataclasses.replace(view, trick=view.trick[:-1])
    assert picture_key(view, seats) != picture_key(moved, seats)


# --- secrecy: the public picture of two games that differ only in hidden cards ---------------
def public_twin(played: Played, shown: list[Any], rng: random.Random) -> TableView | None:
    """The public view of a game dealt as ``played`` but with two cards hidden from onlookers
    swapped (renamed in every move, so a card laid face down is the other one), if every move
    then showed the public exactly the same events as ``played`` replayed showed (``shown``)."""
    game = played.game
    hidden = sorted(game.hidden_cards(None))
    if len(hidden) < 2:
        return None
    first, second = rng.sample(hidden, 2)
    trade = {first: second, second: first}
    deal = game.deals[-1]
    swapped = Deal(
        tuple(tuple(trade.get(card, card) for card in hand) for hand in deal.hands),
        tuple(trade.get(card, card) for card in deal.stock),
    )
    current = played.moves[played.start :]
    twin = replay(played, None, swapped, [(s, rename(m, trade)) for s, m in current])  # type: ignore[arg-type]
    if twin is None or twin[1] != shown:
        return None
    return twin[0].view(None)


def public_shown(played: Played) -> list[Any]:
    """What the public was shown through the current deal of ``played``, replayed as it was
    (once per position: each twin of it is compared with the same)."""
    original = replay(played, None, played.game.deals[-1], played.moves[played.start :])  # type: ignore[arg-type]
    assert original is not None
    return original[1]


GAMES = ("thunee", "tarneeb", "tarneeb_egyptian", "tuppi", "norwegian_whist", "tunge")


@pytest.mark.parametrize("name", GAMES)
def test_games_that_differ_only_in_hidden_cards_draw_the_same_public_picture(name: str) -> None:
    """Byte for byte, and word for word in the alt text."""
    found = 0
    for seed in range(3):
        rng = random.Random(seed)
        for step, position in enumerate(plays(name, {}, seed, 160, normal=True)):
            if step % 9:
                continue
            game = position.game
            seats = seating(game)
            view = game.view(None)
            picture = draw_table(view, seats, True, table_lines(view, seats))
            shown = public_shown(position)
            for _ in range(2):
                twin = public_twin(position, shown, rng)
                if twin is None:
                    continue
                found += 1
                # the picture and its alt text, which tells the table lines too
                assert draw_table(twin, seats, True, table_lines(twin, seats)) == picture, (
                    name,
                    seed,
                    step,
                )
    assert found >= 10, f"only {found} twins of {name} were found"


def test_the_readme_pictures_are_drawn_from_real_games(tmp_path: Path) -> None:
    written = write_golden(tmp_path, DOCS)
    assert [path.name for path in written] == ["thunee.png", "tunge.png"]
    for path, position in zip(written, DOCS.values(), strict=True):
        assert path.read_bytes() == picture_at(next(p for p in POSITIONS if p.name == position)).png


def test_a_hand_summary_draws_every_trick_of_the_hand_with_its_winner() -> None:
    game = next(g for g in played("tarneeb", {}, 5) if g.summary()["deals"][0].get("result"))
    deal = game.summary()["deals"][0]
    tricks = tuple(
        TrickView(t["leader"], tuple(t["cards"]), t["winner"], None) for t in deal["tricks"]
    )
    seats = seating(game)
    picture = draw_hand(tricks, seats, 4, "Tarneeb · table #7 · hand 1: the tricks")
    drawn = image(picture.png)
    assert drawn.mode == "P" and len(picture.png) < 40_000
    assert drawn.height > 7 * 50 and drawn.width > 600, "thirteen tricks: two columns"
    assert picture.alt.count("trick ") == len(tricks) == 13
    other = tuple(dataclasses.replace(t, winner=(t.winner + 1) % 4) for t in tricks)
    assert draw_hand(other, seats, 4, "Tarneeb · table #7 · hand 1: the tricks").png != picture.png
    assert trick_seats(TrickView(3, ("AS", "KS", "QS", "JS"), 1), 4) == (3, 0, 1, 2)
    assert trick_seats(TrickView(3, ("AS", "KS"), 1, (3, 1)), 4) == (3, 1)


def test_the_pictures_words_are_in_its_language() -> None:
    """The same table drawn for a Finnish server: other words, drawn and in the alt text."""
    game = get_game("tarneeb").new(seed=3)
    view = game.view(None)
    names = ("Alice", "Bob", "Carol", "Dan")
    english = draw_table(view, Seating(names, teams=True, title="Tarneeb · table #1"))
    finnish = draw_table(view, Seating(names, teams=True, title="Tarneeb · pöytä #1", lang="fi"))
    assert "score: A 0, B 0 points" in english.alt
    assert "pisteet: A 0, B 0 pistettä" in finnish.alt, finnish.alt
    assert finnish.png != english.png


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.name)
def test_the_alt_text_says_every_seat_and_the_game_s_corner(position: Position) -> None:
    """The text beside the picture is short: the alt text names each seat with its team,
    cards left, dealer and away, and what the picture's corners and centre say."""
    game = at(position)
    view = game.view(None)
    names = seating(game).names
    away = tuple(seat == 1 for seat in range(view.players))
    seats = dataclasses.replace(seating(game), away=away)
    said = draw_table(view, seats, True, ("Alice passes.", "Contract: Bob 7")).alt
    for seat in range(view.players):
        details = [f"team {'AB'[seat % 2]}"] if seats.teams else []
        details.append(
            f"{view.hand_sizes[seat]} card" + ("" if view.hand_sizes[seat] == 1 else "s")
        )
        details += ["dealer"] if seat == view.dealer else []
        details += ["away"] if away[seat] else []
        assert f"{name_text(names, seat)} ({', '.join(details)})" in said, said
    assert said.endswith(" Alice passes. Contract: Bob 7."), "the table lines, last"
    if isinstance(view, ThuneeView) and view.counting_team is not None:
        team = "AB"[view.counting_team]
        assert f"Team {team} counts {view.card_points[view.counting_team]} of " in said
    if isinstance(view, TungeView):
        assert f"pile {len(view.pile)}, stock {view.stock_size}" in said
        assert f"Turn {view.turns_taken} of {view.turn_limit}" in said
        if view.reference is not None:
            beat = " ".join(display(card) for card in view.reference.cards)
            assert f": {beat}" in said
    if isinstance(view, TarneebView):
        assert f"Tricks: A {view.team_tricks[0]} · B {view.team_tricks[1]}" in said
        assert f"(to {view.target})" in said


def test_the_alt_text_of_thunee_and_tunge_is_in_the_table_s_language() -> None:
    for name in ("thunee_trick", "tunge_pile"):
        game = at(next(p for p in POSITIONS if p.name == name))
        view = game.view(None)
        english = draw_table(view, seating(game)).alt
        norwegian = draw_table(view, dataclasses.replace(seating(game), lang="no")).alt
        assert "plasser: " in norwegian and "seats: " in english
        if isinstance(view, TungeView):
            assert "kastebunke " in norwegian and "Tur " in norwegian, norwegian
        else:
            assert " teller " in norwegian and " counts " not in norwegian, norwegian


def test_the_words_drawn_in_a_tunge_picture_are_in_the_table_s_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pile's caption and the stock's count are drawn in the reader's words."""
    import bot.pictures.table as table_module

    drawn: list[str] = []
    real_label = table_module.label

    def recording_label(text: str, *args: object, **kwargs: object) -> Image.Image:
        drawn.append(text)
        return real_label(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(table_module, "label", recording_label)
    game = at(next(p for p in POSITIONS if p.name == "tunge_pile"))
    view = game.view(None)
    assert isinstance(view, TungeView) and view.pile and view.stock_size
    draw_table(view, seating(game))
    english = list(drawn)
    drawn.clear()
    draw_table(view, dataclasses.replace(seating(game), lang="no"))
    assert any(text.startswith("Stock: ") for text in english), english
    assert any(f"kastebunke {len(view.pile)}" in text for text in drawn), drawn
    assert any(text == f"Bunke: {view.stock_size}" for text in drawn), drawn
    assert not any("Stock" in text or "pile" in text for text in drawn), drawn


@pytest.mark.parametrize("name", ["thunee_trick", "tunge_pile", "tunge_three"])
@pytest.mark.parametrize("lang", ["fi", "no", "ar"])
def test_thunees_and_tunges_own_picture_words_are_in_its_language(name: str, lang: str) -> None:
    """The counting team's points, the pile, the stock, the score's unit: drawn and said in the
    table's language (Thunee's balls stay the game's own word)."""
    position = next(p for p in POSITIONS if p.name == name)
    game = at(position)
    view = game.view(None)
    english = draw_table(view, seating(game))
    other = draw_table(view, dataclasses.replace(seating(game), lang=lang))
    assert other.png != english.png
    left = re.findall(r"\b(counts|pile|stock|to beat|points|lower|face down)\b", other.alt)
    assert left == [], (lang, other.alt)


# --- the alt text within Discord's limit -----------------------------------------------------
LONG_NAMES = {
    "latin": (
        "Maximilian Alexander Wolfgang Am",
        "Bartholomew Fitzgerald Montgomer",
        "Constantina Evangelina Rosalind ",
        "Dmitri Aleksandrovich Rachmanino",
        "Esmeralda Guadalupe Fernández de",
        "Florentyna Wilhelmina Kowalczyk ",
    ),
    "arabic": (
        "عبد الرحمن بن محمد بن إبراهيم ال",
        "فاطمة الزهراء بنت عبد الله الحسن",
        "محمد أمين بن يوسف بن عبد القادر ",
        "نور الهدى بنت خالد بن سليمان الع",
        "سيف الدين بن عمر بن عبد العزيز ا",
        "ليلى بنت أحمد بن مصطفى بن حسين ا",
    ),
}


def six_seat_thunee() -> TableView:
    """A six-player Thunee in the middle of a trick, with trump known."""
    from tests.cogs.test_engine_words import leaning

    for seed in range(40):
        game = get_game("thunee").new({"players": 6}, seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            view = game.view(None)
            if len(view.trick) >= 4 and view.trump is not None and view.to_act:
                return view
            game.apply(*leaning(rng, game))
    raise AssertionError("no six-player Thunee reached a trick with trump known")


@pytest.mark.parametrize("script", sorted(LONG_NAMES))
@pytest.mark.parametrize("lang", ["en", "ar", "fi", "no"])
def test_six_long_names_stay_within_the_limit_and_keep_what_matters(script: str, lang: str) -> None:
    """Six 32-character names: the alt text stays within Discord's limit, ends on a whole
    sentence (no word or card cut), and still names every seat, whose turn it is, the trick,
    trump and the score, shortening the names and leaving out the table lines to do so."""
    from bot.i18n import _
    from bot.pictures.words import LIMIT, SUIT_WORDS, short_names

    view = six_seat_thunee()
    names = LONG_NAMES[script]
    seats = Seating(names, (False, True) + (False,) * 4, True, "Thunee · table #12345", lang)
    lines = [*table_lines(view, seats), *(f"{name} claims Jodhi 20." for name in names)]
    alt = draw_table(view, seats, True, lines).alt
    assert len(alt) <= LIMIT and alt.endswith("."), alt
    shown = next(
        shown
        for limit in (24, 16, 12, 8, 0)
        if all((shown := short_names(seats, 6, limit))[seat] in alt for seat in range(6))
    )
    assert all(name.endswith("…") for name in shown), "the names were shortened"
    assert len(set(shown)) == 6, "every seat told apart"
    people = _(lang, " and ").join(shown[seat] for seat in view.to_act)
    assert _(lang, "{who} to act", who=people) in alt
    cards = ", ".join(f"{shown[seat]} {display(card)}" for seat, card in view.trick)
    assert _(lang, "trick: {cards}", cards=cards) in alt
    assert view.trump is not None
    assert _(lang, "trump {suit}", suit=_(lang, SUIT_WORDS[view.trump])) in alt
    assert _(lang, "score: {score}", score=f"A {view.score[0]}, B {view.score[1]}") in alt


def test_a_text_past_every_plan_is_cut_at_a_space() -> None:
    from bot.pictures.words import within

    assert within("ten ♥ cards and more", 12) == "ten ♥ cards…"
    assert within("short", 12) == "short"
