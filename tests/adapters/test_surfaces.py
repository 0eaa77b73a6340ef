"""Every right at its moment, on every surface: random legal play in every game and option set, rendered
for each seat as the console numbers it, as Telegram's inline keyboards and as Discord's components.

At every step and for every seat, the choices offered (everything but a card played) are exactly the
engine's legal actions for the seat to act, or the out-of-turn offers for any other seat (Spritzen,
Retour, Stoß, Zurückstoßen, Ledig, Karten weg), no more and no fewer; the card buttons are exactly
the seat's cards, each card that may not be played now is refused with a reason when pressed, and the
console brackets exactly those.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator

import pytest

import engine
from adapters.console.console import Console
from adapters.discord import markup as discord_markup
from adapters.telegram import markup as telegram_markup
from bot.protocol import actarg, tokens
from bot.protocol.outgoing import ChatRef, HandMessage, TableMessage
from bot.service.recall import BUTTONS
from bot.service.why import rejection
from bot.table import window
from bot.table.record import Seat, Table
from bot.words.hand import hand_message
from bot.words.i18n import has, t
from bot.words.render import option_fields, table_message
from engine.actions import PLAY, Action
from engine.cards import parse_card

PLATFORMS = ("console", "telegram", "discord")
BOT_VERBS = frozenset({"let_pass"})
"""Verbs of a hand's buttons that are choices of the bot layer rather than engine actions: letting the
moment before the first lead pass (:mod:`bot.table.window`)."""
_CARD_KINDS = {PLAY, "give", "exchange"}
_ITEM = re.compile(r"\[(\d+)\] (.*?)(?=  \[\d+\] |$)")


def _option_sets(game: str) -> Iterator[dict]:
    """The defaults, then every switchable option at each of its other values, one at a time."""
    yield {}
    specs = engine.option_specs(game)
    for name, values in option_fields(game):
        for value in values:
            if value != specs[name].default:
                yield {name: value}


CASES = [(game, n, opts) for game in engine.game_ids()
         for n in range(engine.game_class(game).PLAYERS[0], engine.game_class(game).PLAYERS[1] + 1)
         for opts in _option_sets(game)]


def _table(game: str, n: int, options: dict, platform: str) -> Table:
    seats = [Seat(user=f"{platform}:p{i}", name=f"p{i}") for i in range(n)]
    chat = ChatRef(platform, "g1", title="Stammtisch")
    return Table(id="T1", chat=chat, game=game, n=n, lang="de", status="playing", opener=seats[0].user, seats=seats,
                 options=options)


def _actions(pairs: list[tuple[str, str]]) -> list[tuple[str, Action]]:
    """(label, action) of the act buttons among (label, token) pairs; a hand's other buttons must be known."""
    out = []
    for label, token in pairs:
        tok = tokens.parse(token)
        assert tok is not None, token
        if tok.verb == "act":
            action = actarg.decode(tok.arg)
            assert action is not None and label, (label, token)
            out.append((label, action))
    return out


def _telegram(message: TableMessage | HandMessage) -> list[tuple[str, str]]:
    kb = telegram_markup.keyboard(message.buttons)
    return [(b.text, b.callback_data) for row in kb.inline_keyboard for b in row] if kb else []


def _discord(message: TableMessage | HandMessage) -> list[tuple[str, str]]:
    return [(item.item.label, item.item.custom_id) for item in discord_markup.view(message.buttons).children]


def _console(table: Table, seat: int, shown: TableMessage, hand: HandMessage) -> list[tuple[str, str]]:
    """The numbered choices as the console prints them, each card it brackets checked against ``playable``."""
    out = io.StringIO()
    console = Console(None, stdout=out, user=f"p{seat}")
    assert console.user == table.user(seat)
    console.show([shown, hand])
    start = out.tell()
    console._print_buttons()
    printed = dict(_ITEM.findall(out.getvalue()[start:].strip()))
    pairs = []
    for i, button in enumerate(console.buttons, 1):
        label = printed[str(i)]
        tok = tokens.parse(button.token)
        bracketed = tok.verb == "act" and actarg.is_play(tok.arg) and button.token not in hand.playable
        assert label == (f"({button.label})" if bracketed else button.label), (label, button)
        pairs.append((button.label, button.token))
    return pairs


def _surfaces(table: Table, state: engine.State, seat: int) -> dict[str, list[tuple[str, str]]]:
    """What each surface offers ``seat``: his hand's buttons and the table message's, as (label, token)."""
    hand = hand_message(table, state, seat, 7)
    shown = table_message(table, state, 7, 0)
    verbs = [tokens.parse(b.token).verb for row in hand.buttons for b in row]
    assert set(verbs) <= {"act"} | BOT_VERBS, hand.buttons
    assert ("let_pass" in verbs) == (seat in window.waiting_for(table)), \
        f"seat {seat} may let the moment before the first lead pass exactly while his window is open"
    platform = table.chat.platform
    if platform == "console":
        return {platform: _console(table, seat, shown, hand)}
    render = _telegram if platform == "telegram" else _discord
    return {platform: render(hand) + render(shown)}


