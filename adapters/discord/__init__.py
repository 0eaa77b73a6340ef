"""The Discord adapter: a server channel plays at one table message, each hand comes by DM.

``serve(settings, service, refs, shared)`` runs the bot until SIGINT/SIGTERM or a given stop
event. Modules: :mod:`.commands` (slash commands, localized), :mod:`.translate` (interactions to
commands), :mod:`.markup` (persistent buttons, mentions), :mod:`.outbox` (paced, coalescing
per-channel senders), :mod:`.deliver` (outgoing effects to REST calls), :mod:`.tuning` (pacing
and timings), :mod:`.app` (the running bot). Its own texts are the catalogs' ``dc.*``.
"""

from .app import DiscordBot, serve
from .tuning import Tuning

__all__ = ["DiscordBot", "Tuning", "serve"]
