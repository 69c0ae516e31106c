"""Command semantics: stale versions, repeated command ids, illegal commands, undo, resign,
history and the record."""

from __future__ import annotations

import random
import uuid

from server_helpers import login, make_admin, pick_command, server_game, start_game


def _send(player, game_id, command, version, command_id=None):
    return player.post(
        f"/api/games/{game_id}/commands",
        json={"command": command, "expected_version": version, "command_id": command_id or str(uuid.uuid4())},
    )


def _mover(client, game_id, a, b):
    engine_game, _ = server_game(client, game_id)
    return (a, b) if engine_game.awaiting == "blue" else (b, a)


def test_accept_stale_and_repeat(client):
    a, b, game = start_game(client)
    gid = game["id"]
    mover, _waiter = _mover(client, gid, a, b)
    side = "blue" if mover is a else "red"
    command = pick_command(client, gid, side, random.Random(1))
    command_id = str(uuid.uuid4())
    first = _send(mover, gid, command, 0, command_id)
    assert first.status_code == 200, first.text
    assert first.json()["version"] == 1 and first.json()["seq"] == 1
    # The same command_id again: the first answer, nothing applied twice.
    again = _send(mover, gid, command, 0, command_id)
    assert again.status_code == 200 and again.json() == first.json()
    assert mover.get(f"/api/games/{gid}").json()["version"] == 1
    # A stale expected_version: 409 with the current version, nothing changed.
    stale = _send(mover, gid, {"type": "end_phase"}, 0)
    assert stale.status_code == 409
    assert stale.json()["error"] == "stale_version" and stale.json()["version"] == 1
    history = mover.get(f"/api/games/{gid}/history").json()
    assert [e["seq"] for e in history["log"]] == [1]


def test_illegal_command_is_422_with_rule(client):
    a, b, game = start_game(client)
    gid = game["id"]
    mover, waiter = _mover(client, gid, a, b)
    bad = _send(mover, gid, {"type": "no_such_command"}, 0)
    assert bad.status_code == 422, bad.text
    body = bad.json()
    assert body["error"] in ("illegal_command", "malformed_command")
    assert body["rule"] and body["message"]
    not_yours = _send(waiter, gid, {"type": "end_phase"}, 0)
    assert not_yours.status_code == 422 and not_yours.json()["rule"]
    assert mover.get(f"/api/games/{gid}").json()["version"] == 0


def test_history_rebuilds_each_version(client, settings):
    a, b, game = start_game(client)
    gid = game["id"]
    rng = random.Random(3)
    views = {}
    for version in range(6):
        engine_game, _ = server_game(client, gid)
        if engine_game.is_over:
            break
        mover = a if engine_game.awaiting == "blue" else b
        views[version] = a.get(f"/api/games/{gid}").json()["view"]
        command = pick_command(client, gid, engine_game.awaiting, rng)
        assert _send(mover, gid, command, version).status_code == 200
    views[len(views)] = a.get(f"/api/games/{gid}").json()["view"]
    for version, live in views.items():
        past = a.get(f"/api/games/{gid}/history?at={version}").json()
        assert past["version"] == version
        rebuilt = dict(past["view"])
        for key in ("spectators", "game"):
            rebuilt.pop(key), live.pop(key, None)
        assert rebuilt == live, version
    too_far = a.get(f"/api/games/{gid}/history?at=999")
    assert too_far.status_code == 422 and too_far.json()["field"] == "at"


def test_resign_ends_game_with_result_and_publishes_record(client, settings):
    a, b, game = start_game(client)
    gid = game["id"]
    resigned = b.post(f"/api/games/{gid}/resign")
    assert resigned.status_code == 200, resigned.text
    assert resigned.json()["status"] == "over"
    assert resigned.json()["result"]["winner"] == "blue"
    assert resigned.json()["result"]["resigned"] == "red"
    listing = a.get("/api/games").json()["mine"]
    assert listing[0]["result"]["winner"] == "blue"
    after_end = _send(a, gid, {"type": "end_phase"}, 0)  # e.g. sent while the resignation won the race
    assert after_end.status_code == 409, after_end.text
    assert after_end.json()["error"] == "game_over" and after_end.json()["version"] == 1
    assert after_end.json()["result"]["winner"] == "blue"
    assert b.post(f"/api/games/{gid}/resign").status_code == 409
    record = a.get(f"/api/games/{gid}/record")
    assert record.status_code == 200, record.text
    from server.rules import parse_scenario, verify_record

    scenario = parse_scenario(client.get("/api/scenarios/tutorial").json(), "tutorial")
    assert record.json()["seed"] and verify_record(record.json(), scenario) == []
    make_admin(settings, "judge")
    admin = login(client, "judge")
    admin_games = client.get("/api/admin/games", headers={"Authorization": f"Bearer {admin}"}).json()
    assert admin_games["games"][0]["view"]["game"]["you"] == "admin"


def test_my_games_shows_whose_turn_and_since(client):
    a, b, game = start_game(client)
    engine_game, _ = server_game(client, game["id"])
    for player, side in ((a, "blue"), (b, "red")):
        mine = player.get("/api/games").json()["mine"][0]
        assert mine["awaiting"] == engine_game.awaiting
        assert mine["awaiting_since"]
        assert mine["your_turn"] is (engine_game.awaiting == side)
        assert mine["awaiting_user"] in (a.username, b.username)


def test_waiting_game_refuses_commands_and_can_be_abandoned(client):
    from server_helpers import Player

    solo = Player(client, "solo")
    game = solo.post("/api/games", json={"scenario": "tutorial", "side": "blue"}).json()
    refused = _send(solo, game["id"], {"type": "end_phase"}, 0)
    assert refused.status_code == 409 and refused.json()["error"] == "game_not_started"
    done = solo.post(f"/api/games/{game['id']}/resign").json()
    assert done["status"] == "over" and "abandoned" in done["result"]["reason"]


def test_a_repeat_is_looked_up_only_for_an_id_the_client_chose(client, monkeypatch):
    """Issue 16: a repeated command id is answered from the log; an id the service made up itself (a
    resignation by the page's button sends none) cannot have been used before, so the log is not searched."""
    a, b, game = start_game(client)
    gid = game["id"]
    commands = client.app.state.games.commands
    looked_up = []
    find = commands._find_command

    async def counting(session, game_id, side, command_id):
        looked_up.append(command_id)
        return await find(session, game_id, side, command_id)

    monkeypatch.setattr(commands, "_find_command", counting)
    mover, _waiter = _mover(client, gid, a, b)
    side = "blue" if mover is a else "red"
    command = pick_command(client, gid, side, random.Random(2))
    first = _send(mover, gid, command, 0, "chosen-id")
    commands.store.recent.drop(gid)  # the repeat must come from the log, not from this process's memory
    again = _send(mover, gid, command, 0, "chosen-id")
    assert again.status_code == 200 and again.json() == first.json()
    assert looked_up == ["chosen-id"]
    assert a.post(f"/api/games/{gid}/resign").status_code == 200
    assert looked_up == ["chosen-id"]
    assert a.get(f"/api/games/{gid}").json()["game"]["status"] == "over"
