"""The chats' ways to the web table: Telegram's »Am Tisch ansehen« row (a direct Mini App link in groups, a
web_app button in private chats), the signed link of a Discord hand, which never pushes a card out, and the
Discord table's link to watch."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

import discord

from adapters.common.webauth import WATCH, read
from adapters.discord import markup as discord_markup
from adapters.discord.app import _watch_row, _web_link
from adapters.telegram import markup as telegram_markup
from bot.ops.settings import load_settings
from bot.protocol.outgoing import Button, ChatRef, HandMessage, TableMessage, UserRef
from bot.words import web_text

HAND = Button("Meine Karten", "st1:Tab1e:7:hand:")
SECRET = "w" * 40


def table(private: bool = False, buttons=((HAND,),)) -> TableMessage:
    return TableMessage(ChatRef("telegram", "7" if private else "-100", private=private), "Tab1e", "…", buttons)


def test_a_group_table_links_the_mini_app_with_the_table_as_start_parameter():
    rows = telegram_markup.web_table_row(table(), "de", "StammtischBot", "tisch", "https://example.org/web/")
    assert rows == ((Button(web_text("de", "open"), url="https://t.me/StammtischBot/tisch?startapp=Tab1e"),),)
    kb = telegram_markup.keyboard(((HAND,), *rows))
    assert kb.inline_keyboard[1][0].url == "https://t.me/StammtischBot/tisch?startapp=Tab1e"


def test_a_private_table_opens_the_page_as_a_web_app():
    rows = telegram_markup.web_table_row(table(private=True), "en", "StammtischBot", "tisch",
                                         "https://example.org/web/")
    button = telegram_markup.keyboard(rows).inline_keyboard[0][0]
    assert button.text == web_text("en", "open") and button.url is None
    assert button.web_app.url == "https://example.org/web/?table=Tab1e"


def test_a_lobby_or_an_ended_table_has_no_web_row():
    lobby = table(buttons=((Button("Mitspielen", "st1:Tab1e:2:join:"),),))
    assert telegram_markup.web_table_row(lobby, "de", "StammtischBot", "tisch", "https://example.org") == ()


def test_a_discord_hand_links_the_web_table_for_its_owner():
    settings = load_settings(web_url="https://example.org/web", web_secret=SECRET)
    hand = HandMessage(UserRef("discord", "123456789012345678"), ChatRef("discord", "55"), "Tab1e", "…")
    button = _web_link(settings)(hand)
    url = urlsplit(button.url)
    assert button.label == web_text("de", "open") and url.netloc == "example.org" and url.path == "/web/"
    viewer = read(SECRET.encode(), parse_qs(url.query)["t"][0], time.time())
    assert (viewer.platform, viewer.user_id, viewer.table) == ("discord", "123456789012345678", "Tab1e")
    assert viewer.expires > time.time() + 11 * 3600
    assert _web_link(load_settings(web_url="https://example.org/web")) is None


def test_a_link_takes_a_free_place_and_never_a_cards():
    link = Button("Am Tisch ansehen", url="https://example.org/?t=x")
    cards = [Button(f"c{i}", f"st1:Tab1e:7:act:pl.{i}") for i in range(8)]
    roomy = discord_markup.view(((*cards,), (link,)))
    assert [(type(i) is discord.ui.Button and i.url, i.row) for i in roomy.children][-1] == (link.url, 1)
    full = discord_markup.view(tuple((Button(f"c{r}{i}", f"st1:Tab1e:7:act:pl.{r}{i}") for i in range(5))
                                     for r in range(5)) + ((link,),))
    assert len(full.children) == 25 and not any(getattr(i, "url", None) for i in full.children)


def test_a_discord_table_links_its_channel_to_watch_while_it_runs():
    settings = load_settings(web_url="https://example.org/web", web_secret=SECRET)
    running = TableMessage(ChatRef("discord", "55"), "Tab1e", "…", ((HAND,),))
    ((button,),) = _watch_row(settings)(running)
    viewer = read(SECRET.encode(), parse_qs(urlsplit(button.url).query)["t"][0], time.time())
    assert button.label == web_text("de", "watch")
    assert (viewer.platform, viewer.user_id, viewer.table, viewer.access) == ("discord", "c55", "Tab1e", WATCH)
    lobby = TableMessage(ChatRef("discord", "55"), "Tab1e", "…", ((Button("Mitspielen", "st1:Tab1e:2:join:"),),))
    assert _watch_row(settings)(lobby) == ()
    assert _watch_row(load_settings(web_url="https://example.org/web")) is None
