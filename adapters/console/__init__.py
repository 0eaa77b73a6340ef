"""The console adapter: a table in the terminal against computer players, through the same service.

``play(service, ...)`` reads lines from ``stdin`` and prints what the service answers. Cards can
be typed (``JC``, ``10♥``, ``b♣``) or chosen by the number in front of a button; any other line
is a table command (``hand``, ``tisch``, ``regeln`` ...). ``quit`` leaves and keeps the table.
"""

from .console import Console, play

__all__ = ["Console", "play"]
