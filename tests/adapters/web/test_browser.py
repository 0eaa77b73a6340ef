"""The web table in real headless chromium windows: a whole deal of Bauerchen played by clicking in four
windows, one per player, each showing only its own hand, and watched from a fifth that shows no card of any
hand while the players' pages count it; a tap the rules refuse answered in the page with
its reason; the pictures' corner letters in the table's language; and the page refusing credentials that
do not check out, on its real path (the live feed refused, the page showing why).
"""

from __future__ import annotations

import json
import random
import time

import pytest

import engine
from adapters.common.webauth import LINK_TTL_S
from bot.table.record import Table
from bot.words.cards import card_label
from bot.words.i18n import t
from bot.words.webview import web_text
from engine.cards import ALL_CARDS, card_str, card_strs, mask_of
from tests.adapters.web.browser import wait_for
from tests.adapters.web.livetable import LiveTable, Seen, click, play_deal, seen, tap_once
from tests.adapters.web.webkit import BOT_TOKEN, init_data, person

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def live(redis_url, key_prefix):
    with LiveTable(redis_url, key_prefix, "bauerchen", seed=5) as table:
        yield table


async def _stored(live: LiveTable) -> Table:
    return Table.load((await live.service.store.load(live.table))[1])


def hands_of(live: LiveTable) -> list[tuple[set[str], set[str]]]:
    """For each seat, from the stored table: the cards in his hand he has been dealt so far, and the
    cards hidden from him (every other card in a hand or set aside that the table has not seen)."""
    state = engine.from_json(live.run(_stored(live)).state)
    public = json.dumps(engine.view(state, None))
    known = state.known_cards() | mask_of(c for c in ALL_CARDS if f'"{card_str(c)}"' in public)
    unseen = (sum(state.hands) | state.set_aside()) & ~known
    return [(set(card_strs(state.visible_hand(s))), set(card_strs(unseen & ~state.visible_hand(s))))
            for s in range(state.n)]


def shown_cards(html: str) -> set[str]:
    """Every card the page's DOM names anywhere: its notation (attributes, picture paths) or its label in
    German or English (text, titles)."""
    return {card_str(c) for c in ALL_CARDS
            if f'"{card_str(c)}"' in html or f"/{card_str(c)}.svg" in html
            or any(card_label(card_str(c), lang) in html for lang in ("de", "en"))}


def check_own_hand_only(windows_seen: list[Seen], hands: list[tuple[set[str], set[str]]]) -> None:
    """Each window's ``#hand`` holds its seat's cards, and no card hidden from him is in its DOM at all."""
    for seat, shown in enumerate(windows_seen):
        own, hidden = hands[seat]
        assert shown["me"] == seat
        assert {card for card, _, _ in shown["hand"]} == own
        assert shown_cards(shown["html"]) & hidden == set(), f"seat {seat}'s page shows a hidden card"


def watchers_line(window) -> str:
    """The line that says how many watch (empty where none is shown)."""
    return window.execute_script("const l = document.getElementById('watchers'); return l && !l.hidden ? "
                                 "l.textContent : '';")


def test_a_whole_deal_played_by_clicking_in_four_windows(live, windows):
    pages = live.open_pages(windows)
    check_own_hand_only([seen(w) for w in pages], hands_of(live))
    watcher = windows()  # a member of the group without a seat, from the table message's Mini App link
    watcher.get(live.mini_app(init_data(1009, start_param=live.table)))
    wait_for(watcher, lambda w: seen(w)["version"] > 0, "the watcher's table")
    note = watcher.find_element("id", "hand-label")
    assert note.is_displayed() and note.text.startswith("Du kiebitzt"), "the watcher is told he watches"
    for page in pages:
        wait_for(page, lambda w: watchers_line(w) == "1 Kiebitz schaut zu", "the count of watchers")
    checked = []

    def on_card(seat: int, card: str, shown: list[Seen]) -> None:
        for other, view in enumerate(shown):
            assert card in view["trick"] + view["last"], f"{card} of seat {seat} not on the table of seat {other}"
            assert card not in [c for c, _, _ in view["hand"]]
        wait_for(watcher, lambda w: card in seen(w)["trick"] + seen(w)["last"], f"{card} at the watcher's")
        public = seen(watcher)
        assert public["hand"] == [] and public["offers"] == [] and public["me"] == -1
        if len(checked) % 5 == 0:  # the hands as they shrink (each check reads four whole pages)
            hands = hands_of(live)
            check_own_hand_only(shown, hands)
            assert shown_cards(public["html"]) & set().union(*(hidden for _, hidden in hands)) == set()
        checked.append(card)

    assert play_deal(pages, random.Random(3), on_card) == 20
    assert len(set(checked)) == 20
    assert live.run(_stored(live)).deals == 1


