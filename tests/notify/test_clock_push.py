"""server/notify/clocks.py (issue 39): every change of a game's clock that no patch carries (a pause asked for,
answered or ended, more time granted) reaches the game's open websockets at once as `{"type": "clock"}`; and
server/api/routes/deadlines.py: standing orders are not changed after the battle."""

from __future__ import annotations

from typing import Any

from notify_helpers import notify_client
from server_helpers import Player


def _clocked_game(client: Any) -> tuple[Player, Player, str]:
    a = Player(client, "cpblue")
    b = Player(client, "cpred")
    created = a.post("/api/games", json={"scenario": "tutorial", "side": "blue", "decision_hours": 72}).json()
    joined = b.post(f"/api/games/{created['id']}/join", json={"invite_token": created["invite_token"]})
    assert joined.status_code == 200, joined.text
    return a, b, created["id"]


def test_a_pause_its_answer_its_end_and_more_time_reach_both_open_pages(settings: Any, smtp: Any) -> None:
    _inbox, port = smtp
    with notify_client(settings, port) as client:
        a, b, gid = _clocked_game(client)
        with a.ws(gid) as blue_socket, b.ws(gid) as red_socket:
            assert blue_socket.receive_json()["type"] == "snapshot"
            assert red_socket.receive_json()["type"] == "snapshot"
            assert b.post(f"/api/games/{gid}/pause", json={"days": 3}).status_code == 200
            assert blue_socket.receive_json() == {"type": "clock"}  # the asker's opponent, without asking
            assert red_socket.receive_json() == {"type": "clock"}
            assert a.post(f"/api/games/{gid}/pause/accept").status_code == 200
            assert red_socket.receive_json() == {"type": "clock"}
            assert blue_socket.receive_json() == {"type": "clock"}
            assert a.post(f"/api/games/{gid}/resume").status_code == 200
            assert red_socket.receive_json() == {"type": "clock"}
            assert blue_socket.receive_json() == {"type": "clock"}
            # Blue decides first: Red grants Blue more time
            assert b.post(f"/api/games/{gid}/extend", json={"hours": 24}).status_code == 200
            assert blue_socket.receive_json() == {"type": "clock"}
            assert red_socket.receive_json() == {"type": "clock"}
            # what the nudge sends the page to read: the request's answer as each seat sees it
            assert b.post(f"/api/games/{gid}/pause", json={"days": 2}).status_code == 200
            assert blue_socket.receive_json() == {"type": "clock"}
            assert a.get(f"/api/games/{gid}/clock").json()["pause_request"]["by"] == "red"
            assert b.post(f"/api/games/{gid}/pause/decline").status_code == 200  # the asker withdraws
            assert blue_socket.receive_json() == {"type": "clock"}
            assert a.get(f"/api/games/{gid}/clock").json()["pause_request"] is None


def test_standing_orders_are_refused_after_the_battle_and_still_read(settings: Any, smtp: Any) -> None:
    _inbox, port = smtp
    with notify_client(settings, port) as client:
        a, b, gid = _clocked_game(client)
        put = b.client.put(f"/api/games/{gid}/standing-orders", headers=b.headers, json={"retreat": "longest_safe"})
        assert put.status_code == 200, put.text
        assert a.post(f"/api/games/{gid}/resign").status_code == 200
        late = b.client.put(f"/api/games/{gid}/standing-orders", headers=b.headers, json={"retreat": "ask"})
        assert late.status_code == 409, late.text
        assert late.json()["error"] == "game_over"
        assert b.get(f"/api/games/{gid}/standing-orders").json()["orders"]["retreat"] == "longest_safe"
