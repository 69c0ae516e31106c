"""How long the server's loop is held by account work: a health check every 5 ms, idle and while five
users register and log in (ten Argon2 hashes at production cost) on the embedded database.

    .venv/bin/python bench/bench_account_stall.py [TREE]

TREE (default: this checkout) is the source tree the server runs from, e.g. a worktree of an older
commit for a before/after comparison. Prints one JSON line.
"""

import asyncio
import json
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def quantile_ms(values: list[float], fraction: float) -> float:
    from bench_server import percentile

    return round(percentile(values, fraction * 100) * 1000, 1)


async def main() -> None:
    import httpx
    from bench_server import free_port, start_server

    from server.config import Settings
    from server.migrate import upgrade_head

    workdir = Path(tempfile.mkdtemp(prefix="vedette-stall-"))
    url = f"sqlite+aiosqlite:///{workdir / 'bench.db'}"
    await asyncio.to_thread(upgrade_head, Settings(database_url=url))
    port = free_port()
    proc = start_server({"DATABASE_URL": url}, port, 1, workdir / "server.log")
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as prober, \
                httpx.AsyncClient(base_url=base, timeout=30) as accounts:
            latencies: list[float] = []
            stop = asyncio.Event()

            async def probe() -> None:
                while not stop.is_set():
                    started = time.perf_counter()
                    await prober.get("/api/health")
                    latencies.append(time.perf_counter() - started)
                    await asyncio.sleep(0.005)

            for _ in range(3):
                await accounts.get("/api/health")
            task = asyncio.create_task(probe())
            await asyncio.sleep(1)
            idle = len(latencies)
            for _ in range(5):
                name = f"stall{secrets.token_hex(3)}"
                made = await accounts.post("/api/users", json={"username": name, "password": "password123",
                                                               "email": "stall@example.org"})
                assert made.status_code in (200, 201), made.text
                logged_in = await accounts.post("/api/session", json={"username": name, "password": "password123"})
                assert logged_in.status_code == 200, logged_in.text
            stop.set()
            await task
        before, during = latencies[:idle], latencies[idle:]
        print(json.dumps({
            "health_ms_idle": {"n": len(before), "p50": quantile_ms(before, 0.5), "max": quantile_ms(before, 1)},
            "health_ms_during_ten_hashes": {"n": len(during), "p50": quantile_ms(during, 0.5),
                                            "p90": quantile_ms(during, 0.9), "max": quantile_ms(during, 1)},
            "tree": str(ROOT), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        }))
    finally:
        proc.terminate()


if __name__ == "__main__":
    asyncio.run(main())
