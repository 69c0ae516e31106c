"""Cavalry in combat (seed 002 9.2), as the seed demands."""

from __future__ import annotations

from .builder import unit
from .fight import combat, combat_event, decision, flag, ground
from .play import choose, submit

CAV = {"full": {"cf": 3, "mr": 4, "ma": 8, "charge": 4}, "ineffective": {"cf": 1, "mr": 2, "ma": 10}}
ATTACK = {"type": "attack", "target": "0704", "attackers": ["b-cav"], "primary": "b-cav"}


def test_9_2_2_cavalry_is_doubled_against_a_disrupted_or_ineffective_defender() -> None:
    data = ground("0404")
    unit(data, "b-cav", "0604", kind="cavalry", formation="1", **CAV)
    game = combat(data)
    assert game.preview("blue", ATTACK)["differential"] == 3 - 5
    flag(data, "r-1", disrupted=True)
    game = combat(data, [5, 1])  # 6 - 5 = +1: die 5 = Dr
    p = game.preview("blue", ATTACK)
    assert p["attackers"][0]["doubled"] == "9.2(2)" and p["differential"] == 1
    events = submit(game, "blue", ATTACK)
    assert combat_event(events)["differential"] == 1


def test_9_2_3_a_defender_retreating_from_attacking_cavalry_is_disrupted() -> None:
    data = ground("0404")
    unit(data, "b-cav", "0604", kind="cavalry", formation="1", full={"cf": 8, "mr": 4, "ma": 8, "charge": 4},
         ineffective={"cf": 1, "mr": 2, "ma": 10})
    game = combat(data, [4, 1])  # 8 - 5 = +3: die 4 = Dr
    submit(game, "blue", ATTACK)
    choose(game, "red", "retreat")
    d = decision(game)
    choose(game, "red", d["options"][0]["id"])
    assert game.state.units["r-1"].disrupted  # 9.2(3), after the retreat
