from __future__ import annotations

from server_helpers import start_game


def test_health_and_scenarios(client):
    health = client.get("/healthz")
    assert health.status_code == 200, health.text
    assert health.json()["database"]["ok"] is True
    scenarios = client.get("/api/scenarios").json()
    assert "tutorial" in [s["id"] for s in scenarios]
    full = client.get("/api/scenarios/tutorial").json()
    assert full["id"] == "tutorial" and "map" in full


def test_create_join_and_view(client):
    a, b, game = start_game(client)
    view_a = a.get(f"/api/games/{game['id']}").json()
    assert view_a["viewer"] == "blue"
    assert view_a["view"]["version"] == 0
    assert view_a["view"]["seats"] == {"blue": a.username, "red": b.username}
    mine = b.get("/api/games").json()["mine"]
    assert mine[0]["id"] == game["id"] and mine[0]["your_side"] == "red"


def test_lobby_rows_carry_each_side_name_of_the_games_own_scenario(client):
    a, _b, game = start_game(client)
    (mine,) = a.get("/api/games").json()["mine"]
    assert mine["side_names"] == {"blue": "Blue Army", "red": "Red Army"}
    assert game["side_names"] == mine["side_names"]  # the creation answer carries them too
