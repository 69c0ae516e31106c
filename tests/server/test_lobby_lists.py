"""The lobby's lists (issue 11, items 8 and 9): open games in progress and finished games, to watch or replay;
the time per decision a joiner commits to and the ruleset on every listed game; private games never listed
to strangers."""

from __future__ import annotations

from server_helpers import Player


def _ids(listing: dict, key: str) -> set[str]:
    return {g["id"] for g in listing[key]}


def test_open_games_show_time_per_decision_and_ruleset(client) -> None:
    host = Player(client, "lhost")
    timed = host.post("/api/games", json={"scenario": "tutorial", "side": "blue", "visibility": "open",
                                          "decision_hours": 72}).json()
    untimed = host.post("/api/games", json={"scenario": "tutorial", "side": "red", "visibility": "open"}).json()
    viewer = Player(client, "lviewer")
    listing = viewer.get("/api/games").json()
    by_id = {g["id"]: g for g in listing["open"]}
    assert by_id[timed["id"]]["decision_hours"] == 72
    assert by_id[untimed["id"]]["decision_hours"] is None
    assert by_id[timed["id"]]["ruleset"] == "quickplay"


def test_games_in_progress_and_finished_are_listed_to_watch(client) -> None:
    a = Player(client, "watcher-a")
    b = Player(client, "watcher-b")
    live = a.post("/api/games", json={"scenario": "tutorial", "side": "blue", "visibility": "open"}).json()
    assert b.post(f"/api/games/{live['id']}/join").status_code == 200
    done = a.post("/api/games", json={"scenario": "tutorial", "side": "blue", "visibility": "open"}).json()
    assert b.post(f"/api/games/{done['id']}/join").status_code == 200
    assert a.post(f"/api/games/{done['id']}/resign").status_code == 200
    private = a.post("/api/games", json={"scenario": "tutorial", "side": "blue", "visibility": "private"}).json()
    assert b.post(f"/api/games/{private['id']}/join", json={"invite_token": private["invite_token"]}).status_code == 200

    stranger = Player(client, "wstranger")
    for listing in (stranger.get("/api/games").json(), client.get("/api/games").json()):
        assert live["id"] in _ids(listing, "live") and live["id"] not in _ids(listing, "open")
        assert done["id"] in _ids(listing, "finished") and done["id"] not in _ids(listing, "live")
        everywhere = set().union(*(_ids(listing, k) for k in ("mine", "open", "live", "finished")))
        assert private["id"] not in everywhere
        finished = next(g for g in listing["finished"] if g["id"] == done["id"])
        assert finished["result"]["winner"] == "red"
        assert finished["invite_token"] is None and finished["watch_token"] is None
