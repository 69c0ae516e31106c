"""Views: what each viewer may see (the contract's view shape, hidden reinforcements, prompts, events)."""

from __future__ import annotations

from position import Position, attack

from server.rules import Game, filter_events, seed_hash

SEED = "views-test-seed-0123456789abcdef"


def hidden_game() -> Game:
    pos = Position()
    pos.unit("b1", "blue", hex="0404")
    pos.unit("bx", "blue", hex=None, turn=3, entry="0104")
    pos.unit("r1", "red", hex="0804")
    pos.unit("rx", "red", hex=None, turn=2, entry="1004")
    data = pos.data()
    data["hidden"] = {"enemy_reinforcements": True}
    from server.rules import parse_scenario

    return Game.new(parse_scenario(data, "hidden.json"), SEED)


def test_view_has_the_contract_fields() -> None:
    game = hidden_game()
    v = game.view("blue")
    for key in ("scenario", "ruleset", "viewer", "turn", "turns", "turn_label", "phase", "active", "awaiting",
                "prompt", "units", "squares", "replacements", "control", "points", "seed_hash", "result"):
        assert key in v, key
    assert v["viewer"] == "blue" and v["phase"] == "movement" and v["awaiting"] == "blue"
    assert v["seed_hash"] == seed_hash(SEED) and "seed" not in v
    assert v["prompt"]["kind"] == "phase" and v["prompt"]["side"] == "blue"
    assert v["units"]["b1"] == {**v["units"]["b1"], "hex": "0404", "status": "map", "reduced": False,
                                "disrupted": False, "ineffective": False, "moved": False}


def test_hidden_enemy_reinforcements_are_left_out_of_the_opponents_view() -> None:
    game = hidden_game()
    assert "rx" not in game.view("blue")["units"] and "bx" in game.view("blue")["units"]
    assert "bx" not in game.view("red")["units"] and "rx" in game.view("red")["units"]
    assert game.view("blue")["units"]["bx"]["entry_turn"] == 3
    admin = game.view("admin")["units"]
    assert "rx" in admin and "bx" in admin
    spectator = game.view("spectator")["units"]
    assert "rx" not in spectator and "bx" not in spectator


def test_reinforcements_are_visible_when_the_scenario_does_not_hide_them() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0404")
    pos.unit("r1", "red", hex="0804")
    pos.unit("rx", "red", hex=None, turn=2, entry="1004")
    game = Game.new(pos.scenario(), SEED)
    assert game.view("blue")["units"]["rx"]["status"] == "offboard"


def test_a_pending_decision_is_the_prompt_for_the_side_that_must_answer() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=9)
    pos.unit("r1", "red", hex="0604", defense=6)
    game = pos.game(phase="combat", dice=[4, 6])
    attack(game, "0604", ["b1"])
    for viewer in ("blue", "red"):
        p = game.view(viewer)["prompt"]
        assert p["kind"] == "retreat" and p["side"] == "red" and p["rule"] == "7.7"
        assert {o["id"] for o in p["options"]} >= {"0704"}
    assert game.view("blue")["awaiting"] == "red"


def test_events_marked_for_one_side_are_filtered() -> None:
    events = [{"type": "a", "text": "x"}, {"type": "b", "text": "y", "visible_to": "blue"}]
    assert filter_events(events, "blue") == events
    assert filter_events(events, "red") == events[:1]
    assert filter_events(events, "spectator") == events[:1]
    assert filter_events(events, "admin") == events
