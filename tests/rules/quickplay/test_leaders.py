"""Leaders (10.0, R9): whom they help, casualty checks, lone leaders fleeing or captured."""

from __future__ import annotations

import pytest
from position import Position, attack, choose, combat_result, dice_left, unit

from server.rules import IllegalCommand


def duel(extra=None, dice=None, b1_formation="1"):
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=6, mr=4, formation=b1_formation)
    pos.unit("r1", "red", hex="0604", defense=6, mr=4)
    if extra:
        extra(pos)
    return pos.game(phase="combat", dice=list(dice or []))


@pytest.mark.parametrize("leader_formation,b1_formation,helps", [("1", "1", True), ("A", "2", True), ("2", "1", False)])
def test_10_0_a_leader_adds_its_cf_only_to_its_own_formation(leader_formation, b1_formation, helps) -> None:
    game = duel(lambda p: p.leader("bl", "blue", hex="0504", combat=2, formation=leader_formation),
                dice=[4, 1, 3, 4], b1_formation=b1_formation)
    if helps:
        assert combat_result(attack(game, "0604", ["b1"], leaders=["bl"]))["attack"] == 8
    else:
        with pytest.raises(IllegalCommand) as exc:
            attack(game, "0604", ["b1"], leaders=["bl"])
        assert exc.value.rule == "10.0"


def test_10_0_3_a_leader_does_not_add_its_cf_to_artillery() -> None:
    pos = Position()
    pos.unit("a1", "blue", "artillery", hex="0504", attack=3)
    pos.leader("bl", "blue", hex="0504", combat=2)
    pos.unit("r1", "red", hex="0604", defense=6)
    game = pos.game(phase="combat")
    with pytest.raises(IllegalCommand) as exc:
        attack(game, "0604", ["a1"], leaders=["bl"])
    assert exc.value.rule == "10.0"


def test_10_0_3_a_leader_adds_its_cf_to_a_battalion() -> None:
    pos = Position()
    pos.unit("bn", "blue", "battalion", hex="0504", attack=3)
    pos.leader("bl", "blue", hex="0504", combat=2)
    pos.unit("r1", "red", hex="0604", defense=6)
    game = pos.game(phase="combat", dice=[4, 1, 3, 4])
    assert combat_result(attack(game, "0604", ["bn"], leaders=["bl"]))["attack"] == 5


def test_10_0_a_leader_adds_to_one_unit_only() -> None:
    def extra(p):
        p.unit("bn", "blue", "battalion", hex="0504", attack=2)
        p.leader("bl", "blue", hex="0504", combat=2)
    game = duel(extra, dice=[4, 1, 3, 4])
    assert combat_result(attack(game, "0604", ["b1", "bn"], primary="b1", leaders=["bl"]))["attack"] == 10


def test_7_1_1_one_leader_per_hex_takes_part() -> None:
    game = duel(lambda p: (p.leader("bl", "blue", hex="0504"), p.leader("bl2", "blue", hex="0504")))
    with pytest.raises(IllegalCommand) as exc:
        attack(game, "0604", ["b1"], leaders=["bl", "bl2"])
    assert exc.value.rule == "7.1(1)"


def test_10_0_an_ineffective_leader_adds_nothing() -> None:
    game = duel(lambda p: p.leader("bl", "blue", hex="0504", ineffective=True))
    with pytest.raises(IllegalCommand):
        attack(game, "0604", ["b1"], leaders=["bl"])


def test_10_0_a_leader_must_be_with_the_attacking_units() -> None:
    game = duel(lambda p: p.leader("bl", "blue", hex="0404"))
    with pytest.raises(IllegalCommand):
        attack(game, "0604", ["b1"], leaders=["bl"])


# --- casualty checks -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("a,b,lost", [(1, 1, True), (6, 6, True), (1, 2, False), (5, 6, False), (3, 4, False)])
def test_10_0_leader_casualty_check_2_or_12_eliminates(a, b, lost) -> None:
    game = duel(lambda p: p.leader("bl", "blue", hex="0504", combat=1), dice=[4, 1, a, b])
    events = attack(game, "0604", ["b1"], leaders=["bl"])
    assert dice_left(game) == 0
    assert (unit(game, "bl").status == "dead") is lost
    assert ("leader_killed" in [e["type"] for e in events]) is lost


