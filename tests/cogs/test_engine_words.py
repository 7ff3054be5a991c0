"""The games' own texts in the reader's language: every text each game writes is known to a
phrase, and a phrase keeps the seats, cards and numbers it captured."""

from __future__ import annotations

import random
import re

import pytest

from bot.i18n import N_
from bot.sessions.seating import away_line
from bot.sessions.table import Line, change_line
from bot.sessions.tournament_tables import ABSENT_LINE
from cogs.engine_words import matched, said
from cogs.render import polish
from games.base import Game, Move
from games.presets import presets_for
from games.registry import all_games

COVERED = (
    ("tarneeb", None),
    ("tarneeb", {"trump_declaration": "first_lead", "allow_no_trump": True}),
    ("norwegian_whist", None),
    ("norwegian_whist", {"grand_colour": "red", "scoring": "wikipedia"}),
    ("tarneeb_egyptian", None),
    ("tuppi", None),
    ("tuppi", {"sooli_exchange": True, "max_hands": 3, "target": 200}),
    ("tuppi", {"bid_with": "token"}),
    ("thunee", None),
    ("thunee", {"players": 2}),
    ("thunee", {"players": 6, "six_player_first_packet": 3}),
    (
        "thunee",
        {
            "challenge_mode": True,
            "jodhi_reveal_suit": True,
            "last_card_trump": "always",
            "last_card_visible_to_trumper": True,
        },
    ),
    (
        "thunee",
        {
            "last_trick": "bonus",
            "call_single_step": True,
            "jodhi_cards": "dealt",
            "khanaak_requires_lost_trick": True,
            "two_to_clear": "always",
            "players": 2,
            "two_player_target": 105,
        },
    ),
    ("tunge", None),
    ("tunge", {"players": 2, "match_target": 50}),
    ("tunge", {"players": 3, "variant": "face_up_start", "pickup_count": "distinct_ranks"}),
    ("tunge", {"scoring": False, "forced_pickup_ends_turn": True, "turn_limit": 40}),
    # each length a table may choose (/table new length:), as its preset's options
    *((name, dict(p.options)) for name in ("thunee", "tunge") for p in presets_for(name)),
)
# Thunee's rarer moves (claims, declarations, a redeal), taken whenever a random game offers
# them; its calls, blind contracts and challenges mostly left alone: a uniform choice calls a
# blind Thunee in most hands (and in challenge mode a seat waiting for its turn challenges,
# which ends the hand), and a game of those ends before a Jodhi or a Khanaak is seen.
RARE = frozenset({"jodhi", "double", "khanaak", "murial", "last_card", "demand_redeal"})
BOLD = frozenset({"call", "blind", "thunee", "royals", "challenge"})


def uniform(rng: random.Random, game: Game) -> tuple[int, Move]:
    seat = rng.choice(game.to_act())
    return seat, rng.choice(game.legal_moves(seat))


def leaning(rng: random.Random, game: Game) -> tuple[int, Move]:
    """A random move leaning towards Thunee's rarer moves and away from its bold ones."""
    offered = [(seat, move) for seat in game.to_act() for move in game.legal_moves(seat)]
    rare = [pair for pair in offered if pair[1].action in RARE]
    if rare and rng.random() < 0.6:
        return rng.choice(rare)
    waited = [pair for pair in offered if pair[0] in game.waiting_for()]
    calm = [pair for pair in waited if pair[1].action not in BOLD]
    if calm and rng.random() < 0.9:
        return rng.choice(calm)
    return rng.choice(waited or offered)


def texts_of(game: Game, seat: int) -> set[str]:
    view = game.view(seat)
    labels = {game.move_label(m, seat) for m in game.legal_moves(seat)}
    return {view.prompt, view.score_label, *view.lines, *labels} - {""}