def _check_seat(table: Table, state: engine.State, seat: int, offered: list[tuple[str, Action]], where: str) -> None:
    to_act = engine.to_act(state)
    legal = engine.legal_actions(state) if to_act == seat else engine.offers(state).get(seat, [])
    actions = [a for _, a in offered]
    choices = [a for a in actions if a.kind != PLAY]
    assert sorted(choices) == sorted({a for a in legal if a.kind != PLAY}), \
        f"{where}: seat {seat} is offered exactly his choices now"
    cards = [a.card for a in actions if a.kind in _CARD_KINDS and not a.meld]
    hand = engine.view(state, seat)["hand"]
    assert sorted(cards) == sorted(parse_card(c) for c in hand), \
        f"{where}: seat {seat}'s card buttons are his cards, each once"
    assert set(legal) <= set(actions), f"{where}: whatever seat {seat} may do now is offered"
    for a in actions:
        if a.kind == PLAY and a not in legal:
            with pytest.raises(engine.Rejected) as rej:
                engine.apply(state, seat, a)
            refused = rejection(rej.value, a, table, state, seat)
            assert has(refused.key) and t("de", refused.key, **refused.params), \
                f"{where}: seat {seat}'s {a} is refused with a reason"


def _random_move(state: engine.State, rng: random.Random) -> tuple[int, Action]:
    """A legal move of the seat to act or, now and then, an out-of-turn offer of another seat."""
    offers = [(s, a) for s, acts in engine.offers(state).items() for a in acts]
    if offers and rng.random() < 0.2:
        return rng.choice(offers)
    return engine.to_act(state), rng.choice(engine.legal_actions(state))


@pytest.mark.parametrize(("game", "n", "options"), CASES,
                         ids=[f"{g}-{n}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, n, o in CASES])
def test_every_surface_offers_each_seat_exactly_its_rights(game, n, options):
    rng = random.Random(f"{game}{n}{sorted(options.items())}")
    tables = [_table(game, n, options, platform) for platform in PLATFORMS]
    state = engine.new_match(game, rng, n, options)
    kinds: set[str] = set()
    for step in range(300):
        if engine.is_over(state):
            if engine.match_over(state):
                break
            state = engine.next_deal(state, rng)
            for table in tables:
                table.declare = None  # a new deal: its window is still to open
        for table in tables:
            window.update(table, state, 0.0)  # as the match does after every move
            for seat in range(n):
                for platform, pairs in _surfaces(table, state, seat).items():
                    offered = _actions(pairs)
                    _check_seat(table, state, seat, offered, f"{platform} step {step}")
                    kinds.update(a.kind for _, a in offered)
                kinds.update({"let_pass"} if seat in window.waiting_for(table) else set())
        state, _ = engine.apply(state, *_random_move(state, rng))
    expected = {"bauernstoss": {"announce", "pass"}, "alter_schafkopf": {"announce", "pass"},
                "bauerchen": {"name_trump", "spritz", "let_pass"}, "bauer": {"name_trump", "stoss", "karten_weg", "let_pass"},
                "rams": {"play_hand"}}[game]
    assert expected <= kinds, f"the decisions of {game} were offered along the way"


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_finished_table_offers_the_memory_on_every_surface(platform):
    """Under »Revanche« and »Neuer Tisch« a finished table offers what the chat remembers of its game, on the
    console's numbers, Telegram's keyboard and Discord's components alike, and the service takes each."""
    rng = random.Random(3)
    table = _table("bauer", 4, {"short_deck": True, "target_brote": 1}, platform)
    state = engine.new_match("bauer", rng, 4, table.options)
    while not engine.match_over(state):
        state = engine.next_deal(state, rng) if engine.is_over(state) else \
            engine.apply(state, engine.to_act(state), rng.choice(engine.legal_actions(state)))[0]
    table.status, table.state = "finished", engine.to_json(state)
    shown = table_message(table, state, 9, 0)
    if platform == "console":
        console = Console(None, stdout=io.StringIO(), user="p0")
        console.show([shown])
        pairs = [(b.label, b.token) for b in console.buttons]
    else:
        pairs = (_telegram if platform == "telegram" else _discord)(shown)
    verbs = [tokens.parse(token).verb for _, token in pairs]
    assert verbs == ["rematch", "new", "ranking", "tonight", "stats"] and set(verbs[2:]) == BUTTONS
    assert [label for label, _ in pairs][2:] == ["🏆 Rangliste", "🌙 Der Abend", "📊 Meine Statistik"]
