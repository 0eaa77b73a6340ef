"""JSON text read strictly, for replay files and options typed anywhere.

Standard JSON only: ``NaN`` and ``Infinity`` are refused, and so are numbers too long to read
and nesting too deep for the parser; every refusal is a :class:`JSONTextError` with one line.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["JSONTextError", "read_json"]


class JSONTextError(ValueError):
    """The text is not standard JSON; the message is one line."""


def _constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def read_json(text: str) -> Any:
    """The value of the JSON ``text``; :class:`JSONTextError` if it is not standard JSON."""
    try:
        return json.loads(text, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JSONTextError(f"{exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise JSONTextError("nested too deep") from None
    except ValueError as exc:  # NaN, or a number of more digits than Python reads
        raise JSONTextError(str(exc).splitlines()[0]) from None
