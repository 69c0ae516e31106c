"""Issue 11 item 4-5: the previews and prompts explain every number. Each strength line names its rule
(7.4 printed CF and halvings, 10.0(3) leaders, 7.4/TEC terrain, 8.4 bombardment), the attack preview
assumes the defender's strongest choice *with its leader* (7.2(1)), the odds of a result add up to one,
the defenders' and counterattackers' prompt options carry their own odds (7.2(1), 7.3), a charge's
odds count only Dm and Am (9.2 step 5), and a leader check that spares the leader says so (10.0)."""

from __future__ import annotations

import re

from position import Position

RULE_AT_END = re.compile(r"\((TEC|\d+\.\d+[^()]*(\([^()]*\))?[^()]*)\)$")


def _all_notes(pv: dict) -> list[str]:
    return [n for part in pv["attack_parts"] + pv["defense_parts"] for n in part["notes"]]


def test_7_4_every_strength_line_names_its_rule_and_a_halving_says_why() -> None:
    pos = Position()
    pos.terrain("0504", "woods")
    pos.unit("bc", "blue", "cavalry", hex="0404", attack=5, defense=3, charge=6)
    pos.unit("r1", "red", "infantry", hex="0504", attack=4, defense=3)
    game = pos.game(phase="combat", active="blue")
    (att,) = game.options("blue", ["bc"])["attacks"]
    assert att["legal"] is True
    notes = _all_notes(att)
    assert notes and all(RULE_AT_END.search(n) for n in notes), notes
    bc = att["attack_parts"][0]["notes"]
    assert bc[0] == "printed CF 5 (7.4)"
    assert "halved: attacking into Woods (7.4, TEC)" in bc
    assert bc[-1] == "= 3 after one halving, rounded up (7.4)"
    assert att["attack"] == 3
    assert "+1 defending in Woods (7.4, TEC)" in notes
    assert abs(sum(att["odds"].values()) - 1) < 0.001


def test_7_4_two_halvings_count_as_one_strength_point() -> None:
    pos = Position()
    pos.terrain("0504", "woods").terrain("0404", "woods")
    pos.unit("bc", "blue", "cavalry", hex="0404", attack=6, defense=3)
    pos.unit("r1", "red", "infantry", hex="0504")
    game = pos.game(phase="combat", active="blue")
    (att,) = game.options("blue", ["bc"])["attacks"]
    assert att["attack"] == 1
    assert att["attack_parts"][0]["notes"][-1] == "= 1: halved 2 times counts as 1 (7.4)"


def test_7_2_1_the_preview_assumes_the_defenders_strongest_choice_with_its_leader() -> None:
    pos = Position()
    pos.unit("b1", "blue", "infantry", hex="0404", attack=8, defense=4)
    pos.unit("r1", "red", "infantry", hex="0504", attack=4, defense=3)
    pos.leader("rl", "red", hex="0504", combat=2)
    game = pos.game(phase="combat", active="blue")
    (att,) = game.options("blue", ["b1"])["attacks"]
    assert att["defense"] == 5, att["defense_parts"]
    assert att["defenders_assumed"]["leader"] == "rl"
    assert any(n == "+2 leader rl (10.0(3))" for n in _all_notes(att))


def test_7_2_1_each_defender_choice_carries_its_own_odds() -> None:
    pos = Position()
    pos.unit("b1", "blue", "infantry", hex="0404", attack=8, defense=4)
    pos.unit("r1", "red", "infantry", hex="0504", attack=4, defense=3)
    pos.leader("rl", "red", hex="0504", combat=2)
    game = pos.game(phase="combat", active="blue", dice=[3, 3])
    game.submit("blue", {"type": "attack", "target": "0504", "attackers": ["b1"], "primary": "b1"})
    prompt = game.view("red")["prompt"]
    assert prompt["kind"] == "defenders"
    by_leader = {o["leader"]: o["preview"] for o in prompt["options"]}
    assert by_leader[None]["defense"] == 3 and by_leader["rl"]["defense"] == 5
    assert by_leader[None]["differential"] == 5 and by_leader["rl"]["differential"] == 3
    for pv in by_leader.values():
        assert abs(sum(pv["odds"].values()) - 1) < 0.001


