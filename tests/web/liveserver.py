"""Run the real Vedette app (uvicorn, SQLite in a temp dir) on a free loopback port in a thread.

Used by the browser tests' conftest and, for hand checks, as a script:
    .venv/bin/python tests/web/liveserver.py --port 8766
It runs with VEDETTE_ENV=test and a fixed game seed (WEB_TEST_SEED), so the browser tests know their dice
without ever loading them: every die still comes from the seed (R11) and records still verify.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys as _sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in _sys.path:
    _sys.path.insert(0, str(ROOT))

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _in_thread(fn: Any) -> None:
    box: list[BaseException] = []

    def target() -> None:
        try:
            fn()
        except BaseException as e:  # noqa: BLE001 - re-raised below
            box.append(e)

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if box:
        raise box[0]


# Every browser of the tests contributes this value to the dice (R11, docs/dice.md): `pin_contributions`
# rewrites the contribution a page sends, so the tests know their dice from the seed as before.
PINNED_CONTRIBUTION = "5eed" * 16
WEB_TEST_CONTRIBUTIONS = {"blue": PINNED_CONTRIBUTION, "red": PINNED_CONTRIBUTION}  # the tutorial's two seats


def seed_with_first_dice(wanted: list[set[int]], contributions: dict[str, str] | None = None) -> str:
    """A dice seed whose first dice fall in the wanted sets with these contributions (R11: dice come only
    from the seed and the seats' contributions)."""
    from server.rules.kernel.dice import dice_key, die_from_key

    contributions = WEB_TEST_CONTRIBUTIONS if contributions is None else contributions
    for i in range(1_000_000):
        seed = f"vedette-web-test-seed-{i:07d}"
        key = dice_key(seed, contributions)
        if all(die_from_key(key, k) in allowed for k, allowed in enumerate(wanted)):
            return seed
    raise AssertionError("no seed found")


def web_test_die(index: int, seed: str | None = None) -> int:
    """The index-th die of a browser-test game (both seats pinned to PINNED_CONTRIBUTION)."""
    from server.rules.kernel.dice import die_from_seed

    return die_from_seed(seed or WEB_TEST_SEED, index, WEB_TEST_CONTRIBUTIONS)


PIN_SCRIPT = """(() => {
  // tests only: the 32 random bytes of a dice contribution (web/js/ui/fairness.js) are 5e ed 5e ed ...
  const original = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = (array) => {
    if (array instanceof Uint8Array && array.length === 32) {
      for (let i = 0; i < 32; i++) array[i] = i % 2 ? 0xed : 0x5e;
      return array;
    }
    return original(array);
  };
})();"""


def pin_contributions(context: Any) -> None:
    """Make every page of this browser context draw PINNED_CONTRIBUTION as its dice contribution (the
    page's own code runs unchanged: it sends and remembers that value), so the tests know their dice."""
    context.add_init_script(PIN_SCRIPT)


# The turn test's first dice are its first attack: a combat die of 1 or 2 (Ax or Ar at -3 to -2) and a
# morale die of 6, which always fails (7.5), so the attacker must retreat and the player is asked where.
WEB_TEST_SEED = seed_with_first_dice([{1, 2}, {6}])


class LiveServer:
    def __init__(self, port: int | None = None, db_dir: str | None = None) -> None:
        self.port = port or free_port()
        self._tmp = None if db_dir else tempfile.TemporaryDirectory(prefix="vedette-web-")
        self.db_dir = db_dir or self._tmp.name  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread: threading.Thread | None = None
        self.server: Any = None

    def settings(self) -> Any:
        from server.config import Settings

        return Settings(
            env="test",
            secret_key="web-test-secret-key-not-for-production-0123456789",
            test_game_seed=WEB_TEST_SEED,
            database_url=f"sqlite+aiosqlite:///{self.db_dir}/vedette.db",
            scenarios_dir=Path(os.environ.get("VEDETTE_WEB_SCENARIOS", ROOT / "scenarios")),
            web_dir=ROOT / "web",
            migrations_dir=ROOT / "migrations",
            host="127.0.0.1",
            port=self.port,
        )

    def start(self) -> LiveServer:
        import uvicorn

        from server.main import create_app
        from server.migrate import upgrade_head

        settings = self.settings()
        # alembic's env uses asyncio.run(): keep it off this thread, whose loop may be running
        # (Playwright's sync API runs one here)
        _in_thread(lambda: upgrade_head(settings))
        app = create_app(settings)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on", ws="websockets")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="vedette-live", daemon=True)
        self.thread.start()
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.server.started:
                return self
            if not self.thread.is_alive():
                raise RuntimeError("the Vedette server thread died while starting")
            time.sleep(0.05)
        raise RuntimeError("the Vedette server did not start within 30 s")

    def make_admin(self, username: str, password: str) -> None:
        """Create an administrator straight in the database (like `vedette create-admin`)."""
        from server.db import create_engine, create_sessionmaker
        from server.services.accounts import create_user
        from server.services.commandlog import close_engine

        async def run() -> None:
            engine = create_engine(self.settings())
            try:
                async with create_sessionmaker(engine)() as session:
                    await create_user(session, username, password, f"{username}@localhost", is_admin=True)
                    await session.commit()
            finally:
                await close_engine(engine)

        _in_thread(lambda: asyncio.run(run()))

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=10)
        if self._tmp is not None:
            with contextlib.suppress(Exception):
                self._tmp.cleanup()


