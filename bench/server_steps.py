"""The server as `vedette serve` runs it, with the CPU of every task's steps added up by what the task is (issue 16).

Started by bench/bench_server.py or bench/bench_lifecycle.py in place of the server when
`VEDETTE_BENCH_PROFILE` names this file:

    VEDETTE_BENCH_PROFILE=bench/server_steps.py STEPS_OUT=/tmp/steps.txt \\
        .venv/bin/python bench/bench_lifecycle.py --games 100
    STEPS_WRAP=server.services.lobby:Lobby.join_game,server.notify.hooks:plan_mails \\
    VEDETTE_BENCH_PROFILE=bench/server_steps.py STEPS_OUT=/tmp/steps.txt .venv/bin/python bench/bench_lifecycle.py

Why not a sampling profiler alone: py-spy shows SQLAlchemy's greenlets and suspended coroutines apart from
the request they serve, so "where does a join's time go" has no answer in its stacks. Here every task runs
as the pure-Python `asyncio.Task` with each step timed by the thread's CPU clock, and the time is added to
the task's kind: an HTTP request or websocket by its route (ids folded to `{id}`), any other task by its
coroutine's name. `STEPS_WRAP` names functions (`module:Class.method` or `module:function`, patched where
the callers look them up) whose own CPU is reported per call: for a coroutine, the CPU of the steps of the
task that awaited it while it ran (what other tasks did meanwhile is not counted).

Every 3 s the totals since start-up go to STEPS_OUT. The pure-Python task costs more per step than the C one,
so totals come out somewhat above a plain server's; compare kinds with each other, and runs under the same
launcher with each other.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import inspect
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Coroutine
from typing import Any

sys.path.insert(0, os.getcwd())  # the tree the bench started in (a worktree of an older commit, say)

spent: Counter[str] = Counter()  # kind or wrapped function -> CPU seconds
calls: Counter[str] = Counter()  # kind -> steps; wrapped function -> calls
_ID = re.compile(r"/(games|users)/[^/]+")


def _kind(coro: Coroutine[Any, Any, Any]) -> str:
    """An ASGI request's route, else the coroutine's name."""
    frame = getattr(coro, "cr_frame", None)
    owner = frame.f_locals.get("self") if frame is not None else None
    scope = getattr(owner, "scope", None)
    if isinstance(scope, dict) and "path" in scope:
        route = _ID.sub(r"/\1/{id}", scope["path"])
        return " ".join(part for part in (scope.get("type"), scope.get("method"), route) if part)
    return getattr(coro, "__qualname__", type(coro).__name__)


class TimedTask(asyncio.tasks._PyTask):  # type: ignore[name-defined,misc]
    def __init__(self, coro: Coroutine[Any, Any, Any], **kwargs: Any) -> None:
        self.kind = _kind(coro)
        self.cpu = 0.0  # this task's steps so far
        self.step_started = 0.0
        super().__init__(coro, **kwargs)

    # The pure-Python task's step method, name-mangled (`Task.__step`): every step of the task runs here.
    def _Task__step(self, exc: BaseException | None = None) -> None:
        started = self.step_started = time.thread_time()
        try:
            super()._Task__step(exc)
        finally:
            took = time.thread_time() - started
            self.cpu += took
            spent[self.kind] += took
            calls[self.kind] += 1


def _task_cpu() -> float | None:
    task = asyncio.current_task()
    if not isinstance(task, TimedTask):
        return None
    return task.cpu + time.thread_time() - task.step_started


def wrap(spec: str) -> None:
    module_name, _, attr_path = spec.partition(":")
    owner_name, _, attr = attr_path.rpartition(".")
    owner: Any = importlib.import_module(module_name)
    if owner_name:
        owner = getattr(owner, owner_name)
    original = getattr(owner, attr)
    # functools.wraps: a wrapped coroutine that becomes a task of its own keeps the task's kind.
    if inspect.iscoroutinefunction(original):
        @functools.wraps(original)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            before = _task_cpu()
            try:
                return await original(*args, **kwargs)
            finally:
                after = _task_cpu()
                if before is not None and after is not None:
                    spent[spec] += after - before
                    calls[spec] += 1
    else:
        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
            started = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent[spec] += time.thread_time() - started
                calls[spec] += 1
    setattr(owner, attr, timed)


def write_report(path: str, wrapped: list[str]) -> None:
    kinds = {k: v for k, v in spent.items() if k not in wrapped}
    lines = [f"task steps: {sum(kinds.values()) * 1000:.1f} ms; process CPU {time.process_time() * 1000:.0f} ms"]
    for kind, seconds in sorted(kinds.items(), key=lambda kv: -kv[1])[:40]:
        lines.append(f"{seconds * 1000:10.1f} ms {calls[kind]:8d} steps  {kind}")
    if wrapped:
        lines.append("wrapped (own CPU per call):")
        for spec in wrapped:
            n = calls[spec]
            per = spent[spec] / n * 1000 if n else 0.0
            lines.append(f"{spent[spec] * 1000:10.1f} ms {n:8d} calls {per:8.3f} ms/call  {spec}")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def main() -> None:
    from server_timings import serve_with

    wrapped = [spec for spec in os.environ.get("STEPS_WRAP", "").split(",") if spec]
    for spec in wrapped:
        wrap(spec)
    path = os.environ.get("STEPS_OUT", "server-steps.txt")
    serve_with(lambda: write_report(path, wrapped),
               lambda loop: loop.set_task_factory(lambda loop, coro, **kw: TimedTask(coro, loop=loop, **kw)))


if __name__ == "__main__":
    main()
