"""server/services/botplay.py: the computer opponent is a seat (issue 15). A player creates a game
against it from the lobby; it joins at once, answers every decision that becomes its own through the
ordinary command path (logged as its seat), thinks in a worker process, and its game is an ordinary
game. Nobody can register or log in as one of its accounts."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Player

from server.services.botplay import bot_username


def _wait_for_bots(client: TestClient) -> None:
    assert client.portal is not None
    client.portal.call(client.app.state.bots.wait_idle)


def _view(player: Player, game_id: str) -> dict[str, Any]:
    response = player.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    return dict(response.json())


@pytest.mark.parametrize(("scenario", "level"), [("tutorial", "random"), ("standard-tutorial", "greedy")])
def test_a_game_against_the_computer_is_played_by_it_through_the_command_path(client: TestClient, scenario: str,
                                                                               level: str) -> None:
    me = Player(client, f"h{secrets.token_hex(3)}")
    created = me.post("/api/games", json={"scenario": scenario, "side": "blue", "opponent": "computer",
                                          "computer_level": level})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    _wait_for_bots(client)
    state = _view(me, game_id)
    assert state["view"]["game"]["status"] == "active"
    assert state["view"]["seats"]["red"] == bot_username(level)
    bot_moves = 0
    for _ in range(60):  # I end my phases; the computer answers whatever becomes its decision
        _wait_for_bots(client)
        state = _view(me, game_id)
        if state["view"]["game"]["status"] == "over":
            break
        assert state["view"]["awaiting"] == "blue", "the computer left its own decision unanswered"
        sent = me.post(f"/api/games/{game_id}/commands",
                       json={"command": {"type": "end_phase"}, "expected_version": state["version"]})
        assert sent.status_code in (200, 422), sent.text
        if sent.status_code == 422:  # end_phase refused (e.g. a decision of mine): answer its first option
            options = state["view"]["prompt"]["options"]
            sent = me.post(f"/api/games/{game_id}/commands",
                           json={"command": {"type": "choose", "option": options[0]["id"]},
                                 "expected_version": state["version"]})
            assert sent.status_code == 200, sent.text
    history = me.get(f"/api/games/{game_id}/history").json()["log"]
    bot_moves = sum(1 for entry in history if entry["side"] == "red")
    assert bot_moves > 0, "the computer never played"
    assert all(entry["side"] in ("blue", "red") for entry in history)


def test_the_computer_names_are_reserved(client: TestClient) -> None:
    response = client.post("/api/users", json={"username": "computer-greedy2", "password": "password123",
                                               "email": "x@example.org"})
    assert response.status_code == 422 and response.json()["error"] == "reserved_username", response.text
    login = client.post("/api/session", json={"username": bot_username("greedy"), "password": "password123"})
    assert login.status_code == 401
    from server.services.accounts import verify_password
    from server.services.botplay import UNUSABLE_PASSWORD

    assert not any(verify_password(UNUSABLE_PASSWORD, p) for p in ("", "!", "password123"))


def test_a_game_of_two_people_heard_of_from_another_process_is_not_loaded(client: TestClient,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Every process hears of every other process's commands (issue 16, scale-out): for a game it does
    not hold, the computer's runner reads the game's seats, not its whole state, and remembers a game
    of two people; a game with the computer in it is still found, and a waiting game is not remembered."""
    from server_helpers import start_game

    app: Any = client.app
    games, runner = app.state.games, app.state.bots
    _, _, game = start_game(client)
    loads: list[str] = []
    real_live_game = games.commands.live_game

    async def counted_live_game(session: Any, game_id: str) -> Any:
        loads.append(game_id)
        return await real_live_game(session, game_id)

    monkeypatch.setattr(games.commands, "live_game", counted_live_game)
    assert client.portal is not None
    for _ in range(2):
        games.store.forget(game["id"])  # as a process that never served the game holds it
        client.portal.call(lambda: _poke_and_wait(runner, game["id"]))
    assert loads == [], "a game of two people was loaded to look for the computer's seat"
    assert game["id"] in runner._unseated

    me = Player(client, f"h{secrets.token_hex(3)}")
    created = me.post("/api/games", json={"scenario": "tutorial", "side": "red", "opponent": "computer",
                                          "computer_level": "random"})
    assert created.status_code == 201, created.text
    _wait_for_bots(client)
    computer_game = created.json()["id"]
    waiting = me.post("/api/games", json={"scenario": "tutorial", "side": "red"})
    assert waiting.status_code == 201, waiting.text
    for game_id in (computer_game, waiting.json()["id"]):
        games.store.forget(game_id)
    assert client.portal.call(runner._bot_seated, computer_game) is True
    # A waiting game may yet be joined by the computer: not remembered as a game of people.
    assert client.portal.call(runner._bot_seated, waiting.json()["id"]) is False
    assert computer_game not in runner._unseated and waiting.json()["id"] not in runner._unseated


async def _poke_and_wait(runner: Any, game_id: str) -> None:
    runner.poke(game_id)
    await runner.wait_idle()
