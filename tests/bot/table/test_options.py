"""Options in a chat: read by their declared type, refused in the chat's language with what they allow."""

from __future__ import annotations

import pytest

from bot.protocol.outgoing import TableMessage, Toast
from bot.table import options
from bot.table.record import Table
from bot.table.refused import Refused
from bot.words import textcmd
from bot.words.i18n import t
from tests.servicekit import GROUP, of, private, say, service, table_msg, user


@pytest.mark.parametrize(("game", "name", "text", "value"), [
    ("bauernstoss", "target", "30", 30),
    ("bauernstoss", "target", "100", 100),
    ("bauernstoss", "partners", "JACK_DRAW", "jack_draw"),
    ("bauerchen", "die_letzte", "nein", False),
    ("bauerchen", "die_letzte", "false", False),
    ("bauerchen", "die_letzte", "an", True),
    ("bauerchen", "trump_after_cards", "5", 5),
    ("rams", "unit", "0,5", 0.5),
    ("rams", "unit", "2", 2),
    ("rams", "kartoffel_fee", "1000", 1000),
    ("rams", "target", "standard", None),
])
def test_typed_values_are_read_by_the_options_type(game, name, text, value):
    got = options.parse_text(game, name, text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(("game", "name", "text"), [
    ("bauernstoss", "target", "1000000000"),
    ("bauernstoss", "target", "0"),
    ("bauernstoss", "target", "3.0"),
    ("bauernstoss", "target", "-3"),
    ("bauernstoss", "target", "٣"),  # a digit, but not an ASCII one
    ("bauernstoss", "target", "standard"),
    ("bauernstoss", "partners", "random"),
    ("bauerchen", "die_letzte", "vielleicht"),
    ("bauerchen", "trump_after_cards", "3"),
    ("rams", "unit", "1e308"),
    ("rams", "unit", "inf"),
    ("rams", "unit", "nan"),
    ("rams", "unit", "1000.5"),
    ("rams", "target", "101"),
])
def test_typed_values_of_another_type_or_out_of_bounds_are_refused(game, name, text):
    with pytest.raises(Exception) as exc:
        options.parse_text(game, name, text)
    refused = options.refusal(exc.value)
    assert refused.key == "bad_option_value" and refused.params["name"].params["name"] == name


def test_the_refusal_names_the_option_and_what_it_allows_in_both_languages():
    with pytest.raises(Refused) as exc:
        textcmd.new_args(("bauernstoss", "target=1000000000"))
    assert t("de", exc.value.key, **exc.value.params) == "Option Ziel (target): erlaubt ist eine ganze Zahl von 1 bis 100."
    assert t("en", exc.value.key, **exc.value.params) == "Option target score (target) takes a whole number from 1 to 100."
    with pytest.raises(Refused) as exc:
        textcmd.new_args(("rams", "target=0"))
    assert t("de", exc.value.key, **exc.value.params).endswith("von 1 bis 100 oder »standard«.")
    with pytest.raises(Refused) as exc:
        textcmd.new_args(("bauerchen", "die_letzte=vielleicht"))
    assert t("en", exc.value.key, **exc.value.params) == "Option Die Letzte (die_letzte) takes on or off."
    with pytest.raises(Refused) as exc:
        textcmd.new_args(("bauer", "brote=3"))
    assert exc.value.key == "unknown_option" and "target_brote" in t("de", exc.value.key, **exc.value.params)


@pytest.mark.parametrize("text", [
    'neu bauernstoss {"target": 30.0}', 'neu bauernstoss {"target": "30"}', 'neu bauernstoss {"target": true}',
    'neu bauerchen {"die_letzte": "yes"}', 'neu bauerchen {"die_letzte": 1}', 'neu rams 3 {"unit": 1e308}',
    'neu rams 3 {"unit": NaN}', 'neu rams 3 unit=1e308', "neu bauernstoss target=1000000000",
])
async def test_a_chat_refuses_bad_options_and_opens_no_table(store, text):
    svc = service(store)
    effects = await svc.handle(say(GROUP, user(0), text))
    assert of(effects, Toast) and not of(effects, TableMessage), effects
    assert await store.table_for_chat(GROUP.key) is None


async def test_typed_option_in_the_lobby(store):
    svc = service(store)
    anna = user(0)
    table_id = table_msg(await svc.handle(say(GROUP, anna, "neu rams 3 unit=0,5 target=standard"))).table_id
    (toast,) = of(await svc.handle(say(GROUP, anna, "option target 3.5")), Toast)
    assert toast.text == "Option Ziel (target): erlaubt ist eine ganze Zahl von 1 bis 100 oder »standard«."
    (toast,) = of(await svc.handle(say(GROUP, anna, "option zeil 3")), Toast)
    assert toast.text.startswith("»zeil« ist keine Option.") and "kartoffel_fee" in toast.text
    (toast,) = of(await svc.handle(say(GROUP, anna, "option reminder_after bald")), Toast)
    assert "90s, 15m" in toast.text and "reminder_after" in toast.text
    await svc.handle(say(GROUP, anna, "option target 7"))
    table = Table.load((await store.load(table_id))[1])
    assert table.options == {"target": 7, "unit": 0.5}


async def test_private_attack_target_of_a_billion_then_leave_is_harmless(store):
    """The issue's attack: a huge target, then standing up, in a private chat."""
    svc = service(store, seed=2)
    anna = user(0)
    chat = private(anna)
    (toast,) = of(await svc.handle(say(chat, anna, "/neu bauernstoss target=1000000000")), Toast)
    assert "1 bis 100" in toast.text
    assert await store.table_for_chat(chat.key) is None
    effects = await svc.handle(say(chat, anna, "/neu bauernstoss target=100"))
    table_id = table_msg(effects).table_id
    effects = await svc.handle(say(chat, anna, "/aufstehen"))
    assert any("geschlossen" in getattr(e, "text", "") for e in effects)
    table = Table.load((await store.load(table_id))[1])
    assert table.status == "aborted" and not table.humans()
    assert await store.table_for_chat(chat.key) is None and await store.due(float("inf")) == []


@pytest.mark.parametrize("text", ["1s", "59s", "٣m", "１h", "31d", "999999999d"])
async def test_timers_hold_their_bounds_and_read_ascii_digits(store, text):
    svc = service(store)
    anna = user(0)
    table_id = table_msg(await svc.handle(say(GROUP, anna, "neu bauer"))).table_id
    for name, label, least in (("reminder_after", "Erinnerung nach", "1m"), ("autoplay_after", "Computer nach", "2m")):
        (toast,) = of(await svc.handle(say(GROUP, anna, f"option {name} {text}")), Toast)
        assert toast.text == f"Option {label} ({name}): erlaubt ist eine Dauer von {least} bis 30d wie 90s, 15m, 12h, " \
                             "2d, oder off."
    table = Table.load((await store.load(table_id))[1])
    assert (table.remind, table.auto) == (12 * 3600, 48 * 3600)


async def test_during_play_the_timers_only_get_longer(store):
    """The issue's attack: ``option autoplay_after 1s`` (or 2m) during play let the computer take every seat."""
    svc = service(store, seed=1)
    anna = user(0)
    table_id = table_msg(await svc.handle(say(GROUP, anna, "neu bauer"))).table_id
    await svc.handle(say(GROUP, anna, "los"))
    for text in ("option autoplay_after 2m", "option reminder_after 1m", "option autoplay_after 47h"):
        (toast,) = of(await svc.handle(say(GROUP, anna, text)), Toast)
        assert toast.text == t("de", "timers_only_longer")
    assert Table.load((await store.load(table_id))[1]).auto == 48 * 3600
    for text in ("option autoplay_after 3d", "option reminder_after off"):
        assert not of(await svc.handle(say(GROUP, anna, text)), Toast)
    (toast,) = of(await svc.handle(say(GROUP, anna, "option reminder_after 1h")), Toast)
    assert toast.text == t("de", "timers_only_longer")
    table = Table.load((await store.load(table_id))[1])
    assert (table.remind, table.auto) == (None, 3 * 86400)
