"""Fixtures of the web table's tests: headless browser windows (skipped where chromium is missing)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.adapters.web.browser import MISSING, PHONE, browser_missing, open_window


@pytest.fixture
def windows() -> Iterator[Callable[..., object]]:
    """Open headless chromium windows (``windows(size=PHONE, lang="de-DE")``); all are closed afterwards.

    Skips the test, with one line saying what to install, where chromium or chromedriver is missing.
    """
    if browser_missing():
        pytest.skip(MISSING)
    opened = []

    def open_one(size: tuple[int, int] = PHONE, lang: str = "de-DE"):
        driver = open_window(size, lang)
        opened.append(driver)
        return driver

    yield open_one
    for driver in opened:
        driver.quit()
