"""Quiet hours and time zones: read from text (the settings and the chats' commands) and held to the clock.

Quiet hours are two times of day in minutes after midnight (``23-7``: 23:00 to 07:00, over
midnight), in an IANA time zone; :func:`quiet_end` tells when they end if a moment lies in them.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = ["quiet_from_text", "hhmm", "zone_from_text", "quiet_end", "QUIET_MOST"]

QUIET_MOST = 16 * 60
"""The longest quiet hours in minutes: a day keeps at least 8 hours in which the timers run."""

_QUIET = re.compile(r"^([0-9]{1,2})(?::([0-9]{2}))?-([0-9]{1,2})(?::([0-9]{2}))?$")
_ZONE = re.compile(r"^[A-Za-z][A-Za-z_+-]{0,30}(/[A-Za-z0-9_+-]{1,30}){0,2}$")
_OFF = {"aus", "off", "keine", "none", "nie", "never"}


def quiet_from_text(text: str) -> tuple[int, int] | None:
    """Quiet hours from ``22-8``, ``22:30-06:45`` (spaces ignored) as minutes after midnight; ``None`` for ``aus``.

    Raises:
        ValueError: the text is neither, or the hours last longer than :data:`QUIET_MOST`.
    """
    text = "".join(text.lower().split())[:40]
    if text in _OFF:
        return None
    m = _QUIET.match(text)
    if m:
        h1, m1, h2, m2 = (int(g or 0) for g in m.groups())
        start, end = h1 * 60 + m1, h2 * 60 + m2
        if h1 < 24 and h2 < 24 and m1 < 60 and m2 < 60 and 0 < (end - start) % 1440 <= QUIET_MOST:
            return start, end
    raise ValueError(f"expected quiet hours like 23-7, 22:30-06:30 (16 hours at most) or off, got {text!r}")


def hhmm(quiet: tuple[int, int] | None) -> str:
    """Quiet hours as text ``23:00-07:00`` (``off`` for none), as :func:`quiet_from_text` reads them."""
    if quiet is None:
        return "off"
    return "-".join(f"{m // 60:02d}:{m % 60:02d}" for m in quiet)


def zone_from_text(name: str) -> str:
    """The IANA time zone ``name`` (``Europe/Zurich``), checked.

    Raises:
        ValueError: no such zone (a region such as ``Europe`` or ``Etc`` is a directory of zones, not one).
    """
    name = name.strip()
    if not _ZONE.match(name):
        raise ValueError(f"expected a time zone like Europe/Berlin, got {name[:40]!r}")
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # a region's directory: IsADirectoryError
        raise ValueError(f"unknown time zone {name!r}") from None
    return name


def quiet_end(now: float, quiet: tuple[int, int] | None, zone: str) -> float | None:
    """If ``now`` (epoch seconds) lies in the quiet hours, when they end (epoch seconds); else ``None``."""
    if quiet is None:
        return None
    tz = ZoneInfo(zone)
    local = datetime.fromtimestamp(now, tz)
    minute = local.hour * 60 + local.minute
    start, end = quiet
    inside = start <= minute < end if start < end else minute >= start or minute < end
    if not inside:
        return None
    day = local.date() + timedelta(days=1 if minute >= end else 0)
    return datetime(day.year, day.month, day.day, end // 60, end % 60, tzinfo=tz).timestamp()
