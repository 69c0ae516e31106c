"""Ratings (issue 44): Glicko-2 as the paper computes it, applied once when a rated game ends, per edition;
games against the computer and unrated games never count."""

from __future__ import annotations

import asyncio

import pytest
from server_helpers import Player

from server.services import ratings
from server.services.glicko import NEW_PLAYER, Rating, rate, rate_game


def test_glickmans_worked_example() -> None:
    # Glickman, "Example of the Glicko-2 system": 1500/200 beats 1400/30, loses to 1550/100 and to 1700/300
    # in one rating period (τ = 0.5): r' = 1464.06, RD' = 151.52, σ' = 0.05999.
    player = Rating(1500, 200, 0.06)
    after = rate(player, [(Rating(1400, 30, 0.06), 1.0), (Rating(1550, 100, 0.06), 0.0),
                          (Rating(1700, 300, 0.06), 0.0)])
    # The paper rounds as it goes (μ' = −0.2069, φ' = 0.8722 on the Glicko-2 scale, then r' = 1464.06): the
    # exact computation is 1464.0507, within the paper's rounding of its figure.
    assert round((after.rating - 1500) / 173.7178, 4) == -0.2069
    assert round(after.rd / 173.7178, 4) == 0.8722
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.rd, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)  # the paper prints 0.05999; exactly 0.059996


def test_the_volatility_step_uses_the_deviation_as_the_paper_says() -> None:
    # The package's f(x) squares the rating μ where the paper squares the deviation φ (services/glicko.py);
    # with μ far from 0 and surprising results it shows. Worked by hand from the paper's steps 1-8:
    # 2500/60/0.06 losing five times to 1500/50 in one period: σ' = 0.060330, r' = 2395.11, RD' = 60.85
    # (the package alone says σ' = 0.060138, r' = 2395.13).
    after = rate(Rating(2500, 60, 0.06), [(Rating(1500, 50, 0.06), 0.0)] * 5)
    assert round(after.volatility, 6) == 0.060330
    assert round(after.rating, 2) == 2395.11
    assert round(after.rd, 2) == 60.85


def test_a_game_between_two_new_players() -> None:
    # Both at 1500/350: the winner 1662.31, the loser 1337.69, both RD 290.32; a draw moves neither.
    won, lost = rate_game(NEW_PLAYER, NEW_PLAYER, 1.0)
    assert (round(won.rating, 2), round(lost.rating, 2), round(won.rd, 2)) == (1662.31, 1337.69, 290.32)
    even, _ = rate_game(NEW_PLAYER, NEW_PLAYER, 0.5)
    assert round(even.rating, 6) == 1500.0 and even.rd < 350


def test_rated_end_scores_sides_and_refuses_what_is_not_rated() -> None:
    seats = [("red", 7), ("blue", 3)]
    end = ratings.rated_end("g", True, "quickplay", seats, {"winner": "red"})
    assert end is not None and (end.first, end.second, end.first_score) == (3, 7, 0.0)  # lower id first
    draw = ratings.rated_end("g", True, "quickplay", seats, {"winner": None})
    assert draw is not None and draw.first_score == 0.5
    assert ratings.rated_end("g", False, "quickplay", seats, {"winner": "red"}) is None
    assert ratings.rated_end("g", True, "quickplay", [("red", 7)], {"winner": None}) is None  # called off


def _stored(client) -> tuple[dict, list]:
    from sqlalchemy import select

    from server.models import PlayerRating, RatingChange

    async def read():
        async with client.app.state.sessionmaker() as session:
            rows = (await session.scalars(select(PlayerRating))).all()
            changes = (await session.scalars(select(RatingChange))).all()
            return ({(r.user_id, r.ruleset): (r.rating, r.rd, r.volatility, r.games) for r in rows},
                    [(c.game_id, c.user_id, c.score) for c in changes])

    return client.portal.call(read)


def _game(a: Player, b: Player, **create) -> str:
    body = {"scenario": "tutorial", "side": "blue", "visibility": "open", **create}
    made = a.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    assert b.post(f"/api/games/{made.json()['id']}/join").status_code == 200
    return str(made.json()["id"])


def test_a_rated_game_moves_both_ratings_once(client) -> None:
    a, b = Player(client, "rate-a"), Player(client, "rate-b")
    gid = _game(a, b)
    assert client.get(f"/api/games/{gid}").json()["game"]["rated"] is True  # two people: rated by default
    assert b.post(f"/api/games/{gid}/resign").status_code == 200  # blue (a) wins
    stored, changes = _stored(client)
    won, lost = rate_game(NEW_PLAYER, NEW_PLAYER, 1.0)
    assert stored[(a.id, "quickplay")][:3] == pytest.approx((won.rating, won.rd, won.volatility))
    assert stored[(b.id, "quickplay")][:3] == pytest.approx((lost.rating, lost.rd, lost.volatility))
    assert stored[(a.id, "quickplay")][3] == stored[(b.id, "quickplay")][3] == 1
    assert sorted(changes) == sorted([(gid, a.id, 1.0), (gid, b.id, 0.0)])

    # Retries change nothing: the game is over (409), and its result was counted with its end.
    assert b.post(f"/api/games/{gid}/resign").status_code == 409
    assert a.post(f"/api/games/{gid}/resign").status_code == 409
    assert _stored(client) == (stored, changes)

    # A second game: each is rated against the other's rating before it (a draw is 0.5: here b wins).
    gid2 = _game(b, a)
    assert a.post(f"/api/games/{gid2}/resign").status_code == 200
    stored2, _ = _stored(client)
    a2, b2 = rate_game(Rating(*stored[(a.id, "quickplay")][:3]), Rating(*stored[(b.id, "quickplay")][:3]), 0.0)
    assert stored2[(a.id, "quickplay")][:3] == pytest.approx((a2.rating, a2.rd, a2.volatility))
    assert stored2[(b.id, "quickplay")][:3] == pytest.approx((b2.rating, b2.rd, b2.volatility))


