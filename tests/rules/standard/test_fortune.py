"""Fortunes of war (seed 002 12.4): owed by DF, a Dm rout, an attacked HQ or trains and a missing second step, and
played at once by their receiver when the combat ends — also inside the other player's combat phase."""

from __future__ import annotations

from typing import Any

from server.rules import Game

from .builder import unit
from .fight import add_infantry, combat, decision, flag, ground
from .play import choose, load, submit

ATTACK = {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"}


def test_12_4_a_dm_rout_gives_the_attacker_a_fortune_of_war_played_when_the_combat_ends() -> None:
    data = ground()
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", full={"cf": 1, "mr": 4, "ma": 4},
         reduced={"cf": 1, "mr": 3, "ma": 4})
    add_infantry(data, "r-2", "0906", formation="7", side="red")
    game = combat(data, [6, 6])  # +5: die 6 = Dm(Dx); the morale die fails: rout
    submit(game, "blue", ATTACK)
    choose(game, "red", decision(game)["options"][0]["id"])  # the rout's path
    choose(game, "blue", "stay")  # no advance
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("fortune", "blue", "12.4") and d["fow"]["rule"] == "7.8"
    ids = {o["id"] for o in d["options"]}
    assert {"pass", "morale:r-2"} <= ids and "morale:r-1" not in ids  # r-1 is disrupted by its rout
    load(game, [6])
    choose(game, "blue", "morale:r-2")
    assert game.state.units["r-2"].disrupted  # 12.4: the enemy unit fails and is disrupted
    assert game.state.extra["fow_owed"][0]["played"] == "morale:r-2" and game.state.decision is None


def test_12_4_df_the_defender_plays_its_fortune_inside_the_attackers_combat_phase() -> None:
    data = ground()
    add_infantry(data, "r-1", "0704", formation="7", side="red", full={"cf": 11, "mr": 4, "ma": 4})
    add_infantry(data, "r-3", "0906", formation="7", side="red")
    flag(data, "r-3", disrupted=True)
    game = combat(data, [2, 1])  # 6 - 11 = -5: die 2 = Ax DF; b-1 passes
    submit(game, "blue", ATTACK)
    choose(game, "blue", "step_loss")
    d = decision(game)
    assert (d["kind"], d["side"]) == ("fortune", "red") and game.state.active == "blue"
    assert "recover:r-3" in {o["id"] for o in d["options"]}
    load(game, [1])
    choose(game, "red", "recover:r-3")
    assert not game.state.units["r-3"].disrupted and game.awaiting == "blue"  # the phase resumes


def test_12_1_an_attacked_hq_gives_two_fortunes_of_war_played_in_turn() -> None:
    data = ground()
    data["setup"] = [dict(s, hex="0704") if s["unit"] == "r-hq" else s for s in data["setup"]]
    game = combat(data, [2, 1])  # +1: die 2 = Ac(NE): passed, NE
    submit(game, "blue", ATTACK)
    for _ in range(2):
        d = decision(game)
        assert (d["kind"], d["side"], d["fow"]["rule"]) == ("fortune", "blue", "12.1")
        choose(game, "blue", "pass")
    assert game.state.decision is None


def _dm_rout_fortune() -> Game:
    data = ground()
    add_infantry(data, "r-2", "0906", formation="7", side="red")
    return _after_b1_routs_r1(data)


def _after_b1_routs_r1(data: dict[str, Any]) -> Game:
    """b-1 routs r-1 (CF 1) at 0704: blue receives a fortune of war; the loaded dice are spent."""
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", full={"cf": 1, "mr": 4, "ma": 4},
         reduced={"cf": 1, "mr": 3, "ma": 4})
    game = combat(data, [6, 6])
    submit(game, "blue", ATTACK)
    choose(game, "red", decision(game)["options"][0]["id"])
    choose(game, "blue", "stay")
    assert decision(game)["kind"] == "fortune"
    return game


def test_12_4_move_an_enemy_unit_on_a_1_or_2_with_a_rolled_ma() -> None:
    game = _dm_rout_fortune()
    load(game, [3])
    choose(game, "blue", "enemy_move:r-2")  # die 3: no move
    assert game.state.units["r-2"].hex == "0906" and game.state.decision is None
    game = _dm_rout_fortune()
    load(game, [2, 2])  # die 2: moved; its MA die 2
    choose(game, "blue", "enemy_move:r-2")
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("fow_move", "blue", "12.4") and "2 MP" in d["text"]
    far = next(o for o in d["options"] if o["hex"] and len(o["path"]) == 3)
    choose(game, "blue", far["id"])
    assert game.state.units["r-2"].hex == far["hex"]


