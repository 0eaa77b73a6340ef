"""Logs: one line per event, JSON on request, and never a card of a hand, a token or a secret."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest

from bot.protocol import tokens
from bot.run import logs
from bot.table.record import Table
from tests.fakes.telegram.harness import FAST, Players, fake_for, running_bot, watching

CARD = re.compile(r"(?<![0-9A-Za-z])(?:[ATKQJ9876]|10)[CSHD](?![0-9A-Za-z])|[♣♠♥♦]")


@pytest.fixture
def root_logging():
    """The root logger's handlers and the levels touched, restored after the test."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level, {n: logging.getLogger(n).level for n in logs.QUIET_LOGGERS}
    yield
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])
    for name, level in saved[2].items():
        logging.getLogger(name).setLevel(level)


def test_redact():
    text = "POST https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage " \
           "data st1:Ab3dE6gH:12:act:pl.AS secret hunter2-is-secret"
    out = logs.redact(text, ["hunter2-is-secret"])
    assert "AAHdq" not in out and "pl.AS" not in out and "hunter2" not in out
    assert "st1:Ab3dE6gH:12:act:***" in out


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_one_line_per_event_even_with_a_traceback(root_logging, fmt):
    out = io.StringIO()
    logs.configure(fmt, "INFO", ["s3cret-value"], stream=out)
    log = logging.getLogger("bot.test")
    try:
        raise ValueError("line one\nline two s3cret-value")
    except ValueError:
        log.exception("it failed for %s", "st1:Ab3dE6gH:1:act:pl.JC", extra={"table": "Ab3dE6gH"})
    log.debug("not shown at INFO")
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    assert "s3cret-value" not in lines[0] and "pl.JC" not in lines[0] and "Ab3dE6gH" in lines[0]
    if fmt == "json":
        event = json.loads(lines[0])
        assert event["level"] == "ERROR" and event["table"] == "Ab3dE6gH" and "ValueError" in event["exc"]


async def test_a_whole_deal_logs_no_card_no_token_no_secret(root_logging, store, redis, key_prefix):
    out = io.StringIO()
    async with fake_for(FAST) as tg:
        logs.configure("json", "DEBUG", [tg.token], stream=out)
        anna = tg.user(11, "Anna", started=True)
        async with running_bot(tg, store, redis, key_prefix):
            anna.send(None, "/neu bauerchen")
            tid = await tg.wait_for(lambda: next((t.table for m in tg.chat(anna.id) for b in m.buttons
                                                  if (t := tokens.parse(b.get("callback_data", "")))), None),
                                    what="her hand")
            players = Players(tg, [anna], tid, store, seed=5)

            def done() -> bool:  # a deal, and a move of hers (her partner's Ledig can make her sit one out)
                return latest() and latest().deals >= 1 and any(not a.get("text") for _, _, a in players.presses)
            async with watching(store, tid) as latest:
                await players.play(done, timeout=60)
            anna.send(None, "/hand")
            anna.send(None, "/spiel AS")
            await tg.drained()
        _, data = await store.load(tid)
    table = Table.load(data)
    lines = out.getvalue().splitlines()
    events = [json.loads(line) for line in lines]
    assert any(e.get("status") == "playing" and e.get("table") == tid for e in events), lines[:5]
    assert any(e.get("verb") == "act" for e in events), [(e.get("verb"), e.get("msg")) for e in events][-20:]
    for line in lines:
        assert tg.token not in line and tg.token.split(":")[1] not in line
        assert not CARD.search(line), line
    assert table.deals >= 1
