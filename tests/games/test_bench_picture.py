"""The README's picture is drawn from the real renderer (a real game, the card pictures)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bench.picture import WIDTH, picture, pieces, showcase
from cogs.card_faces import FACES


def test_the_picture_is_drawn_from_a_real_table(tmp_path: Path) -> None:
    out = picture(tmp_path / "table.png")
    with Image.open(out) as image:
        assert image.width == WIDTH and image.height > 500
    assert FACES.emojis == {}, "the picture's made-up emojis are not left behind"


def test_the_showcase_is_alice_following_suit_to_a_trick_of_three() -> None:
    table, seat = showcase()
    assert table.game is not None and seat == 0
    view = table.game.view(None)
    assert len(view.trick) == 3
    plays = [m for m in table.game.legal_moves(0) if m.action == "play"]
    assert 0 < len(plays) < len(table.game.view(0).hand or ())


def test_markdown_pieces() -> None:
    found = list(pieces("**Bob** plays <:c_AS:12> A♠ · *note*"))
    assert [(p.text, p.style, p.emoji) for p in found] == [
        ("Bob", "b", None),
        (" plays ", "", None),
        ("", "", "c_AS"),
        (" A♠ · ", "", None),
        ("note", "i", None),
    ]
