"""Browser-test fixtures: the real Vedette app on a free loopback port, and Debian's chromium.

Under CI=true a missing chromium FAILS the browser tests; otherwise they are skipped.
Never downloads a browser.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import launch_chromium

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def live_server() -> Iterator[object]:
    from liveserver import LiveServer

    srv = LiveServer().start()
    try:
        yield srv
    finally:
        srv.stop()


# One browser per test module (tests/support/chromium.py says why).
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with launch_chromium() as b:
        yield b


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    rep = yield
    setattr(item, f"rep_{rep.when}", rep)
    return rep


DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def open_page(browser: Any, artifacts: Path, request: Any) -> Iterator[Any]:
    """A page factory: `open_page(errors, name, viewport=DESKTOP)` opens a page in a fresh browser context whose
    JS errors are appended to `errors`; if the test fails, every page it opened is screenshotted."""
    pages: dict[str, Any] = {}

    def make(errors: list[str], name: str, viewport: dict[str, int] = DESKTOP) -> Any:
        ctx = browser.new_context(viewport=viewport)  # type: ignore[attr-defined]
        from liveserver import pin_contributions

        pin_contributions(ctx)  # known dice: every seat contributes the same pinned value (docs/dice.md)
        page = ctx.new_page()
        page.set_default_timeout(15000)
        page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
        page.on("console", lambda m: errors.append(f"{name} console: {m.text}")
                if m.type == "error" and "Failed to load resource" not in m.text else None)
        pages[name] = page
        return page

    yield make
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        for name, page in pages.items():
            try:
                page.screenshot(path=str(artifacts / f"failure-{request.node.name}-{name}.png"))
            except Exception:  # noqa: BLE001, S110 - best effort, the test has already failed
                pass

