"""The standings picture: its golden image, a field too big for it, its words in any language.

Golden picture: ``tests/bot/pictures/golden/standings.png``, written by
``python -m bench.tournaments --golden tests/bot/pictures/golden`` (run it after changing the
picture on purpose, and look at it). The comparison is the table picture's
(:mod:`tests.bot.test_pictures`): within its tolerance, fonts differ a little between machines.
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

from PIL import Image

from bench.tournaments import golden_standings
from bot.pictures.standings import MAX_ROWS, draw_standings
from bot.sessions.tournament_texts import words
from bot.tournaments.spec import Entrant
from bot.tournaments.standings import Standing
from tests.bot.test_pictures import GOLDEN, TOLERANCE, difference, image, needs_dejavu


def field(size: int, stand_in: int | None = None) -> list[Standing]:
    return [
        Standing(
            rank=index + 1,
            entrant=Entrant(index + 1, (index,), name=f"Player {index + 1}"),
            points=Fraction(2 * size - index, 2),
            buchholz=Fraction(index, 3),
            duplicate=0.0,
            played=3,
            byes=0,
            stand_ins=int(index == stand_in),
        )
        for index in range(size)
    ]


@needs_dejavu
def test_the_standings_look_as_their_golden_picture() -> None:
    drawn = image(golden_standings().png)
    golden = Image.open(GOLDEN / "standings.png")
    assert drawn.size == golden.size
    assert difference(drawn, golden) < TOLERANCE, (
        "the standings picture changed; if on purpose, regenerate: "
        "python -m bench.tournaments --golden tests/bot/pictures/golden"
    )


def test_the_comparison_sees_a_changed_score() -> None:
    rows = field(8)
    changed = [dataclasses.replace(rows[0], points=Fraction(99)), *rows[1:]]
    first = image(draw_standings(rows, "Standings", duplicate=False).png)
    second = image(draw_standings(changed, "Standings", duplicate=False).png)
    assert difference(first, second) > 0.02, "one number differs: the pictures differ"


def test_a_small_palette_png_with_every_entrant_in_its_words() -> None:
    rows = field(8, stand_in=3)
    picture = draw_standings(rows, "Tournament #4: standings after round 2", duplicate=True)
    drawn = image(picture.png)
    assert drawn.format == "PNG" and drawn.mode == "P" and drawn.width == 640
    assert len(picture.png) < 40_000
    assert picture.alt.startswith("Tournament #4: standings after round 2: 1. Player 1: 8 MP")
    assert "4. Player 4*: " in picture.alt
    assert all(f"Player {n}" in picture.alt for n in range(1, 9))


def test_a_big_field_is_cut_with_a_line_saying_how_many_more() -> None:
    big = draw_standings(field(100), "Standings", duplicate=False, more="… and {n} more")
    cut = draw_standings(field(MAX_ROWS), "Standings", duplicate=False)
    extra = image(big.png).height - image(cut.png).height
    assert 0 < extra <= 20, "only the line saying how many more is added"
    assert len(big.alt) <= 1000 and big.alt.endswith("; …")
    last = big.alt.removesuffix("; …").rsplit("; ", 1)[-1]
    assert re.fullmatch(r"\d+\. Player \d+\*?: [\d.½]+ MP, Buchholz [\d.]+", last), last


def test_the_words_in_another_language_and_a_name_in_another_script() -> None:
    rows = field(3)
    rows[0] = dataclasses.replace(rows[0], entrant=Entrant(1, (1,), name="محمد & علي"))
    english = draw_standings(rows, "Standings", duplicate=True)
    finnish = draw_standings(rows, "Sarjataulukko", duplicate=True, words=words("fi"))
    arabic = draw_standings(rows, "الترتيب", duplicate=True, words=words("ar"))
    assert len({english.png, finnish.png, arabic.png}) == 3
    assert "محمد & علي" in arabic.alt
