"""The deployed shape, as players see it (issue 38): two game pages (Playwright, Debian's chromium) through
HAProxy (the repository's config) in front of two Vedette processes on one Postgres, all on 127.0.0.1.

The game's process is SIGKILLed. Both pages reconnect by themselves (nobody reloads or clicks anything), to the
other process within 10 s, and play on through their pages; the killed process starts again on its port and
the proxy sends the game back to it (consistent hashing: its share returns), while the pages, whose sockets
stayed on the survivor, still see every change the returned process makes (LISTEN/NOTIFY). Two spectators
(logged out, by the watch link) follow every change: one through the proxy, one on the other process directly. The game's stored
state equals the replay of its log throughout.

Under CI=true a missing haproxy, chromium or Postgres FAILS this test; elsewhere it is skipped."""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from chromium import launch_chromium
from proxy_process import ProxyProcess
from test_crash import ServerProcess, _db_state, free_port

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))  # the page helpers the browser tests share
from web_helpers import end_phase, seated_game, wait_view  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.browser]

FAILOVER_S = 10.0
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def _start(settings: Any, name: str, port: int, directory: Path) -> ServerProcess:
    return ServerProcess(settings, port, directory / f"{name}.log",
                         extra_env={"VEDETTE_PROCESS_NAME": name, "VEDETTE_DB_POOL_SIZE": "3"})


def _process_of(page: Any, game_id: str) -> str:
    """Which process the proxy sends the game's requests to now (its X-Vedette-Process header)."""
    name: str = page.evaluate("async (g) => (await fetch(`/api/games/${g}`)).headers.get('x-vedette-process')",
                              game_id)
    return name


def _until(check: Any, seconds: float, what: str) -> float:
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < seconds, f"{what} took over {seconds} s"
        time.sleep(0.1)
    return time.monotonic() - started


def _stored_equals_replay(settings: Any, game_id: str) -> int:
    # Playwright's sync API holds this thread's event loop: read the database on a thread of its own.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        row, rows, replayed, stored, _ = pool.submit(asyncio.run, _db_state(settings, game_id)).result()
    assert [r.seq for r in rows] == list(range(1, row.version + 1))
    assert replayed.to_json(include_log=False) == stored
    return int(row.version)


def _act_and_follow(pages: dict[str, Any]) -> int:
    """The awaited player ends the phase on the page; every page (the seats', the spectators') shows the new
    version without a reload."""
    awaited = next(p for p in pages.values()
                   if p.evaluate("() => window.vedette.S.view.awaiting === window.vedette.S.side"))
    version = int(awaited.evaluate("() => window.vedette.S.version"))
    end_phase(awaited)
    for page in pages.values():
        wait_view(page, f"v.version === {version + 1}", timeout=15000)
    return version + 1


def test_pages_reconnect_by_themselves_when_their_games_process_dies_and_follow_it_back(
        postgres_settings: Any, haproxy: str, tmp_path: Path) -> None:
    ports = {"app1": free_port(), "app2": free_port()}
    servers = {name: _start(postgres_settings, name, port, tmp_path) for name, port in ports.items()}
    proxy = None
    try:
        proxy = ProxyProcess([f"127.0.0.1:{port}" for port in ports.values()], free_port(), tmp_path)
        with launch_chromium() as browser:
            pages = {side: browser.new_context().new_page() for side in ("blue", "red")}
            errors: list[str] = []
            for side, page in pages.items():
                page.set_default_timeout(15000)
                page.on("pageerror", lambda e, side=side: errors.append(f"{side}: {e}"))
            game_id = seated_game(pages["blue"], pages["red"], proxy.url, ("proxyalice", "proxybob"), "tutorial")
            pages["blue"].goto(f"{proxy.url}/games/{game_id}")
            for page in pages.values():
                page.locator("#conn[data-state=open]").wait_for()
            home = _process_of(pages["blue"], game_id)
            assert _process_of(pages["red"], game_id) == home  # both seats' requests reach one process
            survivor = next(name for name in servers if name != home)
            # Two spectators, logged out, by the watch link: one through the proxy (on the game's process), one
            # straight on the other process, which sees the game's changes only through Postgres.
            watch = next(g["watch_token"] for g in pages["blue"].evaluate("async () => (await fetch('/api/games'))"
                                                                           ".json()")["mine"] if g["id"] == game_id)
            for name, base in (("watcher", proxy.url), ("elsewhere", f"http://127.0.0.1:{ports[survivor]}")):
                pages[name] = browser.new_context().new_page()
                pages[name].set_default_timeout(15000)
                pages[name].on("pageerror", lambda e, name=name: errors.append(f"{name}: {e}"))
                pages[name].goto(f"{base}/games/{game_id}?watch={watch}")
                wait_view(pages[name], "v.viewer === 'spectator'")
                pages[name].locator("#conn[data-state=open]").wait_for()
            version = _act_and_follow(pages)

            killed_at = time.monotonic()
            servers[home].kill()
            through_proxy = [pages[name] for name in ("blue", "red", "watcher")]
            for page in through_proxy:  # the pages on the killed process notice by themselves ...
                page.wait_for_function("() => window.vedette.S.conn !== 'open'", timeout=FAILOVER_S * 1000)
            for page in through_proxy:  # ... and are back, live, without a reload
                page.locator("#conn[data-state=open]").wait_for(timeout=FAILOVER_S * 1000)
            back_after = time.monotonic() - killed_at
            assert back_after < FAILOVER_S, back_after
            assert _process_of(pages["blue"], game_id) == survivor
            for page in pages.values():  # resynced, nothing lost
                assert int(page.evaluate("() => window.vedette.S.version")) == version
            version = _act_and_follow(pages)
            assert _stored_equals_replay(postgres_settings, game_id) == version
            ARTIFACTS.mkdir(exist_ok=True)
            pages["red"].screenshot(path=str(ARTIFACTS / "proxy-page-after-failover.png"))
            pages["elsewhere"].screenshot(path=str(ARTIFACTS / "proxy-spectator-on-the-other-process.png"))

            # The killed process comes back on its port: the proxy's health checks see it and its games return.
            servers[home] = _start(postgres_settings, home, ports[home], tmp_path)
            returned_after = _until(lambda: _process_of(pages["blue"], game_id) == home, FAILOVER_S,
                                    "the game's return to its process")
            version = _act_and_follow(pages)  # made on the returned process; the pages' sockets are on the other
            assert _stored_equals_replay(postgres_settings, game_id) == version
            assert not errors, errors
            print(f"proxy pages: back and live {back_after:.1f} s after the kill; "
                  f"the game returned {returned_after:.1f} s after its process restarted")
    finally:
        if proxy is not None:
            proxy.stop()
        for server in servers.values():
            server.kill()
