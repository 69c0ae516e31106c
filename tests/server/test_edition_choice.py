"""The creator picks the edition (issue 41): the lobby lists each scenario's editions (its own `ruleset` first, then
the `also_rulesets` the rules core plays), a create names one of them or is refused with a 422 that names the problem,
and the game row, its lists, every view, the log, the stored engine and the record all play the chosen edition."""

from __future__ import annotations

import random
import secrets
import uuid
from typing import Any

from server_helpers import Player, server_game

from server.rules import verify_record
from server.rules_cli import find_scenario

EDITION = "quickplay-2013"


def _create(player: Player, **body: Any) -> Any:
    return player.post("/api/games", json={"scenario": "tutorial", "side": "blue", **body})


def _send(player: Player, game_id: str, command: dict[str, Any], version: int) -> Any:
    return player.post(f"/api/games/{game_id}/commands",
                       json={"command": command, "expected_version": version, "command_id": str(uuid.uuid4())})


def test_the_listing_offers_each_scenarios_editions_its_own_first(client) -> None:
    listed = {s["id"]: s for s in client.get("/api/scenarios").json()}
    tutorial = [(e["ruleset"], e["title"]) for e in listed["tutorial"]["rulesets"]]
    assert tutorial == [("quickplay", "Quick Play (revised)"), (EDITION, "Quick Play (2013)")]
    salem = [e["ruleset"] for e in listed["salem-church"]["rulesets"]]
    assert salem == ["quickplay", EDITION]
    assert [e["ruleset"] for e in listed["standard-tutorial"]["rulesets"]] == ["standard"]
    # the Standard scenario's game option (17.3) goes with its edition
    assert "free_setup" in {k for e in listed["standard-1866"]["rulesets"] for k in e["options"]}


def test_a_game_created_under_the_2013_edition_is_played_by_it_everywhere(client) -> None:
    host, guest = Player(client, f"eh{secrets.token_hex(3)}"), Player(client, f"eg{secrets.token_hex(3)}")
    created = _create(host, ruleset=EDITION, visibility="open")
    assert created.status_code == 201, created.text
    game = created.json()
    assert game["ruleset"] == EDITION
    gid = game["id"]
    assert guest.post(f"/api/games/{gid}/join", json={"invite_token": game["invite_token"]}).status_code == 200
    listed = {g["id"]: g for g in guest.get("/api/games").json()["mine"]}
    assert listed[gid]["ruleset"] == EDITION
    view = host.get(f"/api/games/{gid}").json()["view"]
    assert view["ruleset"] == EDITION
    engine_game, snapshot = server_game(client, gid)
    assert engine_game.ruleset.name == EDITION and snapshot["ruleset"] == EDITION
    # a command only the 2013 edition has: 11.1(2)'s rolled allowance (T23) is refused by the revised edition
    assert "roll_ma" in engine_game.ruleset.commands()

    seats = {"blue": host, "red": guest}
    rng = random.Random(41)
    version = 0
    for version in range(40):
        engine_game, _ = server_game(client, gid)
        side = engine_game.awaiting
        command = rng.choice(list(engine_game.legal_commands(side, rng, limit=50)))
        answer = _send(seats[side], gid, command, version)
        assert answer.status_code == 200, (command, answer.text)
    # the log as each seat reads it, and the history's view rebuilt from the stored game, are the 2013 game's
    history = host.get(f"/api/games/{gid}/history?at=20").json()
    assert len(history["log"]) == 20 and history["view"]["ruleset"] == EDITION
    # a fresh process rebuilds the engine from the stored snapshot and log under the same edition
    store = client.app.state.games.store
    store.forget(gid)
    rebuilt, _ = server_game(client, gid)
    assert rebuilt.ruleset.name == EDITION and rebuilt.version == version + 1
    # the record a player downloads once the game is over names the edition and verifies (`vedette replay`)
    assert host.post(f"/api/games/{gid}/resign").status_code == 200
    record = guest.get(f"/api/games/{gid}/record")
    assert record.status_code == 200, record.text
    assert record.json()["ruleset"] == EDITION
    assert verify_record(record.json(), find_scenario("tutorial")) == []

def test_a_create_without_an_edition_plays_the_scenarios_own(client) -> None:
    host = Player(client, f"eo{secrets.token_hex(3)}")
    created = _create(host)
    assert created.status_code == 201, created.text
    assert created.json()["ruleset"] == "quickplay"
    assert server_game(client, created.json()["id"])[0].ruleset.name == "quickplay"


def test_an_edition_the_scenario_does_not_declare_is_refused_naming_the_problem(client) -> None:
    host = Player(client, f"er{secrets.token_hex(3)}")
    before = len(host.get("/api/games").json()["mine"])
    for ruleset, scenario in (("standard", "tutorial"), ("quickplay-1999", "tutorial"), (EDITION, "standard-tutorial")):
        refused = host.post("/api/games", json={"scenario": scenario, "side": "random", "ruleset": ruleset})
        assert refused.status_code == 422, refused.text
        body = refused.json()
        assert body["error"] == "unknown_ruleset", body
        assert ruleset in body["message"] and scenario in body["message"], body
        declared = [e["ruleset"] for e in {s["id"]: s for s in client.get("/api/scenarios").json()}[scenario]["rulesets"]]
        assert body["rulesets"] == declared, body
    assert len(host.get("/api/games").json()["mine"]) == before  # nothing was created