def refused_with(window, url: str, text: str) -> None:
    """Open ``url`` afresh; wait until the page says ``text`` as a refusal, shows no hand and nothing of any card."""
    window.get("about:blank")  # a URL that differs in its fragment only would not load the page again
    window.get(url)
    wait_for(window, lambda w: seen(w)["notice"] == text, f"the refusal {text!r}")
    shown = seen(window)
    assert shown["hand"] == [] and shown["version"] == -1
    assert shown_cards(shown["html"]) == set()
    assert "closed" in window.find_element("tag name", "body").get_attribute("class").split()


def test_forged_expired_foreign_and_tampered_credentials_are_refused_on_the_page(live, windows):
    window = windows()
    denied, not_seated = web_text("de", "denied"), web_text("de", "not_seated")
    refused_with(window, live.page(0, secret=b"x" * 32), denied)  # signed with another key
    refused_with(window, live.page(0, now=time.time() - 13 * 3600), denied)  # signed 13 hours ago: a link holds 12
    refused_with(window, live.mini_app(init_data(1009)), not_seated)  # no seat here, not from the group's link
    tampered = init_data(1001, start_param=live.table).replace("1001", "1002")  # Anna's data, Ben's id
    refused_with(window, live.mini_app(tampered), denied)
    anna = init_data(1001, start_param=live.table)  # its hash comes last: change the hash's last digit
    refused_with(window, live.mini_app(anna[:-1] + ("1" if anna.endswith("0") else "0")), denied)
    other_bot = init_data(1001, start_param=live.table, bot_token="654321:ANOTHER-bot")
    refused_with(window, live.mini_app(other_bot), denied)
    window.get("about:blank")
    window.get(live.mini_app(init_data(1002, start_param=live.table)))  # the real thing, for contrast
    wait_for(window, lambda w: seen(w)["me"] == 1 and seen(w)["hand"], "Ben's hand")
    assert BOT_TOKEN not in seen(window)["html"]
    window.get(live.page(0, now=time.time() - (LINK_TTL_S - 3)))  # a link that runs out in a few seconds
    wait_for(window, lambda w: seen(w)["me"] == 0 and seen(w)["hand"], "Anna's hand")
    wait_for(window, lambda w: seen(w)["notice"] == web_text("de", "expired"), "how to get a new link")
    assert "closed" in window.find_element("tag name", "body").get_attribute("class").split()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_pictures_carry_the_tables_letters(redis_url, key_prefix, windows, lang):
    """A German table's Jacks and Queens show B and D (``cards/JC.svg``), an English one's J and Q (``cards/en/``)."""
    with LiveTable(redis_url, key_prefix, "bauerchen", seed=5, lang=lang) as table:
        sources = {}
        for window in table.open_pages(windows):
            sources.update(window.execute_script(
                "return Object.fromEntries([...document.querySelectorAll('#hand [data-card]')]"
                ".map(b => [b.dataset.card, b.querySelector('img').getAttribute('src')]))"))
    assert any(card[0] in "JQ" for card in sources), "no Jack or Queen in sight: another seed"
    for card, src in sources.items():
        english = lang == "en" and card[0] in "JQ"
        assert src == f"static/cards/{'en/' if english else ''}{card}.svg"


def test_a_tap_the_rules_refuse_is_answered_with_its_reason_and_changes_nothing(live, windows):
    """A card of a player who is not to play, tapped on a page a move behind (its button still enabled): the
    page says why, and no window moves. (The page offers only taps the table takes: a meld out of turn is
    not shown, so the stale page is made by enabling the button as it was a move before.)"""
    pages = live.open_pages(windows)
    rng = random.Random(3)
    while not seen(pages[0])["trick"]:  # the first lead is played: the declarations are over
        assert tap_once(pages, rng) is not None, "nobody to play in this deal: another seed"
    seat, arg = next((i, s["hand"][0][2]) for i, s in enumerate(map(seen, pages)) if not s["turn"] and s["hand"])
    before = [seen(w)["version"] for w in pages]
    pages[seat].execute_script("const b = [...document.querySelectorAll('#hand button.card')]"
                               ".find(e => e.dataset.arg === arguments[0]); b.disabled = false; b.click();", arg)
    wait_for(pages[seat], lambda w: w.find_element("id", "notice").get_attribute("class") == "refusal",
             "the refusal")
    to_act = next(i for i, s in enumerate(map(seen, pages)) if s["turn"])
    assert seen(pages[seat])["notice"] == t("de", "not_your_turn", name=person(to_act).name)
    assert [seen(w)["version"] for w in pages] == before