def test_12_4_move_a_friendly_stack_with_the_slowest_units_rolled_ma() -> None:
    game = _dm_rout_fortune()
    load(game, [1])
    choose(game, "blue", f"friendly_move:{game.state.units['b-1'].hex}")
    d = decision(game)
    assert d["kind"] == "fow_move" and "1 MP" in d["text"]
    assert all(len(o["path"]) <= 2 for o in d["options"])


def test_12_4_in_lieu_of_a_move_a_unit_of_the_trts_next_box_is_placed_under_13_2() -> None:
    data = ground()
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", full={"cf": 1, "mr": 4, "ma": 4},
         reduced={"cf": 1, "mr": 3, "ma": 4})
    add_infantry(data, "b-2", "0202")
    add_infantry(data, "b-3", "0203")
    game = combat(data, [6, 6])  # +5: die 6 = Dm(Dx); the morale die fails: rout
    for uid, box in (("b-2", 2), ("b-3", 3)):  # routed earlier (7.10): b-2 in the next box, b-3 two boxes on
        s = game.state.units[uid]
        s.status, s.hex, s.entry_turn = "returning", None, box
    submit(game, "blue", ATTACK)
    choose(game, "red", decision(game)["options"][0]["id"])
    choose(game, "blue", "stay")
    d = decision(game)
    ids = {o["id"] for o in d["options"]}
    assert "place:b-2" in ids and "place:b-3" not in ids  # only the next turn box (12.4)
    choose(game, "blue", "place:b-2")
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("fow_place", "blue", "12.4")
    hexes = [o["hex"] for o in d["options"]]
    assert "0204" in hexes and "0104" in hexes and "0404" not in hexes  # on or next to the HQ and the LOC (13.2)
    events = choose(game, "blue", "0204")
    s = game.state.units["b-2"]
    assert (s.status, s.hex, s.entry_turn) == ("map", "0204", None)
    assert any(e["type"] == "reenter" and e["rule"] == "12.4" for e in events) and game.state.decision is None


def test_12_4_a_fortunes_charge_moves_as_a_charge_attacks_at_once_and_is_doubled_on_a_pass() -> None:
    data = ground()
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", full={"cf": 1, "mr": 4, "ma": 4},
         reduced={"cf": 1, "mr": 3, "ma": 4})
    add_infantry(data, "r-2", "0308", formation="7", side="red")
    add_infantry(data, "b-3", "0306")
    game = combat(data, [6, 6])  # b-1 routs r-1: a fortune of war for blue
    submit(game, "blue", ATTACK)
    choose(game, "red", decision(game)["options"][0]["id"])
    choose(game, "blue", "stay")
    ids = [o["id"] for o in decision(game)["options"]]
    assert "charge:0306" in ids and "charge:0604" not in ids  # b-1 has taken part in a combat this phase
    choose(game, "blue", "charge:0306")
    d = decision(game)
    assert (d["kind"], d["rule"]) == ("fow_charge", "12.4") and {o["target"] for o in d["options"]} == {"0308"}
    assert all(len(o["path"]) in (2, 3) for o in d["options"])  # one or two MP (7.13(3))
    load(game, [1, 3, 1, 1])  # the charge check passes; 5 x 2 - 5 = +5: die 3 = Dr -> Dm(Ax); both pass
    events = game.submit("blue", {"type": "choose", "option": "b-3:0306-0307>0308"})
    assert game.state.units["b-3"].hex == "0307" and "0308" in game.state.attacked_hexes
    assert any(e["type"] == "attack" and e["rule"] == "12.4" for e in events)
    events = game.submit("red", {"type": "choose", "option": "none"})
    assert any(e["type"] == "charge" and e["rule"] == "12.4" for e in events)  # doubled: the primary passed
    combat_ = next(e for e in events if e["type"] == "combat")
    assert combat_["differential"] == 5 * 2 - 5 and combat_["result"] == "Dm(Ax)"


