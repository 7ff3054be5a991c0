"""A generic clone over typed state: the type annotations say what to copy and how deep.

The bot clones a game before every move (it applies the move to the copy, commits it, then swaps),
so a clone must be cheap and fully independent. Instead of a hand-written ``clone()`` per engine
that must be kept in step with every new attribute, an engine declares its state as typed
attributes (a dataclass, ``@dataclass(init=False, eq=False, repr=False)`` for a game object) and
:func:`clone` copies each attribute by its annotation:

- immutable values are shared: ``int``, ``str``, ``bool``, ``float``, ``None``, enums, literals,
  ``frozenset``, frozen dataclasses, and tuples of those;
- read-only interfaces are shared too: an attribute annotated ``Mapping``, ``Sequence`` or
  ``AbstractSet`` is a promise that it is never changed in place (it is replaced instead);
- ``list``, ``dict``, ``set`` and tuples holding mutable values are copied, element by element as
  deep as their element types are mutable; a non-frozen dataclass inside is cloned the same way;
- ``Any`` or ``object`` are copied by inspecting the value at run time (slower, but safe).

Annotations are read once per class (across the whole MRO, ``ClassVar`` excluded) and turned into
one generated copy function, so a clone costs about what the hand-written one did. Instance
attributes that no annotation names would be shared silently, so :func:`untyped_attributes` lets
the tests prove there are none.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, ClassVar, TypeVar, get_args, get_origin

T = TypeVar("T")

_ATOMIC: frozenset[type] = frozenset(
    {int, str, bool, float, complex, bytes, type(None), range, frozenset}
)
_SHARED_ORIGINS: tuple[Any, ...] = (
    Mapping,
    Sequence,
    AbstractSet,
    frozenset,
    typing.Literal,
    type,
    Callable,
)
_cloners: dict[type, Callable[[Any], Any]] = {}


def clone(value: T) -> T:
    """An independent copy of a typed state object (a dataclass or a class with annotations)."""
    kind = type(value)
    cloner = _cloners.get(kind)
    if cloner is None:
        cloner = _cloners[kind] = _build_cloner(kind)
    return cloner(value)  # type: ignore[no-any-return]


def state_fields(kind: type) -> dict[str, Any]:
    """Every annotated instance attribute of ``kind`` and its resolved type (MRO order)."""
    hints = typing.get_type_hints(kind)
    return {
        name: hint
        for name, hint in hints.items()
        if get_origin(hint) is not ClassVar and hint is not ClassVar
    }


def untyped_attributes(value: object) -> set[str]:
    """Instance attributes of ``value`` that no annotation names (a clone would share them)."""
    names = set(getattr(value, "__dict__", {}))
    return names - set(state_fields(type(value)))


def _is_frozen_dataclass(kind: Any) -> bool:
    params = getattr(kind, "__dataclass_params__", None)
    return params is not None and bool(params.frozen)


def _immutable(hint: Any) -> bool:
    """Whether values of this type never change in place (so a clone may share them)."""
    if hint is Any or hint is object:
        return False
    if hint in _ATOMIC or hint is None:
        return True
    origin = get_origin(hint)
    if origin is None:
        if isinstance(hint, type):
            return issubclass(hint, enum.Enum) or _is_frozen_dataclass(hint)
        return False
    if origin in _SHARED_ORIGINS:
        return True
    if origin is tuple:
        return all(arg is Ellipsis or _immutable(arg) for arg in get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return all(_immutable(arg) for arg in get_args(hint))
    return False


class _Builder:
    """Turns annotations into the source of one copy function (names bound in ``namespace``)."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = {"_copy_any": copy_any, "_clone": clone}
        self.counter = 0

    def fresh(self) -> str:
        self.counter += 1
        return f"v{self.counter}"

    def bind(self, value: Any) -> str:
        name = f"_k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def expr(self, hint: Any, value: str) -> str:
        """A Python expression that copies ``value`` (a variable name) of type ``hint``."""
        if _immutable(hint):
            return value
        origin = get_origin(hint)
        args = get_args(hint)
        if origin is list:
            (item,) = args or (Any,)
            if _immutable(item):
                return f"{value}.copy()"
            var = self.fresh()
            return f"[{self.expr(item, var)} for {var} in {value}]"
        if origin is dict:
            _key, item = args or (Any, Any)
            if _immutable(item):
                return f"{value}.copy()"
            var = self.fresh()
            return f"{{k_{var}: {self.expr(item, var)} for k_{var}, {var} in {value}.items()}}"
        if origin is set:
            return f"{value}.copy()"
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                var = self.fresh()
                return f"tuple({self.expr(args[0], var)} for {var} in {value})"
            parts = [self.expr(arg, f"{value}[{index}]") for index, arg in enumerate(args)]
            return "(" + "".join(part + ", " for part in parts) + ")"
        if origin in (typing.Union, types.UnionType):
            options = [arg for arg in args if arg is not type(None)]
            if len(options) == 1:
                return f"(None if {value} is None else {self.expr(options[0], value)})"
            mutable = [arg for arg in options if not _immutable(arg)]
            if len(mutable) == 1 and get_origin(mutable[0]) in (list, dict, set):
                # One container option among immutable ones (``list[X] | tuple[()]``): told
                # apart at run time by its class, so it is copied by its annotation.
                kind = self.bind(get_origin(mutable[0]))
                copied = self.expr(mutable[0], value)
                return f"({copied} if isinstance({value}, {kind}) else {value})"
            return f"_copy_any({value})"
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return f"_clone({value})"
        return f"_copy_any({value})"


