"""How fast the Discord adapter may talk, and its timers, from ``DISCORD_*`` environment variables."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from adapters.common.gate import DISCORD_GLOBAL

__all__ = ["Tuning"]


class Tuning(BaseSettings):
    """Pacing and timings of the Discord adapter.

    Discord allows about 5 messages or edits per channel per 5 seconds; the adapter spaces its
    calls to each channel evenly within that (and across processes through Redis), so bursts
    coalesce into one edit instead of meeting a 429. Tests shrink the window.
    """

    model_config = SettingsConfigDict(env_prefix="DISCORD_", extra="ignore")

    channel_messages: int = Field(5, ge=1, description="messages and edits per channel per window")
    channel_window_s: float = Field(5.0, gt=0, description="the channel window in seconds")
    global_messages: int = Field(DISCORD_GLOBAL[0], ge=1, description="calls per global window for the whole bot")
    global_window_s: float = Field(DISCORD_GLOBAL[1], gt=0, description="the bot-wide window in seconds")
    slack_s: float = Field(0.05, ge=0, description="margin added to the shared window for network jitter")
    lazy_s: float = Field(3.0, ge=0, description="how long a hand whose owner is not to act may wait for a newer "
                          "one (a burst of changes to it goes in one edit)")
    partial_s: float = Field(60.0, ge=0, description="how long a hand its owner cannot act on yet may wait for his "
                             "turn or his choices (a new deal's first cards for the rest), and one that only lost "
                             "choices for its next change (a Rams Mitspielen for his first card)")
    table_lazy_s: float = Field(4.75, ge=0, description="how long a channel's table message may wait for the next "
                                "card during a deal: more cards share an edit, the table stays this far behind")
    ack_deadline_s: float = Field(2.0, gt=0, le=2.8, description="longest wait for the verdict before deferring")
    tick_interval_s: float = Field(5.0, gt=0, description="how often the turn timers are checked")
    ephemeral_s: float = Field(840.0, gt=0, le=890, description="how long an ephemeral hand is kept up to date")

    @property
    def gap(self) -> float:
        """The smallest gap between two calls to one channel."""
        return self.channel_window_s / self.channel_messages
