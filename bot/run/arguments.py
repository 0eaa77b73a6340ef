"""The ``stammtisch`` command's argument readers: each turns one argument into its value or raises ``ValueError``
with a one-line reason, which :func:`fail` prints as the command's only line (exit status 2)."""

from __future__ import annotations

import sys

__all__ = ["fail", "read_file", "whole", "json_options", "settings", "language"]


def fail(message: str) -> int:
    """Say ``message`` as the command's one line on standard error; the exit status 2."""
    print(f"stammtisch: {message}", file=sys.stderr)
    return 2


def read_file(name: str) -> str:
    """The text of file ``name`` (``-``: standard input); ``ValueError`` with a one-line reason."""
    try:
        return sys.stdin.read() if name == "-" else open(name, encoding="utf-8").read()
    except OSError as exc:
        raise ValueError(f"cannot read {name}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{name} is not UTF-8 text") from None


def whole(text: str, flag: str) -> int:
    """``text`` as a whole number from 0; ``ValueError`` naming ``flag`` otherwise."""
    if not text.isdecimal() or len(text) > 19:
        raise ValueError(f"{flag} must be a whole number, not {text[:20]!r}")
    return int(text)


def json_options(text: str | None, game: str | None = None, flag: str = "--options") -> dict:
    """``flag``'s JSON object as a dict, checked against ``game``'s option types; ``ValueError`` with a one-line reason."""
    import engine
    from engine.jsontext import JSONTextError, read_json

    try:
        options = read_json(text) if text else {}
    except JSONTextError as exc:
        raise ValueError(f"{flag} is not JSON: {exc}") from None
    if not isinstance(options, dict):
        raise ValueError(f"{flag} must be a JSON object")
    if game is not None:
        engine.parse_options(game, options)
    return options


def settings():
    """The settings from the environment (``SettingsError`` with a reason)."""
    from bot.ops.settings import load_settings

    return load_settings()


def language(text: str | None) -> str | None:
    """``--lang`` as one of the languages; ``ValueError`` for anything else."""
    from bot.words import languages

    if text is None or text.lower() in languages():
        return text and text.lower()
    raise ValueError(f"--lang must be {', '.join(languages()[:-1])} or {languages()[-1]}, not {text[:20]!r}")
