"""The lobby's ratings (issue 44): each listed game names its players' ratings in its edition, and the open
games can be narrowed to a range of their creator's rating; a bad range is a 422 naming it."""

from __future__ import annotations

from server_helpers import Player


def _open(a: Player, **create) -> str:
    made = a.post("/api/games", json={"scenario": "tutorial", "side": "blue", "visibility": "open", **create})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def test_ratings_beside_names_and_the_open_games_filtered_by_range(client) -> None:
    strong, weak = Player(client, "lr-strong"), Player(client, "lr-weak")
    newcomer = Player(client, "lr-new")
    rated = _open(strong)
    assert weak.post(f"/api/games/{rated}/join").status_code == 200
    assert weak.post(f"/api/games/{rated}/resign").status_code == 200  # strong 1662, weak 1338 in quickplay
    running = _open(strong)
    assert weak.post(f"/api/games/{running}/join").status_code == 200
    by_strong, by_weak, by_new = _open(strong), _open(weak), _open(newcomer)
    by_strong_2013 = _open(strong, ruleset="quickplay-2013")  # no rating in that edition yet

    listing = client.get("/api/games").json()
    live = next(g for g in listing["live"] if g["id"] == running)
    assert live["ratings"] == {"blue": 1662, "red": 1338} and live["seats"] == {"blue": "lr-strong", "red": "lr-weak"}
    opens = {g["id"]: g for g in listing["open"]}
    assert opens[by_strong]["ratings"] == {"blue": 1662}
    assert opens[by_new]["ratings"] == {"blue": None}  # not yet rated
    assert opens[by_strong_2013]["ratings"] == {"blue": None}  # ratings are per edition
    finished = next(g for g in listing["finished"] if g["id"] == rated)
    assert finished["rated"] is True and finished["ratings"] == {"blue": 1662, "red": 1338}

    def open_ids(query: str) -> set[str]:
        answer = client.get(f"/api/games?{query}")
        assert answer.status_code == 200, answer.text
        return {g["id"] for g in answer.json()["open"]}

    assert open_ids("min_rating=1600") == {by_strong}
    assert open_ids("max_rating=1400") == {by_weak}
    # A player with no rated game in the edition stands at 1500, where Glicko-2 starts.
    assert open_ids("min_rating=1400&max_rating=1600") == {by_new, by_strong_2013}
    assert open_ids("min_rating=0&max_rating=5000") == {by_strong, by_weak, by_new, by_strong_2013}
    assert open_ids("min_rating=1700") == set()
    # The filter narrows the open games only: the running and finished ones are still listed.
    assert running in {g["id"] for g in client.get("/api/games?min_rating=4000").json()["live"]}


def test_a_bad_rating_range_is_a_422_naming_it(client) -> None:
    for query, field in (("min_rating=-1", "query.min_rating"), ("max_rating=lots", "query.max_rating"),
                         ("max_rating=99999", "query.max_rating")):
        answer = client.get(f"/api/games?{query}")
        assert answer.status_code == 422, query
        assert field in [f["field"] for f in answer.json()["fields"]]
    upside_down = client.get("/api/games?min_rating=1800&max_rating=1200")
    assert upside_down.status_code == 422
    assert upside_down.json()["error"] == "bad_rating_range" and "1800" in upside_down.json()["message"]
