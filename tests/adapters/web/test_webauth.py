"""Link tokens and Telegram's init data: the right ones pass, forged, tampered, expired and foreign ones do not."""

from __future__ import annotations

import time

import pytest

from adapters.common.webauth import ANY, LINK_TTL_S, SEAT, WATCH, Viewer, init_data, mini_app_link, read, sign
from tests.adapters.web.webkit import BOT_TOKEN, SECRET
from tests.adapters.web.webkit import init_data as signed


def test_a_link_token_names_its_user_and_table_until_it_expires():
    now = time.time()
    token = sign(SECRET, "Tab1e", "discord", "123456789012345678", now)
    assert len(token) < 90 and token.replace(".", "").replace("_", "").replace("-", "").isalnum()
    viewer = read(SECRET, token, now + LINK_TTL_S - 5)
    assert (viewer.platform, viewer.user_id, viewer.table) == ("discord", "123456789012345678", "Tab1e")
    assert read(SECRET, token, now + LINK_TTL_S + 5) is None


@pytest.mark.parametrize("change", [
    lambda t: t.replace(".123456789012345678.", ".123456789012345679."),  # another user
    lambda t: t.replace("Tab1e.", "Tab2e.", 1),  # another table
    lambda t: t.replace(".discord.", ".telegram."),  # another platform
    lambda t: ".".join(t.split(".")[:3] + ["zzzzzz"] + t.split(".")[4:]),  # a later expiry
    lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),  # the mac
    lambda t: t + "x",
    lambda t: "",
    lambda t: "x" * 5000,
])
def test_a_tampered_link_token_is_refused(change):
    token = sign(SECRET, "Tab1e", "discord", "123456789012345678", time.time())
    assert read(SECRET, change(token), time.time()) is None


def test_a_token_of_another_secret_is_refused():
    token = sign(b"o" * 32, "Tab1e", "discord", "1", time.time())
    assert read(SECRET, token, time.time()) is None


def test_a_link_token_cannot_name_odd_ids():
    with pytest.raises(ValueError):
        sign(SECRET, "Tab.le", "discord", "1", time.time())
    with pytest.raises(ValueError):
        sign(SECRET, "T", "discord", "a.b", time.time())


def test_telegram_init_data_names_its_user_and_the_start_param_the_table():
    now = time.time()
    viewer = init_data(BOT_TOKEN, signed(1001, now, start_param="Tab1e"), now)
    assert viewer == Viewer("telegram", "1001", "Tab1e", name="Anna", expires=int(now) + 86400, access=ANY)
    private = init_data(BOT_TOKEN, signed(1001, now), now, table="Other")  # the page's own URL names the table
    assert (private.table, private.access) == ("Other", SEAT)


def test_a_watch_token_shows_the_public_view_and_its_scope_cannot_be_changed():
    now = time.time()
    token = sign(SECRET, "Tab1e", "discord", "c42", now, access=WATCH)
    assert read(SECRET, token, now).access == WATCH
    assert read(SECRET, token, now + LINK_TTL_S + 5) is None
    for scope in ("", ".a"):  # a watch token made into a seat's, or one for any seat
        assert read(SECRET, token.replace(".w.", scope + "."), now) is None
    seat = sign(SECRET, "Tab1e", "discord", "42", now)
    assert read(SECRET, seat, now).access == SEAT
    parts = seat.split(".")
    assert read(SECRET, ".".join(parts[:4] + ["a"] + parts[4:]), now) is None


@pytest.mark.parametrize("data", [
    signed(1001, start_param="T1").replace("1001", "1002"),  # another user, the hash kept
    signed(1001, start_param="T1").replace("start_param=T1", "start_param=T2"),  # another table
    signed(1001, start_param="T1", bot_token="999:other-bot"),  # signed for another bot
    signed(1001, start_param="T1")[:-2] + "00",  # the hash
    signed(1001, start_param="T1").replace("hash=", "hush="),  # no hash
    signed(1001, time.time() - 86400 - 60, start_param="T1"),  # too old
    signed(1001, time.time() + 3600, start_param="T1"),  # from the future
    signed(1001),  # no table
    "user=%7B%22id%22%3A1001%7D&auth_date=1&hash=00",
    "not&&data", "", "a=b" * 3000,
])
def test_forged_tampered_or_old_init_data_is_refused(data):
    assert init_data(BOT_TOKEN, data, time.time()) is None


def test_the_mini_app_link_opens_the_app_at_the_table():
    assert mini_app_link("StammtischBot", "tisch", "Tab1e") == "https://t.me/StammtischBot/tisch?startapp=Tab1e"
