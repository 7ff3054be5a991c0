"""The table message carries a picture of the table: whole games through the fake Discord.

One game of each kind, on a fixed deal (the session manager's seed hook), against computers at
the normal level (the heuristic: quick), the person playing whatever their hand offers first, so
each game is the same on every run. Every version the table message had is checked against the
game replayed from the database to that version's move: the picture is there, its alt text is the
one the state at that move gives, and it is uploaded again exactly when what it shows changed.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

import cogs.table_picture
from bot.pictures import picture_key
from bot.pictures.words import SUIT_WORDS, alt_text
from bot.sessions import LiveTable
from cogs.table_picture import seating, table_lines
from games.base import Deal, Game, Move
from games.cards import display
from tests.discord.table_driver import (
    fill_with_computers,
    move_controls,
    ok,
    open_table,
    show_hand,
    start,
    table_message,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord, FakeUser, Message

PNG = b"\x89PNG\r\n\x1a\n"
MOVE = re.compile(r"Move (\d+)")
WAIT_SECONDS = 30.0  # a guard against a stuck table; every wait ends on an event well before

# (game, options, seed, hands the options allow at most). Short games: the lowest target, one
# hand where the game has such an option; the seed fixes the deals (and so the whole game).
GAMES = [
    ("thunee", "balls_to_win=1 trumpman_weak_redeal=false no_trump_annul=false", 11, 1),
    ("tarneeb", "target=31 hand_limit=10", 12, 10),
    ("tarneeb_egyptian", "target=31 hand_limit=10", 7, 10),
    ("tuppi", "max_hands=1", 14, 1),
    ("norwegian_whist", "target=1 one_colour_redeal=false", 15, 1),
    ("tunge", "turn_limit=80", 16, 1),
]


def versions(message: Message) -> list[dict[str, Any]]:
    """Every version the table message had, oldest first (the fake keeps the earlier ones)."""
    return [*message.history, message.payload()]


def move_of(version: dict[str, Any]) -> int | None:
    for embed in version.get("embeds") or []:
        found = MOVE.search(str((embed.get("footer") or {}).get("text", "")))
        if found:
            return int(found.group(1))
    return None


def picture_of(fake: FakeDiscord, version: dict[str, Any]) -> tuple[str, bytes, str] | None:
    """The attachment a version's embed shows as its image: (id, bytes, alt text)."""
    urls = [str((e.get("image") or {}).get("url", "")) for e in version.get("embeds") or []]
    for attachment in version.get("attachments") or []:
        if attachment["url"] in urls:
            alt = str(attachment.get("description", ""))
            return str(attachment["id"]), fake.attachment_bytes(attachment), alt
    return None


def board_after(user: FakeUser, table_id: int, moves: int) -> bool:
    """The table message shows the table after more than ``moves`` moves."""
    move = move_of(table_message(user, table_id).payload())
    return move is not None and move > moves


def move_budget(game: Game, hands: int) -> int:
    """The most moves the game can take: per hand, every card dealt is played (or, in Tunge,
    each turn is one move, up to the turn limit) and the hand's other decisions (bids, passes,
    calls, trump) are fewer than its cards."""
    if game.options.get("turn_limit"):
        return hands * int(game.options["turn_limit"])
    deal = game.deals[0]
    cards = sum(len(hand) for hand in deal.hands) + len(deal.stock)
    return hands * 2 * cards


async def play_first_offered(user: FakeUser, table_id: int) -> None:
    """Open the hand and make the first move it offers (a button, else a select's first
    option; a step of Tunge's sequence builder is followed by the next)."""
    hand = await show_hand(user, table_id)
    for _ in range(20):
        buttons, options = move_controls(hand)
        if buttons:
            ok(await user.click(hand, custom_id=buttons[0]["custom_id"]))
            return
        assert options, "the hand offers no move on the person's turn"
        select, value = options[0]
        result = ok(await user.select(hand, select["custom_id"], [value]))
        if not str(select["custom_id"]).startswith("ct:q:"):
            return
        assert result.message is not None
        hand = result.message
    raise AssertionError("the sequence builder never reached a play")