@contextlib.contextmanager
def loaded_dice(values: list[int]) -> Iterator[list[int]]:
    """Make every die the server rolls come from `values` in order (then fall back to the derivation).

    Dice are drawn through server.rules.kernel.dice.die_from_key(key, index) (the key comes from the seed and
    the seats' contributions); the server runs in this process, so patching that function loads them.
    Test-only; no API exposes it.
    """
    from server.rules.kernel import dice as dice_mod

    original = dice_mod.die_from_key
    queue = list(values)

    def loaded(key: bytes, index: int, faces: int = 6) -> int:
        if queue:
            return queue.pop(0)
        return original(key, index, faces)  # a d10 edition's dice (R17.1) fall back to theirs

    dice_mod.die_from_key = loaded  # type: ignore[assignment]
    try:
        yield queue
    finally:
        dice_mod.die_from_key = original  # type: ignore[assignment]


@contextlib.contextmanager
def serving(files: dict[str, Any], prefix: str = "vedette-crafted-") -> Iterator[LiveServer]:
    """A live server whose scenarios are `files` (a path under the scenarios folder -> its JSON data, or the text of
    a shipped file): the crafted battles of the page tests, each in a folder of its own."""
    import json

    with tempfile.TemporaryDirectory(prefix=prefix) as d:
        for rel, data in files.items():
            path = Path(d, rel)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(data if isinstance(data, str) else json.dumps(data))
        old = os.environ.get("VEDETTE_WEB_SCENARIOS")
        os.environ["VEDETTE_WEB_SCENARIOS"] = d
        try:
            srv = LiveServer().start()
        finally:
            if old is None:
                os.environ.pop("VEDETTE_WEB_SCENARIOS", None)
            else:
                os.environ["VEDETTE_WEB_SCENARIOS"] = old
        try:
            yield srv
        finally:
            srv.stop()


def last_command(srv: LiveServer, game_id: str) -> dict[str, Any]:
    """The last command the server logged for the game (the page tests' check that a click sent it)."""
    import json
    import sqlite3

    with sqlite3.connect(f"{srv.db_dir}/vedette.db") as c:
        (cmd,) = c.execute("SELECT command FROM game_commands WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                           (game_id,)).fetchone()
    return dict(json.loads(cmd))


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8766)
    ap.add_argument("--db-dir", default=None)
    ap.add_argument("--admin", default=None, help="username:password of an admin to create")
    a = ap.parse_args()
    srv = LiveServer(a.port, a.db_dir).start()
    if a.admin:
        u, _, p = a.admin.partition(":")
        with contextlib.suppress(Exception):
            srv.make_admin(u, p)
    print(f"serving {srv.url}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        srv.stop()