# Random players rarely reach a Tarneeb target: they play to the 30-hand limit, every hand
# saying what the first ten said. The limit's own texts are the same at ten.
TEN_HANDS: dict[str, object] = {"hand_limit": 10}
BOUNDS = {"tarneeb": TEN_HANDS, "tarneeb_egyptian": TEN_HANDS}


def every_text(name: str, options: dict[str, object] | None, games: int = 8) -> set[str]:
    """The texts of random games (seeds 0 to ``games`` - 1) as the table shows them (polished):
    prompts, table lines, labels, events, the outcome. Each seed's game is played once per
    process, whichever test and language asks for it."""
    played = {**BOUNDS.get(name, {}), **(options or {})}
    key = (name, repr(sorted(played.items())))
    return set().union(*(_seed_texts(key, name, played, seed) for seed in range(games)))


_TEXTS: dict[tuple[tuple[str, str], int], set[str]] = {}


def _seed_texts(key: tuple[str, str], name: str, options: dict[str, object], seed: int) -> set[str]:
    if (key, seed) not in _TEXTS:
        _TEXTS[key, seed] = _game_texts(name, options, seed)
    return _TEXTS[key, seed]


def _game_texts(name: str, options: dict[str, object], seed: int) -> set[str]:
    found: set[str] = set()
    choose = leaning if name == "thunee" else uniform
    game = all_games()[name].new(options, seed=seed)
    rng = random.Random(seed)
    while game.status == "in_progress":
        for seat in range(game.players):
            found |= texts_of(game, seat)
        seat, move = choose(rng, game)
        found |= {e.text for e in game.apply(seat, move)}
    outcome = game.outcome()
    found |= {outcome.reason} if outcome and outcome.reason else set()
    found |= texts_of(game, 0)
    return {polish(text) for text in found}


@pytest.mark.parametrize(("name", "options"), COVERED)
def test_every_text_of_the_game_is_a_known_phrase(
    name: str, options: dict[str, object] | None
) -> None:
    left_over = sorted(text for text in every_text(name, options) if not matched(text))
    assert left_over == []


CARDS_AND_SEATS = re.compile(r"\{s\d\}|(?:10|[2-9JQKA])[♠♥♦♣]")


@pytest.mark.parametrize("lang", ["fi", "no", "ar"])
@pytest.mark.parametrize(("name", "options"), COVERED[::2])
def test_a_phrase_keeps_what_it_captured(
    lang: str, name: str, options: dict[str, object] | None
) -> None:
    """Each translated text holds the seats and cards of the English one (that every phrase's
    template is translated, tests/bot/test_i18n.py checks)."""
    for text in every_text(name, options, games=3):
        translated = said(lang, text)
        found = sorted(CARDS_AND_SEATS.findall(translated))
        assert found == sorted(CARDS_AND_SEATS.findall(text)), (text, translated)


def test_english_is_the_games_own_and_suits_take_the_readers_words() -> None:
    assert said("en", "{s1} names hearts ♥ as trump.") == "{s1} names hearts ♥ as trump."
    assert said("fi", "{s1} names hearts ♥ as trump.") == "{s1} nimeää valtin: hertta ♥."
    assert said("no", "Trump: spades ♠.") == "Trumf: spar ♠."
    assert said("fi", "Bid 7") == "Tarjoa 7", "Tarneeb's bids keep their numbers"
    assert said("no", "Nullo (9♥)") == "Nullo (9♥)", "the game's own word stays"
    assert said("fi", "An unknown text.") == "An unknown text."


