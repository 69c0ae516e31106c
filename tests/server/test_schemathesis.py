"""Schemathesis over the live OpenAPI document, logged in as a seat of a real game (issue 12).

A real server (uvicorn in a thread, on SQLite and on Postgres) serves a started game; the
`schemathesis run` command reads /openapi.json from it and runs every phase (examples, coverage,
fuzzing, stateful) against every operation with the seat's bearer token and the real game id.
It must find 0 responses 5xx and 0 answers the document does not describe (status, content type,
body schema, Allow header...). Bounded: a fixed seed and a fixed number of examples per operation.

Left out, with the reason:
* `DELETE /api/session` would log the seat out for the rest of the run (it is tested elsewhere);
* the `positive_data_acceptance` check, which expects every schema-valid request to succeed: the
  API rightly refuses many of them on its own rules (a side the scenario lacks, a version the game
  has not reached, a NUL byte, a float for `expected_version`), with a documented 4xx.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server.config import Settings

pytestmark = pytest.mark.slow

PASSWORD = "correct horse battery"
MAX_EXAMPLES = int(os.environ.get("VEDETTE_SCHEMATHESIS_EXAMPLES", "25"))
SEED = os.environ.get("VEDETTE_SCHEMATHESIS_SEED", "20261123")


class LiveServer:
    def __init__(self, settings: Settings) -> None:
        import uvicorn

        from server.main import create_app

        self.app = create_app(settings)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning",
                                proxy_headers=False, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the live server did not start")
            time.sleep(0.05)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def _seat_of_a_real_game(base: str) -> tuple[str, str]:
    """Two accounts and a started private game; the first account's token and the game id."""
    with httpx.Client(base_url=base, timeout=30) as http:
        tokens = []
        for name in ("stalice", "stbob"):
            made = http.post("/api/users", json={"username": name, "password": PASSWORD,
                                                 "email": f"{name}@example.org"})
            assert made.status_code == 201, made.text
            tokens.append(made.json()["token"])
            http.cookies.clear()
        created = http.post("/api/games", json={"scenario": "tutorial", "side": "blue"},
                            headers={"Authorization": f"Bearer {tokens[0]}"})
        assert created.status_code == 201, created.text
        game = created.json()
        joined = http.post(f"/api/games/{game['id']}/join", json={"invite_token": game["invite_token"]},
                           headers={"Authorization": f"Bearer {tokens[1]}"})
        assert joined.status_code == 200, joined.text
        return tokens[0], game["id"]


@pytest.fixture
def live(settings: Settings) -> Iterator[str]:
    with LiveServer(settings) as base:
        yield base


def test_schemathesis_finds_no_5xx_and_no_schema_violation(live: str, tmp_path: Path) -> None:
    token, game_id = _seat_of_a_real_game(live)
    config = tmp_path / "schemathesis.toml"
    config.write_text(f'[parameters]\ngame_id = "{game_id}"\nscenario_id = "tutorial"\n')
    command = [
        sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "--no-color",
        "run", f"{live}/openapi.json",
        "--header", f"Authorization: Bearer {token}",
        "--exclude-name", "DELETE /api/session",
        "--checks", "all", "--exclude-checks", "positive_data_acceptance",
        # One worker: with two, hypothesis describes strategies (ast.parse) in two threads at once, which
        # trips CPython 3.11's "AST constructor recursion depth mismatch" SystemError inside the tool
        # (seen twice under load); the run then reports the tool's crash, not anything about the API.
        "--max-examples", str(MAX_EXAMPLES), "--seed", SEED, "--workers", "1",
        "--request-timeout", "30",
    ]
    run = subprocess.run(command, check=False, capture_output=True, text=True, timeout=600)
    report = run.stdout + run.stderr
    summary = report[report.find("SUMMARY"):] if "SUMMARY" in report else report[-3000:]
    print(report)  # shown on failure: every failing case with its curl
    assert run.returncode == 0, f"schemathesis found problems:\n{report[-12000:]}"
    assert "Server error" not in summary and "Test cases" in summary, summary
