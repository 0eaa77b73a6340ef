"""Issue 30, item 1: no card of a hidden hand is ever posted in a group, whatever a player types or presses.

In every game a player sits with computer players at a group's table; when he is to decide, the bot can
no longer write to him privately (on Telegram he blocked it, or the platform says he never started it;
on Discord he closed his DMs). He then types every action word of the games in the group, bare and
with cards of his hand (``/rauben 8S`` at Rams), asks for his hand, and presses every action a button
can encode: refusals that list his choices name his cards. Everything the bot posts in the group
meanwhile is scanned for the label of any card hidden in a hand or set aside. The service's clock
stands still, so no timer moves the table while it is scanned.
"""

from __future__ import annotations

import functools
import random
import time

import engine
from bot.ops.settings import load_settings
from bot.protocol import actarg, tokens
from bot.service import Service
from bot.table.record import Table
from bot.table.refused import Refused
from bot.words import textcmd
from engine.actions import KINDS, Action
from engine.cards import card_str, cards_in
from tests.fakes.discord import FakeDiscord
from tests.fakes.discord import harness as dc
from tests.fakes.telegram import harness as tg_kit
from tests.servicekit import TurnWatch, leaks, secrets_of

GAMES = (("rams", 3), ("bauernstoss", 4), ("alter_schafkopf", 4), ("bauerchen", 4), ("bauer", 4))
"""Every game, Rams first: with this service's seed its first dealer is the person, who may rob."""
SEED = 3
"""The service's seed (its shuffles and first dealers)."""
WORDS = [words[0] for words in textcmd.ACTION_WORDS.values()]
"""One typed word of every engine action."""
CARD_WORDS = [textcmd.ACTION_WORDS[kind][0] for kind in ("play", "meld", "give", "exchange")]
"""The words of the actions that take a card."""
ASKED = ("hand", "weiter", "tisch")
"""Table commands typed too: the hand asked for, the window let pass, the table shown."""
TUNING = tg_kit.FAST.model_copy(update={"group_messages": 400, "global_messages": 2000})
"""The fake's limits (and the adapter's), raised: each group gets dozens of answers at once."""
SETTINGS = {"answers_per_minute": 1000, "reminder_after": "off", "autoplay_after": "off"}
"""Every refusal answered (no budget note instead), no turn timer."""


def _service():
    """The service's class, with its seed and a clock that stands still."""
    now = time.time()
    return functools.partial(Service, rng=random.Random(SEED), clock=lambda: now)


def _allowed(state: engine.State, seat: int) -> list[Action]:
    """What ``seat`` may do now: only refusals are sent, so the hands stay as they are."""
    return engine.legal_actions(state) if state.to_act == seat else state.offers_for(seat)


def _forged(state: engine.State, seat: int) -> list[str]:
    """An action of every kind a button can encode that ``seat`` may not take now: with a card of his hand
    (the last: the typed commands name the first), two suits, both sizes."""
    cards = cards_in(state.hands[seat])[-1:]
    out = []
    for kind in KINDS:
        if kind in ("play", "give", "exchange"):
            out += [Action(kind, c) for c in cards]
        elif kind in ("announce", "name_trump"):
            out += [Action(kind, suit=s) for s in (0, 2)]
        elif kind == "solo":
            out += [Action(kind, size="small"), Action(kind, size="grand")]
        else:
            out.append(Action(kind))
    return [actarg.encode(a) for a in out if a not in _allowed(state, seat)]


async def _deciding(store, table_id: str, user_id: int) -> tuple[Table, int]:
    """Wait until the person is to decide (his turn, or his window before the first lead); the table and his seat."""
    watch = TurnWatch(store, table_id)

    async def his_turn() -> bool:
        await watch.look()
        return watch.turn_of(user_id)
    await tg_kit.until(his_turn, "the person to decide")
    table = Table.load((await store.load(table_id))[1])
    return table, next(i for i, s in enumerate(table.seats) if s.user.endswith(f":{user_id}"))


def _typed(state: engine.State, seat: int, declaring: bool) -> list[str]:
    """What he types in the group: every action word, bare, and those that take a card with one of his hand
    (``/rauben 8S``), but what he may do now; the table commands."""
    card = card_str(cards_in(state.hands[seat])[0])
    said = [(w, "") for w in WORDS] + [(w, card) for w in CARD_WORDS]
    out = [f"/{w} {arg}".strip() for w, arg in said if not _takes(state, seat, w, arg)]
    return out + [f"/{w}" for w in ASKED if not (w == "weiter" and declaring)]


def _takes(state: engine.State, seat: int, word: str, arg: str) -> bool:
    """Whether ``word arg`` typed by ``seat`` is a move he may make now."""
    parsed = textcmd.parse(word, (arg,) if arg else ())
    try:
        action = textcmd.action_for(parsed.name, parsed.args, _allowed(state, seat), engine.view(state, seat))
    except Refused:
        return False
    return action in _allowed(state, seat)


