"""Turn notifications: the hand of a player who gets the turn after a while away is marked to notify."""

from __future__ import annotations

from bot.protocol.outgoing import HandMessage, Notice
from bot.table import notify
from bot.table.record import Table
from tests.servicekit import GROUP, Players, of, private, say, service, user

T0 = 1_800_000_000.0  # 09:00 in Berlin: outside the default quiet hours


async def four_at_bauer(store, now: list[float]):
    svc = service(store, seed=5, clock=lambda: now[0])
    users = [user(i) for i in range(4)]
    players = Players(svc, GROUP, users, seed=2)
    await players.sit_down("bauer")
    return svc, players, users


def notifying(effects: list) -> list[HandMessage]:
    return [h for h in of(effects, HandMessage) if h.notify]


async def test_fast_play_edits_silently_and_slow_play_notifies_once_per_turn(store):
    now = [T0]
    svc, players, users = await four_at_bauer(store, now)
    for _ in range(12):  # everybody acts within seconds
        now[0] += 3
        assert notifying(await players.step()) == []
    for _ in range(12):  # every move takes ten minutes: the next player has been away that long
        now[0] += 600
        before = (await players.to_act())[0]
        effects = await players.step()
        after = await players.to_act()
        marked = notifying(effects)
        if after is None or after[0].key == before.key:
            assert marked == []
        else:
            assert [h.user.key for h in marked] == [after[0].key], "exactly the player whose turn it is now"
            assert marked[0].buttons, "with the buttons to act"


async def test_nothing_new_for_the_player_to_act_notifies_nobody(store):
    now = [T0]
    svc, players, users = await four_at_bauer(store, now)
    now[0] += 3600
    u, _ = await players.to_act()
    effects = await players.send(say(GROUP, u, "hand"))
    assert notifying(effects) == [], "asking for the hand is not a new turn"


async def test_each_player_chooses_per_chat_and_in_private_for_every_chat(store):
    now = [T0]
    svc, players, users = await four_at_bauer(store, now)
    anna = users[0]
    notice = of(await svc.handle(say(GROUP, anna, "benachrichtigung nur erinnerungen")), Notice)[0]
    assert "nur Erinnerungen" in notice.text
    assert await notify.current(store, GROUP, anna) == notify.REMINDERS
    ben = users[1]
    await svc.handle(say(private(ben), ben, "notify off"))
    assert await notify.current(store, GROUP, ben) == notify.OFF, "his default from the private chat"
    await svc.handle(say(GROUP, ben, "notify every turn"))
    assert await notify.current(store, GROUP, ben) == notify.EVERY, "the chat's choice comes first"
    refusal = await svc.handle(say(GROUP, ben, "notify sometimes"))
    assert refusal[0].text.startswith("Benachrichtigung:") and await notify.current(store, GROUP, ben) == notify.EVERY
    shown = of(await svc.handle(say(GROUP, ben, "benachrichtigung")), Notice)[0]
    assert "jedem Zug" in shown.text

    for _ in range(40):  # slow play: only the players who want every turn are notified
        now[0] += 600
        for h in notifying(await players.step()):
            assert h.user.key != anna.key


async def test_a_player_who_wants_nothing_is_not_mentioned_by_the_reminder(store):
    now = [T0]
    svc, players, users = await four_at_bauer(store, now)
    for u in users:
        await svc.handle(say(private(u), u, "benachrichtigung aus"))
    table = Table.load((await store.load(players.table.table_id))[1])
    reminders = [n for n in await svc.tick(table.since + table.remind + 1) if isinstance(n, Notice)]
    assert len(reminders) == 1 and reminders[0].mentions == () and reminders[0].text.startswith("⏰")


def test_mode_words():
    assert notify.mode_of(("jeder", "Zug")) == notify.EVERY
    assert notify.mode_of(("nur", "Erinnerungen")) == notify.REMINDERS
    assert notify.mode_of(("aus",)) == notify.OFF
    assert notify.mode_of(("x" * 5000,)) is None


async def test_a_turn_notification_says_your_turn_and_shows_the_cards_led(store):
    now = [T0]
    svc, players, users = await four_at_bauer(store, now)
    seen = []
    for _ in range(60):  # slow play: every turn is notified; keep those in the middle of a trick
        now[0] += 600
        seen += [h.text.splitlines() for h in notifying(await players.step()) if "Im Stich: " in h.text]
    assert seen, "no notification came in the middle of a trick"
    for lines in seen:
        assert "Du bist dran." in lines
        led = lines[lines.index("Du bist dran.") + 1]
        assert led.startswith("Im Stich: ") and any(name in led for name in ("Anna", "Ben", "Cleo", "Dora"))


async def test_the_hand_of_an_aborted_table_says_aborted(store):
    svc, players, users = await four_at_bauer(store, [T0])
    effects = await svc.handle(say(GROUP, users[0], "abbrechen"))  # the opener aborts at once
    hands = of(effects, HandMessage)
    assert hands and all("Der Tisch ist abgebrochen." in h.text and "Partie ist aus" not in h.text for h in hands)