def test_7_3_counterattack_options_carry_their_doubled_odds() -> None:
    pos = Position()
    pos.unit("b1", "blue", "infantry", hex="0404", attack=2, defense=8)
    pos.unit("b2", "blue", "infantry", hex="0405", attack=2, defense=6)
    pos.unit("r1", "red", "infantry", hex="0504", attack=4, defense=3)
    pos.unit("r2", "red", "infantry", hex="0305", attack=3, defense=4)
    game = pos.game(phase="combat", active="blue", dice=[])
    game.submit("blue", {"type": "end_phase"})
    prompt = game.view("red")["prompt"]
    assert prompt and prompt["kind"] == "counterattack", prompt
    strikes = [o for o in prompt["options"] if "target" in o]
    assert strikes
    for o in strikes:
        pv = o["preview"]
        assert pv["attack"] > 0 and abs(sum(pv["odds"].values()) - 1) < 0.001
    r1_on_b1 = next(o for o in strikes if o["attackers"] == ["r1"] and o["target"] == "0404")
    assert r1_on_b1["preview"]["attack"] == 8  # doubled (7.3)
    assert r1_on_b1["preview"]["defense"] == 8


def test_8_4_bombardment_preview_lines_carry_their_rule_and_odds() -> None:
    pos = Position()
    pos.terrain("0604", "woods")
    pos.unit("ba", "blue", "artillery", hex="0304", attack=4, range=3)
    pos.unit("r1", "red", "infantry", hex="0604", mr=3)
    game = pos.game(phase="combat", active="blue")
    (b,) = game.options("blue", ["ba"])["bombard"]
    assert b["range"] == {"ba": 3}
    (t,) = b["targets"]
    assert t["notes"] == ["artillery attack CF 4 (8.4)", "-1 bombarding into Woods (8.4, TEC)"]
    assert t["morale"] == 3
    assert abs(sum(t["odds"].values()) - 1) < 0.001 and all(v in (0.1667, 0.3333, 0.5, 0.6667, 0.8333, 1.0) for v in t["odds"].values())


def test_9_2_a_charge_preview_counts_only_dm_and_am() -> None:
    pos = Position()
    pos.unit("bc", "blue", "cavalry", hex="0404", attack=3, defense=3, charge=6)
    pos.unit("r1", "red", "artillery", hex="0504", attack=2, defense=2)
    game = pos.game(phase="combat", active="blue")
    game.state.units["bc"].charging = "0504"
    opts = game.options("blue", ["bc"])
    assert opts["charges"], opts
    (pv,) = opts["charge_previews"]
    assert set(pv["odds"]) <= {"Dm", "Am"} and pv["rule"] == "9.2"
    assert pv["attack_parts"][0]["notes"][0] == "charge factor 6 (9.2)"
    assert pv["charger"] == "bc" and pv["charger_morale"] == 4


def test_10_0_a_leader_check_that_spares_the_leader_says_so() -> None:
    pos = Position()
    pos.unit("b1", "blue", "infantry", hex="0404", attack=4, defense=4)
    pos.leader("bl", "blue", hex="0404", combat=1)
    pos.unit("r1", "red", "infantry", hex="0504", attack=4, defense=4)
    # combat die 4 at +1 (5 vs 4): Dc; morale 1 passes: no effect; leader check 3+4 = 7: unhurt
    game = pos.game(phase="combat", active="blue", dice=[4, 1, 3, 4])
    events = game.submit("blue", {"type": "attack", "target": "0504", "attackers": ["b1"], "primary": "b1", "leaders": ["bl"]})
    events += game.submit("red", {"type": "choose", "option": game.view("red")["prompt"]["options"][0]["id"]}) \
        if game.view("red")["prompt"] and game.view("red")["prompt"]["kind"] == "defenders" else []
    safe = [e for e in events if e["type"] == "leader_safe"]
    assert safe and safe[0]["unit"] == "bl" and safe[0]["total"] == 7 and "unhurt" in safe[0]["text"]
    assert safe[0]["rule"] == "10.0"
