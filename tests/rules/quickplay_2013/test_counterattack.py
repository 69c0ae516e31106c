"""Counterattacks (7.2): a defending unit that exerted a ZOC onto an attacking unit as the combat phase began and
was not attacked during it may attack any adjacent enemy stack at double strength, first moving one hex when none
is left adjacent."""

from __future__ import annotations

from .conftest import Position2013
from .play import attack, choose, decision, end_phase


def test_7_2_an_unattacked_triggered_unit_counterattacks_at_double_strength(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404")
    pos.unit("b2", "blue", hex="0406")
    pos.unit("r1", "red", hex="0504", defense=8)
    pos.unit("r2", "red", hex="0506", attack=3)
    game = pos.game("combat", dice=[5, 3, 3, 3])  # -4: die 5 is NE
    assert game.state.ca_eligible == ["r1", "r2"]
    attack(game, "0504", ["b1"])
    assert "r1" not in game.state.ca_eligible  # attacked: no counterattack
    end_phase(game)
    d = game.state.decision
    assert decision(game) == "counterattack" and d["side"] == "red"
    ids = [o["id"] for o in d["options"] if o.get("target")]
    assert ids and all(i.startswith("0506>") for i in ids)
    events = choose(game, "0506>0406|r2")
    result = next(e for e in events if e["type"] == "combat_result")
    assert result["attack"] == 6 and "counterattack (7.2)" in str(result["attack_parts"])


def test_7_2_with_no_enemy_left_adjacent_it_moves_one_hex_to_attack(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0406")
    pos.unit("r1", "red", hex="0507", defense=8)
    pos.unit("r2", "red", hex="0506")
    game = pos.game("combat", dice=[3, 3])  # -4: die 3 is Ar
    assert game.state.ca_eligible == ["r1", "r2"]
    attack(game, "0507", ["b1"])
    choose(game, "retreat")
    choose(game, "0306")  # two hexes from r2 now
    end_phase(game)
    d = game.state.decision
    assert d is not None and d["kind"] == "counterattack"
    moving = [o for o in d["options"] if o.get("target")]
    assert moving and all(o["from"] == "0506" and o["move_to"] and o["target"] == "0306" for o in moving)
