"""What an adapter raises when the platform refuses the bot's token at start (the composition root
ends the start with one line; the token itself is never in the message)."""

from __future__ import annotations

__all__ = ["TokenRejected"]


class TokenRejected(RuntimeError):
    """The platform refused the bot's token.

    Args:
        platform: the platform's name, e.g. ``Telegram``; the message names its token variable.
    """

    def __init__(self, platform: str) -> None:
        super().__init__(f"{platform} rejected the bot token: check {platform.upper()}_TOKEN")
        self.platform = platform
