"""State serialisation: JSON and back without loss (issue 2, item 1)."""

from dataclasses import fields

from server.rules.kernel.randomplayer import play_random_game
from server.rules.kernel.state import GameState, UnitState
from server.rules_cli import find_scenario


def test_state_to_json_names_every_field():
    assert {f.name for f in fields(GameState)} == set(GameState(
        scenario="x", ruleset="quickplay", turn=1, phase="movement", active="a", units={},
        options={"free_setup": True}).to_json())
    # A game created without options saves without the key, as every state did before them (Game.new's options).
    assert "options" not in GameState(scenario="x", ruleset="quickplay", turn=1, phase="movement", active="a",
                                      units={}).to_json()
    assert {f.name for f in fields(UnitState)} == set(UnitState(id="u", hex=None, facing="N").to_json())
    # A unit without a facing saves without the key, as every state did before facings (kernel/facing.py).
    assert set(UnitState(id="u", hex=None).to_json()) == {f.name for f in fields(UnitState)} - {"facing"}


def test_state_round_trips_through_json_mid_game():
    game = play_random_game(find_scenario("tutorial"), seed=11)
    data = game.state.to_json()
    assert GameState.from_json(data).to_json() == data


def test_a_snapshot_restores_the_state_and_saves_as_its_json():
    # Game.submit's snapshot before every command (undo and refusals go back to it) in its fast form.
    import orjson

    game = play_random_game(find_scenario("hougoumont"), seed=5, max_commands=120)
    data = game.state.to_json()
    snap = game.state.snapshot()
    assert orjson.dumps(snap.to_json()) == orjson.dumps(data)  # the same JSON, keys in the same order
    restored = GameState.restore(snap)
    assert restored.to_json() == data
    restored.units[next(iter(restored.units))].hex = "9999"  # a restored state shares nothing with it
    restored.control["x"] = "y"
    assert GameState.restore(snap).to_json() == data and snap.to_json() == data


def test_game_round_trips_through_to_json_and_continues_identically():
    from server.rules import Game

    sc = find_scenario("tutorial")
    a = Game.new(sc, "round-trip-seed-0000000000000000")
    b = Game.from_json(sc, a.to_json())
    assert a.state.phase == "setup"  # the tutorial's Jager battalion sets up 'w/1' (3.2)
    for cmd in ({"type": "end_phase"}, {"type": "move", "units": ["b-cav"], "path": ["0208", "0308"]},
                {"type": "end_phase"}):
        assert a.submit("blue", cmd) == b.submit("blue", cmd)
    assert a.to_json() == b.to_json()


def test_snapshot_without_the_log_stays_small_and_reloads_with_the_log_from_elsewhere():
    from server.rules import Game

    sc = find_scenario("tutorial")
    played = play_random_game(sc, seed=5)
    compact = played.to_json(include_log=False)
    assert "log" not in compact and compact["version"] == played.version
    assert len(str(compact)) < len(str(played.to_json())) / 2
    light = Game.from_json(sc, compact)
    assert light.version == played.version and light.state.to_json() == played.state.to_json()
    full = Game.from_json(sc, compact, log=played.log)
    assert full.record() == played.record()
    import pytest

    with pytest.raises(ValueError, match="without its log"):
        light.record()
    with pytest.raises(ValueError, match="commands but the snapshot is at version"):
        Game.from_json(sc, compact, log=played.log[:-1])


def test_a_snapshot_keeps_every_unit_field_in_its_declared_order():
    # GameState.snapshot spells the fields out (issue 16); each field a distinct value, so a swap or a
    # missing field shows, which a played game's many False fields would hide.
    names = [f.name for f in fields(UnitState)]
    unit = UnitState(**{name: f"value-{name}" for name in names})
    state = GameState(scenario="s", ruleset="r", turn=1, phase="movement", active="blue", units={unit.id: unit})
    assert state.snapshot().units == (tuple(f"value-{name}" for name in names),)
    assert GameState.restore(state.snapshot()).units[unit.id] == unit
