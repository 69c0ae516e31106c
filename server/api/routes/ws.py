"""The game websocket: a snapshot on connect, a patch of the viewer's OWN view after every
change, and commands in the other direction. Protocol in docs/api.md."""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import suppress
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ...config import Settings
from ...db import LazySession
from ...errors import ApiError
from ...models import User
from ...realtime.hub import GameHub, ViewerConnection, frame_text, let_senders_run
from ...schemas import CommandRequest, UndoRequest
from ...services import accounts
from ...services.access import resolve_viewer
from ...services.commands import CommandService
from ...services.wiring import GameServices
from ..guards import contains_nul

log = logging.getLogger(__name__)

router = APIRouter(tags=["websocket"])

# Close codes (4000-4999 are the application's own).
CLOSE_FORBIDDEN_ORIGIN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_SLOW = 4408
CLOSE_TRY_AGAIN = 1013


def origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    """Browsers always send Origin: it must be this host or VEDETTE_BASE_URL. Scripts send none."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    if not parts.scheme or not parts.netloc:
        return False
    host = (websocket.headers.get("host") or "").lower()
    if parts.netloc.lower() == host:
        return True
    return f"{parts.scheme}://{parts.netloc}".lower() in settings.allowed_origins


def _error(status: int, error: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "status": status, "error": error, "message": message, **extra}


def _validation_error(exc: ValidationError, command_id: Any) -> dict[str, Any]:
    fields = [
        {"field": ".".join(str(p) for p in err["loc"]), "problem": err["msg"]} for err in exc.errors()
    ]
    names = ", ".join(f["field"] or "(message)" for f in fields)
    return _error(422, "invalid_message", f"Invalid message: check {names}.", fields=fields,
                  command_id=command_id)


@router.websocket("/ws/games/{game_id}")
async def game_socket(
    websocket: WebSocket,
    game_id: str,
    token: str | None = None,
    watch: str | None = None,
    invite: str | None = None,
    batch: str | None = None,
) -> None:
    app = websocket.app
    settings: Settings = app.state.settings
    games: GameServices = app.state.games
    commands = games.commands
    hub: GameHub = app.state.hub
    if not origin_allowed(websocket, settings):
        await websocket.close(code=CLOSE_FORBIDDEN_ORIGIN, reason="origin not allowed")
        return
    try:
        # Who it is, by one plain statement: a player of a game this process serves live needs no other
        # read, so the handshake then opens no ORM session at all (issue 16).
        user = await accounts.user_for_token_plain(
            app.state.engine, settings, token or websocket.cookies.get(settings.session_cookie)
        )
        # A player of a game this process serves live is known without a read (as a seat always
        # sees its own side, even an admin's); anyone else, from the row: no state.
        viewer = commands.live_seat(game_id, user)
        if viewer is None:
            async with app.state.sessionmaker() as session:
                row = await games.store.get_row(session, game_id, light=True)
                viewer = resolve_viewer(row, user, watch_token=watch, invite_token=invite)
    except ApiError:
        await websocket.close(code=CLOSE_NOT_FOUND, reason="no such game")
        return
    except Exception:  # e.g. the database is overloaded: refuse cleanly, the client retries
        log.exception("websocket handshake failed for game %s", game_id)
        await websocket.close(code=CLOSE_TRY_AGAIN, reason="server busy; retry")
        return
    await websocket.accept()
    await games.gate.yield_to_commands()  # the viewer's snapshot after the commands in flight
    conn = ViewerConnection(game_id, viewer, batch=batch == "1")
    sender = asyncio.create_task(_send_loop(websocket, conn))
    try:
        await hub.attach(conn)
        await _receive_loop(websocket, conn, user, settings, commands, hub, app)
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        with suppress(asyncio.CancelledError, Exception):
            await sender
        conn.queue.discard()
        await hub.detach(conn)


COMMAND_TYPES = frozenset({"command", "undo", "resign"})

# At most this many queued messages in one batch frame (a client that fell behind gets several).
MAX_BATCH = 32


async def _send_loop(websocket: WebSocket, conn: ViewerConnection) -> None:
    try:
        while True:
            message = await conn.queue.get()
            if message is None:
                await _close_too_slow(websocket)
                return
            if not conn.batch or conn.queue.empty():
                await websocket.send_text(frame_text(message))
                continue
            # Messages queued together (a command's patch and its answer, say) in one frame: each
            # frame is a socket write, the largest single cost of a command on the benchmark (issue 16).
            texts = [frame_text(message)]
            closing = False
            while len(texts) < MAX_BATCH and not conn.queue.empty():
                queued = conn.queue.get_nowait()
                if queued is None:
                    closing = True
                    break
                texts.append(frame_text(queued))
            await websocket.send_text('{"type":"batch","messages":[' + ",".join(texts) + "]}")
            if closing:
                await _close_too_slow(websocket)
                return
    except (WebSocketDisconnect, RuntimeError):
        return


async def _close_too_slow(websocket: WebSocket) -> None:
    """The hub gave up on this client (MAX_QUEUED_MESSAGES behind): it reconnects for a snapshot."""
    await websocket.close(code=CLOSE_TOO_SLOW, reason="fell behind; reconnect")


async def _receive_loop(
    websocket: WebSocket,
    conn: ViewerConnection,
    user: User | None,
    settings: Settings,
    commands: CommandService,
    hub: GameHub,
    app: Any,
) -> None:
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is None and frame.get("bytes") is not None:
            data = frame["bytes"]
            if len(data) > settings.max_ws_frame_bytes:
                conn.send(_frame_too_large(settings))
                continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                conn.send(_error(400, "bad_json", "Messages are UTF-8 JSON text."))
                continue
        if text is None:
            continue
        if len(text) > settings.max_ws_frame_bytes or len(text.encode("utf-8")) > settings.max_ws_frame_bytes:
            conn.send(_frame_too_large(settings))
            continue
        if contains_nul(text):
            conn.send(_error(400, "bad_input", "The message carries a NUL byte (\\u0000); no field may contain one."))
            continue
        try:
            message = json.loads(text)
        except json.JSONDecodeError as exc:
            conn.send(_error(400, "bad_json", f"Not valid JSON: {exc.msg} at column {exc.colno}."))
            continue
        except RecursionError:
            conn.send(_error(400, "bad_json", "Not valid JSON here: it is nested too deeply."))
            continue
        if not isinstance(message, dict):
            conn.send(_error(422, "invalid_message", "A message is a JSON object with a \"type\"."))
            continue
        if message.get("type") in COMMAND_TYPES and conn.viewer.role == "seat":
            # Counted in flight from here to its answer: the lobby's steps wait for it (`priority.py`).
            # A spectator's is refused at once, and must not hold up the lobby however many it sends.
            with commands.gate.command():
                await let_senders_run()  # another command's waiting frames go out before this one is handled
                await _handle(message, conn, user, commands, hub, app)
        else:
            await _handle(message, conn, user, commands, hub, app)


def _frame_too_large(settings: Settings) -> dict[str, Any]:
    return _error(
        413, "frame_too_large",
        f"Messages may be at most {settings.max_ws_frame_bytes} bytes.",
        limit=settings.max_ws_frame_bytes,
    )


async def _handle(
    message: dict[str, Any],
    conn: ViewerConnection,
    user: User | None,
    commands: CommandService,
    hub: GameHub,
    app: Any,
) -> None:
    kind = message.get("type")
    command_id = message.get("command_id")
    if kind == "ping":
        conn.send({"type": "pong"})
        return
    if kind == "snapshot":
        await hub.send_snapshot(conn)
        return
    if kind not in COMMAND_TYPES:
        conn.send(_error(
            422, "unknown_message_type",
            f"Unknown message type {kind!r}; use command, undo, resign, snapshot or ping.",
            command_id=command_id,
        ))
        return
    if conn.viewer.role != "seat":
        status, error = (401, "not_authenticated") if user is None else (403, "not_a_player")
        conn.send(_error(status, error, "Only the game's two players may send commands.",
                         command_id=command_id))
        return
    assert user is not None
    body = {k: v for k, v in message.items() if k != "type"}
    try:
        async with LazySession(app.state.sessionmaker, app.state.engine) as session:
            if kind == "resign":
                version = await commands.resign_version(session, conn.game_id, user)
                await hub.publish(conn.game_id, version, actor=conn)
                conn.send({"type": "ack", "status": "resigned", "version": version, "command_id": command_id})
                return
            if kind == "command":
                request = CommandRequest.model_validate(body)
                answer, applied = await commands.submit(
                    session, conn.game_id, user, request.command,
                    request.expected_version, request.command_id,
                )
            else:
                undo = UndoRequest.model_validate(body)
                answer, applied = await commands.submit(
                    session, conn.game_id, user, {"type": "undo"},
                    undo.expected_version, undo.command_id, undo=True,
                )
    except ValidationError as exc:
        conn.send(_validation_error(exc, command_id))
        return
    except ApiError as exc:
        conn.send({"type": "error", **exc.body(), "status": exc.status, "command_id": command_id})
        return
    except Exception:
        log.exception("websocket command failed in game %s", conn.game_id)
        conn.send(_error(500, "internal_error", "The server failed on this message.",
                         command_id=command_id))
        return
    if applied:
        # The viewers' patches first (the opponent's before the mover's), then the answer: the
        # opponent's update waits behind neither the answer's frame nor the mover's patch.
        await hub.publish(conn.game_id, answer["version"], actor=conn)
    conn.send({"type": "ack", **answer})