def _build_cloner(kind: type) -> Callable[[Any], Any]:
    if _is_frozen_dataclass(kind) or kind in _ATOMIC:
        return lambda value: value
    fields = state_fields(kind)
    builder = _Builder()
    cls = builder.bind(kind)
    has_dict = hasattr(kind, "__dict__") and "__dict__" in dir(kind)
    lines = ["def _cloner(src):", f"    new = object.__new__({cls})"]
    if has_dict:
        lines.append("    d = src.__dict__.copy()")
        for name, hint in fields.items():
            if _immutable(hint):
                continue
            lines.append(f"    if {name!r} in d:")
            lines.append(f"        v0 = d[{name!r}]")
            lines.append(f"        d[{name!r}] = {builder.expr(hint, 'v0')}")
        lines.append("    new.__dict__.update(d)")
    slots = [
        name
        for klass in kind.__mro__
        for name in vars(klass).get("__slots__", ())
        if name not in ("__dict__", "__weakref__")
    ]
    setter = builder.bind(object.__setattr__)
    always_set = _init_sets_every_field(kind)
    plain_setattr = getattr(kind, "__setattr__", None) is object.__setattr__  # not frozen
    for name in slots:
        hint = fields.get(name, Any)
        if always_set:  # a dataclass whose __init__ sets every field: no need to ask
            lines.append(f"    v0 = src.{name}")
            lines.append(f"    new.{name} = {builder.expr(hint, 'v0')}")
            continue
        if plain_setattr:  # a plain slot: read and set it directly
            lines.append("    try:")
            lines.append(f"        v0 = src.{name}")
            lines.append("    except AttributeError:")
            lines.append("        pass")
            lines.append("    else:")
            lines.append(f"        new.{name} = {builder.expr(hint, 'v0')}")
            continue
        lines.append(f"    if hasattr(src, {name!r}):")
        lines.append(f"        v0 = src.{name}")
        lines.append(f"        {setter}(new, {name!r}, {builder.expr(hint, 'v0')})")
    lines.append("    return new")
    exec("\n".join(lines), builder.namespace)  # generated from annotations only
    cloner: Callable[[Any], Any] = builder.namespace["_cloner"]
    return cloner


def _init_sets_every_field(kind: type) -> bool:
    """A non-frozen dataclass with a generated ``__init__`` and no ``init=False`` field."""
    params = getattr(kind, "__dataclass_params__", None)
    if params is None or not params.init or params.frozen:
        return False
    return all(item.init for item in dataclasses.fields(kind))


def copy_any(value: Any) -> Any:
    """Copy a value whose type is only known at run time (``Any`` in an annotation)."""
    kind = type(value)
    if kind in _ATOMIC or (kind is tuple and all(type(item) in _ATOMIC for item in value)):
        return value
    if kind is list:
        return [copy_any(item) for item in value]
    if kind is dict:
        return {key: copy_any(item) for key, item in value.items()}
    if kind is set:
        return set(value)
    if dataclasses.is_dataclass(kind) or kind in _cloners:
        return clone(value)
    if isinstance(value, enum.Enum):
        return value
    return copy.deepcopy(value)
