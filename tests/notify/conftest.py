"""Fixtures for asynchronous play: the service fixtures (SQLite and Postgres), a real SMTP
server (aiosmtpd on a free loopback port) and an app wired to it."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

NOTIFY_TESTS = Path(__file__).resolve().parent
SERVER_TESTS = NOTIFY_TESTS.parent / "server"
if str(NOTIFY_TESTS) not in sys.path:
    sys.path.insert(0, str(NOTIFY_TESTS))
if str(SERVER_TESTS) not in sys.path:
    sys.path.insert(0, str(SERVER_TESTS))

# The service suite's fixtures (settings on SQLite and Postgres, fresh schemas, quick hashing).
_spec = importlib.util.spec_from_file_location("vedette_server_conftest", SERVER_TESTS / "conftest.py")
assert _spec is not None and _spec.loader is not None
_server_conftest = importlib.util.module_from_spec(_spec)
sys.modules["vedette_server_conftest"] = _server_conftest
_spec.loader.exec_module(_server_conftest)

make_settings = _server_conftest.make_settings
pg_settings = _server_conftest.pg_settings
sqlite_settings = _server_conftest.sqlite_settings
rules_core = _server_conftest.rules_core
quick_password_hashing = _server_conftest.quick_password_hashing
pg_schema = _server_conftest.pg_schema
sqlite_template = _server_conftest.sqlite_template
settings = _server_conftest.settings
postgres_settings = _server_conftest.postgres_settings


from notify_helpers import Inbox, free_port


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()
