"""The one interface every game implements, and the small values it trades in.

The shape follows python-chess, pokerkit and OpenSpiel: options with defaults, a new game from
options and a seed (or explicit deals), the seats to act, legal moves per seat, a check that
explains a refusal in one sentence, an apply that returns events, per-seat views, an outcome.

A game object is mutable: :meth:`Game.apply` checks the move completely before it changes
anything, so a refused move leaves the game exactly as it was. Callers that must commit a move
before the change becomes visible (the bot) apply it to a :meth:`Game.clone`.

Texts meant for people (event texts, prompts, refusal reasons) may name seats with the
placeholders ``{s0}``, ``{s1}``, ... (see :func:`games.seats.seat_ref`); the bot fills in the
players' names and :func:`fill_names` does it for plain output.
"""

from __future__ import annotations

import _random
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self

from games.cards import CardError, parse_card, parse_cards
from games.facts import GameFacts
from games.state import clone as clone_state
from games.views import TableView

Status = Literal["in_progress", "finished", "awaiting_deal"]
MoveValue = int | str | bool | tuple[str, ...]

_CARD_FIELDS = ("card",)
_CARD_LIST_FIELDS = ("cards",)


class IllegalMove(Exception):
    """A refused move. ``str(error)`` is one sentence safe to show the player.

    ``code`` is a stable name for the refusal and ``params`` its parameters, so a caller tells
    the kinds apart (and a translation can be chosen) without comparing texts. Raise one of the
    subclasses; the base class stays for callers that catch every refusal.
    """

    code: str = "illegal"

    def __init__(
        self, text: str, *, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(text)
        self.text = text
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = dict(params or {})


class NotYourTurn(IllegalMove):
    """The seat has nothing to decide now (another seat is to act, or the game is over)."""

    code = "not_your_turn"


class AgainstRules(IllegalMove):
    """A well-formed move that the rules do not allow now; the text gives the rule's reason."""

    code = "against_rules"


class Malformed(IllegalMove):
    """A move that is not a move of this game at all (unknown action, missing or bad field)."""

    code = "malformed"


class OptionError(ValueError):
    """An unknown option or a bad value; the message names it."""


class DealError(ValueError):
    """A malformed deal in a transcript or a deal list."""


@dataclass(frozen=True, slots=True)
class Move:
    """One decision: an action name plus its fields, hashable and with a compact code.

    ``Move("play", (("card", "JS"),))`` is ``{"action": "play", "card": "JS"}`` in a transcript
    and ``play;card=JS`` as a code (buttons and database rows). Fields are kept sorted by name.
    """

    action: str
    fields: tuple[tuple[str, MoveValue], ...] = ()

    @classmethod
    def of(cls, action: str, **fields: MoveValue) -> Move:
        return cls(action, tuple(sorted(fields.items())))

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.fields:
            if key == name:
                return value
        return default

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action}
        for key, value in self.fields:
            data[key] = list(value) if isinstance(value, tuple) else value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Move:
        """Build a move from its transcript object (``seat`` is ignored here).

        Card fields are parsed forgivingly; a bad card raises :class:`IllegalMove` naming it.
        """
        action = data.get("action")
        if not isinstance(action, str) or not action:
            raise IllegalMove("A move needs an action.")
        fields: dict[str, MoveValue] = {}
        for key, value in data.items():
            if key in ("action", "seat"):
                continue
            try:
                if key in _CARD_FIELDS:
                    value = parse_card(value)
                elif key in _CARD_LIST_FIELDS:
                    if not isinstance(value, list | tuple):
                        raise IllegalMove(f"{key} must be a list of cards.")
                    value = tuple(parse_cards(value))
            except CardError as error:
                raise IllegalMove(f"That is {error}.") from None
            if isinstance(value, list):
                value = tuple(value)
            if not isinstance(value, int | str | bool | tuple):
                raise IllegalMove(f"The field {key} has a value of the wrong kind.")
            fields[key] = value
        return cls.of(action, **fields)

    @property
    def code(self) -> str:
        parts = [self.action]
        for key, value in self.fields:
            if isinstance(value, tuple):
                text = "[" + ",".join(value) + "]"
            elif isinstance(value, bool):
                text = "true" if value else "false"
            else:
                text = str(value)
            parts.append(f"{key}={text}")
        return ";".join(parts)

    @classmethod
    def from_code(cls, code: str) -> Move:
        action, *parts = code.split(";")
        fields: dict[str, MoveValue] = {}
        for part in parts:
            key, _, text = part.partition("=")
            value: MoveValue
            if text.startswith("[") and text.endswith("]"):
                value = tuple(item for item in text[1:-1].split(",") if item)
            elif text in ("true", "false"):
                value = text == "true"
            elif re.fullmatch(r"-?\d+", text):
                value = int(text)
            else:
                value = text
            fields[key] = value
        return cls.of(action, **fields)

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True, slots=True)
class Event:
    """Something the table shows: ``to`` is ``None`` for public, else the seats that may see it.

    ``kind`` is the event's stable code and ``data`` its parameters (beside the English
    ``text``). ``history`` marks the events worth a message of their own in the channel (hand and
    game results, ball awards, annulled hands, totals reset, exposed hands); the others only
    update the table message.

    Engines share prebuilt events between moves and games (Thunee's plays and calls, Tunge's
    draws and passes), so never change an event's ``data`` in place.
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None
    history: bool = False

    @property
    def public(self) -> bool:
        return self.to is None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


@dataclass(frozen=True, slots=True)
class Deal:
    """One dealing: each seat's cards in the order dealt, and the undealt stock, top first."""

    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: Any) -> Deal:
        if not isinstance(data, Mapping) or not isinstance(data.get("hands"), list):
            raise DealError("a deal needs a list of hands")
        try:
            hands = tuple(tuple(parse_cards(hand)) for hand in data["hands"])
            stock = tuple(parse_cards(data.get("stock", [])))
        except (CardError, TypeError) as error:
            raise DealError(f"bad card in a deal: {error}") from None
        cards = [card for hand in hands for card in hand] + list(stock)
        if len(set(cards)) != len(cards):
            raise DealError("a card appears twice in a deal")
        return cls(hands, stock)

    def to_json(self) -> dict[str, Any]:
        return {"hands": [list(hand) for hand in self.hands], "stock": list(self.stock)}


