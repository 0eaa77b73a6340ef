"""Logging for ``stammtisch run``: one line per event, as text or JSON, with secrets taken out.

Every line passes :func:`redact` before it is written: the configured secrets (bot token,
webhook secret, Redis password), anything shaped like a Telegram bot token, and the argument of
button tokens (``st1:<table>:<version>:<verb>:<arg>``, which can name a card of a hand) are
replaced by ``***``. Tracebacks stay on the event's line (newlines escaped in text, a field in
JSON). The chat libraries' own loggers are kept at ``WARNING`` or above: their debug lines
carry whole API requests, hands included.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from collections.abc import Iterable
from typing import IO

__all__ = ["configure", "redact", "JsonFormatter", "TextFormatter", "QUIET_LOGGERS"]

QUIET_LOGGERS = ("telegram", "httpx", "httpcore", "discord", "aiohttp", "tornado", "websockets", "asyncio")
"""Third-party loggers that never log below ``WARNING`` (API payloads, request lines with tokens)."""

_BOT_TOKEN = re.compile(r"\d{5,}:[A-Za-z0-9_-]{30,}")
_BUTTON = re.compile(r"(st1:[0-9A-Za-z]{1,16}:\d{1,9}:[a-z_]{1,16}:)[0-9A-Za-z_.-]+")
_STANDARD = frozenset(vars(logging.makeLogRecord({})).keys()) | {"message", "asctime", "taskName"}


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` without the given secrets, bot tokens and button arguments."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    text = _BOT_TOKEN.sub("***", text)
    return _BUTTON.sub(r"\1***", text)


class TextFormatter(logging.Formatter):
    """``2026-12-01T00:00:00Z INFO bot.service: message key=value``, one line, redacted.

    Args:
        secrets: values never to write.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s", "%Y-%m-%dT%H:%M:%SZ")
        self.converter = time.gmtime
        self._secrets = tuple(secrets)

    def format(self, record: logging.LogRecord) -> str:
        """The record as one redacted line."""
        line = super().format(record)
        extra = " ".join(f"{k}={v}" for k, v in _extra(record).items())
        line = f"{line} {extra}" if extra else line
        return redact(line, self._secrets).replace("\r", "\\r").replace("\n", "\\n")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``ts``, ``level``, ``logger``, ``msg``, extra fields, ``exc``.

    Args:
        secrets: values never to write.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self._secrets = tuple(secrets)

    def format(self, record: logging.LogRecord) -> str:
        """The record as one redacted JSON line."""
        out = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
               "level": record.levelname, "logger": record.name, "msg": record.getMessage()}
        out.update(_extra(record))
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exc"] = record.exc_text
        return redact(json.dumps(out, ensure_ascii=False, default=str), self._secrets)


def _extra(record: logging.LogRecord) -> dict:
    """The fields a call passed with ``extra=``."""
    return {k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")}


def configure(fmt: str = "text", level: str = "INFO", secrets: Iterable[str] = (),
              stream: IO[str] | None = None) -> logging.Handler:
    """Send every log record to ``stream`` (default stderr) in ``fmt`` (``text`` or ``json``); the handler.

    Replaces the root logger's handlers, so it can be called again (tests do).
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter(secrets) if fmt == "json" else TextFormatter(secrets))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.WARNING, logging.getLevelName(level)))
    return handler
