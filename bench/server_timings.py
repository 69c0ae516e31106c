"""The server as `vedette serve` runs it, timing where a command's tail goes (issue 16).

Started by bench/bench_server.py (or bench_lifecycle.py) in place of the server when
`VEDETTE_BENCH_PROFILE` names this file:

    VEDETTE_BENCH_PROFILE=bench/server_timings.py TIMINGS_OUT=/tmp/timings.txt \\
        .venv/bin/python bench/bench_server.py --db sqlite --games 200 --think 2 --seconds 30

Every 3 s it writes to TIMINGS_OUT the distributions over the last 28 s (the bench's measured window,
which ends when the bench kills the server) of: each websocket command in the server, frame to answer
(`command`); its write (`append`); on SQLite the synchronous transaction inside it (`sqlite_transaction`);
the game service's lobby write transactions (`lobby_write`: create, join, the mails a command owes; the
outbox's claims are plain statements and not among them); and the garbage collector's pauses per
generation (`gc0`, `gc1`, `gc2`). Wrapping costs a few microseconds per call, so the bench's client-side
figures come out a little worse than without it.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

sys.path.insert(0, os.getcwd())  # the tree the bench started in (a worktree of an older commit, say)

WINDOW_S = 28.0
timings: dict[str, list[tuple[float, float]]] = {}


def record(name: str, started: float) -> None:
    timings.setdefault(name, []).append((started, time.perf_counter() - started))


def wrap_async(owner: Any, attr: str, name: str, only: Callable[..., bool] | None = None) -> None:
    original = getattr(owner, attr)

    async def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            if only is None or only(*args, **kwargs):
                record(name, started)

    setattr(owner, attr, timed)


def wrap_sync(owner: Any, attr: str, name: str) -> None:
    original = getattr(owner, attr)

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            record(name, started)

    setattr(owner, attr, timed)


def install() -> None:
    from server.api.routes import ws
    from server.services import commandlog
    from server.services.games import GameService

    wrap_async(ws, "_handle", "command", only=lambda message, *_a, **_k: message.get("type") == "command")
    wrap_async(commandlog, "append", "append")
    wrap_sync(commandlog, "_write_sqlite", "sqlite_transaction")
    writing = GameService._writing

    @asynccontextmanager
    async def timed_writing(self: Any, session: Any) -> AsyncIterator[None]:
        async with writing(self, session):
            started = time.perf_counter()
            yield
        record("lobby_write", started)

    GameService._writing = timed_writing  # type: ignore[method-assign]
    gc_started = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            gc_started[0] = time.perf_counter()
        else:
            record(f"gc{info['generation']}", gc_started[0])

    gc.callbacks.append(on_gc)


def quantile_ms(ordered: list[float], fraction: float) -> float:
    return ordered[min(int(len(ordered) * fraction), len(ordered) - 1)] * 1000


def write_report(path: str) -> None:
    now = time.perf_counter()
    lines = []
    for name, values in sorted(timings.items()):
        window = sorted(d for t, d in values if t > now - WINDOW_S)
        if window:
            p50, p90, p99 = (quantile_ms(window, f) for f in (0.5, 0.9, 0.99))
            lines.append(f"{name}: n={len(window)} p50={p50:.2f} p90={p90:.2f} p99={p99:.2f} "
                         f"max={window[-1] * 1000:.2f} ms")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def main() -> None:
    import uvicorn
    import uvloop

    from server.main import app

    install()
    port = int(sys.argv[1])
    path = os.environ.get("TIMINGS_OUT", "server-timings.txt")

    def reporter() -> None:
        while True:
            time.sleep(3)
            write_report(path)

    async def serve() -> None:
        threading.Thread(target=reporter, daemon=True).start()
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                ws_per_message_deflate=False, http="httptools", access_log=False)
        await uvicorn.Server(config).serve()

    uvloop.run(serve())


if __name__ == "__main__":
    main()
