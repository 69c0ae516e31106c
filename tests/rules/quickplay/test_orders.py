"""Standing orders (issue 6): the engine proposes the answer a player set in advance; the service submits it."""

import pytest
from position import Position

from server.rules.quickplay.orders import standing_order_choice, validate_orders


def _defender_must_retreat():
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=8)
    pos.unit("r1", "red", hex="0604", defense=4)
    game = pos.game(phase="combat", active="blue", dice=[4, 6])  # +4: combat die 4 = Dr; morale 6 fails
    game.submit("blue", {"type": "attack", "target": "0604", "attackers": ["b1"]})
    assert game.state.decision["kind"] == "retreat" and game.awaiting == "red"
    return game


def test_7_7_standing_order_longest_safe_retreat_settles_the_retreat_without_a_prompt():
    game = _defender_must_retreat()
    option, name = standing_order_choice(game, {"retreat": "longest_safe"})
    assert name == "retreat"
    chosen = next(o for o in game.state.decision["options"] if o["id"] == option)
    assert chosen["safe"] and len(chosen["path"]) == 3
    game.submit("red", {"type": "choose", "option": option})
    r1 = game.state.units["r1"]
    assert r1.hex == chosen["path"][-1] and r1.disrupted
    assert game.scenario.grid.distance("0604", r1.hex) == 3


def test_7_7_standing_order_ask_leaves_the_decision_to_the_player():
    game = _defender_must_retreat()
    assert standing_order_choice(game, {"retreat": "ask"}) is None
    assert standing_order_choice(game, {}) is None


def test_7_9_standing_order_never_advance_holds_ground():
    game = _defender_must_retreat()
    option, _ = standing_order_choice(game, {"retreat": "shortest_safe"})
    game.submit("red", {"type": "choose", "option": option})
    assert game.state.decision["kind"] == "advance" and game.awaiting == "blue"
    option, name = standing_order_choice(game, {"advance": "never"})
    assert (option, name) == ("stay", "advance")
    events = game.submit("blue", {"type": "choose", "option": option})
    assert game.state.units["b1"].hex == "0504"
    assert any(e["type"] == "no_advance" for e in events)


def test_7_9_standing_order_always_primary_advances_into_the_vacated_hex():
    game = _defender_must_retreat()
    option, _ = standing_order_choice(game, {"retreat": "shortest_safe"})
    game.submit("red", {"type": "choose", "option": option})
    option, _ = standing_order_choice(game, {"advance": "always_primary"})
    assert option == "0604"


def test_standing_orders_are_validated_with_a_clear_message():
    assert validate_orders({"retreat": "longest_safe"})["counterattack"] == "ask"
    with pytest.raises(ValueError, match="unknown standing order 'retreet'"):
        validate_orders({"retreet": "ask"})
    with pytest.raises(ValueError, match="'advance' may be one of"):
        validate_orders({"advance": "sometimes"})
    with pytest.raises(ValueError):
        validate_orders(["retreat"])