def _assert_hidden(posted: list[str], table: Table, game: str) -> None:
    """No text posted in the group names a card still hidden in a hand or set aside."""
    secret = secrets_of(table)[3]
    assert secret, game
    found = {label for text in posted for label in leaks(text, secret)}
    assert not found, (game, found, [text for text in posted if leaks(text, secret)][:3])


async def test_no_refusal_or_answer_names_a_hidden_card_in_a_telegram_group(store, redis, key_prefix):
    async with tg_kit.fake_for(TUNING) as tg:
        async with tg_kit.running_bot(tg, store, redis, key_prefix, TUNING, service=_service(), **SETTINGS) as bot:
            for no, (game, n) in enumerate(GAMES):
                group = tg.group(-100500 - no, f"Tisch {no}")
                kurt = tg.user(500 + no, "Kurt", started=True)
                tid = await tg_kit.open_table(tg, group, kurt, [], game, str(n), computers=n - 1)
                table, seat = await _deciding(store, tid, kurt.id)
                assert game != "rams" or table.state and engine.from_json(table.state).dealer == seat
                hand = await tg.wait_for(lambda: tg_kit.newest(tg, kurt.id, tid), what="his hand")
                await tg_kit.settled(tg, bot)
                if no % 2:
                    kurt.block()
                else:
                    kurt.started = False  # Telegram: he never started the bot
                mark = len(tg.calls)
                state = engine.from_json(table.state)
                typed = _typed(state, seat, table.declare is not None and seat in table.declare)
                for text in typed:  # he reads each answer before he types again
                    await tg_kit.handled(tg, store, [kurt.send(group, text)])
                    await tg_kit.settled(tg, bot)
                version = tg_kit.version(tg, group, tid)
                queries = [kurt.press(hand, data=tokens.make(tid, version, "act", arg)) for arg in _forged(state, seat)]
                await tg.wait_for(lambda: all(q in tg.answers for q in queries), what="every press answered")
                await tg_kit.settled(tg, bot)
                posted = [p["text"] for _, m, p, status in tg.calls[mark:] if status == 200
                          and m in ("sendMessage", "editMessageText") and int(p["chat_id"]) == group]
                _assert_hidden(posted, Table.load((await store.load(tid))[1]), game)
                assert len(posted) >= len(typed) - len(ASKED), (game, posted)  # he was answered in the group


async def test_no_refusal_or_answer_names_a_hidden_card_in_a_discord_channel(store, redis, key_prefix):
    async with dc.fake_for(dc.FAST) as fake:
        fake.guild(900, "Stammtisch", {901 + no: f"tisch-{no}" for no in range(len(GAMES))})
        async with dc.running_bot(fake, store, redis, key_prefix, service=_service()(store, _settings(fake))) as bot:
            for no, (game, n) in enumerate(GAMES):
                channel = 901 + no
                kurt = fake.member(600 + no, "Kurt")
                answer = await fake.answer(kurt.slash(channel, "new", game=game))
                assert answer["data"]["flags"] & 64, answer
                tid = await fake.wait_for(lambda: _table_of(fake, channel), what="the table message")
                for _ in range(n - 1):
                    seen = dc.version(fake, channel, tid)
                    await dc.press_verb(fake, kurt, channel, tid, "bot")
                    await fake.wait_for(lambda: dc.version(fake, channel, tid) > seen, what="a computer seated")
                await dc.press_verb(fake, kurt, channel, tid, "start")
                table, seat = await _deciding(store, tid, kurt.id)
                hand = await fake.wait_for(lambda: dc.hand_of(fake, kurt, channel, tid), what="his hand")
                kurt.dms_open = False
                mark = len(fake.seen_by(0, channel))
                state = engine.from_json(table.state)
                version = dc.version(fake, channel, tid)
                presses = [kurt.press(hand, tokens.make(tid, version, "act", arg)) for arg in _forged(state, seat)]
                presses += [kurt.slash(channel, "hand"), kurt.slash(channel, "table")]
                answers = [await fake.answer(i) for i in presses]
                await dc.settled(bot)
                assert sum(a["type"] == 4 and a["data"]["flags"] & 64 for a in answers) >= len(presses) // 2, answers
                posted = [m.content for m in fake.seen_by(0, channel)[mark:]]
                _assert_hidden(posted, Table.load((await store.load(tid))[1]), game)


def _settings(fake: FakeDiscord):
    """The settings of the Discord bot on the fake, with :data:`SETTINGS`."""
    return load_settings(discord_token=fake.token, discord_api_base_url=fake.base_url,
                         discord_gateway_url=fake.gateway_url, **SETTINGS)


def _table_of(fake: FakeDiscord, channel: int) -> str | None:
    """The table whose join button the channel shows last."""
    found = [t for m in fake.seen_by(0, channel) for t in map(tokens.parse, m.custom_ids()) if t and t.verb == "join"]
    return found[-1].table if found else None
