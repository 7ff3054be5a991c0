"""End to end: ``/history`` opens a finished game's replay, the table picture trick by trick."""

from __future__ import annotations

import re
from typing import Any

from bot import i18n
from bot.pictures import Seating, draw_table
from bot.replay import build_replay
from cogs.replay import REPLAY_PLACEHOLDER
from tests.cogs.test_engine_words import KEPT
from tests.discord.table_driver import fill_with_computers, ok, open_table, start
from tests.discord.test_history_e2e import play_out
from tests.fakediscord import FakeDiscord, InteractionResult, Message

PNG = b"\x89PNG\r\n\x1a\n"


def shown(fake: FakeDiscord, message: Message) -> bytes:
    """The picture the replay message shows."""
    image = fake.embed_image(message)
    assert image is not None and image.startswith(PNG), message.text()
    return image


def words_of(text: str) -> set[str]:
    return {word.lower() for word in re.findall(r"[A-Za-z]{3,}", text)}


def replay_of(result: InteractionResult) -> Message:
    assert result.ephemeral and result.message is not None, result
    return result.message


async def test_a_finished_game_replays_trick_by_trick_showing_only_the_table(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, carol = fake_discord.user("alice"), fake_discord.user("carol")
    finished = await open_table(fake_discord, alice, "norwegian_whist", "target=1")
    await fill_with_computers(fake_discord, alice, finished)
    await start(fake_discord, alice, finished)
    await play_out(fake_discord, running_bot, alice, finished)
    playing = await open_table(fake_discord, alice, "norwegian_whist")
    await fill_with_computers(fake_discord, alice, playing)
    await start(fake_discord, alice, playing)

    page = ok(await carol.slash("history")).message
    assert page is not None
    opened = replay_of(ok(await carol.select(page, REPLAY_PLACEHOLDER, [str(finished)])))
    assert opened.ephemeral_to == carol.id
    assert "step 1 of" in opened.text() and "Hand 1 · trick 1" in opened.text()
    first = shown(fake_discord, opened)

    # The pictures are the public views' (the same replay built here draws the same bytes).
    exported = await running_bot.sessions.export(opened.guild_id, finished)
    built = build_replay(finished, exported.transcript, exported.names)
    assert first == built.picture(0).png
    for step in built.steps:
        assert step.view.hand is None, "a replay is built from public views only"
    assert any(step.view.trick for step in built.steps), "the tricks are shown"

    step = ok(await carol.click(opened, "▶"))
    moved = step.message
    assert moved is not None and "step 2 of" in moved.text()
    assert shown(fake_discord, moved) == built.picture(1).png != first
    back = ok(await carol.click(moved, "◀"))
    assert back.message is not None and shown(fake_discord, back.message) == first

    # ▶ to the end: the last step, its ▶ disabled.
    current = back.message
    for _ in range(len(built.steps) + 1):
        forward = next(b for b in current.buttons() if b.get("label") == "▶")
        if forward.get("disabled"):
            break
        result = ok(await carol.click(current, "▶"))
        assert result.message is not None
        current = result.message
    assert f"step {len(built.steps)} of {len(built.steps)}" in current.text()
    assert shown(fake_discord, current) == built.picture(len(built.steps) - 1).png

    # Crafted picks: a game still being played, or no game, is refused as an export is.
    refused = ok(await carol.crafted_component(page, "ct:hr", [str(playing)]))
    assert refused.ephemeral and "still being played" in refused.text
    assert refused.message is not None and not refused.message.attachments
    for crafted in (["999999"], ["x"], ["1²"], [str(finished), str(finished)], []):
        answer = ok(await carol.crafted_component(page, "ct:hr", crafted))
        assert answer.ephemeral and answer.message is not None, crafted
        assert not answer.message.attachments, crafted
    if any(c.get("custom_id") == f"ct:rh:{finished}" for c in opened.iter_components()):
        for crafted in (["x"], ["1²"], []):
            answer = ok(await carol.crafted_component(opened, f"ct:rh:{finished}", crafted))
            assert answer.ephemeral and "Choose one of the hands offered" in answer.text
    assert fake_discord.errors == [] and fake_discord.unknown_routes == []


async def test_a_finnish_reader_replays_a_game_in_finnish(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, carol = fake_discord.user("alice"), fake_discord.user("carol")
    aino = fake_discord.user("aino", locale="en-US")
    ok(await aino.slash("settings me", language="fi"))
    finished = await open_table(fake_discord, alice, "norwegian_whist", "target=1")
    await fill_with_computers(fake_discord, alice, finished)
    await start(fake_discord, alice, finished)
    await play_out(fake_discord, running_bot, alice, finished)

    steps: dict[str, Message] = {}
    for reader, lang in ((aino, "fi"), (carol, "en")):
        page = ok(await reader.slash("history")).message
        assert page is not None
        placeholder = i18n._(lang, REPLAY_PLACEHOLDER)
        opened = replay_of(ok(await reader.select(page, placeholder, [str(finished)])))
        stepped = ok(await reader.click(opened, "▶")).message
        assert stepped is not None and stepped.ephemeral_to == reader.id
        steps[lang] = stepped
    finnish = steps["fi"].text()
    assert "Uusinta · Norwegian Whist · pöytä" in finnish, finnish
    assert "**Jako 1 · tikki 2** · vaihe 2/" in finnish
    assert (
        "Vain se, mitä pöydässä näkyi" in finnish and "[picture: Norwegian Whist · pöytä" in finnish
    )

    # No English word is left beside the seats' names and the game's own name and words.
    exported = await running_bot.sessions.export(steps["fi"].guild_id, finished)
    kept = KEPT | {"picture"} | words_of(" ".join((*exported.names, "Norwegian Whist")))
    english = words_of(steps["en"].text()) - kept
    assert english and english.isdisjoint(words_of(finnish)), english & words_of(finnish)

    # Each reader sees the picture drawn in their own language.
    built = build_replay(finished, exported.transcript, exported.names)
    assert shown(fake_discord, steps["fi"]) == built.picture(1, "fi").png
    assert shown(fake_discord, steps["en"]) == built.picture(1).png != built.picture(1, "fi").png
    assert fake_discord.errors == [] and fake_discord.unknown_routes == []


def test_a_replay_step_is_drawn_like_the_table_then() -> None:
    """A trick step is the public view with the trick's cards in the middle and its winner."""
    import random

    from games.levels import choose_move
    from games.registry import get_game
    from games.transcript import Transcript

    game = get_game("tarneeb").new({}, seed=2)
    rng = random.Random(2)
    moves = []
    while game.status == "in_progress" and len(moves) < 120:
        seat = game.to_act()[0]
        move = choose_move(game, seat, rng)
        game.apply(seat, move)
        moves.append((seat, move))
    transcript = Transcript("tarneeb", {}, game.first_dealer, list(game.deals), moves).to_json()
    built = build_replay(5, transcript, ["Alice", "Bob", "Carol", "Dan"])
    tricks = [step for step in built.steps if step.view.trick]
    assert len(tricks) == sum(1 for _, move in moves if move.action == "play") // 4
    for step in tricks:
        assert len(step.view.trick) == 4 and step.view.winning in range(4)
        assert step.view.hand is None
    seating = Seating(("Alice", "Bob", "Carol", "Dan"), (), True, "Tarneeb · table #5")
    assert built.picture(0).png == draw_table(built.steps[0].view, seating, live=False).png
    assert built.hand_starts()[1] == 0
