"""VEDETTE_PROCESS_NAME (docs/deployment.md): behind a proxy, each answer says which process gave it."""

from __future__ import annotations

import pytest
from conftest import sqlite_settings
from fastapi.testclient import TestClient

from server.main import create_app


@pytest.mark.parametrize("name", ["app1", None])
def test_the_process_name_is_on_every_answer_and_in_healthz(name, sqlite_template, tmp_path):
    with TestClient(create_app(sqlite_settings(sqlite_template, tmp_path, process_name=name))) as client:
        health = client.get("/healthz")
        missing = client.get("/api/games/nope")
        assert health.headers.get("x-vedette-process") == missing.headers.get("x-vedette-process") == name
        assert health.json().get("process") == name
    # A websocket handshake carries it too: tests/server/test_proxy.py reads it through HAProxy.


def test_a_process_name_is_one_token():
    from server.config import Settings

    with pytest.raises(ValueError):
        Settings(process_name="app 1\r\nX-Evil: 1")
