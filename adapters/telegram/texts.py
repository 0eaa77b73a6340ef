"""The few texts only Telegram needs (how to open or unblock the private chat), German and English.

Everything else the players read is rendered by the bot layer.
"""

from __future__ import annotations

__all__ = ["text"]

_TEXTS = {
    "de": {
        "cannot_dm": "{name}, damit ich dir deine Karten schicken kann: hier tippen und »Starten« drücken.",
        "blocked": "{name}, ich kann dir deine Karten nicht schicken – hast du mich blockiert? Tippe hier "
                   "(und ggf. »Bot freigeben«), dann bekommst du sie wieder. Das Spiel wartet auf dich.",
        "open": "🃏 Meine Karten",
    },
    "en": {
        "cannot_dm": "{name}, so I can send you your cards: tap here and press “Start”.",
        "blocked": "{name}, I cannot send you your cards – did you block me? Tap here (and “Unblock” if asked) "
                   "to get them again. The game waits for you.",
        "open": "🃏 My cards",
    },
}


def text(key: str, lang: str, **values: str) -> str:
    """The text ``key`` in ``lang`` (German for any language other than English), filled with ``values``."""
    return _TEXTS["en" if lang == "en" else "de"][key].format(**values)
