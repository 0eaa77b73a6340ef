"""Table options: each option's type and bounds, read from a game's pydantic options model.

``rules/replay-format.md`` ("Valid files") gives every option a type and bounds, and they hold
wherever options are set: replay files, chats, the command line. Nothing is converted: ``"yes"``
is not a boolean, and ``"3"``, ``3.0`` or ``true`` are not the whole number 3. The models declare
the types and bounds (``Literal`` choices, ``Field(ge=..., le=...)``); :func:`specs` reads them once
per model, and :func:`check` refuses a value with an :class:`OptionError` that names the option
and what it allows.
"""

from __future__ import annotations

import json
import math
import types
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

__all__ = ["OptionSpec", "OptionError", "specs", "check"]

_SHOWN = 40
"""How much of a refused value an error message repeats."""


@dataclass(frozen=True)
class OptionSpec:
    """One option: ``kind`` ``bool``, ``whole`` (an int), ``number`` (int or float) or ``choice``.

    ``lo`` and ``hi`` bound whole numbers and numbers; ``choices`` lists a choice's values;
    ``nullable`` allows ``None`` (the default that depends on the table).
    """

    name: str
    kind: str
    default: Any = None
    lo: float | None = None
    hi: float | None = None
    choices: tuple = ()
    nullable: bool = False

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` has this option's type and lies within its bounds (no conversion)."""
        if value is None:
            return self.nullable
        if self.kind == "bool":
            return type(value) is bool
        if self.kind == "choice":
            return any(type(value) is type(c) and value == c for c in self.choices)
        if self.kind == "whole":
            ok = type(value) is int
        else:
            ok = type(value) in (int, float) and math.isfinite(value)
        return ok and (self.lo is None or value >= self.lo) and (self.hi is None or value <= self.hi)

    def allowed(self) -> str:
        """What the option allows, in English: ``a whole number from 1 to 100``."""
        if self.kind == "bool":
            text = "true or false"
        elif self.kind == "choice":
            text = "one of " + ", ".join(str(c) for c in self.choices)
        else:
            text = f"{'a whole number' if self.kind == 'whole' else 'a number'} from {_num(self.lo)} to {_num(self.hi)}"
        return text + (" or null" if self.nullable else "")


class OptionError(ValueError):
    """A refused option: ``name`` is unknown to the game (``spec`` None) or ``value`` is not allowed."""

    def __init__(self, game: str, name: str, spec: OptionSpec | None, value: Any = None) -> None:
        if spec is None:
            message = f"unknown option for {game}: {name if name.isidentifier() else _shown(name)}"
        else:
            message = f"bad option {name}: {spec.allowed()}, not {_shown(value)}"
        super().__init__(message)
        self.game = game
        self.name = name
        self.spec = spec
        self.value = value


def _shown(value: Any) -> str:
    """``value`` as JSON on one line, cut to ``_SHOWN`` characters."""
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= _SHOWN else text[:_SHOWN - 1] + "…"


def _num(x: float | None) -> str:
    return "?" if x is None else f"{x:g}"


def _spec(name: str, annotation: Any, default: Any, metadata: list) -> OptionSpec:
    args = get_args(annotation)
    nullable = get_origin(annotation) in (Union, types.UnionType) and type(None) in args
    if nullable:
        (annotation,) = [a for a in args if a is not type(None)]
    lo = next((m.ge for m in metadata if hasattr(m, "ge")), None)
    hi = next((m.le for m in metadata if hasattr(m, "le")), None)
    if annotation is bool:
        return OptionSpec(name, "bool", default, nullable=nullable)
    if get_origin(annotation) is Literal:
        return OptionSpec(name, "choice", default, choices=get_args(annotation), nullable=nullable)
    if annotation is int:
        return OptionSpec(name, "whole", default, lo, hi, nullable=nullable)
    if annotation is float:
        return OptionSpec(name, "number", default, lo, hi, nullable=nullable)
    raise TypeError(f"option {name} has no supported type: {annotation!r}")


@cache
def specs(model: type[BaseModel]) -> dict[str, OptionSpec]:
    """Every option of an options model by name, in the model's order."""
    return {name: _spec(name, f.annotation, f.default, f.metadata) for name, f in model.model_fields.items()}


def check(game: str, model: type[BaseModel], options: dict[str, Any]) -> None:
    """Refuse (:class:`OptionError`) the first unknown option or value of another type or out of bounds."""
    known = specs(model)
    for name, value in options.items():
        spec = known.get(name)
        if spec is None or not spec.accepts(value):
            raise OptionError(game, str(name), spec, value)
