"""Player profiles (issue 44): the games a viewer may see, wins/losses/draws by edition and by scenario,
ratings and their changes, how each game ended, links to its page and record; an unknown name is a 404."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient
from server_helpers import Player, login, make_admin

from server.main import create_app
from server.models import utcnow


def _game(a: Player, b: Player, **create) -> str:
    body = {"scenario": "tutorial", "side": "blue", "visibility": "open", **create}
    made = a.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    join = {"invite_token": made.json()["invite_token"]} if body["visibility"] == "private" else None
    assert b.post(f"/api/games/{made.json()['id']}/join", json=join).status_code == 200
    return str(made.json()["id"])


def _profile(client: TestClient, name: str, headers: dict | None = None) -> dict:
    answer = client.get(f"/api/players/{name}", headers=headers or {})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _ids(profile: dict) -> set[str]:
    return {g["id"] for g in [*profile["running"], *profile["finished"]]}


def test_private_games_only_to_their_players_and_admins(client, settings) -> None:
    a, b = Player(client, "vis-a"), Player(client, "vis-b")
    stranger = Player(client, "vis-stranger")
    make_admin(settings, "vis-admin")
    admin = {"Authorization": f"Bearer {login(client, 'vis-admin')}"}
    public = _game(a, b)
    private = _game(a, b, visibility="private")
    finished_private = _game(b, a, visibility="private")
    assert a.post(f"/api/games/{finished_private}/resign").status_code == 200

    for headers in ({}, stranger.headers):
        seen = _profile(client, "vis-a", headers)
        assert _ids(seen) == {public}
        assert seen["record"]["total"] == {"win": 0, "loss": 0, "draw": 0}  # the private result is not counted
    for headers in (a.headers, b.headers, admin):
        assert _ids(_profile(client, "vis-a", headers)) == {public, private, finished_private}
    mine = _profile(client, "vis-a", a.headers)
    assert mine["record"]["total"] == {"win": 0, "loss": 1, "draw": 0}
    assert {g["id"] for g in mine["running"]} == {public, private}


def test_record_by_edition_and_scenario_with_rating_changes_and_links(client) -> None:
    a, b = Player(client, "rec-a"), Player(client, "rec-b")
    won = _game(a, b)  # quickplay, tutorial: b resigns, a wins
    assert b.post(f"/api/games/{won}/resign").status_code == 200
    lost = _game(a, b, ruleset="quickplay-2013")  # a resigns
    assert a.post(f"/api/games/{lost}/resign").status_code == 200
    drawn = _game(a, b, scenario="hougoumont", side="french", rated=False)

    version = client.get(f"/api/games/{drawn}").json()["version"]

    async def draw() -> None:  # the referee's path, as a claimed or adjudicated result takes it
        async with client.app.state.sessionmaker() as session:
            await client.app.state.games.commands.referee(
                session, drawn, {"type": "adjudicate", "winner": None, "reason": "agreed draw"}, user_id=None,
                command_id="draw", expected_version=version)

    client.portal.call(draw)

    profile = _profile(client, "REC-A")  # names are case-blind
    assert profile["username"] == "rec-a"
    record = profile["record"]
    assert record["by_edition"] == {"quickplay": {"win": 1, "loss": 0, "draw": 1},
                                    "quickplay-2013": {"win": 0, "loss": 1, "draw": 0}}
    assert record["by_scenario"]["tutorial"] | {} == {"title": record["by_scenario"]["tutorial"]["title"],
                                                      "win": 1, "loss": 1, "draw": 0}
    assert record["by_scenario"]["hougoumont"]["draw"] == 1
    assert record["total"] == {"win": 1, "loss": 1, "draw": 1}

    games = {g["id"]: g for g in profile["finished"]}
    assert games[won]["outcome"] == "win" and games[won]["ending"] == "opponent resigned"
    assert games[lost]["outcome"] == "loss" and games[lost]["ending"] == "resigned"
    assert games[drawn]["outcome"] == "draw" and games[drawn]["ending"] == "played out"
    assert games[won]["rating_change"]["delta"] > 0 and games[lost]["rating_change"]["delta"] < 0
    assert games[won]["rating_change"]["before"] == 1500.0
    assert games[drawn]["rating_change"] is None and games[drawn]["rated"] is False
    assert games[won]["links"] == {"game": f"/games/{won}", "replay": f"/games/{won}",
                                   "record": f"/api/games/{won}/record"}
    assert client.get(games[won]["links"]["record"]).status_code == 200
    ratings = {r["ruleset"]: r for r in profile["ratings"]}
    assert ratings["quickplay"]["rating"] == 1662 and ratings["quickplay-2013"]["rating"] == 1338
    assert ratings["quickplay"]["games"] == 1
    other = {g["id"]: g for g in _profile(client, "rec-b")["finished"]}
    assert other[won]["ending"] == "resigned" and other[won]["rating_change"]["delta"] < 0


def test_a_claimed_timeout_shows_on_both_profiles(settings) -> None:
    class Clock:
        now = utcnow()

        def __call__(self):
            return self.now

    with TestClient(create_app(settings)) as client:
        clock = Clock()
        client.app.state.notify.set_clock(clock)
        a, b = Player(client, "late-a"), Player(client, "late-b")
        gid = _game(a, b, decision_hours=1)  # blue (a) decides first and never does
        clock.now += timedelta(hours=2)
        assert b.post(f"/api/games/{gid}/claim").status_code == 200
        late = {g["id"]: g for g in _profile(client, "late-a")["finished"]}[gid]
        claimer = {g["id"]: g for g in _profile(client, "late-b")["finished"]}[gid]
        assert (late["ending"], late["outcome"]) == ("lost on time", "loss")
        assert (claimer["ending"], claimer["outcome"]) == ("claimed timeout", "win")
        assert claimer["rating_change"]["delta"] > 0


def test_an_unknown_player_is_a_404_naming_them(client) -> None:
    answer = client.get("/api/players/nobody-here")
    assert answer.status_code == 404
    assert answer.json()["error"] == "unknown_player" and "nobody-here" in answer.json()["message"]
    assert client.get("/api/players/" + "x" * 40).status_code == 422  # longer than any name
    assert client.get("/players/nobody-here").status_code == 200  # the page itself says so
