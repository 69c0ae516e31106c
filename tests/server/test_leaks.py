"""Nothing sent to a seat or a spectator carries the seed, the snapshot's internals, or an
event the rules core marks for the other side only."""

from __future__ import annotations

import json
import random
import uuid

from server_helpers import Player, pick_command, secret_seed, server_game, start_game


def _walk_events(message, viewer, problems):
    for entry in message.get("log", []):
        for event in entry.get("events", []):
            only = event.get("visible_to")
            if only is not None and only != viewer:
                problems.append((viewer, event))


def test_no_seed_or_hidden_event_reaches_players_or_spectators(client):
    blue, red, game = start_game(client)
    gid = game["id"]
    seed = secret_seed(client, gid)
    _, snapshot = server_game(client, gid)
    watcher = Player(client, "peeker")
    sent: dict[str, list[str]] = {"blue": [], "red": [], "spectator": []}
    problems: list = []
    rng = random.Random(99)
    seats = {"blue": blue, "red": red}
    with blue.ws(gid) as ws_blue, red.ws(gid) as ws_red, watcher.ws(gid, watch=game["watch_token"]) as ws_spec:
        sockets = {"blue": ws_blue, "red": ws_red, "spectator": ws_spec}
        for step in range(15):
            engine_game, _ = server_game(client, gid)
            if engine_game.is_over:
                break
            side = engine_game.awaiting
            command = pick_command(client, gid, side, rng)
            answer = seats[side].post(f"/api/games/{gid}/commands", json={
                "command": command, "expected_version": engine_game.version, "command_id": str(uuid.uuid4())})
            assert answer.status_code == 200, answer.text
            sent[side].append(answer.text)
            # An illegal attempt by the other side: its error goes through the same gate.
            other = "red" if side == "blue" else "blue"
            refused = seats[other].post(f"/api/games/{gid}/commands", json={
                "command": command, "expected_version": engine_game.version + 1})
            sent[other].append(refused.text)
        # Read every viewer's stream up to the last version. How many messages that takes is not
        # fixed: a change may reach a viewer folded into the next one, and the spectator's arrival
        # may already be in a player's snapshot.
        final = server_game(client, gid)[0].version
        for who, ws in sockets.items():
            seen = -1
            while seen < final:
                message = ws.receive_json()
                sent[who].append(json.dumps(message))
                _walk_events(message, who, problems)
                seen = message.get("version", seen)
    assert not server_game(client, gid)[0].is_over, "the game ended: the seed is public now"
    for side, player in seats.items():
        for url in (f"/api/games/{gid}", f"/api/games/{gid}/history", f"/api/games/{gid}/history?at=3",
                    f"/api/games/{gid}/record", "/api/games", f"/api/games/{gid}/options?units=b-1,r-1"):
            response = player.get(url)
            sent[side].append(response.text)
            if "history" in url:
                _walk_events(response.json(), side, problems)
    for url in (f"/api/games/{gid}?watch={game['watch_token']}", f"/api/games/{gid}/history?watch={game['watch_token']}",
                f"/api/games/{gid}/record?watch={game['watch_token']}"):
        sent["spectator"].append(client.get(url).text)

    internals = {k for k in snapshot if k not in ("scenario", "ruleset", "format")}
    for who, texts in sent.items():
        for text in texts:
            assert seed not in text, f"the seed reached {who}"
            assert '"seed":' not in text, f"a seed field reached {who}"
            parsed = json.loads(text)
            view = parsed.get("view") if isinstance(parsed, dict) else None
            if isinstance(view, dict):
                assert not internals & {"stack", "checkpoint", "checkpoint_len", "log"} & set(view), who
    assert not problems, problems[:3]