def test_a_result_is_never_counted_twice_even_if_applied_again(client) -> None:
    """The second lock besides the compare-and-set: `rating_changes`' primary key (game, user)."""
    a, b = Player(client, "twice-a"), Player(client, "twice-b")
    gid = _game(a, b)
    assert a.post(f"/api/games/{gid}/resign").status_code == 200
    before = _stored(client)
    end = ratings.rated_end(gid, True, "quickplay", [("blue", a.id), ("red", b.id)], {"winner": "red"})
    assert end is not None
    from server.models import utcnow
    from server.services.commandlog import plain_transaction, sqlite_timestamp

    async def again() -> bool:
        async def on_postgres(conn) -> bool:
            return await ratings.apply_postgres(conn, end, utcnow())

        return await plain_transaction(
            client.app.state.engine, lambda conn: ratings.apply_sqlite(conn, end, sqlite_timestamp(utcnow())),
            on_postgres,
        )

    assert client.portal.call(again) is False
    assert _stored(client) == before


def test_unrated_and_computer_games_do_not_count(client) -> None:
    a, b = Player(client, "unrated-a"), Player(client, "unrated-b")
    gid = _game(a, b, rated=False)
    assert a.post(f"/api/games/{gid}/resign").status_code == 200
    assert _stored(client) == ({}, [])

    # Against the computer the game is never rated, whatever the creator asked.
    made = a.post("/api/games", json={"scenario": "tutorial", "side": "blue", "opponent": "computer",
                                      "computer_level": "random", "rated": True})
    assert made.status_code == 201, made.text
    assert made.json()["rated"] is False
    assert a.post(f"/api/games/{made.json()['id']}/resign").status_code == 200
    assert _stored(client) == ({}, [])


def test_ratings_are_kept_per_edition(client) -> None:
    a, b = Player(client, "ed-a"), Player(client, "ed-b")
    quick = _game(a, b)
    assert b.post(f"/api/games/{quick}/resign").status_code == 200
    qp13 = _game(a, b, ruleset="quickplay-2013")
    assert a.post(f"/api/games/{qp13}/resign").status_code == 200
    stored, _ = _stored(client)
    won, lost = rate_game(NEW_PLAYER, NEW_PLAYER, 1.0)
    # Each edition started from 1500 on its own: a won the one and lost the other.
    assert stored[(a.id, "quickplay")][0] == pytest.approx(won.rating)
    assert stored[(a.id, "quickplay-2013")][0] == pytest.approx(lost.rating)
    assert stored[(b.id, "quickplay-2013")][0] == pytest.approx(won.rating)


def test_a_claimed_timeout_is_rated_and_says_who_lost_on_time(settings) -> None:
    from datetime import timedelta

    from fastapi.testclient import TestClient

    from server.main import create_app

    class Clock:
        def __init__(self) -> None:
            from server.models import utcnow

            self.now = utcnow()

        def __call__(self):
            return self.now

    with TestClient(create_app(settings)) as client:
        clock = Clock()
        client.app.state.notify.set_clock(clock)
        a, b = Player(client, "clock-a"), Player(client, "clock-b")
        gid = _game(a, b, decision_hours=1)  # blue (a) must decide first
        assert b.post(f"/api/games/{gid}/claim").status_code == 409
        clock.now += timedelta(hours=2)
        claimed = b.post(f"/api/games/{gid}/claim")
        assert claimed.status_code == 200, claimed.text
        assert claimed.json()["result"]["winner"] == "red" and claimed.json()["result"]["lost_on_time"] == "blue"
        _, changes = _stored(client)
        assert sorted(changes) == sorted([(gid, a.id, 0.0), (gid, b.id, 1.0)])


def test_two_games_sharing_a_player_ending_at_once_are_both_counted(client) -> None:
    """Two rated ends that share a player, committed concurrently: neither update is lost (the rows are
    locked on Postgres; SQLite has one writer)."""
    a, b, c = Player(client, "conc-a"), Player(client, "conc-b"), Player(client, "conc-c")
    g1, g2 = _game(a, b), _game(a, c)

    async def both():
        from httpx import ASGITransport, AsyncClient

        async with AsyncClient(transport=ASGITransport(app=client.app), base_url="http://t") as http:
            return await asyncio.gather(
                http.post(f"/api/games/{g1}/resign", headers=b.headers),
                http.post(f"/api/games/{g2}/resign", headers=c.headers),
            )

    answers = client.portal.call(both)
    assert [r.status_code for r in answers] == [200, 200]
    stored, changes = _stored(client)
    assert stored[(a.id, "quickplay")][3] == 2 and len(changes) == 4
    assert stored[(a.id, "quickplay")][0] > rate_game(NEW_PLAYER, NEW_PLAYER, 1.0)[0].rating
