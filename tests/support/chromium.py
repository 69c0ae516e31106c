"""Debian's chromium under Playwright for the browser tests (tests/web and the deployed shape's page test in
tests/server): headless, no sandbox, never a downloaded browser. Under CI=true a missing chromium or Playwright
FAILS the test that asked for it; elsewhere it is skipped."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-gpu",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    for cand in (os.environ.get("VEDETTE_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if cand and os.path.exists(cand):
            return cand
    return None


def _missing(message: str) -> None:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message)
    pytest.skip(message)


# One browser per test module, not per session: Playwright's sync API keeps an event loop running on the
# main thread while it is open, so a test outside tests/web that the same process ran next (as a parallel
# run's worker does) could not start its own (`asyncio.run`). A launch costs about half a second.
@contextlib.contextmanager
def launch_chromium() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        _missing("Debian's chromium is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:  # pragma: no cover
        _missing(f"playwright is not installed: {e}")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