@dataclass(frozen=True, slots=True)
class Option:
    """One variant option: its default and what values it allows."""

    name: str
    default: MoveValue
    help: str
    choices: tuple[MoveValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def __post_init__(self) -> None:
        """A whole-number option declares the range it allows (its choices, or a minimum and a
        maximum): a value far beyond what the game means is refused when it is given."""
        bounded = self.choices is not None or None not in (self.minimum, self.maximum)
        if type(self.default) is int and not bounded:
            raise ValueError(f"option {self.name} needs choices or a minimum and a maximum")

    def validate(self, value: Any) -> MoveValue:
        expected = type(self.default)
        if type(value) is not expected:
            kind = {bool: "true or false", int: "a whole number", str: "a word"}.get(
                expected, expected.__name__
            )
            raise OptionError(f"option {self.name} must be {kind}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(choice) for choice in self.choices)
            raise OptionError(f"option {self.name} must be one of {allowed}, not {value!r}")
        if self.minimum is not None and isinstance(value, int) and value < self.minimum:
            raise OptionError(f"option {self.name} must be at least {self.minimum}")
        if self.maximum is not None and isinstance(value, int) and value > self.maximum:
            raise OptionError(f"option {self.name} must be at most {self.maximum}")
        return value


def validate_options(spec: Sequence[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option with its value: the given ones checked, the rest at their defaults."""
    known = {option.name: option for option in spec}
    given = dict(given or {})
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise OptionError(f"unknown option: {', '.join(unknown)}")
    return {
        name: option.validate(given[name]) if name in given else option.default
        for name, option in known.items()
    }


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the winning seats (empty for a draw) and the final score.

    ``reason`` says why, when the final score alone does not (Tuppi's higher peak after its
    last hand): a few words, with seats as ``{s0}`` if any."""

    winners: tuple[int, ...]
    score: tuple[int, ...]
    abandoned: bool = False
    reason: str = ""


def deal_rng(seed: int, index: int) -> random.Random:
    """The random source for deal ``index`` of a seeded game.

    Deriving it from (seed, index) means a game rebuilt from its stored deals shuffles the next
    deal exactly as the original would have, with no generator state to store or clone.

    The generator is exactly ``random.Random(f"{seed}:{index}")`` (a test pins it), seeded with
    the integer ``Random.seed`` derives from that string but without its Python-level ``__init__``
    and ``seed``, which cost a new hand more than the generator's own seeding.
    """
    key = f"{seed}:{index}".encode()
    rng = _new_random(random.Random)
    _seed_random(rng, int.from_bytes(key + sha512(key).digest()))
    rng.gauss_next = None  # type: ignore[attr-defined]  # Random.seed sets it too
    return rng


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does, in 60% of its time.

    ``Random.shuffle`` calls the Python-level ``_randbelow`` once per item (a frame, a
    ``bit_length`` and a bound-method lookup each); this draws the same bits in the same order
    from a table of (position, bound, bit count), so stored seeds keep dealing the same hands
    (a test compares the two). Only for a plain :class:`random.Random`, which :func:`deal_rng`
    returns: a subclass may draw differently.
    """
    getrandbits = rng.getrandbits
    for i, bound, bits in _SHUFFLE_STEPS[len(items)] if len(items) < 64 else _steps(len(items)):
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """``Random.shuffle``'s steps for ``size`` items: swap position i with one below i + 1."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, size)))


_SHUFFLE_STEPS = [_steps(size) for size in range(64)]
_new_random = random.Random.__new__
_seed_random = _random.Random.seed
try:  # the hash random.Random uses itself: the built-in module, without loading OpenSSL
    from _sha512 import sha512
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import sha512


def fill_names(text: str, names: Sequence[str] | None = None) -> str:
    """Replace seat placeholders (``{s2}``) with names, or with ``seat 2``."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        if names is not None and seat < len(names):
            return names[seat]
        return f"seat {seat}"

    return re.sub(r"\{s(\d+)\}", name, text)


class Game(ABC):
    """A game in progress. Subclasses are registered in :mod:`games.registry`.

    Required class attributes: ``name`` (the transcript's ``game``), ``title`` (for people),
    ``OPTIONS`` (the variant options) and ``teams`` (partnership game or each for themselves).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    OPTIONS: ClassVar[tuple[Option, ...]]
    teams: ClassVar[bool] = True
    summary_text: ClassVar[str] = ""

    players: int
    options: Mapping[str, Any]  # read-only once the game exists (clones share it)
    first_dealer: int  # as a transcript records it (a seeded game may draw it, e.g. Thunee)
    deals: list[Deal]  # every deal so far, including the ones a seeded game shuffled
    # The current deal's moves, (seat, move) in order (see public_history): the class's empty
    # tuple until the first apply, then the game's own list, copied by clones. Read as an
    # attribute, never through ``__dict__``: reading an instance's ``__dict__`` turns its inline
    # attributes into a dict and slows every attribute read of the engine after it (about 8% of
    # a random Tunge action).
    public_log: list[tuple[int, Move]] | tuple[()] = ()

    # --- creation ---
    @classmethod
    def validate_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return validate_options(cls.OPTIONS, options)

    @classmethod
    def seat_count(cls, options: Mapping[str, Any] | None) -> int:
        """How many seats a table of this game with these options has."""
        return int(cls.validate_options(options).get("players", 4))

    @classmethod
    @abstractmethod
    def new(
        cls,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        deals: Sequence[Deal] = (),
        first_dealer: int | None = None,
    ) -> Self:
        """A new game. Deals come from ``deals`` first; past them a seeded game shuffles its own
        (with :func:`deal_rng`) and records them in ``self.deals``; an unseeded one waits in
        ``awaiting_deal``. Raises :class:`OptionError` or :class:`DealError`."""

    def clone(self) -> Self:
        """An independent copy (cheap: the bot clones before every move).

        Generic: :func:`games.state.clone` copies the typed attributes by their annotations, so
        an engine declares its state with precise types instead of writing a clone."""
        return clone_state(self)

    # --- whose turn, what is legal ---
    @property
    @abstractmethod
    def status(self) -> Status: ...

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats that have a legal move now, in seat order (empty when nobody can act)."""

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game waits on (their turn timers run). Games whose ``to_act`` includes
        optional moves of other seats (Thunee's Jodhi claims) narrow it."""
        return self.to_act()

    @abstractmethod
    def legal_moves(self, seat: int) -> list[Move]:
        """Every move this seat may make now."""

    def check(self, seat: int, move: Move) -> None:
        """Accept a legal move or raise the typed refusal explaining why; changes nothing.

        The legal moves are the single source of truth: this normalises the move, accepts it if
        :meth:`is_legal` says so, and otherwise asks :meth:`refusal` for the reason. Engines
        override those three, not this (``apply`` calls ``check`` and then acts on
        ``normalise(seat, move)``).
        """
        if seat not in self.to_act():
            raise self.out_of_turn(seat, move)
        move = self.normalise(seat, move)
        if not self.is_legal(seat, move):
            raise self.refusal(seat, move)

    def normalise(self, seat: int, move: Move) -> Move:
        """The canonical form of ``move`` (e.g. a Tunge play's cards in order); identity here."""
        return move

    def is_legal(self, seat: int, move: Move) -> bool:
        """Whether the (normalised) move is legal now. Engines with large move lists override
        this with a direct test that agrees with :meth:`legal_moves`."""
        return move in self.legal_moves(seat)

    def not_your_turn(self, seat: int) -> IllegalMove:
        if self.status == "finished":
            return NotYourTurn("The game is over.", code="game_over")
        return NotYourTurn("It is not your turn.")

    def out_of_turn(self, seat: int, move: Move) -> IllegalMove:
        """Why a move of a seat that is not to act is refused: :meth:`not_your_turn` here.

        Engines whose contract names a rule's reason ahead of the turn (a move this table never
        allows, say) override this; the refusal stays typed either way."""
        return self.not_your_turn(seat)

    def refusal(self, seat: int, move: Move) -> IllegalMove:
        """Why an illegal move is refused: a :class:`Malformed` or :class:`AgainstRules` with the
        rule's reason. Called only for moves that :meth:`is_legal` refused."""
        return AgainstRules("That move is not allowed now.")

    @abstractmethod
    def apply(self, seat: int, move: Move) -> list[Event]:
        """Check the move, then make it. A refused move changes nothing."""

    def add_deal(self, deal: Deal) -> list[Event]:
        """Supply the next deal to a game in ``awaiting_deal``. Games that shuffle override."""
        raise IllegalMove("This game is not waiting for a deal.")

    # --- what people see ---
    @abstractmethod
    def view(self, seat: int | None) -> TableView:
        """What ``seat`` may see (``None``: the public view): the family's typed view, built on
        :class:`games.views.TableView` (the fields every game provides, so one renderer serves
        them all: phase, seats to act, prompt, hand sizes, the seat's own hand, trick, last
        trick, trump, lines, score)."""

    @abstractmethod
    def hidden_cards(self, seat: int | None) -> set[str]:
        """Every card whose identity ``seat`` (``None``: an onlooker) may not know right now.

        Other hands, the stock, a face-down trump card, unrevealed bid cards. The tests check
        every view and event against it, and the bot refuses to post a public text naming one.
        """

    @abstractmethod
    def move_label(self, move: Move, seat: int | None = None) -> str:
        """A short button label for a move (``Call 30``, ``Pass``, ``Jodhi ♥ 40``).

        ``seat`` is the seat whose hand the button is drawn for: a label that depends on who
        makes the move (the value of Thunee's Jodhi) needs it, and guessing the seat from the
        legal moves is not always possible. Most games ignore it."""

    # --- results ---
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once finished, else ``None``."""

    @abstractmethod
    def summary(self) -> dict[str, Any]:
        """The replay output's ``deals``, ``score`` and ``winner`` (shared/spec/transcripts.md)."""

    player_module: ClassVar[str] = ""  # games/players/<family>.py; empty: random legal moves
    # Declared by every game in its own class body (no default: see games/facts.py).
    facts: ClassVar[GameFacts]

    # --- the public history, for computer players (games.players) ---
    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every engine's ``apply``, ``add_deal`` and ``clone`` keep :attr:`public_log`, so a
        computer player can be handed the deal's history without the game object."""
        super().__init_subclass__(**kwargs)
        if "apply" in cls.__dict__:
            cls.apply = _logging_apply(cls.__dict__["apply"])  # type: ignore[method-assign]
        if "add_deal" in cls.__dict__:
            cls.add_deal = _logging_add_deal(cls.__dict__["add_deal"])  # type: ignore[method-assign]
        if "clone" in cls.__dict__:
            cls.clone = _logging_clone(cls.__dict__["clone"])  # type: ignore[method-assign]

    def public_move(self, move: Move) -> Move:
        """``move`` as the other seats see it: a game whose moves keep a field secret (Thunee's
        Jodhi suit, unless announced) returns the move without it."""
        return move

    def secret_move(self, seat: int, mover: int, move: Move) -> bool:
        """Whether another seat's (``mover``'s) ``move`` is still hidden from ``seat`` as a whole
        (a bid the reveal has not shown, a trump card laid down and not revealed, a card passed
        between two other seats), even once the cards it names are known: a card played later
        does not tell what it bid. None here."""
        return False

    def public_history(self, seat: int) -> tuple[tuple[int, Move | None], ...]:
        """The current deal's moves as ``seat`` saw them: another seat's move that is still
        secret (:meth:`secret_move`) or names a card ``seat`` may not know now (a face-down bid
        card, a trump card laid down) is ``None``, and one with a secret field comes without it
        (:meth:`public_move`)."""
        hidden: set[str] | None = None
        history: list[tuple[int, Move | None]] = []
        for mover, move in self.public_log:
            if mover != seat:
                if self.secret_move(seat, mover, move):
                    history.append((mover, None))
                    continue
                move = self.public_move(move)
            if mover != seat and move.action != "play" and _named_cards(move):
                if hidden is None:
                    hidden = self.hidden_cards(seat)
                if any(card in hidden for card in _named_cards(move)):
                    history.append((mover, None))
                    continue
            history.append((mover, move))
        return tuple(history)


def _named_cards(move: Move) -> tuple[str, ...]:
    cards: list[str] = []
    for key, value in move.fields:
        if key in _CARD_FIELDS and isinstance(value, str):
            cards.append(value)
        elif key in _CARD_LIST_FIELDS and isinstance(value, tuple):
            cards.extend(value)
    return tuple(cards)


def _logging_apply(apply: Any) -> Any:
    def logged(self: Game, seat: int, move: Move) -> list[Event]:
        events: list[Event] = apply(self, seat, move)
        if type(self).apply is logged:  # the outermost apply records (not a super() call)
            for event in events:
                if event.kind == "new_deal":  # the move ended a deal: the log starts again
                    self.public_log = []
                    break
            else:
                log = self.public_log
                if log:  # the game's own list (an empty one may be shared with a clone)
                    log.append((seat, move))
                else:
                    self.public_log = [(seat, move)]
        return events

    logged.__doc__ = apply.__doc__
    return logged


def _logging_add_deal(add_deal: Any) -> Any:
    def logged(self: Game, deal: Deal) -> list[Event]:
        events: list[Event] = add_deal(self, deal)
        self.public_log = []
        return events

    logged.__doc__ = add_deal.__doc__
    return logged


def _logging_clone(clone: Any) -> Any:
    def logged(self: Game) -> Any:
        other = clone(self)
        if self.public_log:
            other.public_log = list(self.public_log)
        return other

    logged.__doc__ = clone.__doc__
    return logged
