"""The words players see: texts from the gettext catalogs (``locale/<lang>/LC_MESSAGES/stammtisch.po``),
the table message and hands, the story of a deal, card labels, numbers and dates, and the parsing of
typed commands. It reads tables, never the store.

What adapters may use is exported here; the modules behind it are the room's own.
"""

from bot.words.cards import parse_card_text
from bot.words.choices import TableOption, player_range, table_options
from bot.words.i18n import game_name, has, languages, t
from bot.words.textcmd import GAME_WORDS, game_id
from bot.words.textcmd import parse as parse_typed
from bot.words.webview import watchers_text, web_text

__all__ = ["languages", "t", "has", "game_name", "GAME_WORDS", "game_id", "parse_typed", "parse_card_text", "TableOption",
           "player_range", "table_options", "web_text",
           "watchers_text"]
