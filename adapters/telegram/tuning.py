"""How fast the Telegram adapter may talk: flood limits, timers and polling, from the environment."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Tuning"]


class Tuning(BaseSettings):
    """Flood limits and timings of the Telegram adapter (``TELEGRAM_*`` environment variables).

    The defaults are Telegram's published limits: about 20 messages a minute in a group, one a
    second in any chat and about 30 a second in all chats together. Tests shrink the windows to play fast against a fake server
    that enforces the same numbers.
    """

    model_config = SettingsConfigDict(env_prefix="TELEGRAM_", extra="ignore")

    group_messages: int = Field(20, ge=1, description="messages allowed in a group per group window")
    group_window_s: float = Field(60.0, gt=0, description="the group window in seconds")
    chat_messages: int = Field(1, ge=1, description="messages allowed in any chat per chat window")
    chat_window_s: float = Field(1.0, gt=0, description="the chat window in seconds")
    global_messages: int = Field(30, ge=1, description="messages allowed in all chats together per global window")
    global_window_s: float = Field(1.0, gt=0, description="the global window in seconds (per bot token)")
    slack_s: float = Field(0.05, ge=0, description="safety margin added to the shared window for network jitter")
    lazy_s: float = Field(60.0, ge=0, description="how long a hand emptied by its last card may wait for the next "
                          "deal's cards, a hand its owner cannot act on yet for his turn or his choices (a new "
                          "deal's first cards for the rest), and one that only lost choices for its next change "
                          "(a Rams Mitspielen for his first card)")
    hand_wait_s: float = Field(1.0, ge=0, description="how long any other edit of a hand waits for a newer version of "
                               "it: choices that flicker within this time cost one edit (also the longest a hand "
                               "whose owner is to act waits)")
    table_lazy_s: float = Field(4.0, ge=0, description="how long a group's table message may wait for the next "
                                "card during a deal: more cards share an edit, the table stays this far behind")
    table_trick_s: float = Field(10.0, ge=0, description="under load (the group's or the token's window close to "
                                 "full, or the group's calls waiting for their turn) the longest a group's table "
                                 "may wait for the last card of the trick under way instead (0, or a table "
                                 "that does not wait for the next card: never)")
    ack_deadline_s: float = Field(1.0, gt=0, description="longest wait for the verdict before answering a press")
    tick_interval_s: float = Field(5.0, gt=0, description="how often the turn timers are checked")
    poll_timeout_s: int = Field(10, ge=0, description="long polling timeout of getUpdates")
