"""Headless chromium for the web table's tests: Debian's ``chromium`` driven by selenium.

Each window is a browser of its own (own cookies and storage), sized like a phone. Where chromium
or its driver is missing, the tests that need one are skipped with one line saying what to install.
Waits are on conditions in the page (``WebDriverWait``), never on the clock.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable

__all__ = ["PHONE", "DESKTOP", "MISSING", "browser_missing", "open_window", "resize", "wait_for"]

PHONE = (390, 844)
"""A phone's screen in CSS pixels (width, height)."""
DESKTOP = (1280, 800)
"""A desktop browser's window in CSS pixels (width, height)."""

MISSING = ("browser tests skipped: no headless chromium here; install Debian's chromium and "
           "chromium-driver (apt-get install chromium chromium-driver; .ci/run does it on CI)")
"""The one line a skipped browser test gives."""

WAIT_S = 20.0
"""The longest a condition is waited for before the test fails (a hang, not a timing check)."""


def _binary(name: str) -> str | None:
    """The path of executable ``name``: on ``PATH``, else in ``/usr/bin``, else ``None``."""
    found = shutil.which(name) or f"/usr/bin/{name}"
    return found if os.access(found, os.X_OK) else None


def browser_missing() -> bool:
    """Whether chromium or chromedriver is missing, or selenium is not installed."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return True
    return _binary("chromium") is None or _binary("chromedriver") is None


def open_window(size: tuple[int, int] = PHONE, lang: str = "de-DE"):
    """Start a headless chromium window of ``size`` CSS pixels whose browser asks for ``lang``.

    Returns:
        The selenium ``WebDriver``; the caller quits it.
    """
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _binary("chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-extensions", "--no-first-run", "--hide-scrollbars",
                     f"--window-size={size[0]},{size[1]}", f"--lang={lang}"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": lang})
    driver = webdriver.Chrome(service=Service(executable_path=_binary("chromedriver")), options=options)
    driver.set_page_load_timeout(WAIT_S)
    driver.set_script_timeout(WAIT_S)
    return driver


def wait_for(driver, condition: Callable, what: str, timeout: float = WAIT_S):
    """Wait until ``condition(driver)`` is truthy and return its value; fail saying ``what`` was awaited."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(condition, message=f"waited for {what}")


def resize(driver, size: tuple[int, int], scale: float = 1) -> None:
    """Make the page of ``driver`` ``size`` CSS pixels at ``scale`` device pixels each (:data:`PHONE`: a touch
    screen); waits until the page has its new width."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": size[0], "height": size[1],
                                                                  "deviceScaleFactor": scale, "mobile": size == PHONE})
    wait_for(driver, lambda d: d.execute_script("return innerWidth") == size[0], f"the page at {size}")
