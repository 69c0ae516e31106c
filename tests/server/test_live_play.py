"""Two websocket clients play the tutorial through a full turn; patches rebuild each own view."""

from __future__ import annotations

import json
import random
import uuid
from contextlib import ExitStack
from typing import Any

import pytest
from server_helpers import Player, apply_patch, pick_command, secret_seed, server_game, start_game


class Unbatching:
    """A test client's websocket opened with `batch=1`: `receive_json` gives one message at a time,
    as the page's socket does (web/js/ui/socket.js), and `frames` keeps what each frame carried."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.pending: list[dict[str, Any]] = []
        self.frames: list[list[str]] = []

    def receive_json(self) -> dict[str, Any]:
        if not self.pending:
            frame = self.ws.receive_json()
            self.pending = frame["messages"] if frame["type"] == "batch" else [frame]
            assert self.pending, frame
            self.frames.append([m["type"] for m in self.pending])
        return self.pending.pop(0)

    def send_json(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)


def _receive_until(ws: Any, kinds: set[str], count: int) -> list[dict[str, Any]]:
    out = []
    while len(out) < count:
        message = ws.receive_json()
        assert message["type"] in kinds | {"patch"}, message
        out.append(message)
    return out


@pytest.mark.parametrize("batch", [False, True], ids=["one-message-per-frame", "batch"])
def test_two_clients_play_a_full_turn(client, batch):
    """With `batch=1` (the page's socket) the same messages come, and a command's own patch and its
    answer, queued together, come in one frame."""
    blue, red, game = start_game(client, side="blue")
    game_id = game["id"]
    seats = {"blue": blue, "red": red}
    seed = secret_seed(client, game_id)
    rng = random.Random(7)
    spectator = Player(client, "watcher")
    all_messages: dict[str, list[str]] = {"blue": [], "red": [], "spectator": []}

    extra = {"batch": "1"} if batch else {}
    with blue.ws(game_id, **extra) as ws_blue, red.ws(game_id, **extra) as ws_red, ExitStack() as later:
        sockets = {"blue": ws_blue, "red": ws_red}
        if batch:
            sockets = {side: Unbatching(ws) for side, ws in sockets.items()}
        views: dict[str, dict[str, Any]] = {}
        for side, ws in sockets.items():
            hello = ws.receive_json()
            assert hello["type"] == "snapshot" and hello["version"] == 0
            assert hello["view"]["version"] == 0
            assert hello["view"]["spectators"] == 0
            views[side] = hello["view"]
        # Only now the spectator: had it arrived while a player's snapshot was being built, that
        # snapshot would already count it and no patch would follow.
        ws_spec = later.enter_context(spectator.ws(game_id, watch=game["watch_token"]))
        hello = ws_spec.receive_json()
        assert hello["type"] == "snapshot"
        views["spectator"] = hello["view"]
        # The spectator joining changes everyone's spectator count: one patch each.
        for side, ws in sockets.items():
            views[side] = apply_patch(views[side], ws.receive_json())
            assert views[side]["spectators"] == 1
        assert views["spectator"]["spectators"] == 1

        start_turn = views["blue"]["turn"]
        version = 0
        for _step in range(200):
            engine_game, _ = server_game(client, game_id)
            if engine_game.is_over or (views["blue"]["turn"] > start_turn):
                break
            side = engine_game.awaiting
            other = "red" if side == "blue" else "blue"
            command = pick_command(client, game_id, side, rng)
            sockets[side].send_json({
                "type": "command", "command": command,
                "expected_version": version, "command_id": str(uuid.uuid4()),
            })
            got = _receive_until(sockets[side], {"ack"}, 2)
            ack = next(m for m in got if m["type"] == "ack")
            assert ack["version"] == version + 1, ack
            version += 1  # noqa: SIM113 - counts the acknowledged commands
            patches = {side: next(m for m in got if m["type"] == "patch")}
            patches[other] = sockets[other].receive_json()
            patches["spectator"] = ws_spec.receive_json()
            for who, message in patches.items():
                all_messages[who].append(json.dumps(message))
                assert message["version"] == version
                views[who] = apply_patch(views[who], message)
                assert [e["seq"] for e in message["log"]] == [version]
        else:
            raise AssertionError("no full turn within 200 commands")
        if batch:
            # Every command's answer came in the same frame as its mover's patch, the patch first.
            mover_frames = [f for ws in sockets.values() for f in ws.frames if "ack" in f]
            assert mover_frames and all(f == ["patch", "ack"] for f in mover_frames), mover_frames
        assert views["blue"]["turn"] > start_turn or engine_game.is_over

        # Patched views equal fresh snapshots, and each is that viewer's own view.
        for who, ws in {**sockets, "spectator": ws_spec}.items():
            ws.send_json({"type": "snapshot"})
            fresh = ws.receive_json()
            assert fresh["type"] == "snapshot"
            assert fresh["view"] == views[who], who
            all_messages[who].append(json.dumps(fresh))
        assert views["blue"]["game"]["you"] == "blue"
        assert views["red"]["game"]["you"] == "red"
        assert views["spectator"]["game"]["you"] == "spectator"
        for side, player in seats.items():
            assert player.get(f"/api/games/{game_id}").json()["view"]["viewer"] == views[side]["viewer"]

    # Nothing sent to a seat or a spectator carried the secret seed.
    for who, messages in all_messages.items():
        for text in messages:
            assert seed not in text, f"seed leaked to {who}"
