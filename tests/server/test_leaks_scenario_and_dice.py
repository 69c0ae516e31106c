"""The scenario endpoint gives each viewer only what it may see (issue 12 defect 2), and the seats' own
contributions to the dice (R11, docs/dice.md) go through the API into the record."""

from __future__ import annotations

import json
import secrets
import uuid

from server_helpers import Player, server_game

from server.rules import verify_record
from server.rules.kernel.dice import SCHEME, die_from_seed


def _ids(scenario: dict) -> tuple[set[str], set[str]]:
    return {u["id"] for u in scenario["units"]}, {r["unit"] for r in scenario["reinforcements"]}


def test_the_scenario_endpoint_hides_the_hidden_reinforcements(client) -> None:
    """GET /api/scenarios/{id} listed every reinforcement's unit, turn and entry hex although the tutorial
    hides them (hidden.enemy_reinforcements)."""
    public = client.get("/api/scenarios/tutorial").json()
    units, schedule = _ids(public)
    assert schedule == set() and not {"b-2", "r-2"} & units
    assert '"b-2"' not in json.dumps(public) and '"r-2"' not in json.dumps(public)

    a, b = Player(client, f"a{secrets.token_hex(3)}"), Player(client, f"b{secrets.token_hex(3)}")
    game = a.post("/api/games", json={"scenario": "tutorial", "side": "blue"}).json()
    gid = game["id"]
    blue = a.get(f"/api/scenarios/tutorial?game={gid}").json()
    assert _ids(blue) == (units | {"b-2"}, {"b-2"})
    # not seated yet: the invite shows what a spectator sees; a stranger without it finds nothing
    assert _ids(b.get(f"/api/scenarios/tutorial?game={gid}&invite={game['invite_token']}").json()) == (units, set())
    assert b.get(f"/api/scenarios/tutorial?game={gid}").status_code == 404
    assert b.post(f"/api/games/{gid}/join", json={"invite_token": game["invite_token"]}).status_code == 200
    assert _ids(b.get(f"/api/scenarios/tutorial?game={gid}").json()) == (units | {"r-2"}, {"r-2"})
    watcher = Player(client, f"w{secrets.token_hex(3)}")
    assert _ids(watcher.get(f"/api/scenarios/tutorial?game={gid}&watch={game['watch_token']}").json()) == (units, set())
    assert a.get(f"/api/scenarios/salem-church?game={gid}").status_code == 404  # not this game's scenario
    # the seat's own reinforcement comes with its view too, with its schedule
    view = a.get(f"/api/games/{gid}").json()["view"]
    assert set(view["unit_defs"]) == {"b-2"} and view["units"]["b-2"]["entry_turn"] == 2
    assert "r-2" not in view["units"] and "r-2" not in view["unit_defs"]


def test_each_seat_contributes_to_the_dice_and_the_record_carries_it(client) -> None:
    a, b = Player(client, f"a{secrets.token_hex(3)}"), Player(client, f"b{secrets.token_hex(3)}")
    game = a.post("/api/games", json={"scenario": "tutorial", "side": "blue"}).json()
    gid = game["id"]
    view = a.get(f"/api/games/{gid}").json()["view"]
    assert view["dice"] == {"scheme": SCHEME, "ready": False, "contributed": {"blue": False, "red": False}}
    commitment = view["seed_hash"]
    mine, theirs = "a1" * 32, "b2" * 32
    bad = a.post(f"/api/games/{gid}/contribution", json={"contribution": "XYZ"})
    assert bad.status_code == 422
    sent = a.post(f"/api/games/{gid}/contribution", json={"contribution": mine})
    assert sent.status_code == 200, sent.text
    assert sent.json() == {"game": gid, "side": "blue", "contribution": mine, "seed_hash": commitment}
    assert a.post(f"/api/games/{gid}/contribution", json={"contribution": "c3" * 32}).status_code == 409
    assert b.post(f"/api/games/{gid}/contribution", json={"contribution": theirs}).status_code == 403
    assert b.post(f"/api/games/{gid}/join", json={"invite_token": game["invite_token"], "contribution": "no"}).status_code == 422
    joined = b.post(f"/api/games/{gid}/join", json={"invite_token": game["invite_token"], "contribution": theirs})
    assert joined.status_code == 200, joined.text
    assert a.post(f"/api/games/{gid}/contribution", json={"contribution": "c3" * 32}).status_code == 409
    view = b.get(f"/api/games/{gid}").json()["view"]
    assert view["dice"] == {"scheme": SCHEME, "ready": True, "contributed": {"blue": True, "red": True}}
    assert view["seed_hash"] == commitment

    engine, snapshot = server_game(client, gid)
    assert snapshot["dice"]["contributions"] == {"blue": mine, "red": theirs}
    seats = {"blue": a, "red": b}
    rolled: list[int] = []
    for _ in range(60):
        engine, _ = server_game(client, gid)
        if engine.state.dice_count >= 3:
            break
        side = engine.awaiting
        commands = list(engine.legal_commands(side))
        command = next((c for c in commands if c["type"] in ("attack", "bombard")), None) or \
            next((c for c in commands if c["type"] != "end_phase"), commands[0])
        answer = seats[side].post(f"/api/games/{gid}/commands", json={
            "command": command, "expected_version": engine.version, "command_id": str(uuid.uuid4())})
        assert answer.status_code == 200, answer.text
    assert a.post(f"/api/games/{gid}/resign").status_code == 200
    record = a.get(f"/api/games/{gid}/record").json()
    assert record["dice"] == {"scheme": SCHEME, "contributions": {"blue": mine, "red": theirs}}
    rolled = [d for entry in record["commands"] for d in entry["dice"]]
    assert rolled == [die_from_seed(record["seed"], n, {"blue": mine, "red": theirs}) for n in range(len(rolled))]
    assert verify_record(record, engine.scenario) == []


def test_api_clients_may_leave_the_contribution_out(client) -> None:
    a, b = Player(client, f"a{secrets.token_hex(3)}"), Player(client, f"b{secrets.token_hex(3)}")
    game = a.post("/api/games", json={"scenario": "tutorial", "side": "red"}).json()
    assert b.post(f"/api/games/{game['id']}/join", json={"invite_token": game["invite_token"]}).status_code == 200
    _, snapshot = server_game(client, game["id"])
    assert snapshot["dice"]["contributions"] == {"red": "", "blue": ""}
    view = a.get(f"/api/games/{game['id']}").json()["view"]
    assert view["dice"]["ready"] is True and view["dice"]["contributed"] == {"blue": False, "red": False}
