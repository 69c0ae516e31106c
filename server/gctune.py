"""Garbage-collector pacing for the serving process.

Measured on the benchmark (docs/benchmarks.md): CPython's automatic full
collections of a serving process (~300,000 tracked objects, ~0.6 us each)
stalled the event loop for 60-300 ms every few seconds under load, and that,
not CPU, set the p99 latency. So while the app runs:

* everything alive after start-up (modules, classes, routes, the scenarios)
  is frozen out of the collector's scans (`gc.freeze`);
* young generations are still collected automatically, as ever: most cyclic
  garbage (exceptions, tracebacks, sessions) dies there. How often is a
  setting (`young`, `middle`), because a pass holds the loop for as long as
  it takes to scan the objects that have survived since the last one: the
  young threshold counts allocations net of deallocations, and a serving
  process frees old objects (the views a command replaces) as fast as it
  makes new ones, so at CPython's 700 a young pass came only about once a
  second under load and scanned 6,000-8,000 survivors - views, awaiting
  coroutines, futures - for 3-6 ms, and the middle generation's pass after
  ten of them 12-15 ms (issue 16, docs/benchmarks.md session 15). Passes ten
  times as often scan a tenth as much each;
* the automatic oldest-generation pass is switched off and replaced by one
  full collection every `interval` seconds, on the event loop.

`stop()` puts back the interpreter's own settings, so a test process that
starts and stops apps keeps its ordinary collector.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from contextlib import suppress

log = logging.getLogger(__name__)

# Effectively "never" for the oldest generation's automatic pass.
_NO_AUTOMATIC_FULL_COLLECTION = 1_000_000
# The interpreter's own thresholds while any pacer runs (several apps may share a test process).
_saved_threshold: tuple[int, int, int] | None = None
_active = 0


class GcPacer:
    def __init__(self, interval: float, middle: int = 0, young: int = 0) -> None:
        self.interval = interval
        # Young passes between two passes of the middle generation (CPython: 10); 0 keeps the interpreter's.
        self.middle = middle
        # Net allocations between two young passes (CPython: 700); 0 keeps the interpreter's.
        self.young = young
        self.collections = 0
        self.last_pause_ms = 0.0
        self._running = False
        self._task: asyncio.Task[None] | None = None

    @property
    def active(self) -> bool:
        return self._running

    def start(self) -> None:
        global _saved_threshold, _active
        if self.interval <= 0 or self._running:
            return
        self._running = True
        _active += 1
        if _active == 1:
            gc.collect()
            gc.freeze()
            _saved_threshold = gc.get_threshold()
            young, middle, _ = _saved_threshold
            gc.set_threshold(self.young or young, self.middle or middle, _NO_AUTOMATIC_FULL_COLLECTION)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="vedette-gc-pacer")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            self.collect_now()

    def collect_now(self) -> None:
        started = time.perf_counter()
        gc.collect()
        self.last_pause_ms = (time.perf_counter() - started) * 1000
        self.collections += 1
        log.debug("full collection took %.1f ms", self.last_pause_ms)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if not self._running:
            return
        global _saved_threshold, _active
        self._running = False
        _active -= 1
        if _active == 0 and _saved_threshold is not None:
            gc.set_threshold(*_saved_threshold)
            gc.unfreeze()
            _saved_threshold = None
