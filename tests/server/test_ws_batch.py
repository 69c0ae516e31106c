"""The websocket's send loop (server/api/routes/ws.py): with `batch=1`, the messages queued together go out
as one `{"type": "batch", "messages": [...]}` frame, in order; without it, one frame per message."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server.api.routes.ws import CLOSE_TOO_SLOW, MAX_BATCH, _send_loop
from server.realtime.hub import Frame, ViewerConnection
from server.services.access import Viewer


class FakeSocket:
    def __init__(self) -> None:
        self.texts: list[str] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        self.texts.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = code


def _run(conn: ViewerConnection, messages: list[dict[str, Any] | None]) -> FakeSocket:
    socket = FakeSocket()

    async def main() -> None:
        for message in messages:
            conn.queue.put_nowait(message)
        task = asyncio.create_task(_send_loop(socket, conn))  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        task.cancel()

    asyncio.run(main())
    return socket


def test_messages_queued_together_go_out_in_one_batch_frame_in_order() -> None:
    conn = ViewerConnection("g", Viewer("seat", "blue", 1), batch=True)
    patch = Frame({"type": "patch", "version": 3, "patch": [], "log": []})
    socket = _run(conn, [patch, {"type": "ack", "version": 3}])
    assert [json.loads(t) for t in socket.texts] == [
        {"type": "batch", "messages": [{"type": "patch", "version": 3, "patch": [], "log": []},
                                       {"type": "ack", "version": 3}]}]


def test_a_lone_message_is_sent_as_itself_and_a_backlog_in_frames_of_at_most_max_batch() -> None:
    conn = ViewerConnection("g", Viewer("seat", "blue", 1), batch=True)
    assert [json.loads(t) for t in _run(conn, [{"type": "pong"}]).texts] == [{"type": "pong"}]
    socket = _run(conn, [{"type": "pong", "n": i} for i in range(MAX_BATCH + 3)])
    frames = [json.loads(t) for t in socket.texts]
    assert [len(f["messages"]) for f in frames] == [MAX_BATCH, 3]
    assert [m["n"] for f in frames for m in f["messages"]] == list(range(MAX_BATCH + 3))


def test_without_batch_every_message_is_its_own_frame() -> None:
    conn = ViewerConnection("g", Viewer("seat", "blue", 1))
    socket = _run(conn, [{"type": "patch"}, {"type": "ack"}])
    assert [json.loads(t)["type"] for t in socket.texts] == ["patch", "ack"]


def test_a_client_too_far_behind_gets_what_was_queued_then_the_close() -> None:
    conn = ViewerConnection("g", Viewer("seat", "blue", 1), batch=True)
    socket = _run(conn, [{"type": "patch"}, {"type": "ack"}, None, {"type": "never"}])
    assert [json.loads(t) for t in socket.texts] == [{"type": "batch", "messages": [{"type": "patch"}, {"type": "ack"}]}]
    assert socket.closed == CLOSE_TOO_SLOW
