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
    from server.services.writes import WriteQueue

    wrap_async(ws, "_handle", "command", only=lambda message, *_a, **_k: message.get("type") == "command")
    wrap_async(commandlog, "append", "append")
    wrap_sync(commandlog, "_write_sqlite", "sqlite_transaction")
    from server.db import WalCheckpointer

    wrap_sync(WalCheckpointer, "checkpoint", "wal_checkpoint")
    writing = WriteQueue.writing

    @asynccontextmanager
    async def timed_writing(self: Any, session: Any) -> AsyncIterator[None]:
        async with writing(self, session):
            started = time.perf_counter()
            yield
        record("lobby_write", started)

    WriteQueue.writing = timed_writing  # type: ignore[method-assign]
    gc_started = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            gc_started[0] = time.perf_counter()
        else:
            record(f"gc{info['generation']}", gc_started[0])

    gc.callbacks.append(on_gc)


STALL_MS = float(os.environ.get("STALL_MS", "5"))  # a loop that has not run its 1 ms heartbeat for this long is stalled: sample its stack
stalls: dict[str, list[float]] = {}
stall_spans: list[list[float]] = []  # [start, length] of every stall, to compare with the WAL checkpoints  # the stalled loop's innermost frames -> how long each such stall lasted


def watch_loop(loop: Any, loop_thread: int) -> None:
    """A heartbeat on the loop every millisecond and a thread that, when the heartbeat is late by more
    than STALL_MS, takes the loop thread's stack (a few times per stall) and records the stall's length
    under the frames it found, so that the loop's longest blocks have names."""
    beat = [time.perf_counter()]
    due = [beat[0]]

    def heartbeat() -> None:
        beat[0] = now = time.perf_counter()
        # How late the beat ran (`loop_late`): how long the loop was busy with other callbacks (libuv's
        # timers have a resolution of a millisecond, so about 1 ms of it is the timer's).
        record("loop_late", due[0])
        timings["loop_late"][-1] = (now, now - due[0])
        due[0] = now + 0.001
        loop.call_later(0.001, heartbeat)

    loop.call_soon_threadsafe(heartbeat)

    def watcher() -> None:
        seen_beat, key = 0.0, ""
        while True:
            time.sleep(0.002)
            now, last = time.perf_counter(), beat[0]
            if now - last > STALL_MS / 1000:
                frame = sys._current_frames().get(loop_thread)
                names = []
                while frame is not None and len(names) < 7:
                    code = frame.f_code
                    names.append(f"{os.path.basename(code.co_filename)}:{code.co_name}")
                    frame = frame.f_back
                if last != seen_beat:  # a new stall: name it by its first sample
                    seen_beat, key = last, " < ".join(names)
                    stalls.setdefault(key, []).append(0.0)
                    stall_spans.append([last, 0.0])
                stalls[key][-1] = now - last
                stall_spans[-1][1] = now - last

    threading.Thread(target=watcher, daemon=True).start()


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
    late = [d for t, d in timings.get("loop_late", []) if t > now - WINDOW_S]
    lines.append("loop_late over 3 / 6 / 10 ms: " + " / ".join(str(sum(d > ms / 1000 for d in late)) for ms in (3, 6, 10)))
    ranked = sorted(stalls.items(), key=lambda kv: -sum(kv[1]))[:15]
    lines.append(f"loop stalls over {STALL_MS:.0f} ms: {sum(len(v) for v in stalls.values())}")
    checkpoints = timings.get("wal_checkpoint", [])
    during = sum(1 for start, length in stall_spans
                 if any(c < start + length and start < c + d for c, d in checkpoints))
    lines.append(f"  of which {during} overlap a WAL checkpoint ({len(checkpoints)} checkpoints in all)")
    for key, lengths in ranked:
        lines.append(f"  {len(lengths)} x, max {max(lengths) * 1000:.1f} ms, total {sum(lengths) * 1000:.0f} ms: {key}")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def serve_with(report: Callable[[], None], on_loop: Callable[[Any], None]) -> None:
    """The app as `vedette serve` runs it (uvloop, httptools, no permessage-deflate) on the port the bench
    gives (argv[1]), with `report()` called every 3 s from a thread and `on_loop(loop)` once the loop runs.
    The bench launchers (this file, server_steps.py) share it."""
    import asyncio

    import uvicorn
    import uvloop

    from server.main import app

    port = int(sys.argv[1])

    def reporter() -> None:
        while True:
            time.sleep(3)
            report()

    async def serve() -> None:
        threading.Thread(target=reporter, daemon=True).start()
        on_loop(asyncio.get_running_loop())
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                ws_per_message_deflate=False, http="httptools", access_log=False)
        await uvicorn.Server(config).serve()

    uvloop.run(serve())


def main() -> None:
    install()
    path = os.environ.get("TIMINGS_OUT", "server-timings.txt")
    loop_thread = threading.get_ident()  # uvloop runs the loop in this thread
    serve_with(lambda: write_report(path), lambda loop: watch_loop(loop, loop_thread))


if __name__ == "__main__":
    main()
