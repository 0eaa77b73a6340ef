"""The Telegram adapter: groups play at one table message, each hand comes by private chat.

``serve(settings, service, refs, shared)`` runs the bot (long polling, or webhook with
``TELEGRAM_WEBHOOK_URL``) until SIGINT/SIGTERM or a given stop event. Modules: :mod:`.commands`
(slash commands in German and English), :mod:`.translate` (updates to commands),
:mod:`.markup` (keyboards, mentions, deep links), :mod:`.outbox` (paced, coalescing per-chat
senders), :mod:`.deliver` (outgoing effects to API calls), :mod:`.texts` (Telegram-only texts),
:mod:`.tuning` (flood limits and timings), :mod:`.app` (the running bot).
"""

import os

# RetryAfter.retry_after as a timedelta now, as it will be in the next major version (the
# outbox reads both); this also silences PTB's deprecation warning about it.
os.environ.setdefault("PTB_TIMEDELTA", "1")

from .app import TelegramBot, serve  # noqa: E402
from .tuning import Tuning  # noqa: E402

__all__ = ["TelegramBot", "Tuning", "serve"]
