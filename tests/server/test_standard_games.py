"""Standard rules games (issue 13) through the API: the lobby lists `standard-tutorial` with its edition, two
players create, join and play it over HTTP and the websocket, with the page's options and attack previews, and the
game is replayed (history) and exported (record) like a Quick Play game; hidden information passes the same rule."""

from __future__ import annotations

import json
import random
import secrets
import uuid
from typing import Any

from server_helpers import Player, apply_patch, server_game

from server.rules import event_visible, parse_scenario, verify_record
from server.rules.kernel.randomplayer import RandomPlayer

SCENARIO = "standard-tutorial"


def _start(client: Any, side: str = "blue") -> tuple[Player, Player, dict[str, Any]]:
    a = Player(client, f"sa{secrets.token_hex(3)}")
    b = Player(client, f"sb{secrets.token_hex(3)}")
    created = a.post("/api/games", json={"scenario": SCENARIO, "side": side, "visibility": "open"})
    assert created.status_code == 201, created.text
    game = created.json()
    joined = b.post(f"/api/games/{game['id']}/join", json={"invite_token": game["invite_token"]})
    assert joined.status_code == 200, joined.text
    return a, b, game


def _fighting_pick(game: Any, side: str, player: RandomPlayer, rng: random.Random) -> dict[str, Any]:
    """The random player's pick, but attacking whenever it can and often marching toward the enemy, so that the
    combat procedure's commands and decisions are played too (random players rarely fight)."""
    if game.state.decision is None:
        legal = list(game.legal_commands(side, rng, limit=200))
        attacks = [c for c in legal if c["type"] == "attack"]
        if attacks and rng.random() < 0.8:
            return rng.choice(attacks)
        moves = [c for c in legal if c["type"] == "move"]
        enemy = [u.hex for uid, u in game.state.units.items()
                 if u.hex and u.status == "map" and game.scenario.units[uid].side != side]
        if moves and enemy and rng.random() < 0.6:
            grid = game.scenario.grid

            def gap(c: dict[str, Any]) -> int:
                return min(grid.distance(c["path"][-1], e) for e in enemy)
            best = min(gap(c) for c in moves)
            return rng.choice([c for c in moves if gap(c) == best])
    return player.choose(game, side)


def _send(player: Player, game_id: str, command: dict[str, Any], version: int) -> Any:
    return player.post(f"/api/games/{game_id}/commands",
                       json={"command": command, "expected_version": version, "command_id": str(uuid.uuid4())})


def test_the_lobby_lists_standard_tutorial_with_its_edition(client):
    listed = {s["id"]: s for s in client.get("/api/scenarios").json()}
    assert listed[SCENARIO]["ruleset"] == "standard"
    assert listed[SCENARIO]["ruleset_title"] == "Standard rules"
    assert listed["tutorial"]["ruleset"] == "quickplay"
    public = client.get(f"/api/scenarios/{SCENARIO}").json()
    assert public["ruleset"] == "standard" and public["trt"] and public["sides"]["blue"]["loc"] == ["0105"]
    assert parse_scenario(public, "public").id == SCENARIO


