"""Rendering without Discord: layouts fit Discord's limits, and public texts never leak."""

from __future__ import annotations

import dataclasses
from collections import deque

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.sessions import Line, LiveTable
from bot.store import SeatHolder, SeatRow, TableRow
from cogs.play import hand_view
from cogs.render import (
    LeakError,
    guard_public,
    hand_embed,
    hand_layout,
    lobby_embed,
    table_embed,
)
from games.base import Event, Move
from games.cards import make_deck
from games.registry import get_game


def cards(n: int) -> list[str]:
    return make_deck()[:n]


@pytest.mark.parametrize(
    "hand_size,others",
    [(13, 0), (13, 2), (13, 5), (13, 11), (13, 35), (6, 25), (15, 40), (30, 0), (30, 12), (0, 3)],
)
def test_hand_layout_fits_discord(hand_size: int, others: int) -> None:
    hand = cards(hand_size)
    moves = [Move.of("play", card=c) for c in hand[::2]]
    moves += [Move.of("bid", value=i) for i in range(others)]
    layout = hand_layout(hand, moves)
    card_rows = -(-len(layout.card_buttons) // 5)
    rows = (
        card_rows
        + bool(layout.card_select)
        + (1 if layout.action_buttons else 0)
        + len(layout.selects)
    )
    assert rows <= 5
    assert len(layout.action_buttons) <= 5
    assert all(len(chunk) <= 25 for chunk in layout.selects)
    offered = len(layout.action_buttons) + sum(len(c) for c in layout.selects)
    assert offered == others, "every decision is offered"
    enabled = [m for _, m in layout.card_buttons if m is not None] or layout.card_select
    assert len(enabled) == len(hand[::2])


def make_table(status: str = "playing") -> LiveTable:
    row = TableRow(
        id=7,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=10,
        game="tiny",
        options={"players": 2},
        seed=1,
        first_dealer=0,
        status=status,
        turn_deadline=None,
        created_at=0,
        updated_at=0,
    )
    seats = {0: SeatRow(7, 0, 10, "Alice", False), 1: SeatRow(7, 1, None, "🤖 Ada", False)}
    table = LiveTable(row, seats)
    if status == "playing":
        table.game = get_game("tiny").new(seed=4)
    return table


def test_lobby_and_table_embeds() -> None:
    lobby = lobby_embed(make_table("lobby"))
    assert "Alice" in str(lobby.to_dict()) and "host" in str(lobby.to_dict())
    table = make_table()
    embed = table_embed(table).to_dict()
    text = str(embed)
    assert "Alice" in text and "to play" in text
    assert len(text) < 6000
    hand = table.game.view(0).hand  # type: ignore[union-attr]
    from games.cards import display

    assert not any(display(card) in text for card in hand), "no hand on the public table"


def test_the_board_names_who_acted_then_and_escapes_every_name() -> None:
    table = make_table()
    table.seats[0] = SeatRow(7, 0, 11, "<@123456789012345678> **Eve** @everyone", False)
    table.recent.append(Line("{s0} plays 9♠.", ["Alice"]))  # Alice played, then Eve sat in
    table.recent.append(Line("{s0} sits in for {s1}.", [table.seats[0].name, "Alice"]))
    table.private[0] = deque([Line("{s1} shows you 9♥.", ["Alice", "🤖 Ada"])])
    embed = table_embed(table)
    recent = next(f.value for f in embed.fields if f.name == "Recent")
    assert recent is not None and recent.splitlines()[0] == "Alice plays 9♠."
    text = "\n".join([embed.description or ""] + [str(f.value) for f in embed.fields])
    assert "<@123456789012345678>" not in text and "@everyone" not in text, "no mention"
    assert "\\*\\*Eve\\*\\*" in text and "**Eve**" not in text, "no markdown"
    hand = hand_embed(table, 0)
    private = "\n".join(str(f.value) for f in hand.fields)
    assert "🤖 Ada shows you 9♥." in private
    lobby = make_table("lobby")
    lobby.seats[0] = table.seats[0]
    seats = "\n".join(str(f.value) for f in lobby_embed(lobby).fields)
    assert "\\*\\*Eve\\*\\*" in seats and "<@123456789012345678>" not in seats


def test_a_result_posted_late_names_who_held_the_seat_then() -> None:
    """After a restart, a result is posted with the names of its move's time, not today's."""
    from cogs.board import Board

    table = make_table()
    table.holders = [SeatHolder(0, 0, 10, "Alice"), SeatHolder(1, 0, None, "🤖 Ada")]
    table.holders.append(SeatHolder(0, 4, None, "🤖 Turing"))  # Alice left after move 4
    table.seats[0] = SeatRow(7, 0, None, "🤖 Turing", False)
    won = Event("game_over", "{s0} wins the game.", {"winner": 0}, history=True)
    posts = dict(Board._results(table, [(3, [won]), (6, [won])]))
    assert "Alice wins the game." in posts[3] and "🤖 Turing wins the game." in posts[6]


def test_hand_view_components_are_valid() -> None:
    table = make_table()
    assert table.game is not None
    seat = table.game.to_act()[0]
    view = hand_view(table, seat)
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert len(ids) == len(set(ids)) and all(len(i) <= 100 for i in ids)
    enabled = [i for i in view.children if not getattr(i, "disabled", False)]
    assert len(enabled) == len(table.game.legal_moves(seat))


def test_hand_view_labels_jodhi_for_the_seat_it_is_drawn_for() -> None:
    """With false claims allowed, a claim is legal for two seats: the label cannot guess its
    claimant from the move, so the hand passes its seat and the holder sees the value."""
    from tests.games.test_thunee import game_from

    table = make_table()
    table.game = game_from("e04_trumping_jodhi", 13, {"challenge_mode": True})
    spade = Move.of("jodhi", suit="S")
    assert spade in table.game.legal_moves(1) and spade in table.game.legal_moves(3)
    assert table.game.move_label(spade) == "Jodhi ♠", "no guess without the seat"

    def labels(seat: int) -> set[str]:
        found = set()
        for row in hand_view(table, seat).to_components():
            for item in row["components"]:
                found.add(str(item.get("label", "")))  # a button
                found |= {str(option["label"]) for option in item.get("options", [])}  # a select
        return found

    assert "Jodhi ♠ (40)" in labels(1), "seat 1 holds K♠ Q♠ of trump"
    assert "Jodhi ♠" in labels(3) and "Jodhi ♠ (40)" not in labels(3)


def test_guard_refuses_a_hidden_card() -> None:
    table = make_table()
    assert table.game is not None
    hidden = sorted(table.game.hidden_cards(None))[0]
    from games.cards import display

    with pytest.raises(LeakError):
        guard_public(table.game, f"oops {display(hidden)}")
    assert guard_public(table.game, "fine") == "fine"


def test_a_table_message_is_checked_for_hidden_cards_in_one_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its fields and headline are checked as one text: the hidden cards are listed once per
    redraw (a pass per field was most of a table message's rendering time)."""
    table = make_table()
    game = table.game
    assert game is not None
    listed = 0
    hidden_cards = game.hidden_cards

    def counted(seat: int | None) -> set[str]:
        nonlocal listed
        listed += 1
        return hidden_cards(seat)

    monkeypatch.setattr(game, "hidden_cards", counted)
    embed = table_embed(table)
    assert len(embed.fields) >= 2 and listed == 1


def test_the_table_text_and_its_pictures_alt_text_are_guarded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hidden card in the text shown (here: the score line) or in the picture's alt text
    stops the message, whatever the language."""
    import cogs.render as render
    from games.cards import display

    table = make_table()
    assert table.game is not None
    hidden = display(sorted(table.game.hidden_cards(None))[0])
    with pytest.raises(LeakError):
        table_embed(table, picture_alt=f"seats: Alice holds {hidden}")
    monkeypatch.setattr(render, "score_text", lambda *args: f"0 · {hidden}")
    for lang in ("en", "no"):
        with pytest.raises(LeakError):
            table_embed(table, lang=lang)
        with pytest.raises(LeakError):
            table_embed(table, lang=lang, picture_alt="seats: Alice, Ada")


def test_a_name_that_looks_like_a_hidden_card_is_no_leak() -> None:
    """A player may call themselves after a card, even one nobody may see yet: the text is then
    checked with seats in place of the names."""
    from games.cards import display

    table = make_table()
    assert table.game is not None
    hidden = display(sorted(table.game.hidden_cards(None))[0])
    table.seats[0] = dataclasses.replace(table.seats[0], name=f"{hidden} fan")
    embed = table_embed(table, picture_alt=f"seats: {hidden} fan, Ada")
    assert f"{hidden} fan" in str(embed.to_dict())


def test_sequence_builder_steps_follow_the_legal_plays() -> None:
    from cogs.render import sequence_step

    plays = [
        Move.of("play", cards=c)
        for c in (("6S", "7S"), ("7S", "6S"), ("6S", "7S", "8H"), ("7S", "7H"))
    ]
    start = sequence_step(plays, "")
    assert start.next_ranks == {"6": "6S", "7": "7S"} and start.complete is None
    six = sequence_step(plays, "6")
    assert six.chosen == ("6S",) and set(six.next_ranks) == {"7"} and six.complete is None
    six_seven = sequence_step(plays, "67")
    assert six_seven.complete == plays[0] and set(six_seven.next_ranks) == {"8"}
    assert sequence_step(plays, "678").complete == plays[2]
    assert sequence_step(plays, "77").complete == plays[3]
    nothing = sequence_step(plays, "9")
    assert nothing.chosen == () and nothing.next_ranks == {} and nothing.complete is None


def test_sequence_layout_keeps_draw_and_pass_as_buttons() -> None:
    hand = cards(34)
    plays = [Move.of("play", cards=(hand[0], hand[1]))]
    layout = hand_layout(hand, [*plays, Move.of("draw")])
    assert layout.sequences == plays and layout.action_buttons == [Move.of("draw")]
    assert layout.card_buttons == [] and layout.card_select == []


# --- who won --------------------------------------------------------------------------------------
NAMES = ("Alice", "Bob", "Carol", "Dan", "Eve", "Fay")


def played(example: str, upto: int | None = None) -> tuple[LiveTable, list[str]]:
    """A table that played a golden transcript, and the hand posts it made on the way."""
    import json
    from pathlib import Path

    from cogs.render import event_message
    from games.transcript import parse_header, parse_move

    path = Path(__file__).parents[1] / "games" / "transcripts" / f"{example}.json"
    data = json.loads(path.read_text())
    data = data.get("transcript", data)
    header = parse_header(data)
    game = get_game(header.game).new(
        header.options, deals=header.deals, first_dealer=header.first_dealer
    )
    row = TableRow(
        id=7,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=10,
        game=header.game,
        options=header.options,
        seed=1,
        first_dealer=header.first_dealer,
        status="playing",
        turn_deadline=1_800_000_000,
        created_at=0,
        updated_at=0,
    )
    seats = {s: SeatRow(7, s, 10 + s, NAMES[s], False) for s in range(game.players)}
    table = LiveTable(row, seats)
    table.game = game
    posts = []
    for raw in data["moves"][:upto]:
        seat, move = parse_move(raw, game.players)
        events = game.apply(seat, move)
        table.recent.extend(e.text for e in events if e.public)
        table.moves += 1
        results = [e for e in events if e.public and e.history]
        if results:
            posts.append(event_message(table, results))
    return table, posts


def test_final_board_names_the_winning_team_and_the_score() -> None:
    table, posts = played("thunee/e15_target_stays_12")
    headline = table_embed(table).description or ""
    assert "Team B (Bob & Dan) wins the game" in headline and "3 to 12" in headline
    assert headline.startswith("**Game over: 🏆")
    last = posts[-1]
    assert "Carol's Double fails." in last, "who made or failed the call"
    assert "Totals: Team A (Alice & Carol) **3** · Team B (Bob & Dan) **12**" in last


def test_final_board_of_a_game_without_a_winner_says_so() -> None:
    table, _ = played("tunge/t7_blocked_single_deal")
    headline = table_embed(table).description or ""
    assert "nobody wins" in headline and "Alice 4 · Bob 9 · Carol 17" in headline
    solo, _ = played("tunge/t6_three_player_deal")
    assert "🏆 Alice wins the game." in (table_embed(solo).description or "")


def test_a_thunee_hand_post_says_who_won_the_hand_and_the_balls() -> None:
    _, posts = played("thunee/e05_thunee_caught")
    (post,) = posts
    assert "Hand over (Thunee)." in post and "Dan's Thunee fails." in post
    assert "Team A scores 4 balls (4–0)." in post
    assert "Team A (Alice & Carol) **4** · Team B (Bob & Dan) **0**" in post


@pytest.mark.parametrize(
    "example,expected",
    [
        ("tarneeb/e7_declarers_reach_target", "Alice & Carol make the contract of 8"),
        ("tuppi/U3_rami_hand", "Team B scores 8 (rami)."),
        ("norwegian_whist/N4_game_to_13", "Team A wins the game."),
        ("tarneeb_egyptian/e6_doubled_made", "Totals: Team A (Alice & Carol)"),
    ],
)
def test_every_game_posts_the_hand_winner_in_the_board_words(example: str, expected: str) -> None:
    _, posts = played(example)
    assert posts and expected in posts[-1]
    assert "Team a" not in posts[-1] and "Team b" not in posts[-1]


def test_polish_capitalises_teams_and_pairs_take_a_plural_verb() -> None:
    from cogs.render import polish

    assert polish("Team b wins the game.") == "Team B wins the game."
    assert polish("{s1} & {s3} fails the contract") == "{s1} & {s3} fail the contract"
    assert polish("{s1} fails") == "{s1} fails"


# --- menus in order -------------------------------------------------------------------------------
def menu_labels(table: LiveTable, seat: int) -> list[tuple[str, list[str]]]:
    """Each select of the seat's hand: its placeholder and its option labels, in order."""
    found = []
    for row in hand_view(table, seat).to_components():
        for item in row["components"]:
            if "options" in item:
                found.append((str(item["placeholder"]), [str(o["label"]) for o in item["options"]]))
    return found


@pytest.mark.parametrize("game", ["tuppi", "norwegian_whist"])
def test_bid_cards_are_offered_by_kind_suit_and_rank(game: str) -> None:
    from games.cards import RANKS, SUITS

    table = make_table()
    table.game = get_game(game).new(seed=3)
    seat = table.game.to_act()[0]
    moves = table.game.legal_moves(seat)
    ((_, labels),) = menu_labels(table, seat)
    assert sorted(labels) == sorted(table.game.move_label(m, seat) for m in moves)
    cards = [m.get("card") for m in moves]
    by_label = {table.game.move_label(m, seat): m for m in moves}
    shown = [by_label[label] for label in labels]
    kinds = [m.get("value") for m in shown]
    assert kinds == sorted(kinds, key=kinds.index), "one run per kind of bid"
    for kind in set(kinds):
        run = [m.get("card") for m in shown if m.get("value") == kind]
        key = [(SUITS.index(c[1]), -RANKS.index(c[0])) for c in run]
        assert key == sorted(key), f"{kind}: by suit, then high to low"
    assert table.game.legal_moves(seat) == moves and len(cards) == len(moves), "engine unchanged"


def test_egyptian_bids_menus_are_labelled_by_range() -> None:
    table = make_table()
    table.game = get_game("tarneeb_egyptian").new(seed=3)
    seat = table.game.to_act()[0]
    menus = menu_labels(table, seat)
    assert len(menus) == 2
    placeholders = [p for p, _ in menus]
    assert placeholders[0] != placeholders[1]
    for placeholder, labels in menus:
        assert placeholder == f"Choose: {labels[0]} … {labels[-1]}"
    assert placeholders[0].startswith("Choose: Pass … Bid 11")


def test_sequence_ranks_are_offered_in_rank_order() -> None:
    from cogs.render import sequence_step

    plays = [Move.of("play", cards=(c,)) for c in ("KS", "3H", "AD", "TS", "5C")]
    assert list(sequence_step(plays, "").next_ranks) == ["3", "5", "T", "K", "A"]


# --- a shorter board ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "example,upto",
    [("tarneeb/e7_declarers_reach_target", 30), ("thunee/e15_target_stays_12", 70)],
)
def test_the_board_shows_turn_trick_trump_score_and_timer_at_a_glance(
    example: str, upto: int
) -> None:
    table, _ = played(example, upto)
    embed = table_embed(table).to_dict()
    description = embed.get("description") or ""
    assert "\n" not in description, "whose turn and the timer on one line"
    assert " to " in description and "turn ends <t:1800000000:R>" in description
    fields = {f["name"]: f for f in embed.get("fields", [])}
    assert fields["Score"]["inline"], "score beside the trump"
    recent = fields["Recent"]["value"].split("\n")
    assert len(recent) <= 4
    table_lines = fields.get("Table", {}).get("value", "")
    assert not [line for line in recent if line and line in table_lines], "nothing said twice"
    lines = description.count("\n") + 1 + sum(f["value"].count("\n") + 2 for f in fields.values())
    assert lines <= 20, f"{lines} lines (29 before, for Tarneeb after 30 moves)"


def test_the_board_shows_the_trump_and_the_trick() -> None:
    table, _ = played("tarneeb/e7_declarers_reach_target", 30)
    fields = {f["name"]: f["value"] for f in table_embed(table).to_dict().get("fields", [])}
    assert fields["Trump"] == "♠ spades" and fields["Trick"] == "Carol Q♠"


# --- all options ----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["thunee", "tarneeb", "tarneeb_egyptian", "tuppi", "tunge"])
def test_options_pages_show_every_option_in_words_within_discord_limits(game: str) -> None:
    from cogs.render import options_pages

    game_class = get_game(game)
    pages = options_pages(game_class)
    shown = []
    for page in pages:
        assert len(page) <= 6000 and len(page.fields) <= 25
        for field in page.fields:
            assert field.name is not None and field.value is not None
            assert len(field.name) <= 256 and len(field.value) <= 1024
            assert "Values: int" not in field.value and "Values: bool" not in field.value
            shown.append(field.name.split(" (default")[0])
    assert shown == [o.name for o in game_class.OPTIONS], "every option, in order, once"
    if len(pages) > 1:
        assert pages[0].footer.text and pages[0].footer.text.startswith(f"Page 1 of {len(pages)}")


def test_option_values_in_words() -> None:
    from cogs.render import option_values
    from games.base import Option

    assert option_values(Option("x", True, "")) == "`true` (on) or `false` (off)"
    assert option_values(Option("x", 3, "", minimum=1, maximum=9)) == "a whole number from 1 to 9"
    assert option_values(Option("x", "a", "", choices=("a", "b"))) == "one of `a`, `b`"


# --- plain words ----------------------------------------------------------------------------------
def test_rules_legend_defines_the_words_the_table_uses() -> None:
    from cogs.help import glossary_text

    assert "**sooli**" in glossary_text("tuppi") and "**nousussa**" in glossary_text("tuppi")
    assert "**trumpman**" in glossary_text("thunee")
    assert "**the counting team**" in glossary_text("thunee")
    assert "**longest viable sequence**" in glossary_text("tunge")
    assert all(len(line) < 200 for line in glossary_text("tunge").split("\n")), "one line each"
    assert "**tarneeb**" in glossary_text("tarneeb")
    assert "**Jodhi**" in glossary_text("thunee") and "**Khanaak**" in glossary_text("thunee")
    assert glossary_text("norwegian_whist") == ""
    finnish = glossary_text("thunee", "fi")
    assert "**laskeva joukkue**" in finnish and "**trumpman**" in finnish, "as the board says them"


def test_one_card_is_singular_on_the_board() -> None:
    from cogs.render import seat_line

    table, _ = played("tunge/t6_three_player_deal", 10)
    assert table.game is not None
    view = dataclasses.replace(table.game.view(None), hand_sizes=(1, 2, 0), dealer=9, to_act=())
    assert seat_line(table, 0, view).endswith("1 card")
    assert seat_line(table, 1, view).endswith("2 cards")


def test_a_resigned_board_and_hand_say_whose_loss_it_counts_as() -> None:
    table, _ = played("thunee/e15_target_stays_12", upto=6)
    table.row = dataclasses.replace(table.row, status="abandoned")
    table.seats[1] = dataclasses.replace(table.seats[1], name="*Bob* @everyone")
    table.resigned, table.result_note = 1, "Rated."
    expected = (
        "\\*Bob\\* @\u200beveryone left: the game counts as a loss for "
        "Team B (\\*Bob\\* @\u200beveryone & Dan). Rated."
    )
    board = table_embed(table).description or ""
    assert board.startswith(f"**{expected}**") and "Not rated" not in board
    hand = hand_embed(table, 0).description or ""
    assert expected in hand and "Not rated" not in hand and "Your move" not in hand
    tunge, _ = played("tunge/t7_blocked_single_deal", upto=3)
    tunge.row = dataclasses.replace(tunge.row, status="abandoned")
    tunge.resigned = 0
    assert "Alice left: the game counts as a loss for Alice." in (
        table_embed(tunge).description or ""
    )
    tunge.resigned = None
    assert "This game was abandoned. Not rated." in (table_embed(tunge).description or "")


def test_beside_a_picture_the_board_keeps_the_turn_the_score_and_the_latest_events() -> None:
    table = make_table()
    for number in range(4):
        table.recent.append(Line(f"{{s0}} says {number}.", ["Alice"]))
    full = table_embed(table)
    assert full.fields[0].name == "Seats" and len(full.fields) >= 3
    short = table_embed(table, picture_alt="Tiny · table #7: 2 seats; Alice to act.")
    assert [f.name for f in short.fields] == ["Score", "Recent"]
    assert short.fields[1].value == "Alice says 2.\nAlice says 3.", "the latest two events"
    assert short.description == full.description and "to play" in (short.description or "")
    assert short.footer.text == full.footer.text
    assert short.fields[0].value == next(f.value for f in full.fields if f.name == "Score")


def test_a_finished_board_beside_its_picture_keeps_its_headline() -> None:
    table, _ = played("thunee/e15_target_stays_12")
    full = table_embed(table)
    short = table_embed(table, picture_alt="Thunee · table #7: the final table.")
    assert short.description == full.description
    assert "Team B (Bob & Dan) wins the game" in (short.description or "")
    assert [f.name for f in short.fields] == ["Score", "Recent"]


def test_a_game_word_only_the_picture_says_is_noted_under_the_description() -> None:
    table, _ = played("thunee/e15_target_stays_12")
    table.row = dataclasses.replace(table.row, id=71)  # a table whose words were not noted
    alt = "Thunee · table #71: 4 seats; Bob deals; Carol is trumpman."
    embed = table_embed(table, picture_alt=alt)
    assert "*trumpman: the player after the dealer" in (embed.description or "")


def _offering(game: str, action: str) -> tuple[LiveTable, int]:
    """A table of ``game`` at the first position of a random game where a seat may ``action``."""
    import random

    from tests.cogs.test_engine_words import leaning

    for seed in range(200):
        played = get_game(game).new(seed=seed)
        rng = random.Random(seed)
        while played.status == "in_progress":
            for seat in played.to_act():
                if any(m.action == action for m in played.legal_moves(seat)):
                    table = make_table()
                    table.game = played
                    return table, seat
            played.apply(*leaning(rng, played))
    raise AssertionError(f"no {game} game offered {action}")


def _button_labels(table: LiveTable, seat: int, lang: str) -> set[str]:
    from cogs.play import hand_parts

    return set(hand_parts(table, seat, lang=lang).labels)


@pytest.mark.parametrize("lang", ["ar", "fi", "no"])
def test_each_game_names_its_own_double(lang: str) -> None:
    """Thunee's Double (its own declaration on the last trick) stays Thunee's word; Tarneeb's
    Double (the doubling of a bid) is in the reader's words: one English label, two senses."""
    from bot import i18n

    thunee, seat = _offering("thunee", "double")
    assert i18n.pgettext(lang, "thunee", "Double") in _button_labels(thunee, seat, lang)
    assert "Double" in _button_labels(thunee, seat, lang)
    tarneeb, seat = _offering("tarneeb_egyptian", "double")
    labels = _button_labels(tarneeb, seat, lang)
    assert i18n._(lang, "Double") in labels and "Double" not in labels