def test_12_4_12_2_a_fortunes_charge_into_the_enemy_trains_hex_captures_them() -> None:
    """Found by the arena's invariant check (2026-11-26): the charge's move left the trains on the map in the
    charging unit's hex, both sides in one hex."""
    data = ground()
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", full={"cf": 1, "mr": 4, "ma": 4},
         reduced={"cf": 1, "mr": 3, "ma": 4})
    add_infantry(data, "r-2", "0308", formation="7", side="red")
    add_infantry(data, "b-3", "0306")
    data["setup"] = [dict(s, hex="0307") if s["unit"] == "r-tr" else s for s in data["setup"]]
    game = combat(data, [6, 6])  # b-1 routs r-1: a fortune of war for blue
    submit(game, "blue", ATTACK)
    choose(game, "red", decision(game)["options"][0]["id"])
    choose(game, "blue", "stay")
    choose(game, "blue", "charge:0306")
    assert "b-3:0306-0307>0308" in [o["id"] for o in decision(game)["options"]]
    load(game, [1, 3, 1, 1])
    events = game.submit("blue", {"type": "choose", "option": "b-3:0306-0307>0308"})
    assert game.state.units["b-3"].hex == "0307"
    assert game.state.units["r-tr"].status == "captured"
    assert any(e["type"] == "captured" and e["unit"] == "r-tr" for e in events)


# --- 12.4: units a fortune moves in a combat phase (S48) -----------------------------------------------------------
def test_12_4_a_stack_moved_next_to_the_enemy_in_the_combat_phase_must_attack_even_an_attacked_hex() -> None:
    import random

    from .play import refused

    data = ground()
    add_infantry(data, "r-2", "0308", formation="7", side="red")
    add_infantry(data, "b-4", "0208")
    add_infantry(data, "b-3", "0306")
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", full={"cf": 1, "mr": 4, "ma": 4},
         reduced={"cf": 1, "mr": 3, "ma": 4})
    game = combat(data, [2, 1, 6, 6])  # b-4 on r-2: 0, die 2 = Ac(NE), passed; b-1 on r-1: +5, die 6, rout
    submit(game, "blue", {"type": "attack", "target": "0308", "attackers": ["b-4"], "primary": "b-4"})
    submit(game, "blue", ATTACK)
    choose(game, "red", decision(game)["options"][0]["id"])
    choose(game, "blue", "stay")
    load(game, [4])  # b-3's MA
    choose(game, "blue", "friendly_move:0306")
    events = choose(game, "blue", "0307")
    assert any(e["type"] == "forced" and e["targets"] == ["0308"] for e in events)
    assert refused(game, "blue", {"type": "end_phase"}).rule == "12.4"
    assert game.view("red")["standard"]["forced"] == [{"units": ["b-3"], "target": "0308"}]  # shown on the page
    forced = {"type": "attack", "target": "0308", "attackers": ["b-3"], "primary": "b-3"}
    legal = list(game.legal_commands("blue", random.Random(0), limit=300))
    assert forced in legal and {"type": "end_phase"} not in legal
    load(game, [2, 1])  # 0, die 2 = Ac(NE), passed
    submit(game, "blue", forced)  # 0308 was attacked already: the fortune's attack is made all the same
    assert game.state.extra["forced"] == [] and game.view("blue")["standard"]["forced"] == []
    game.submit("blue", {"type": "end_phase"})
    assert game.state.active == "red"


def test_12_4_moved_by_the_defenders_fortune_its_units_attack_at_once() -> None:
    data = ground()
    add_infantry(data, "r-1", "0704", formation="7", side="red", full={"cf": 11, "mr": 4, "ma": 4})
    add_infantry(data, "r-3", "0906", formation="7", side="red")
    add_infantry(data, "b-5", "0807")
    game = combat(data, [2, 1])  # 6 - 11 = -5: die 2 = Ax DF: red's fortune inside blue's combat phase
    submit(game, "blue", ATTACK)
    choose(game, "blue", "step_loss")
    load(game, [3, 2, 1])  # r-3's MA 3; then its attack: 0, die 2 = Ac(NE), passed
    choose(game, "red", "friendly_move:0906")
    events = game.submit("red", {"type": "choose", "option": "0907"})
    att = next(e for e in events if e["type"] == "attack")
    assert (att["rule"], att["attackers"], att["target"]) == ("12.4", ["r-3"], "0807")
    assert game.state.combat is not None and game.state.combat["attacker"] == "red"
    choose(game, "blue", "none")
    assert game.state.combat is None and (game.state.active, game.state.phase) == ("blue", "combat")


