"""The fake platforms the tests run against (Telegram's Bot API, Discord's REST and gateway), and their own tests."""
