"""Outgoing effects as bytes and back: what a process writes to a platform's outbox in Redis for another to send.

JSON, versioned (``{"v": 1, "outs": [...]}``), each effect its type's name and its fields; a file's bytes in
base64. A batch is bounded: an effect beyond the platforms' own limits cannot be made
(:class:`~bot.protocol.outgoing.FileMessage` checks its files), and a packed batch above :data:`MAX_BYTES`
is refused. A batch of another version, or one that does not parse, raises :class:`ValueError`.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from typing import Any

from bot.protocol.outgoing import (
    FILES_MAX_BYTES,
    Attachment,
    Button,
    ChatRef,
    FileMessage,
    HandMessage,
    JoinLink,
    ListedTable,
    Notice,
    OpenTopic,
    Outgoing,
    PrivateText,
    TableList,
    TableMessage,
    Toast,
    UserRef,
)

__all__ = ["VERSION", "MAX_BYTES", "pack", "unpack"]

VERSION = 1
MAX_BYTES = FILES_MAX_BYTES * 4 // 3 + 1_000_000
"""The largest packed batch: one file message at its limit in base64, and room for the rest."""

_TYPES = {cls.__name__: cls for cls in (TableMessage, HandMessage, Toast, PrivateText, Notice, JoinLink, OpenTopic,
                                        FileMessage, TableList)}


def _plain(value: Any) -> Any:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _rows(rows: list) -> tuple[tuple[Button, ...], ...]:
    return tuple(tuple(Button(**b) for b in row) for row in rows)


_FIELDS = {
    "chat": lambda v: ChatRef(**v),
    "user": lambda v: UserRef(**v),
    "buttons": _rows,
    "mentions": lambda v: tuple(UserRef(**u) for u in v),
    "rows": lambda v: tuple(ListedTable(r["table_id"], ChatRef(**r["chat"]), r["text"], r["go"],
                                        Button(**r["hand"]) if r["hand"] else None) for r in v),
    "pages": lambda v: tuple(Button(**b) for b in v),
    "files": lambda v: tuple(Attachment(f["filename"], base64.b64decode(f["data"], validate=True), f["picture"])
                             for f in v),
}
"""How a field that is not plain JSON comes back, by its name (the names mean one type in every effect)."""


def _effect(item: dict) -> Outgoing:
    cls = _TYPES[item.pop("type")]
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: _FIELDS[k](v) if k in _FIELDS else tuple(v) if isinstance(v, list) else v
                  for k, v in item.items() if k in names})


def pack(outs: list[Outgoing]) -> bytes:
    """The batch ``outs`` as bytes.

    Raises:
        ValueError: it is larger than :data:`MAX_BYTES`.
    """
    data = json.dumps({"v": VERSION, "outs": [{"type": type(o).__name__, **_plain(o)} for o in outs]},
                      separators=(",", ":"), ensure_ascii=False).encode()
    if len(data) > MAX_BYTES:
        raise ValueError(f"a batch of {len(data)} bytes is beyond the outbox's {MAX_BYTES}")
    return data


def unpack(data: bytes | str) -> list[Outgoing]:
    """The batch packed in ``data``.

    Raises:
        ValueError: another version, too large, or not a packed batch.
    """
    if len(data) > MAX_BYTES:
        raise ValueError("a packed batch beyond the outbox's limit")
    try:
        batch = json.loads(data)
        if batch.get("v") != VERSION:
            raise ValueError(f"a batch of version {batch.get('v')!r}, not {VERSION}")
        return [_effect(dict(item)) for item in batch["outs"]]
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a packed batch: {exc}") from None