def test_a_standard_game_is_played_to_the_end_over_http(client):
    """Create, join, then every command over HTTP (the random player's picks, the page's options asked for each
    moving selection and a preview for each attack) until the game is over; each seat's view carries the
    Standard block; the history rebuilds a past view and the record verifies."""
    a, b, game = _start(client, side="blue")
    gid = game["id"]
    seats = {"blue": a, "red": b}
    first = a.get(f"/api/games/{gid}").json()
    view = first["view"]
    assert view["ruleset"] == "standard" and view["phase"] == "movement"
    std = view["standard"]
    assert std["light"] == "day" and isinstance(std["inactive"], list) and std["declared"] is None
    assert [box["light"] for box in std["trt"]][-2:] == ["twilight", "night"]

    player = RandomPlayer(random.Random(13))
    rng = random.Random(13)
    kinds: dict[str, int] = {}
    views_at: dict[int, dict[str, Any]] = {}
    for version in range(3000):
        engine_game, _ = server_game(client, gid)
        if engine_game.is_over:
            break
        side = engine_game.awaiting
        command = _fighting_pick(engine_game, side, player, rng)
        mover = seats[side]
        if command["type"] in ("move", "declare") and kinds.get("options", 0) < 40:
            units = ",".join(command["units"])
            options = mover.get(f"/api/games/{gid}/options?units={units}")
            assert options.status_code == 200, options.text
            body = options.json()["options"]
            assert body.get("normal") or body.get("march") or body.get("declared"), body
            kinds["options"] = kinds.get("options", 0) + 1
        if command["type"] == "attack":
            preview = mover.get(f"/api/games/{gid}/preview", params={"command": json.dumps(command)})
            assert preview.status_code == 200, preview.text
            judged = preview.json().get("preview", preview.json())
            assert judged["legal"] is True and len(judged["results"]) == 6, judged
        if version in (5, 40):
            views_at[version] = a.get(f"/api/games/{gid}").json()["view"]
        answer = _send(mover, gid, command, version)
        assert answer.status_code == 200, (command, answer.text)
        kinds[command["type"]] = kinds.get(command["type"], 0) + 1
    else:
        raise AssertionError("the game did not end")
    assert {"move", "attack", "choose", "end_phase"} <= set(kinds), kinds
    final = a.get(f"/api/games/{gid}").json()
    assert final["view"]["phase"] == "over" and final["game"]["status"] == "over"
    assert final["view"]["seed"]
    # replay: the history rebuilds a past view exactly as it was served then
    for at, live in views_at.items():
        past = a.get(f"/api/games/{gid}/history?at={at}").json()
        rebuilt = dict(past["view"])
        for key in ("spectators", "game"):
            rebuilt.pop(key, None), live.pop(key, None)
        assert rebuilt == live, at
    # export: the record verifies against the scenario the service offers
    record = a.get(f"/api/games/{gid}/record")
    assert record.status_code == 200, record.text
    scenario = parse_scenario(client.get(f"/api/scenarios/{SCENARIO}").json(), SCENARIO)
    assert record.json()["seed"] and record.json()["scenario"] == SCENARIO
    assert verify_record(record.json(), scenario) == []


def test_a_declared_move_over_http(client):
    """4.4: a move whose MA must be rolled is declared (the roll is made at once), both seats see the declared units
    and their rolled MA in `view["standard"]`, the page's options offer the declared move, undo stops at the roll,
    and `stay` ends it."""
    a, b, game = _start(client, side="blue")
    gid = game["id"]
    seats = {"blue": a, "red": b}
    player = RandomPlayer(random.Random(21))
    version = 0
    for _ in range(600):
        engine_game, _ = server_game(client, gid)
        assert not engine_game.is_over
        side = engine_game.awaiting
        declares = [c for c in engine_game.legal_commands(side, random.Random(0), limit=400) if c["type"] == "declare"]
        if declares:
            break
        assert _send(seats[side], gid, player.choose(engine_game, side), version).status_code == 200
        version += 1
    else:
        raise AssertionError("no move to declare within 600 commands")
    mover, other = seats[side], seats["red" if side == "blue" else "blue"]
    command = declares[0]
    body = mover.get(f"/api/games/{gid}/options?units={','.join(command['units'])}").json()["options"]
    key = "march" if command.get("march") else "normal"
    assert body[key]["declare"] is True and body[key]["rule"] == "4.4", body
    declared = _send(mover, gid, command, version)
    assert declared.status_code == 200, declared.text
    version += 1
    for seat in (mover, other):
        shown = seat.get(f"/api/games/{gid}").json()["view"]["standard"]["declared"]
        assert sorted(shown["units"]) == sorted(command["units"]) and isinstance(shown["ma"], int)
    body = mover.get(f"/api/games/{gid}/options?units={','.join(command['units'])}").json()["options"]
    assert body["declared"] and body[key]["declare"] is False and body[key]["ma"] == body["declared"]["ma"]
    undo = mover.post(f"/api/games/{gid}/undo", json={"expected_version": version, "command_id": str(uuid.uuid4())})
    assert undo.status_code == 422, undo.text
    stay = _send(mover, gid, {"type": "stay"}, version)
    assert stay.status_code == 200, stay.text
    assert mover.get(f"/api/games/{gid}").json()["view"]["standard"]["declared"] is None


