"""The language of a refusal to someone the table does not tell: his Telegram client's, else his browser's.

Telegram's init data names the user's ``language_code`` (read here whether or not the data checks
out: it only picks the words of a refusal); a browser sends ``Accept-Language``. Both are read
within bounds: at most :data:`HEADER_MAX` characters and :data:`RANGES_MAX` language ranges.
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qsl

from adapters.common.webauth import MAX_CREDENTIAL
from bot.words import languages

__all__ = ["client_lang", "HEADER_MAX", "RANGES_MAX"]

HEADER_MAX = 256
"""The most characters of ``Accept-Language`` looked at."""
RANGES_MAX = 8
"""The most language ranges of ``Accept-Language`` looked at."""
_FOREIGN = "en"
"""The language of a browser that asks for neither German nor English."""
_TAG = re.compile(r"[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*")


def _primary(tag: object) -> str | None:
    """``de`` or ``en`` for a language tag of either (``de-CH``, ``EN``), else ``None``."""
    if not isinstance(tag, str):
        return None
    primary = tag[:16].split("-")[0].strip().lower()
    return primary if primary in languages() else None


def _telegram(data: str) -> str | None:
    """The language of a Telegram client's init data, if it names German or English."""
    if not data or len(data) > MAX_CREDENTIAL:
        return None
    try:
        user = json.loads(dict(parse_qsl(data, keep_blank_values=True)).get("user", ""))
    except (ValueError, RecursionError):
        return None
    return _primary(user.get("language_code")) if isinstance(user, dict) else None


def _accepted(header: str) -> str | None:
    """The best-ranked of German and English the header asks for; English if it names languages but neither of
    them; ``None`` if it names none (``*`` or nothing readable)."""
    ranked = []
    for i, part in enumerate(header[:HEADER_MAX].split(",")[:RANGES_MAX]):
        tag, _, params = part.partition(";")
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            weight = float(q[:8])
        except ValueError:
            continue
        if _TAG.fullmatch(tag.strip()) and 0 < weight <= 1:
            ranked.append((-weight, i, tag.strip()))
    if not ranked:
        return None
    return next((lang for *_, tag in sorted(ranked) if (lang := _primary(tag))), _FOREIGN)


def client_lang(init_data: str, accept_language: str, default: str) -> str:
    """The language to refuse in: the init data's ``language_code``, else ``Accept-Language``, else ``default``."""
    return _telegram(init_data) or _accepted(accept_language) or default
