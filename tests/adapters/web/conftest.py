"""Fixtures of the web table's tests: headless browser windows (skipped where chromium is missing)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.adapters.web.browser import MISSING, PHONE, browser_missing, open_window

_skipped: list[str] = []
"""The browser tests skipped for want of a browser (the run's summary says so once)."""


@pytest.fixture
def windows(request: pytest.FixtureRequest) -> Iterator[Callable[..., object]]:
    """Open headless chromium windows (``windows(size=PHONE, lang="de-DE")``); all are closed afterwards.

    Skips the test where chromium or chromedriver is missing; the run's summary then says, in one
    line, what to install.
    """
    if browser_missing():
        _skipped.append(request.node.nodeid)
        pytest.skip(MISSING)
    opened = []

    def open_one(size: tuple[int, int] = PHONE, lang: str = "de-DE"):
        driver = open_window(size, lang)
        opened.append(driver)
        return driver

    yield open_one
    for driver in opened:
        driver.quit()


@pytest.fixture(scope="module")
def window(request: pytest.FixtureRequest) -> Iterator[object]:
    """One headless chromium window for a whole module (its tests resize it as they need); skipped as
    :func:`windows` is where chromium or chromedriver is missing."""
    if browser_missing():
        _skipped.append(request.node.nodeid)
        pytest.skip(MISSING)
    driver = open_window(PHONE)
    yield driver
    driver.quit()


def pytest_terminal_summary(terminalreporter) -> None:
    """One line at the end of the run when browser tests were skipped: what to install."""
    if _skipped:
        terminalreporter.write_line(f"{len(_skipped)} {MISSING}", yellow=True)
