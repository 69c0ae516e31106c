"""A command the page sent and never heard back about goes again with its own command id (issue 38): over a
socket that broke before the answer came (the process died after applying it), and over HTTP while the socket
is down and the proxy or an overloaded process answers 502/503 or nothing. Either way the server applies it once
(docs/api.md: a repeated command id gets the first answer), and the player does nothing but wait.

The break is made by Playwright's websocket and request routing, in front of the real server."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from web_helpers import end_phase, seated_game, wait_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _frames(raw: str | bytes) -> list[dict[str, Any]]:
    message = json.loads(raw)
    return list(message["messages"]) if message.get("type") == "batch" else [message]


def _logged_ids(srv: Any, game_id: str) -> list[str]:
    """The command ids the server logged for the game."""
    with sqlite3.connect(f"{srv.db_dir}/vedette.db") as c:
        return [row[0] for row in c.execute("SELECT command_id FROM game_commands WHERE game_id = ?", (game_id,))]


def test_an_unanswered_command_goes_again_after_the_socket_reconnects_and_is_applied_once(
        open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")
    sent: list[str] = []  # the command ids alice's page sent over its sockets
    dropped: list[str] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_server(raw: str | bytes) -> None:
            for frame in _frames(raw):
                if frame.get("type") == "command":
                    sent.append(frame["command_id"])
            server.send(raw)

        def to_page(raw: str | bytes) -> None:
            # The first answer to a command never arrives: the connection breaks as a dying process's would,
            # after the server applied it.
            if not dropped and any(f.get("type") == "ack" for f in _frames(raw)):
                dropped.append(next(f["command_id"] for f in _frames(raw) if f.get("type") == "ack"))
                ws.close(code=4001, reason="process gone")
                server.close()
                return
            ws.send(raw)

        ws.on_message(to_server)
        server.on_message(to_page)

    alice.route_web_socket("**/ws/games/**", route)
    game_id = seated_game(alice, bob, base, ("resendalice", "resendbob"), "tutorial")
    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.game.status === 'active' && v.awaiting === 'blue'")
    alice.locator("#conn[data-state=open]").wait_for()
    version = alice.evaluate("() => window.vedette.S.version")

    end_phase(alice)
    # The socket broke with the command unanswered; the page reconnects by itself and sends it again.
    alice.wait_for_function("() => window.vedette.S.pending.size === 0 && window.vedette.S.conn === 'open'",
                            timeout=20000)
    wait_view(alice, f"v.version === {version + 1}")
    wait_view(bob, f"v.version === {version + 1}")
    assert dropped and sent.count(dropped[0]) == 2, (dropped, sent)  # sent, lost, sent again with its own id
    assert _logged_ids(live_server, game_id).count(dropped[0]) == 1  # applied once
    alice.screenshot(path=str(artifacts / "reconnect-resent-command.png"))
    assert not [e for e in errors if "alice console" not in e], errors


def test_a_command_sent_over_http_while_the_socket_is_down_is_retried_with_its_own_id_through_502_and_503(
        open_page: Any, live_server: Any, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    alice = open_page(errors, "alice")
    bob = open_page(errors, "bob")
    socket_up = [True]
    attempts: list[tuple[str, str]] = []  # (what the route did, command id) of every POST of a command

    def route(ws: Any) -> None:
        if not socket_up[0]:
            ws.close(code=4002, reason="no process")  # the page's socket cannot come back for now
            return
        ws.connect_to_server()

    def commands(route_: Any) -> None:
        command_id = json.loads(route_.request.post_data)["command_id"]
        if len(attempts) == 0:
            attempts.append(("503", command_id))
            route_.fulfill(status=503, headers={"Retry-After": "1"},
                           json={"error": "overloaded", "message": "The server is busy."})
        elif len(attempts) == 1:
            attempts.append(("no answer", command_id))
            route_.abort("connectionreset")
        else:
            attempts.append(("through", command_id))
            route_.continue_()

    alice.route_web_socket("**/ws/games/**", route)
    game_id = seated_game(alice, bob, base, ("retryalice", "retrybob"), "tutorial")
    alice.goto(f"{base}/games/{game_id}")
    wait_view(alice, "v.game.status === 'active' && v.awaiting === 'blue'")
    alice.locator("#conn[data-state=open]").wait_for()
    version = alice.evaluate("() => window.vedette.S.version")

    socket_up[0] = False
    alice.route("**/api/games/*/commands", commands)
    alice.evaluate("() => window.vedette.sock.drop()")
    alice.wait_for_function("() => window.vedette.S.conn === 'reconnecting'")
    end_phase(alice)
    wait_view(alice, f"v.version === {version + 1}", timeout=20000)
    assert [what for what, _ in attempts] == ["503", "no answer", "through"], attempts
    assert len({command_id for _, command_id in attempts}) == 1, attempts  # one command id throughout
    assert _logged_ids(live_server, game_id).count(attempts[0][1]) == 1
    assert alice.evaluate("() => window.vedette.S.pending.size") == 0
    wait_view(bob, f"v.version === {version + 1}")
    alice.screenshot(path=str(artifacts / "reconnect-http-retry.png"))