async def replayed_states(
    bot: Any, table: LiveTable
) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """For each move count 0, 1, …: (key, alt text) of the picture of the game then, live and
    as a finished game (the last move's board may be drawn before or after the result)."""
    row = table.row
    store = bot.sessions.store
    deals = [Deal.from_json(deal) for deal in await store.deals(table.id)]
    game = table.game_class.new(
        row.options, seed=row.seed, deals=deals, first_dealer=row.first_dealer
    )
    seats = seating(table)

    def state() -> tuple[str, str, str]:
        view = game.view(None)
        alt = alt_text(view, seats, True, table_lines(view, seats))
        return picture_key(view, seats, True), alt, view.game

    def over() -> tuple[str, str, str]:
        view = game.view(None)
        alt = alt_text(view, seats, False, table_lines(view, seats))
        return picture_key(view, seats, False), alt, view.game

    live, done = [state()], [over()]
    for stored in await store.moves(table.id):
        game.apply(stored.seat, Move.from_json(stored.move))
        live.append(state())
        done.append(over())
    return live, done


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options", "seed", "hands"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_whole_game_shows_the_table_drawn_and_redrawn_as_it_changes(
    fake_discord: FakeDiscord, running_bot: Any, game: str, options: str, seed: int, hands: int
) -> None:
    alice = fake_discord.user("alice")
    running_bot.sessions.new_seed = lambda: seed
    table_id = await open_table(fake_discord, alice, game, options)
    await fill_with_computers(fake_discord, alice, table_id)
    assert picture_of(fake_discord, table_message(alice, table_id).payload()) is None, "a lobby"
    await start(fake_discord, alice, table_id)
    table = running_bot.sessions.find(table_id)
    assert table is not None and table.game is not None
    budget = move_budget(table.game, hands)

    def alice_or_over() -> bool:
        if running_bot.sessions.find(table_id) is not table:
            return True
        return table.seat_of(alice.id) in table.waiting_for()

    while running_bot.sessions.find(table_id) is table:
        assert table.moves <= budget, f"the game ran past its {budget} moves"
        await fake_discord.wait_for(alice_or_over, WAIT_SECONDS)
        if running_bot.sessions.find(table_id) is not table:
            break
        moves = table.moves
        await play_first_offered(alice, table_id)
        assert table.moves > moves
        # Alice looks at the table after her move: it shows her move, with its picture.
        await fake_discord.wait_for(lambda m=moves: board_after(alice, table_id, m), WAIT_SECONDS)
    final = await wait_for_table(alice, table_id, "Rematch", WAIT_SECONDS, button=True)
    await fake_discord.quiet()

    live, done = await replayed_states(running_bot, table)
    total = len(live) - 1
    assert total == table.moves <= budget
    playing = [v for v in versions(final) if move_of(v) is not None]
    assert len(playing) >= 6, "the table message was edited as the game went"
    checked: list[tuple[int, str, tuple[str, bytes, str]]] = []
    for version in playing:
        move = move_of(version)
        picture = picture_of(fake_discord, version)
        assert move is not None and picture is not None, f"the board at move {move} has a picture"
        assert picture[1].startswith(PNG) and len(picture[1]) < 40_000
        expected = [live[move]] + ([done[move]] if move == total else [])
        found = [key for key, alt, _ in expected if alt == picture[2]]
        assert found, f"move {move}: the alt text {picture[2]!r} is not {expected[0][1]!r}"
        checked.append((move, found[0], picture))
    for (move, key, picture), (_, next_key, next_picture) in itertools.pairwise(checked):
        if next_key != key:  # what the picture shows changed: it was drawn and uploaded again
            assert next_picture[0] != picture[0], move
        else:  # the same picture stays on the message: nothing uploaded
            assert next_picture[0] == picture[0], move
    # The alt texts were the state's own; and they tell whose turn it is, by name.
    alts = [alt for _, _, (_, _, alt) in checked]
    assert any("alice" in alt.lower() and " to act" in alt for alt in alts), alts[:3]

    # Each hand's result of a trick game is posted with its tricks drawn; Tunge has no tricks.
    posts = [
        m
        for m in alice.visible_messages()
        if not m.is_ephemeral and m.id != final.id and f"Table #{table_id}" in m.content
    ]
    drawn_hands = [m for m in posts if any(a["filename"] == "hand.png" for a in m.attachments)]
    if game == "tunge":
        assert drawn_hands == []
    else:
        assert drawn_hands, [m.content for m in posts]
        for message in drawn_hands:
            (attachment,) = message.attachments
            assert fake_discord.attachment_bytes(attachment).startswith(PNG)
            assert "trick 1:" in attachment.get("description", "")
    assert fake_discord.unknown_routes == [] and fake_discord.errors == []


