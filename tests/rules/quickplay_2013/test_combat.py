"""Combat (7.1-7.4): who may attack (7.3), halving (7.4, 11.1(4), 10.0(3)), cavalry against a disrupted defender
(9.1(2)), artillery attacking like infantry (8.1), the defender's choice (7.1) and the strengths it brings."""

from __future__ import annotations

from .conftest import Position2013
from .play import attack, refused


def strength(events: list[dict], key: str = "attack") -> int:
    return int(next(e for e in events if e["type"] == "combat_result")[key])


def test_7_4_a_disrupted_attacker_is_halved_rounding_up(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404", attack=5, disrupted=True)
    pos.unit("r1", "red", hex="0504")
    game = pos.game("combat", dice=[3, 3])
    assert strength(attack(game, "0504", ["b1"])) == 3


def test_10_0_3_an_accompanied_disrupted_unit_is_not_halved_and_takes_the_leader_cf(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404", attack=5, disrupted=True)
    pos.leader("bl", "blue", hex="0404", combat=2)
    pos.unit("r1", "red", hex="0504")
    game = pos.game("combat", dice=[3, 3])
    assert strength(attack(game, "0504", ["b1"], leaders=["bl"])) == 7


def test_9_1_2_cavalry_doubles_against_a_disrupted_defender(pos: Position2013) -> None:
    pos.unit("c1", "blue", "cavalry", hex="0404", attack=3)
    pos.unit("r1", "red", hex="0504", disrupted=True)
    game = pos.game("combat", dice=[3, 3])
    assert strength(attack(game, "0504", ["c1"])) == 6


def test_8_1_artillery_attacks_an_adjacent_hex_like_infantry(pos: Position2013) -> None:
    pos.unit("a1", "blue", "artillery", hex="0404", attack=3, defense=1)
    pos.unit("r1", "red", hex="0504")
    game = pos.game("combat", dice=[3, 3])
    assert strength(attack(game, "0504", ["a1"])) == 3


def test_5_0_one_artillery_plus_one_other_take_part_from_a_hex(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404")
    pos.unit("b2", "blue", hex="0404")
    pos.unit("a1", "blue", "artillery", hex="0404")
    pos.unit("r1", "red", hex="0504")
    game = pos.game("combat", dice=[3, 3])
    refused(game, "blue", {"type": "attack", "target": "0504", "attackers": ["b1", "b2"], "primary": "b1"}, "5.0")
    attack(game, "0504", ["b1", "a1"], primary="b1")


def test_7_3_a_hex_is_attacked_once_and_a_unit_attacks_once(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404")
    pos.unit("b2", "blue", hex="0503")
    pos.unit("r1", "red", hex="0504")
    pos.unit("r2", "red", hex="0604")
    game = pos.game("combat", dice=[3, 3])
    attack(game, "0504", ["b1"])
    refused(game, "blue", {"type": "attack", "target": "0504", "attackers": ["b2"]}, "7.3")
    refused(game, "blue", {"type": "attack", "target": "0504", "attackers": ["b1"]}, "7.3")


def test_7_1_the_defender_chooses_its_participants_and_primary(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404", attack=6)
    pos.unit("r1", "red", hex="0504", defense=2)
    pos.unit("r2", "red", hex="0504", defense=3)
    pos.unit("ra", "red", "artillery", hex="0504", defense=1)
    game = pos.game("combat", dice=[3, 3])
    attack(game, "0504", ["b1"])
    d = game.state.decision
    assert d is not None and d["kind"] == "defenders"
    assert {frozenset(o["units"]) for o in d["options"]} == {frozenset({"r1", "ra"}), frozenset({"r2", "ra"})}
    best = max(d["options"], key=lambda o: o["preview"]["defense"])
    assert best["preview"]["defense"] == 4
