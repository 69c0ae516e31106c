"""bench/server_steps.py: a task's steps are added to its kind (a route with its ids folded, else the
coroutine's name), and a wrapped coroutine's own CPU is what the awaiting task spent while it ran."""

from __future__ import annotations

import asyncio
import sys
import time
import types

from bench_module import load_bench


def _burn(seconds: float) -> None:
    started = time.thread_time()
    while time.thread_time() - started < seconds:
        pass


def test_steps_are_counted_by_route_and_wrapped_functions_by_their_own_cpu() -> None:
    steps = load_bench("server_steps")
    target = types.ModuleType("steps_target")

    async def busy() -> None:
        _burn(0.02)
        await asyncio.sleep(0.05)  # waiting is not CPU: not counted
        _burn(0.02)

    target.busy = busy  # type: ignore[attr-defined]
    sys.modules["steps_target"] = target
    steps.wrap("steps_target:busy")

    class Request:  # as uvicorn's protocol cycles hold their ASGI scope
        def __init__(self) -> None:
            self.scope = {"type": "http", "method": "POST", "path": "/api/games/Ab3xYz_12345/join"}

        async def run_asgi(self) -> None:
            await target.busy()
            _burn(0.01)

    async def idle() -> None:
        await asyncio.sleep(0.05)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.set_task_factory(lambda loop, coro, **kw: steps.TimedTask(coro, loop=loop, **kw))
        await asyncio.gather(asyncio.ensure_future(Request().run_asgi()), asyncio.ensure_future(idle()))

    try:
        asyncio.run(main())
    finally:
        del sys.modules["steps_target"]
    route = "http POST /api/games/{id}/join"
    assert 0.045 <= steps.spent[route] < 0.08  # CPU: the 50 ms asleep are not in it
    assert steps.calls["steps_target:busy"] == 1
    assert 0.035 <= steps.spent["steps_target:busy"] < 0.06  # its own CPU: not the sleep, nor idle()'s steps
    assert steps.spent[route] > steps.spent["steps_target:busy"]  # the route's own work after it is not the wrap's
    assert "test_steps_are_counted_by_route_and_wrapped_functions_by_their_own_cpu.<locals>.idle" in steps.spent
