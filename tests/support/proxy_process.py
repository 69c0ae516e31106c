"""HAProxy (Debian's package) in a subprocess on a loopback port, in front of Vedette processes, with the
repository's config (deploy/haproxy.cfg rendered by deploy/haproxy_config.py): tests/server/test_proxy.py
and bench/bench_server.py --proxy."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def haproxy_path() -> str | None:
    for candidate in (os.environ.get("VEDETTE_HAPROXY"), shutil.which("haproxy"), "/usr/sbin/haproxy"):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def render_config(servers: list[str], bind: str) -> str:
    spec = importlib.util.spec_from_file_location("haproxy_config", ROOT / "deploy" / "haproxy_config.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.render(servers, bind))


class ProxyProcess:
    def __init__(self, servers: list[str], port: int, directory: Path) -> None:
        binary = haproxy_path()
        if binary is None:
            raise RuntimeError("haproxy is missing (apt-get install haproxy)")
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        config = directory / "haproxy.cfg"
        config.write_text(render_config(servers, f"127.0.0.1:{port}"))
        self.log = open(directory / "haproxy.log", "ab")  # noqa: SIM115 - closed in stop()
        # -db: in the foreground, not a daemon: one process the caller owns and stops by its pid
        self.proc = subprocess.Popen([binary, "-db", "-f", str(config)], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"haproxy exited with {self.proc.returncode}; see {directory / 'haproxy.log'}")
            time.sleep(0.1)
        raise RuntimeError("haproxy did not come up")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()
