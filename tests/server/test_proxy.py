"""The deployed shape (issue 38): HAProxy from Debian's package with the repository's config
(deploy/haproxy.cfg) in front of two Vedette processes on one Postgres, all on 127.0.0.1.

Twenty games: both seats' requests and websockets of each game reach one process (its `X-Vedette-Process`
header). One process is SIGKILLed in the middle of play; the players' clients retry a failed request with its
same command id after a short backoff, as the page does. Every game goes on through the proxy, the killed
process's games are served by the other within 10 s and the survivor's games never move (consistent
hashing), no acknowledged command is lost, each game's stored state equals the replay of its log, and a
websocket client on a killed process's game reconnects by itself and resyncs to the stored version.

Under CI=true a missing haproxy or Postgres FAILS this test; elsewhere it is skipped.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
import signal
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from chromium import launch_chromium
from proxy_process import ProxyProcess
from test_crash import ServerProcess, _db_state, _register, free_port

from server.services.engine import rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))  # the page helpers the browser tests share
from web_helpers import end_phase, seated_game, wait_view

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

GAMES = 20
BEFORE_KILL = 6  # acknowledged commands per game, on average, before the kill
AFTER_KILL = 6  # acknowledged commands every game still gets after it
FAILOVER_S = 10.0
RETRYABLE = {502, 503, 504}


@dataclass
class Played:
    game_id: str
    auth: dict[str, dict[str, str]]
    mirror: Any
    # (when its request was sent, when it was answered, X-Vedette-Process) of each answer
    processes: list[tuple[float, float, str]] = field(default_factory=list)
    acked: list[tuple[str, int]] = field(default_factory=list)
    acked_at: list[float] = field(default_factory=list)
    retries: int = 0
    in_flight: int = 0  # requests sent and not yet answered (the kill waits for some on its process)


def _process(response: httpx.Response) -> str:
    name = response.headers.get("x-vedette-process")
    assert name, f"no X-Vedette-Process header on {response.request.url}"
    return name


async def _submit(http: httpx.AsyncClient, game: Played, side: str, body: dict[str, Any]) -> tuple[httpx.Response, float]:
    """The client's rule: a request that got no answer, or a 502/503/504 from the proxy or the process, is sent
    again with its same command id after a short backoff; anything else is the answer."""
    delay = 0.1
    deadline = time.monotonic() + 30
    while True:
        sent = time.monotonic()
        game.in_flight += 1
        try:
            response = await http.post(f"/api/games/{game.game_id}/commands", json=body, headers=game.auth[side])
            if response.status_code not in RETRYABLE:
                return response, sent
        except httpx.TransportError:
            pass
        finally:
            game.in_flight -= 1
        game.retries += 1
        assert time.monotonic() < deadline, f"game {game.game_id} got no answer for 30 s"
        await asyncio.sleep(delay)
        delay = min(delay * 2, 1.0)


async def _play(http: httpx.AsyncClient, game: Played, rng: random.Random, until: asyncio.Event | None,
                count: int) -> None:
    while not game.mirror.is_over and (len(game.acked) < count if until is None else not until.is_set()):
        side = game.mirror.awaiting
        command = rng.choice(list(game.mirror.legal_commands(side, rng)))
        command_id = str(uuid.uuid4())
        body = {"command": command, "expected_version": game.mirror.version, "command_id": command_id}
        response, sent = await _submit(http, game, side, body)
        assert response.status_code == 200, response.text
        assert response.json()["version"] == game.mirror.version + 1, response.text
        game.mirror.submit(side, command)
        game.acked.append((command_id, response.json()["version"]))
        game.acked_at.append(time.monotonic())
        game.processes.append((sent, time.monotonic(), _process(response)))
        if until is not None:
            await asyncio.sleep(0.05)  # both sides think a little, so the kill lands mid-play


class Watcher:
    """A websocket player that reconnects with backoff and resyncs from the snapshot it is sent, as the page does."""

    def __init__(self, url: str, game_id: str, token: str) -> None:
        self.url = f"{url.replace('http://', 'ws://')}/ws/games/{game_id}?token={token}"
        self.version = -1
        self.connections: list[str] = []  # X-Vedette-Process of each connection
        self.snapshots: list[int] = []  # the version of each snapshot received
        self.stop = asyncio.Event()
        self.socket: Any = None

    async def run(self) -> None:
        import websockets

        delay = 0.1
        while not self.stop.is_set():
            try:
                async with websockets.connect(self.url, open_timeout=5) as ws:
                    self.socket = ws
                    self.connections.append(ws.response.headers["X-Vedette-Process"])
                    delay = 0.1
                    async for raw in ws:
                        message = json.loads(raw)
                        if message.get("type") == "snapshot":
                            self.snapshots.append(message["version"])
                            self.version = message["version"]
                        elif message.get("type") == "patch":
                            self.version = message["version"]
            except (TimeoutError, OSError, websockets.exceptions.WebSocketException):
                pass
            self.socket = None
            if not self.stop.is_set():
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)


async def _scenario(url: str, games: list[Played], servers: dict[str, ServerProcess], tokens: dict[str, str]) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=100)
    async with httpx.AsyncClient(base_url=url, timeout=10, limits=limits) as http:
        # Both seats' websockets of every game land on the game's process.
        import websockets

        home: dict[str, str] = {}
        for game in games:
            seen = {name for _, _, name in game.processes}
            for side in ("blue", "red"):
                async with websockets.connect(f"{url.replace('http://', 'ws://')}/ws/games/{game.game_id}"
                                              f"?token={tokens[side]}") as ws:
                    seen.add(ws.response.headers["X-Vedette-Process"])
                    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "snapshot"
            for side in ("blue", "red"):
                seen.add(_process(await http.get(f"/api/games/{game.game_id}", headers=game.auth[side])))
            assert len(seen) == 1, f"game {game.game_id}'s seats reached {sorted(seen)}"
            home[game.game_id] = seen.pop()
        assert set(home.values()) == set(servers), f"20 games all hashed to {set(home.values())}"
        victim_name = home[games[0].game_id]
        survivor_name = next(name for name in servers if name != victim_name)
        watcher = Watcher(url, games[0].game_id, tokens["blue"])
        watching = asyncio.create_task(watcher.run())

        # Play every game concurrently; kill the first game's process once the games are under way.
        rng = random.Random(38)
        stop = asyncio.Event()
        playing = [asyncio.create_task(_play(http, g, random.Random(rng.random()), stop, 0)) for g in games]
        deadline = time.monotonic() + 40
        while sum(len(g.acked) for g in games) < GAMES * BEFORE_KILL:
            assert time.monotonic() < deadline, "play was too slow to reach the kill"
            await asyncio.sleep(0.05)
        assert watcher.socket is not None and watcher.connections == [victim_name]
        # kill while the victim's games have requests in flight (on a loaded machine play is sparse, and a kill
        # between requests would prove nothing of the retry). The process is frozen first (SIGSTOP): its games'
        # next requests then wait inside it, so the kill lands on requests it has taken, on a fast machine too.
        victims = [g for g in games if home[g.game_id] == victim_name]
        servers[victim_name].proc.send_signal(signal.SIGSTOP)
        while sum(g.in_flight for g in victims) < 2:
            assert time.monotonic() < deadline + 20, "no request of the victim's games was ever in flight"
            await asyncio.sleep(0.002)
        await asyncio.sleep(0.2)  # (they reach the frozen process's socket)
        killing = time.monotonic()
        await asyncio.to_thread(servers[victim_name].kill)
        killed_at = time.monotonic()
        # Play goes on through the kill for a while, then every game plays AFTER_KILL more commands.
        await asyncio.sleep(1.0)
        stop.set()
        await asyncio.gather(*playing)
        after = [len(g.acked) + AFTER_KILL for g in games]
        await asyncio.gather(*[_play(http, g, random.Random(rng.random()), None, n) for g, n in zip(games, after)])

        # The watcher reconnected by itself (to the survivor) and follows the stored version.
        wait_until = time.monotonic() + 10
        target = games[0].mirror.version
        while watcher.version != target and time.monotonic() < wait_until:
            await asyncio.sleep(0.05)
        watcher.stop.set()
        if watcher.socket is not None:
            await watcher.socket.close()
        await asyncio.wait_for(watching, 5)
        return {"home": home, "victim": victim_name, "survivor": survivor_name, "killing": killing,
                "killed_at": killed_at,
                "watcher": watcher, "target": target}


def test_proxy_keeps_a_game_on_one_process_and_hands_it_on_when_that_process_dies(postgres_settings, haproxy,
                                                                                   tmp_path):
    started = time.monotonic()
    servers = {
        name: ServerProcess(postgres_settings, free_port(), tmp_path / f"{name}.log",
                            extra_env={"VEDETTE_PROCESS_NAME": name,
                                       # a small pool: the suite's other Postgres tests share max_connections
                                       "VEDETTE_DB_POOL_SIZE": "3"})
        for name in ("app1", "app2")
    }
    proxy = None
    try:
        proxy = ProxyProcess([f"127.0.0.1:{s.port}" for s in servers.values()], free_port(), tmp_path)
        http = httpx.Client(base_url=proxy.url, timeout=10)
        tokens = {"blue": _register(http, "proxyblue"), "red": _register(http, "proxyred")}
        auth = {side: {"Authorization": f"Bearer {t}"} for side, t in tokens.items()}
        games: list[Played] = []
        for _ in range(GAMES):
            created = http.post("/api/games", json={"scenario": "tutorial", "side": "blue"}, headers=auth["blue"])
            assert created.status_code == 201, created.text
            game_id = created.json()["id"]
            joined = http.post(f"/api/games/{game_id}/join", json={"invite_token": created.json()["invite_token"]},
                               headers=auth["red"])
            assert joined.status_code == 200, joined.text
            row, _, _, _, scenario = asyncio.run(_db_state(postgres_settings, game_id))
            game = Played(game_id, auth, rules().Game.from_json(scenario, row.initial_snapshot))
            game.processes.append((0.0, 0.0, _process(joined)))
            games.append(game)

        outcome = asyncio.run(_scenario(proxy.url, games, servers, tokens))
        victim, survivor, killed_at = outcome["victim"], outcome["survivor"], outcome["killed_at"]
        assert servers[victim].proc.returncode == -9
        moved = [g for g in games if outcome["home"][g.game_id] == victim]
        stayed = [g for g in games if outcome["home"][g.game_id] == survivor]
        waits = []
        for game in moved:  # every request sent once the process was dead reached the survivor, within 10 s
            after = [(answered, name) for sent, answered, name in game.processes if sent > killed_at]
            assert after and {name for _, name in after} == {survivor}, game.game_id
            first = min(answered for answered, _ in after) - outcome["killing"]
            assert first < FAILOVER_S, f"{game.game_id} waited {first:.1f} s"
            waits.append(first)
        for game in stayed:  # consistent hashing: losing a process moves only its own games
            assert {name for _, _, name in game.processes} == {survivor}, game.game_id
        assert sum(g.retries for g in moved) > 0, "the kill interrupted no request: it did not land mid-play"

        for game in games:
            row, rows, replayed, stored, _ = asyncio.run(_db_state(postgres_settings, game.game_id))
            logged = {r.command_id: r.seq for r in rows}
            for command_id, version in game.acked:
                assert logged.get(command_id) == version, f"acknowledged command {command_id} lost"
            assert [r.seq for r in rows] == list(range(1, row.version + 1))
            assert row.version == game.mirror.version, game.game_id
            assert replayed.to_json(include_log=False) == stored, game.game_id

        watcher = outcome["watcher"]
        assert watcher.connections[0] == victim and survivor in watcher.connections[1:], watcher.connections
        assert len(watcher.snapshots) >= 2, "the watcher never resynced after the kill"
        assert watcher.version == outcome["target"], (watcher.version, outcome["target"])
        print(f"proxy: {len(moved)} games moved, {len(stayed)} stayed; longest wait after the kill {max(waits):.2f} s; "
              f"{sum(g.retries for g in games)} retries; {sum(len(g.acked) for g in games)} commands acknowledged; "
              f"watcher snapshots at versions {watcher.snapshots}; {time.monotonic() - started:.1f} s")
    finally:
        if proxy is not None:
            proxy.stop()
        for server in servers.values():
            server.kill()

# ---- The same shape as players see it. Its own processes, after the test above (one file: `make test`'s
# workers take a file each, and two proxied pairs of processes at once ran Postgres out of connections).
# The deployed shape, as players see it (issue 38): two game pages (Playwright, Debian's chromium) through
# HAProxy (the repository's config) in front of two Vedette processes on one Postgres, all on 127.0.0.1.
#
# The game's process is SIGKILLed. Both pages reconnect by themselves (nobody reloads or clicks anything), to the
# other process within 10 s, and play on through their pages; the killed process starts again on its port and
# the proxy sends the game back to it (consistent hashing: its share returns), while the pages, whose sockets
# stayed on the survivor, still see every change the returned process makes (LISTEN/NOTIFY). Two spectators
# (logged out, by the watch link) follow every change: one through the proxy, one on the other process directly. The game's stored
# state equals the replay of its log throughout.
#
# Under CI=true a missing haproxy, chromium or Postgres FAILS this test; elsewhere it is skipped.

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


@pytest.mark.browser
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