def test_12_4_an_enemy_unit_moved_in_the_combat_phase_defends_in_any_later_combat_in_its_hex() -> None:
    data = ground()
    add_infantry(data, "r-5", "0308", formation="7", side="red")
    add_infantry(data, "r-2", "0508", formation="7", side="red")
    add_infantry(data, "b-4", "0208")
    game = _after_b1_routs_r1(data)
    load(game, [1, 4])  # the fortune's die 1: r-2 may be moved; its MA 4
    choose(game, "blue", "enemy_move:r-2")
    choose(game, "blue", "0308")
    assert game.state.units["r-2"].hex == "0308"
    events = game.submit("blue", {"type": "attack", "target": "0308", "attackers": ["b-4"], "primary": "b-4"})
    defended = next(e for e in events if e["type"] == "defenders")
    assert "r-2" in defended["defenders"]  # red's choice of defenders (7.4) must include it


def test_12_4_12_2_a_fortunes_move_into_the_enemy_trains_captures_it() -> None:
    data = ground()
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", full={"cf": 1, "mr": 4, "ma": 4},
         reduced={"cf": 1, "mr": 3, "ma": 4})
    add_infantry(data, "b-3", "1007")
    game = combat(data, [6, 6])
    submit(game, "blue", ATTACK)
    away = next(o["id"] for o in decision(game)["options"] if o["id"].endswith("0801"))  # r-1 routs north
    choose(game, "red", away)
    choose(game, "blue", "stay")
    load(game, [4])
    choose(game, "blue", "friendly_move:1007")
    d = decision(game)
    assert "1004" in [o["id"] for o in d["options"]]  # the red trains' hex
    events = choose(game, "blue", "1004")
    assert game.state.units["r-tr"].status == "captured"
    assert any(e["type"] == "captured" and e["unit"] == "r-tr" for e in events)


# --- 7.2: the fortune of war of an unattacked triggered defender (S20) ---------------------------------------------
def test_7_2_unattacked_triggered_defender_plays_its_fow_when_its_triggers_have_fought() -> None:
    """r-1 at 0704 is triggered by b-1 (0604) and b-3 (0703); each attacks another red unit.  r-1's fortune comes
    to red as soon as the second of them has fought, inside blue's combat phase, and not again when it ends."""
    data = ground()
    add_infantry(data, "b-3", "0703")
    add_infantry(data, "r-2", "0605", formation="7", side="red")
    add_infantry(data, "r-3", "0802", formation="7", side="red")
    game = combat(data, [2, 1])  # b-1 on r-2: 6 - 5 = +1: die 2 = Ac(NE), passed: no effect
    assert game.state.extra["triggered"]["r-1"] == ["b-1", "b-3"]
    submit(game, "blue", {"type": "attack", "target": "0605", "attackers": ["b-1"], "primary": "b-1"})
    assert game.state.decision is None  # b-3, which also triggered r-1, has not fought yet
    load(game, [3, 1])  # b-3 on r-3: 5 - 5 = 0: die 3 = NE
    submit(game, "blue", {"type": "attack", "target": "0802", "attackers": ["b-3"], "primary": "b-3"})
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"], d["hexes"]) == ("fow", "red", "7.2", ["0704"])
    assert (game.state.active, game.state.phase) == ("blue", "combat")  # before the phase's other combats
    choose(game, "red", "pass")
    assert game.state.decision is None and game.awaiting == "blue"
    game.submit("blue", {"type": "end_phase"})
    assert game.state.decision is None and (game.state.active, game.state.phase) == ("red", "movement")  # once only


def test_7_2_a_triggered_defender_whose_trigger_never_attacks_plays_its_fow_at_the_end_of_the_phase() -> None:
    data = ground()
    add_infantry(data, "b-3", "0703")
    add_infantry(data, "r-3", "0802", formation="7", side="red")
    game = combat(data, [3, 1])  # b-3 on r-3: 5 - 5 = 0: die 3 = NE
    submit(game, "blue", {"type": "attack", "target": "0802", "attackers": ["b-3"], "primary": "b-3"})
    assert game.state.decision is None  # b-1 (0604), which also triggered r-1, may still attack
    game.submit("blue", {"type": "end_phase"})
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"], d["hexes"]) == ("fow", "red", "7.2", ["0704"])
