"""The bare websocket relay: the floor under a command's "command -> opponent's update" on this machine.

A raw ASGI app (no FastAPI, no Vedette) served by uvicorn with the transport settings `vedette serve`
uses (uvloop, httptools, no permessage-deflate): whatever text frame the sender of a pair sends is
forwarded, as it is, to the pair's receiver. Timing the sender's frame to its arrival at the receiver,
from another process, gives what a server that does no work at all costs here: two loopback hops and
the wake-ups of three processes' event loops. `bench/bench_server.py` runs it beside the measured games
(`bare_relay_ms` in its output), paced like the bare commit, and back to back before and after them.

    .venv/bin/python bench/bare_relay.py --seconds 10     # on its own: back to back, then paced
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# About one patch: a command's update to the opponent is a kilobyte or so of JSON.
PAYLOAD = "x" * 1000

_receivers: dict[str, Any] = {}
_waiting: dict[str, asyncio.Event] = {}


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """`/relay/{pair}/{a|b}`: frames from `a` go to `b` of the same pair."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "websocket":
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        return
    _, _, pair, role = scope["path"].split("/")
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    if role == "b":
        _receivers[pair] = send
        _waiting.setdefault(pair, asyncio.Event()).set()
        while (await receive())["type"] != "websocket.disconnect":
            pass
        _receivers.pop(pair, None)
        return
    await _waiting.setdefault(pair, asyncio.Event()).wait()
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        await _receivers[pair]({"type": "websocket.send", "text": message["text"]})


def start_server() -> tuple[subprocess.Popen[bytes], int]:
    """The relay in a process of its own, as `vedette serve` runs (server/service_cli.py)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--app-dir", str(HERE), "bare_relay:app", "--host", "127.0.0.1",
         "--port", str(port), "--loop", "uvloop", "--http", "httptools", "--ws-per-message-deflate", "false",
         "--log-level", "warning", "--no-access-log"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the bare relay did not start")


async def timed_rounds(one: Callable[[int], Awaitable[object]], n: int = 300,
                       pause: tuple[float, float] | None = None, seconds: float | None = None,
                       seed: int = 11) -> list[float]:
    """How long each `await one(i)` takes, ms: `n` back to back (`pause` None), or one every `pause`
    seconds (uniform) for `seconds`, as a game's commands arrive. The bare floors' common loop."""
    rng = random.Random(seed)
    out: list[float] = []
    stop = time.monotonic() + seconds if seconds is not None else None
    i = 0
    while (i < n) if stop is None else (time.monotonic() < stop):
        if pause is not None:
            await asyncio.sleep(rng.uniform(*pause))
        start = time.perf_counter()
        await one(i)
        out.append((time.perf_counter() - start) * 1000)
        i += 1
    return out


async def relay_latency(port: int, n: int = 300, pause: tuple[float, float] | None = None,
                        seconds: float | None = None) -> list[float]:
    """Sender's frame -> receiver's arrival, ms: back to back (`pause` None), or one every `pause`
    seconds (uniform) for `seconds`, as a game's commands arrive."""
    import websockets

    pair = os.urandom(6).hex()
    base = f"ws://127.0.0.1:{port}/relay/{pair}"
    async with websockets.connect(f"{base}/b", max_size=None) as receiver, \
            websockets.connect(f"{base}/a", max_size=None) as sender:
        await asyncio.sleep(0.05)  # the receiver registered before the first frame

        async def relay_one(i: int) -> None:
            await sender.send(json.dumps({"type": "patch", "i": i, "payload": PAYLOAD}))
            json.loads(await receiver.recv())  # decoded, as the bench's players decode a patch

        return await timed_rounds(relay_one, n, pause, seconds)


def start_probe(port: int, seconds: float) -> subprocess.Popen[bytes]:
    """The paced relay measured during a run, from a process of its own (the load generator's busy
    event loop would otherwise be part of what it times)."""
    return subprocess.Popen(
        [sys.executable, __file__, "--port", str(port), "--seconds", str(seconds), "--paced-only"],
        stdout=subprocess.PIPE,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, help="a relay already running (else one is started)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--paced-only", action="store_true", help="print only the paced samples (a JSON list)")
    args = parser.parse_args()
    if args.paced_only:
        print(json.dumps(asyncio.run(relay_latency(args.port, pause=(0.05, 0.15), seconds=args.seconds))))
        return
    proc, port = start_server() if args.port is None else (None, args.port)
    try:
        back_to_back = asyncio.run(relay_latency(port))
        paced = asyncio.run(relay_latency(port, pause=(0.05, 0.15), seconds=args.seconds))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
    for name, values in (("back_to_back", back_to_back), ("paced", paced)):
        values.sort()
        print(name, {"p50": round(values[len(values) // 2], 3), "p99": round(values[int(len(values) * 0.99)], 3),
                     "n": len(values)})


if __name__ == "__main__":
    main()
