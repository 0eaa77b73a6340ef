"""What Discord refuses in a bulk overwrite of slash commands (``PUT /applications/{app}/commands``).

As Discord's documentation of application commands has it: at most 100 commands; a name of 1-32 characters
matching ``^[-_'\\p{L}\\p{N}]{1,32}$`` in lowercase; a description of 1-100 characters; localized names and
descriptions within the same limits; at most 25 options, each named and described so, with at most 25 choices
(names of 1-100 characters) and a string's ``min_length`` 0-6000 and ``max_length`` 1-6000; at most 4,000
characters of names, descriptions and choices' names and values in one command. The errors are shaped as
Discord's 50035 (Invalid Form Body) answers them: by field, under its index.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["errors", "COMMANDS_MAX"]

COMMANDS_MAX, OPTIONS_MAX, CHOICES_MAX = 100, 25, 25
NAME_MAX, DESCRIPTION_MAX, STRING_MAX, TOTAL_MAX = 32, 100, 6000, 4000
_NAME = re.compile(rf"[-_'\w]{{1,{NAME_MAX}}}")
_STRING = 3


def _error(code: str, message: str) -> dict:
    return {"_errors": [{"code": code, "message": message}]}


def _too_many(items: list, limit: int) -> dict | None:
    """Discord's error for a list longer than ``limit``, else ``None``."""
    return _error("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.") if len(items) > limit else None


def _named(item: dict) -> dict[str, Any]:
    """The errors of an item's name and description, and of their localizations."""
    out: dict[str, Any] = {}
    names = [item.get("name", ""), *(item.get("name_localizations") or {}).values()]
    if not all(isinstance(n, str) and _NAME.fullmatch(n) and n == n.lower() for n in names):
        out["name"] = _error("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    descriptions = [item.get("description", ""), *(item.get("description_localizations") or {}).values()]
    if not all(1 <= len(d or "") <= DESCRIPTION_MAX for d in descriptions):
        out["description"] = _error("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {DESCRIPTION_MAX} in length.")
    return out


def _option(option: dict) -> dict:
    out = _named(option)
    choices = option.get("choices") or []
    if too_many := _too_many(choices, CHOICES_MAX):
        out["choices"] = too_many
    elif any(not 1 <= len(c.get("name", "")) <= 100 for c in choices):
        out["choices"] = _error("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    if option.get("type") == _STRING:
        low, high = option.get("min_length"), option.get("max_length")
        if low is not None and not 0 <= low <= STRING_MAX:
            out["min_length"] = _error("NUMBER_TYPE_MAX", f"Int value should be less than or equal to {STRING_MAX}.")
        if high is not None and not 1 <= high <= STRING_MAX:
            out["max_length"] = _error("NUMBER_TYPE_MAX", f"Int value should be less than or equal to {STRING_MAX}.")
    return out


def _size(command: dict) -> int:
    """The characters Discord counts in a command: names, descriptions, choices' names and values."""
    items = [command, *(command.get("options") or [])]
    choices = [c for o in command.get("options") or [] for c in o.get("choices") or []]
    return sum(len(i.get("name", "")) + len(i.get("description", "")) for i in items) + \
        sum(len(c.get("name", "")) + len(str(c.get("value", ""))) for c in choices)


def _command(command: dict) -> dict:
    out = _named(command)
    options = command.get("options") or []
    found = _too_many(options, OPTIONS_MAX) or {str(i): e for i, o in enumerate(options) if (e := _option(o))}
    if found:
        out["options"] = found
    if not out and _size(command) > TOTAL_MAX:
        out["_errors"] = [{"code": "APPLICATION_COMMAND_TOO_LARGE", "message": "Command exceeds maximum size (4000)"}]
    return out


def errors(commands: list[dict]) -> dict:
    """What Discord finds wrong with a bulk overwrite of ``commands``, by index and field (empty: nothing)."""
    return _too_many(commands, COMMANDS_MAX) or {str(i): e for i, c in enumerate(commands) if (e := _command(c))}