@pytest.mark.parametrize(
    "name", ["tarneeb", "tarneeb_egyptian", "norwegian_whist", "tuppi", "thunee", "tunge"]
)
def test_every_hint_of_the_game_is_a_known_phrase(name: str) -> None:
    """The Hint button's reasons, through random games: each is in the reader's language."""
    from games.players.hints import hint_for

    reasons = set()
    choose = leaning if name == "thunee" else uniform
    for seed in range(6):
        game = all_games()[name].new(BOUNDS.get(name), seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat, move = choose(rng, game)
            reasons.add(hint_for(game, seat, random.Random(seed))[1])
            game.apply(seat, move)
    assert sorted(r for r in reasons if not matched(r)) == []
    assert (
        said("fi", "win the trick as cheaply as you can") != "win the trick as cheaply as you can"
    )


@pytest.mark.parametrize("lang", ["ar", "fi", "no"])
def test_the_session_layers_log_lines_are_catalogue_texts(lang: str) -> None:
    """A seat changing hands, a new host, an absent player: the session layer's own lines."""
    for line in (
        change_line("Ada", "🤖 Babbage", computer=True),
        change_line("Ada", "Bob", computer=False),
        Line(N_("{s0} hosts now."), ["Ada"]),
        Line(ABSENT_LINE, ["Ada"]),
    ):
        worded = said(lang, line)
        assert worded != str(line) and "{s0}" in worded, (lang, line)
    for text in ("The game begins: Thunee.", away_line(1, True), away_line(10, False)):
        worded = said(lang, text)
        assert not re.search(r"\b(game|minutes?|away)\b", worded), (lang, worded)
    assert said("en", change_line("Ada", "Bob", computer=False)) == "{s0} sits in for {s1}."


# --- texts random play rarely or never reaches ---------------------------------------------------
# The games' own words, kept in every language, and words a language shares with English.
KEPT = frozenset(
    {"thunee", "royals", "blind", "jodhi", "khanaak", "murial", "double", "trumpman", "trumper"}
    | {"ball", "balls", "kaboot", "grand", "nullo", "rami", "nolo", "sooli", "nousussa"}
)
SHARED = {"no": frozenset({"over", "for", "pass"})}
WORD = re.compile(r"[A-Za-z]{3,}")


def english_left(lang: str, text: str) -> set[str]:
    """The English words of ``text`` still in its translation (the games' own words aside)."""
    english = {word.lower() for word in WORD.findall(text)} - KEPT - SHARED.get(lang, set())
    return english & {word.lower() for word in WORD.findall(said(lang, text))}


@pytest.mark.parametrize("lang", ["fi", "no", "ar"])
@pytest.mark.parametrize(("name", "options"), COVERED)
def test_a_translated_text_leaves_no_english_word(
    lang: str, name: str, options: dict[str, object] | None
) -> None:
    """Each part a phrase captures is put in the reader's words too (a bid's strain, how a bid
    was made), not only the sentence around it."""
    left = {text: english_left(lang, text) for text in every_text(name, options, games=3)}
    assert {text: words for text, words in left.items() if words} == {}


def seeking(name: str, options: dict[str, object], wanted: frozenset[str]) -> set[str]:
    """The texts of seeded random games that take a ``wanted`` move whenever one is offered
    (rare moves: a declined redeal, a last-card trump, a double), as the table shows them."""
    found: set[str] = set()
    for seed in range(12):
        game = all_games()[name].new(options, seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            offered = [(s, m) for s in game.to_act() for m in game.legal_moves(s)]
            chosen = [pair for pair in offered if pair[1].action in wanted]
            seat, move = rng.choice(chosen) if chosen else leaning(rng, game)
            found |= {e.text for e in game.apply(seat, move)} | texts_of(game, seat)
    return {polish(text) for text in found}


def one_colour_whist() -> set[str]:
    """Norwegian Whist with an all-red hand: a verbal grand (no black card to bid it with)
    against three nullos, its reveal, and the hand exposed for a redeal."""
    from games.base import Deal
    from games.cards import make_deck

    red = [c for c in make_deck() if c[1] in "HD"]
    rest = red[13:] + [c for c in make_deck() if c[1] in "SC"]  # dealt round: both colours
    deal = Deal((tuple(red[:13]), *(tuple(rest[seat::3]) for seat in range(3))))
    found: set[str] = set()
    for expose in (False, True):
        game = all_games()["norwegian_whist"].new({}, deals=[deal], first_dealer=2)
        found |= {e.text for e in game.apply(0, Move.of("bid", value="grand"))}
        if expose:
            found |= {game.move_label(move, 0) for move in game.legal_moves(0)}
            found |= {e.text for e in game.apply(0, Move.of("expose"))}
            continue
        while game.phase == "bids":
            seat = next(s for s in game.to_act() if s != 0)
            nullo = next(m for m in game.legal_moves(seat) if m.get("value") == "nullo")
            found |= {e.text for e in game.apply(seat, nullo)}
        found |= set(game.view(0).lines)
    return {polish(text) for text in found}


def tunge_all_passed() -> set[str]:
    """Tunge with the stock and the pile empty: the last of the players passes in turn."""
    from games.cards import make_deck
    from games.tunge import Tunge

    others = [c for c in make_deck() if c not in ("2S", "4S")]
    game = Tunge.from_position({"players": 3}, [["2S", "4S"], others[:25], others[25:]])
    game.state.deal.passes = game.players - 1  # the two others passed before
    found = {game.view(0).prompt} | {e.text for e in game.apply(0, Move.of("pass"))}
    return {polish(text) for text in found}


def waiting_for_a_deal() -> set[str]:
    """Each game before its first deal (a table that deals from outside), then dealt."""
    from games.base import Deal
    from games.cards import make_deck
    from games.registry import GAMES

    found: set[str] = set()
    for game_class in GAMES:
        game = game_class.new({})
        found.add(game.view(None).prompt)
        if game_class.name in ("tuppi", "norwegian_whist"):
            deck = make_deck()
            deal = Deal(tuple(tuple(deck[seat::4]) for seat in range(4)))
            found |= {e.text for e in game.add_deal(deal)}
    return {polish(text) for text in found}


RARE_TEXTS = (
    (
        lambda: seeking("thunee", {}, frozenset({"decline_redeal"})),
        r"\{s\d\} declines the redeal\.",
    ),
    (
        lambda: seeking(
            "thunee",
            {"last_card_trump": "always", "last_card_visible_to_trumper": True},
            frozenset({"last_card"}),
        ),
        r"Your last card, .+, is the trump card\.",
    ),
    (
        lambda: seeking("tarneeb_egyptian", {}, frozenset({"double"})),
        r"\{s\d\} declares \d+ [a-z ]+ doubled: .+",
    ),
    (one_colour_whist, r"You bid grand verbally\."),
    (one_colour_whist, r"\{s0\} shows grand verbally\."),
    (one_colour_whist, r"Revealed: .*\(verbally\).*"),
    (one_colour_whist, r"\{s0\} exposes a one-colour hand: .+"),
    (one_colour_whist, r"Expose"),
    (one_colour_whist, r"\{s\d\} deals again\."),
    (tunge_all_passed, r"\{s0\} to play a sequence or pass"),
    (tunge_all_passed, r"\{s0\} cannot play and passes\."),
    (tunge_all_passed, r"The deal is blocked \(every player passed\); nobody wins it\."),
    (waiting_for_a_deal, r"Waiting for the next deal\."),
    (waiting_for_a_deal, r"\{s\d\} has dealt\."),
)


@pytest.mark.parametrize(("build", "pattern"), RARE_TEXTS)
def test_a_text_random_play_rarely_reaches_is_translated(build: object, pattern: str) -> None:
    """Positions built to say what random play seldom or never says: each text is a known
    phrase, and reads in Arabic, Finnish and Norwegian with no English word left."""
    assert callable(build)
    texts = [text for text in build() if re.fullmatch(pattern, text)]
    assert texts, f"the position did not say {pattern}"
    for text in texts:
        assert matched(text), text
        for lang in ("ar", "fi", "no"):
            assert said(lang, text) != text and english_left(lang, text) == set(), (lang, text)
