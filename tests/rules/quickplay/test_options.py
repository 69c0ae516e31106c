"""The options behind the page's actions (server/rules/options.py): what a selection may do, judged with
the same validation as `submit` (7.1, 8.4, 10.0, 3.2, 11.4, 4.5)."""

from __future__ import annotations

import json

from position import Position

from server.rules import Game


def attack_position() -> Position:
    pos = Position()
    pos.unit("b1", "blue", hex="0403")
    pos.leader("bl", "blue", hex="0403", combat=2)
    pos.unit("b2", "blue", hex="0404")
    pos.unit("ba", "blue", "artillery", hex="0303", attack=3, defense=1, range=3)
    pos.unit("r1", "red", hex="0504", defense=3)
    return pos


def test_7_1_a_selection_of_two_hexes_proposes_one_combined_attack_with_leader_and_support() -> None:
    game = attack_position().game(phase="combat", dice=[3, 1, 1, 1, 1, 1])
    opts = game.options("blue", ["b1", "bl", "b2", "ba"])
    (att,) = [a for a in opts["attacks"] if a["target"] == "0504"]
    assert att["legal"] is True
    assert att["choices"] == {"attackers": ["b1", "b2"], "support": ["ba"], "leaders": ["bl"], "refused": []}
    cmd = att["command"]
    assert sorted(cmd["attackers"]) == ["b1", "b2"] and cmd["leaders"] == ["bl"] and cmd["support"] == ["ba"]
    # the proposed command is exactly one the referee accepts
    events = game.submit("blue", cmd)
    declared = next(e for e in events if e["type"] == "combat_declared")
    assert sorted(declared["attackers"]) == ["b1", "b2"] and declared["support"] == ["ba"]
    assert game.state.units["ba"].attacked and game.state.units["b2"].attacked


def test_8_4_the_preview_of_an_exact_attack_follows_its_supporting_fire_and_changes_nothing() -> None:
    game = attack_position().game(phase="combat")
    before = json.dumps(game.to_json(), sort_keys=True)
    base = {"type": "attack", "target": "0504", "attackers": ["b1", "b2"], "primary": "b1"}
    plain = game.preview("blue", base)
    supported = game.preview("blue", {**base, "support": ["ba"]})
    assert plain["legal"] and supported["legal"]
    assert supported["attack"] > plain["attack"]
    assert abs(sum(supported["odds"].values()) - 1) < 1e-3
    assert json.dumps(game.to_json(), sort_keys=True) == before


def test_7_1_a_preview_of_an_illegal_attack_names_the_rule() -> None:
    game = attack_position().game(phase="combat")
    p = game.preview("blue", {"type": "attack", "target": "0504", "attackers": ["ba"], "primary": "ba"})
    assert p["legal"] is False and p["rule"].startswith("7.1")
    p = game.preview("blue", {"type": "attack", "target": "0504", "attackers": ["b1"], "primary": "b1",
                              "leaders": ["bl", "bl"]})
    assert p["legal"] is False


def test_7_0_no_preview_outside_the_own_combat_phase() -> None:
    game = attack_position().game(phase="movement")
    p = game.preview("blue", {"type": "attack", "target": "0504", "attackers": ["b1"], "primary": "b1"})
    assert p["legal"] is False and p["rule"] == "7.0"


def test_3_2_the_set_up_options_list_each_placeable_counter_and_its_area() -> None:
    pos = Position()
    pos.terrain("0403", "lake")
    pos.unit("b1", "blue", hex="0404", within=1)
    pos.unit("b2", "blue", hex="0204")
    pos.unit("r1", "red", hex="0804", within=1)
    game = Game.new(pos.scenario(), "options-test-seed")
    pl = game.options("blue", [])["placements"]
    assert list(pl) == ["b1"]  # b2 sets up exactly where listed; r1 is not blue's
    assert pl["b1"]["listed"] == "0404" and pl["b1"]["within"] == 1
    assert "0403" not in pl["b1"]["hexes"] and "0404" not in pl["b1"]["hexes"]  # lake; already there (V38)
    assert len(pl["b1"]["hexes"]) == 5


def test_11_4_the_recovery_options_say_who_may_recover_and_why_not() -> None:
    pos = Position()
    pos.replacements("blue", 2)
    pos.unit("b1", "blue", hex="0204", reduced=True)
    pos.leader("bl", "blue", hex="0204", morale=2)
    pos.unit("b2", "blue", hex="0604", reduced=True)  # next to the enemy
    pos.unit("r1", "red", hex="0704")
    game = pos.game(phase="recovery")
    rows = {r["unit"]: r for r in game.options("blue", [])["recovery"]}
    assert rows["b1"]["ok"] is True and rows["b1"]["leaders"] == [{"id": "bl", "morale": 2}]
    assert rows["b2"]["ok"] is False and rows["b2"]["rule"] == "11.4" and "next to the enemy" in rows["b2"]["message"]


def test_4_5_a_reinforcement_selection_shows_its_entry_and_slide_hexes() -> None:
    pos = Position()
    pos.entry("blue", "0104", "0107")
    pos.unit("rf", "blue", turn=1, entry="0104")
    pos.unit("r1", "red", hex="0104", ineffective=True)
    game = pos.game()
    reach = game.options("blue", ["rf"])["reachable"]
    assert "0104" not in reach and reach["0105"]["cost"] == 2 and reach["0105"]["path"] == ["0105"]