async def test_an_edit_that_changes_no_picture_uploads_none(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    message = await wait_for_table(alice, table_id, "Show my hand", button=True)
    await fake_discord.quiet()
    before = picture_of(fake_discord, table_message(alice, table_id).payload())
    assert before is not None and before[1].startswith(PNG)
    table = running_bot.sessions.find(table_id)
    board = running_bot.get_cog("Tables").board
    edits = len(message.history)
    await board.render(table)  # nothing changed: the same picture stays, nothing is uploaded
    message = table_message(alice, table_id)
    assert len(message.history) == edits + 1
    assert picture_of(fake_discord, message.payload()) == before
    uploads = [r for r in fake_discord.requests if r.method == "PATCH"]
    assert uploads and "__files__" not in (uploads[-1].body or {})


def field_names(version: dict[str, Any]) -> list[str]:
    return [str(f["name"]) for e in version.get("embeds") or [] for f in e.get("fields") or []]


async def alice_sees_a_trick(fake: FakeDiscord, bot: Any, alice: FakeUser, table_id: int) -> Any:
    """Play Alice's turns (the computers play theirs) until, on her turn, a trick is on the
    table and the table message shows that moment; the game's public view then."""
    table = bot.sessions.find(table_id)
    for _ in range(60):
        await fake.wait_for(lambda: table.seat_of(alice.id) in table.waiting_for(), WAIT_SECONDS)
        view = table.game.view(None)
        if view.trick:
            moves = table.moves
            await fake.wait_for(
                lambda m=moves: move_of(table_message(alice, table_id).payload()) == m,
                WAIT_SECONDS,
            )
            return view
        await play_first_offered(alice, table_id)
    raise AssertionError("no trick was ever on the table on Alice's turn")


async def test_beside_the_picture_the_text_is_short_and_the_alt_text_says_the_rest(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    running_bot.sessions.new_seed = lambda: 12
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    view = await alice_sees_a_trick(fake_discord, running_bot, alice, table_id)
    table = running_bot.sessions.find(table_id)
    board = table_message(alice, table_id)
    version = board.payload()
    picture = picture_of(fake_discord, version)
    assert picture is not None and picture[1].startswith(PNG)
    # The text: whose turn and the timer, the score, the latest events, the footer.
    assert field_names(version) == ["Score", "Recent"], board.text()
    (embed,) = version["embeds"]
    assert "alice to play" in embed["description"].lower() and "turn ends" in embed["description"]
    team_a, team_b = view.score
    assert f"Team A: **{team_a}** · Team B: **{team_b}**" in embed["fields"][0]["value"]
    assert 1 <= len(embed["fields"][1]["value"].splitlines()) <= 2
    assert f"Move {table.moves}" in embed["footer"]["text"]
    # The alt text: every seat with its cards left and the dealer, the trick and who is
    # winning it, trump, the score.
    alt = picture[2]
    names = table.names
    for seat, name in enumerate(names):
        cards = view.hand_sizes[seat]
        dealer = ", dealer" if seat == view.dealer else ""
        assert f"{name} (team {'AB'[seat % 2]}, {cards} cards{dealer})" in alt, alt
    trick = ", ".join(f"{names[seat]} {display(card)}" for seat, card in view.trick)
    assert f"trick: {trick} ({names[view.winning]} winning)" in alt, alt
    assert f"score: A {team_a}, B {team_b} points" in alt, alt
    assert f"trump {SUIT_WORDS[view.trump]}" in alt, alt
    assert f"{names[view.declarer]} {view.contract}." in alt, "the contract, a table line"
    assert "[picture: " in board.text(), "a person reading the message reads the alt text"
    assert fake_discord.errors == []


async def test_without_a_picture_the_table_message_has_every_field(
    fake_discord: FakeDiscord, running_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise ValueError("a bug in drawing")

    monkeypatch.setattr(cogs.table_picture, "draw_table", broken)
    alice = fake_discord.user("alice")
    running_bot.sessions.new_seed = lambda: 12
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    view = await alice_sees_a_trick(fake_discord, running_bot, alice, table_id)
    version = table_message(alice, table_id).payload()
    assert picture_of(fake_discord, version) is None and not version.get("attachments")
    assert field_names(version) == ["Seats", "Trump", "Score", "Trick", "Table", "Recent"]
    table = running_bot.sessions.find(table_id)
    (embed,) = version["embeds"]
    shown = embed["fields"][3]["value"]
    for seat, card in view.trick:
        assert f"{table.names[seat]} " in shown and display(card) in shown, shown
    assert fake_discord.errors == []
