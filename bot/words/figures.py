"""Numbers, money and dates as a chat's language writes them: Babel's locale data for the digits,
the catalog for where the currency word and the percent sign stand and for the date patterns.

Decided: thousands are not grouped (``1000``, ``1234,50 Fr.``), as the table always wrote them; the
figures at a table are small, and a grouped ``1.000`` reads as one in English. A minus is the true
minus sign ``−`` of the score sheet. A language without number data of its own (a made-up code)
writes numbers as German does.
"""

from __future__ import annotations

import logging
from datetime import datetime
from decimal import Decimal

from babel.dates import format_datetime
from babel.numbers import format_decimal

from bot.words.catalogs import DEFAULT, language
from bot.words.i18n import t

__all__ = ["decimal", "short", "money", "percent", "day", "weekday", "moment", "ago"]

_log = logging.getLogger(__name__)


def decimal(lang: str, value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals (half to even): ``27,4`` in German, ``27.4`` in English, ``−0,7``."""
    pattern = "0." + "0" * digits if digits else "0"
    # Decimal(value) is the float's exact value: rounding it is rounding what f"{value:.2f}" rounds
    return format_decimal(Decimal(value), format=pattern, locale=language(lang).locale).replace("-", "−")


def short(lang: str, value: float) -> str:
    """``value`` as short as it is exact (at most six digits): ``2,5``, ``−1``."""
    return decimal(lang, value, len(f"{value:g}".partition(".")[2]))


def money(lang: str, amount: float, currency: str = "") -> str:
    """An amount with two decimals and the table's free currency word: ``3,00 Fr.`` (no word: the figure alone)."""
    figure = decimal(lang, amount, 2)
    return t(lang, "fmt.money", figure=figure, currency=currency) if currency else figure


def percent(lang: str, share: float) -> str:
    """A share of 1 in whole percent: ``42 %`` in German, ``42%`` in English."""
    return t(lang, "fmt.percent", figure=decimal(lang, share * 100, 0))


def _dated(lang: str, key: str, when: datetime) -> str:
    """``when`` by the catalog's LDML pattern ``key``; German's if the language's pattern is broken."""
    for code in (lang, DEFAULT):
        try:
            return format_datetime(when, t(code, key), locale=language(code).locale)
        except (ValueError, KeyError, AttributeError, TypeError):
            _log.warning("the %s catalog's date pattern %r is not one Babel reads", code, key)
    return when.isoformat(timespec="minutes")


def day(lang: str, when: datetime) -> str:
    """A day, short: ``3.12.`` in German, ``3 Dec`` in English."""
    return _dated(lang, "fmt.day", when)


def weekday(lang: str, when: datetime) -> str:
    """A day with its weekday, short: ``Fr., 12.12.`` in German, ``Fri 12 Dec`` in English."""
    return _dated(lang, "fmt.weekday", when)


def moment(lang: str, when: datetime) -> str:
    """A day and time, short, as ``when`` reads in its own time zone: ``3.12. 21:14`` (``3 Dec 21:14``)."""
    return _dated(lang, "fmt.when", when)


def ago(seconds: float, lang: str) -> str:
    """A short duration: ``5 Min.``, ``2 Std.``, ``3 Tg.``."""
    minutes = int(seconds // 60)
    if minutes < 60:
        return t(lang, "minutes", n=max(minutes, 1))
    if minutes < 48 * 60:
        return t(lang, "hours", n=minutes // 60)
    return t(lang, "days", n=minutes // 1440)
