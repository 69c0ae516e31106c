"""The page's options under the 2013 edition (options.py): for each attack target, the choices the attack builder
offers (who may attack, 7.1 and 7.3; which guns may add their factor, 8.2; which leaders may lend theirs, 10.0; the
refusals with their rule) beside the attack it proposes (5.0: one artillery unit plus one other from a hex), and a
disrupted unit's roll of its allowance before its reachable hexes (11.1(2))."""

from __future__ import annotations

from .conftest import Position2013
from .play import attack, choose, decision, options


def test_7_1_8_2_10_0_each_target_lists_its_attackers_supporting_guns_leaders_and_refusals(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404")
    pos.unit("b2", "blue", hex="0404")
    pos.unit("bart", "blue", "artillery", hex="0404")
    pos.unit("bgun", "blue", "artillery", hex="0204", range=4)
    pos.leader("bl", "blue", hex="0404")
    pos.unit("r1", "red", hex="0504")
    game = pos.game("combat")
    answer = game.options("blue", ["b1", "b2", "bart", "bgun", "bl"])
    (att,) = [a for a in answer["attacks"] if a["target"] == "0504"]
    assert att["legal"] is True
    choices = att["choices"]
    assert sorted(choices["attackers"]) == ["b1", "b2", "bart"]
    assert choices["support"] == ["bgun"]  # 8.2: in range, out of any EZOC, undisrupted
    assert choices["leaders"] == ["bl"]
    # 5.0: the proposal takes one artillery unit plus one other from 0404; the far gun bombards in support
    cmd = att["command"]
    assert len(cmd["attackers"]) == 2 and "bart" in cmd["attackers"]
    assert cmd["support"] == ["bgun"] and cmd["leaders"] == ["bl"] and cmd["primary"] != "bart"


def test_7_3_a_unit_that_already_attacked_is_refused_with_its_rule(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404")
    pos.unit("b2", "blue", hex="0406")
    pos.unit("r1", "red", hex="0504")
    pos.unit("r2", "red", hex="0506")
    game = pos.game("combat", dice=[3, 3])
    attack(game, "0506", ["b2"])
    while decision(game):
        choose(game, options(game)[0])
    att = next(a for a in game.options("blue", ["b1", "b2"])["attacks"] if a["target"] == "0504")
    assert att["choices"]["attackers"] == ["b1"]
    assert [(r["unit"], r["rule"]) for r in att["choices"]["refused"]] == [("b2", "7.3")]


def test_11_1_2_a_disrupted_unit_is_offered_its_roll_before_any_hex(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0104", disrupted=True)
    game = pos.game("movement", dice=[4])
    answer = game.options("blue", ["b1"])
    assert answer["roll_ma"] == {"type": "roll_ma", "units": ["b1"], "rule": "11.1(2)"}
    assert "reachable" not in answer
    game.submit("blue", {"type": "roll_ma", "units": ["b1"]})
    answer = game.options("blue", ["b1"])
    assert "roll_ma" not in answer and answer["ma"] == 4 and answer["reachable"]
