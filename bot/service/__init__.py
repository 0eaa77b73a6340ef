"""The table service: every command from every adapter, and the turn timers, behind one facade.

Adapters use :class:`Service` (``handle`` a command, ``tick`` the timers) and :func:`join_payload`;
the modules behind it hold one concern each: the change cycle (:mod:`~bot.service.change`), what
an answer shows (:mod:`~bot.service.answer`), the lobby (:mod:`~bot.service.lobby`), engine moves
(:mod:`~bot.service.moves`), presses (:mod:`~bot.service.presses`), typed commands
(:mod:`~bot.service.typed`), the timers (:mod:`~bot.service.timers`), vacations
(:mod:`~bot.service.vacation`) and the daily digest (:mod:`~bot.service.digest`).
"""

from bot.service.facade import Service
from bot.service.lobby import join_payload

__all__ = ["Service", "join_payload"]