def test_10_0_a_leader_that_did_not_add_its_cf_makes_no_casualty_check() -> None:
    game = duel(lambda p: p.leader("bl", "blue", hex="0504", combat=1), dice=[4, 1])
    attack(game, "0604", ["b1"])
    assert dice_left(game) == 0 and unit(game, "bl").status == "map"


def test_10_0_attacking_and_defending_leaders_both_check() -> None:
    def extra(p):
        p.leader("bl", "blue", hex="0504", combat=1)
        p.leader("rl", "red", hex="0604", combat=1)
    game = duel(extra, dice=[4, 1, 3, 4, 6, 6])  # combat; bl rolls 7, rl rolls 12
    attack(game, "0604", ["b1"], leaders=["bl"])
    choose(game, "r1|r1|rl")
    assert dice_left(game) == 0
    assert unit(game, "bl").status == "map" and unit(game, "rl").status == "dead"
    assert game.view("blue")["points"]["blue"] == 2  # leader_eliminated default


def test_10_0_the_check_is_made_even_when_the_leaders_side_wins() -> None:
    game = duel(lambda p: p.leader("bl", "blue", hex="0504", combat=1), dice=[6, 1, 1, 1])
    events = attack(game, "0604", ["b1"], leaders=["bl"])
    assert combat_result(events)["result"] == "Dr"  # 7 vs 6, die 6
    assert unit(game, "bl").status == "dead"


# --- lone leaders (R9) ------------------------------------------------------------------------------------------
def test_r9_a_lone_leader_flees_to_the_nearest_friendly_unit_when_an_enemy_becomes_adjacent() -> None:
    pos = Position()
    pos.leader("rl", "red", hex="0704")
    pos.unit("r1", "red", hex="0908")
    pos.unit("r2", "red", hex="1004")
    pos.unit("b1", "blue", hex="0504")
    game = pos.game()
    events = game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0504", "0604"]})
    assert "leader_flees" in [e["type"] for e in events]
    rl = unit(game, "rl")
    assert rl.hex == "1004" and rl.ineffective  # 3 hexes away, nearer than r1
    fled = next(e for e in events if e["type"] == "leader_flees")  # where from and where to: the page draws it
    assert fled["path"] == ["0704", "1004"]


def test_r9_a_leader_whose_stack_mates_leave_it_beside_the_enemy_flees() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0504")
    pos.leader("bl", "blue", hex="0504")
    pos.unit("b2", "blue", hex="0208")
    pos.unit("r1", "red", hex="0604")
    game = pos.game()
    game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0504", "0404"]})
    bl = unit(game, "bl")
    assert bl.hex == "0404" and bl.ineffective  # the nearest friendly combat unit is b1 itself


def test_r9_a_lone_leader_not_next_to_an_enemy_stays() -> None:
    pos = Position()
    pos.leader("rl", "red", hex="0804")
    pos.unit("r2", "red", hex="1004")
    pos.unit("b1", "blue", hex="0504")
    game = pos.game()
    game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0504", "0604"]})
    assert unit(game, "rl").hex == "0804" and not unit(game, "rl").ineffective


def test_r9_a_lone_leader_that_cannot_reach_a_friendly_unit_is_captured() -> None:
    pos = Position()
    pos.leader("rl", "red", hex="0704")
    pos.terrain(["0803", "0804", "0703", "0705", "0603"], "lake")
    pos.unit("r2", "red", hex="1004")
    pos.unit("b1", "blue", hex="0504")
    game = pos.game()
    game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0504", "0604"]})
    assert unit(game, "rl").status == "captured"
    assert game.view("blue")["points"]["blue"] == 3  # leader_captured default


def test_r9_a_fleeing_leader_does_not_pass_through_an_ezoc() -> None:
    # the only friendly unit is behind a blue screen: every way to it crosses blue ZOC
    pos = Position(columns=10, rows=3)
    pos.leader("rl", "red", hex="0302")
    pos.unit("b1", "blue", hex="0102")
    pos.unit("b2", "blue", hex="0502")
    pos.unit("r2", "red", hex="0902")
    game = pos.game()
    game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0102", "0202"]})
    assert unit(game, "rl").status == "captured"


def test_r9_a_leader_beyond_12_hexes_from_any_friend_is_captured() -> None:
    pos = Position(columns=20, rows=3)
    pos.leader("rl", "red", hex="0302")
    pos.unit("r2", "red", hex="1602")  # 13 hexes away
    pos.unit("b1", "blue", hex="0102")
    game = pos.game()
    game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0102", "0202"]})
    assert unit(game, "rl").status == "captured"
