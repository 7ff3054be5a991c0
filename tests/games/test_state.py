"""The generic clone: copies exactly as deep as the annotations say, and no deeper."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.base import Deal
from games.state import clone, copy_any, state_fields, untyped_attributes
from games.tricks import HandRecord, TrickRecord


class Colour(enum.Enum):
    RED = "red"


@dataclass(frozen=True, slots=True)
class Frozen:
    cards: tuple[str, ...]


@dataclass(slots=True)
class Inner:
    values: list[int] = field(default_factory=list)


@dataclass(init=False, eq=False)
class Holder:
    settled: list[Frozen]
    inners: list[Inner]


@dataclass(init=False, eq=False)
class Logged:
    log: list[tuple[int, Frozen]] | tuple[()] = ()
    lists: list[list[int]] | tuple[()] = ()


class Base:
    shared_base: int
    deals: list[Deal]
    KIND: ClassVar[str] = "base"


@dataclass(init=False, eq=False, repr=False)
class State(Base):
    hands: list[list[str]]
    known: list[set[str]]
    score: list[int]
    by_name: dict[str, list[int]]
    maybe: list[int] | None
    pair: tuple[list[int], str]
    inner: Inner
    inners: list[Inner]
    frozen: Frozen
    colour: Colour
    options: Mapping[str, Any]
    anything: Any
    records: list[HandRecord]
    text: str


def make() -> State:
    state = State()
    state.shared_base = 1
    state.deals = [Deal((("AS",),))]
    state.hands = [["AS"], ["KS"]]
    state.known = [{"AS"}, set()]
    state.score = [0, 0]
    state.by_name = {"a": [1]}
    state.maybe = [1]
    state.pair = ([1], "x")
    state.inner = Inner([1])
    state.inners = [Inner([2])]
    state.frozen = Frozen(("AS",))
    state.colour = Colour.RED
    state.options = {"target": 41}
    state.anything = {"nested": [1, {"deep": [2]}]}
    state.records = [HandRecord(dealer=0)]
    state.text = "t"
    return state


def test_clone_copies_every_mutable_level() -> None:
    original = make()
    copy = clone(original)
    copy.deals.append(Deal((("KS",),)))
    copy.hands[0].append("QS")
    copy.known[1].add("KS")
    copy.score[0] = 5
    copy.by_name["a"].append(2)
    assert copy.maybe is not None
    copy.maybe.append(2)
    copy.pair[0].append(2)
    copy.inner.values.append(2)
    copy.inners[0].values.append(3)
    copy.anything["nested"][1]["deep"].append(3)
    copy.records[0].tricks.append(TrickRecord.of([(0, "AS")], 0))
    copy.records[0].dealer = 2
    fresh = make()
    for name in state_fields(State):
        assert getattr(original, name) == getattr(fresh, name), name


def test_clone_shares_what_never_changes() -> None:
    original = make()
    copy = clone(original)
    assert copy.frozen is original.frozen
    assert copy.options is original.options
    assert copy.deals[0] is original.deals[0]
    assert type(copy) is State and copy.KIND == "base"


def test_clone_shares_frozen_values_and_copies_the_rest() -> None:
    """Frozen dataclasses in a list are shared (so are the engines' Deal and TrickRecord); a
    plain dataclass is copied."""
    holder = Holder()
    holder.settled = [Frozen(("AS",))]
    holder.inners = [Inner([1])]
    copy = clone(holder)
    assert copy.settled is not holder.settled and copy.settled[0] is holder.settled[0]
    assert copy.inners[0] is not holder.inners[0] and copy.inners[0] == holder.inners[0]
    record = HandRecord(dealer=0, tricks=[TrickRecord.of([(0, "AS")], 0)])
    assert clone(record).tricks[0] is record.tricks[0]


def test_a_list_or_empty_tuple_is_copied_by_its_annotation() -> None:
    """``list[X] | tuple[()]`` (a game's public log): the list is copied as deep as X needs,
    no deeper; its immutable items are shared, not copied item by item at run time."""
    original = Logged()
    original.log = [(0, Frozen(("AS",)))]
    original.lists = [[1]]
    copy = clone(original)
    copy.log.append((1, Frozen(("KS",))))
    copy.lists[0].append(2)
    assert original.log == [(0, Frozen(("AS",)))] and original.lists == [[1]]
    assert copy.log[0] is original.log[0], "an immutable item is shared"
    empty = clone(Logged())
    assert empty.log == () and empty.lists == ()


def test_clone_of_none_and_missing_attributes() -> None:
    state = State()
    state.maybe = None
    copy = clone(state)
    assert copy.maybe is None
    assert not hasattr(copy, "hands")


def test_untyped_attributes_are_reported() -> None:
    state = make()
    assert untyped_attributes(state) == set()
    state.sneaky = [1]  # type: ignore[attr-defined]
    assert untyped_attributes(state) == {"sneaky"}


def test_state_fields_skip_class_variables() -> None:
    names = state_fields(State)
    assert "KIND" not in names and "shared_base" in names and "text" in names


def test_copy_any_handles_runtime_types() -> None:
    value = [1, (2, 3), {4}, {"a": Inner([1])}, Colour.RED, Frozen(("AS",))]
    copied = copy_any(value)
    assert copied == value
    assert copied[2] is not value[2]
    assert copied[3]["a"] is not value[3]["a"]
    assert copied[5] is value[5]
