"""Render deploy/haproxy.cfg with explicit servers: `python deploy/haproxy_config.py --bind 127.0.0.1:8000
127.0.0.1:8001 127.0.0.1:8002 > haproxy.cfg` (one `server` per Vedette process, in this order).

docker-compose.yml uses deploy/haproxy.cfg as it is (`server-template` over Docker's DNS); a host without
that DNS, and tests/server/test_proxy.py, use this rendering of the same file: only the bind address and the
server lines differ, and the `resolvers` section (Docker's) is dropped.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "haproxy.cfg"
_SERVERS = re.compile(r"^(\s*)# SERVERS:.*?^\s*# END SERVERS\n", re.MULTILINE | re.DOTALL)
_RESOLVERS = re.compile(r"^resolvers docker\n(?:[ \t]+.*\n?)*", re.MULTILINE)


def render(servers: list[str], bind: str = ":8000", log: bool = True) -> str:
    """The config for these `host:port` processes, named app1, app2, ... in order (their hash ids follow the
    names, so a process keeps its share of games across restarts)."""
    text = TEMPLATE.read_text()
    lines = "".join(f"    server app{i} {address} check id {i}\n" for i, address in enumerate(servers, 1))
    text, found = _SERVERS.subn(lambda _m: lines, text)
    if found != 1:
        raise ValueError(f"{TEMPLATE} has no `# SERVERS:` ... `# END SERVERS` block")
    text = _RESOLVERS.sub("", text)
    text = re.sub(r"^(\s*)bind \S+", lambda m: f"{m.group(1)}bind {bind}", text, count=1, flags=re.MULTILINE)
    if not log:
        text = re.sub(r"^\s*log stdout.*\n", "", text, flags=re.MULTILINE)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bind", default=":8000", help="address HAProxy listens on (default :8000)")
    parser.add_argument("servers", nargs="+", help="host:port of each Vedette process")
    args = parser.parse_args(argv)
    sys.stdout.write(render(args.servers, args.bind))
    return 0


if __name__ == "__main__":
    sys.exit(main())
