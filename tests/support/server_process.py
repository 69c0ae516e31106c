"""A real Vedette server in a subprocess (uvicorn on a loopback port), for crash tests that SIGKILL it."""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]

# Every server started, so none outlives the test run however its test ended (an orphaned server keeps its
# Postgres connections, and the suite's other workers then run out of them).
_STARTED: list[ServerProcess] = []


@atexit.register
def _kill_leftovers() -> None:
    for server in _STARTED:
        if server.proc.poll() is None:
            server.proc.kill()


class ServerProcess:
    def __init__(self, settings: Any, port: int, log_path: Path, extra_env: dict[str, str] | None = None) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        env = {
            **os.environ,
            "DATABASE_URL": settings.database_url,
            "VEDETTE_DB_SCHEMA": settings.db_schema or "",
            "VEDETTE_NOTIFY_CHANNEL": settings.notify_channel,
            "VEDETTE_SCENARIOS_DIR": str(settings.scenarios_dir),
            "VEDETTE_ENV": "development",
            # Small pools: the suite's two workers run several server processes on one Postgres (max_connections)
            "VEDETTE_DB_POOL_SIZE": "4",
            **(extra_env or {}),
        }
        self.log = open(log_path, "ab")  # noqa: SIM115 - closed in kill()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "server.main:app", "--host", "127.0.0.1",
             "--port", str(port), "--log-level", "warning",
             # as `vedette serve` runs it: no frame read past the limit (docs/api.md)
             "--ws-max-size", str(getattr(settings, "max_ws_frame_bytes", 16384))],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        _STARTED.append(self)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                self.log.close()
                raise RuntimeError(f"server exited with {self.proc.returncode}; see {log_path}")
            time.sleep(0.1)
        self.kill()  # a server that never answered must not outlive the test (it holds Postgres connections)
        raise RuntimeError("server did not come up")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.log.close()