def test_a_standard_game_over_the_websocket_with_the_one_visibility_rule(client):
    """Both seats and a spectator on the websocket for a whole first turn: every patch rebuilds their views, and
    every logged event a viewer receives passes `event_visible` for that viewer."""
    a, b, game = _start(client, side="red")
    gid = game["id"]
    spectator = Player(client, f"sw{secrets.token_hex(3)}")
    rng = random.Random(5)
    player = RandomPlayer(rng)
    with a.ws(gid) as ws_red, b.ws(gid) as ws_blue:
        sockets = {"red": ws_red, "blue": ws_blue}
        views = {side: ws.receive_json()["view"] for side, ws in sockets.items()}
        for side, v in views.items():
            assert v["ruleset"] == "standard" and "standard" in v, side
        with spectator.ws(gid, watch=game["watch_token"]) as ws_spec:
            views["spectator"] = ws_spec.receive_json()["view"]
            for side, ws in sockets.items():
                views[side] = apply_patch(views[side], ws.receive_json())
            version = 0
            start_turn = views["blue"]["turn"]
            for _ in range(400):
                engine_game, _ = server_game(client, gid)
                if engine_game.is_over or views["blue"]["turn"] > start_turn:
                    break
                side = engine_game.awaiting
                command = player.choose(engine_game, side)
                sockets[side].send_json({"type": "command", "command": command, "expected_version": version,
                                         "command_id": str(uuid.uuid4())})
                got: list[dict[str, Any]] = []
                while len(got) < 2:
                    message = sockets[side].receive_json()
                    assert message["type"] in ("ack", "patch"), message
                    got.append(message)
                version += 1  # noqa: SIM113 (one per accepted command)
                patches = {side: next(m for m in got if m["type"] == "patch")}
                other = "red" if side == "blue" else "blue"
                patches[other] = sockets[other].receive_json()
                patches["spectator"] = ws_spec.receive_json()
                for who, message in patches.items():
                    views[who] = apply_patch(views[who], message)
                    for entry in message["log"]:
                        for event in entry.get("events", []):
                            assert event_visible(event, who), (who, event)
            else:
                raise AssertionError("no full turn within 400 commands")
    assert views["blue"]["turn"] > start_turn or engine_game.is_over
    for who in ("blue", "red", "spectator"):
        assert views[who]["standard"]["trt"] == views["blue"]["standard"]["trt"]
        assert "seed" not in views[who] or engine_game.is_over


def test_a_game_option_the_scenario_does_not_offer_is_refused(client):
    """17.3: the free set-up is offered only by a scenario with a `free_setup` block (the listing's `options`);
    creating a game with an option its scenario does not offer is refused with the option named."""
    listed = {s["id"]: s for s in client.get("/api/scenarios").json()}
    assert listed[SCENARIO]["options"] == {} and listed["tutorial"]["options"] == {}
    a = Player(client, f"so{secrets.token_hex(3)}")
    bad = a.post("/api/games", json={"scenario": SCENARIO, "side": "blue", "options": {"free_setup": True}})
    assert bad.status_code == 422 and "offers no game option 'free_setup'" in bad.text


def test_a_secret_set_up_command_shows_the_opponent_not_even_its_type(client):
    """17.2, 19.8 B: while Austria sets up in standard-1866, the Prussian seat's and a spectator's history show only
    that Austria acted in secret, not which command (a placement, a hidden movement box's filling)."""
    a = Player(client, f"sa{secrets.token_hex(3)}")
    b = Player(client, f"sb{secrets.token_hex(3)}")
    created = a.post("/api/games", json={"scenario": "standard-1866", "side": "austria", "visibility": "open"})
    assert created.status_code == 201, created.text
    game = created.json()
    assert b.post(f"/api/games/{game['id']}/join", json={"invite_token": game["invite_token"]}).status_code == 200
    version = a.get(f"/api/games/{game['id']}").json()["version"]
    answer = _send(a, game["id"], {"type": "place", "unit": "a-hu7", "hex": "2005"}, version)
    assert answer.status_code == 200, answer.text
    seen = b.get(f"/api/games/{game['id']}/history").json()
    placed = [e for e in seen["log"] if e["side"] == "austria"]
    assert placed and placed[-1]["command"] == {"type": "secret"}, placed
    assert "a-hu7" not in json.dumps(seen) and "2005" not in json.dumps(placed)
    own = a.get(f"/api/games/{game['id']}/history").json()
    assert [e for e in own["log"] if e["side"] == "austria"][-1]["command"]["type"] == "place"
