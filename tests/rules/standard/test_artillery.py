"""Artillery in the Standard rules (seed 002 8.3-8.8, 14.2(5), 14.3(3)): supporting fire, bombardment, range, line of
sight and Ammo, each as the seed demands."""

from __future__ import annotations

from server.rules import Game

from .builder import unit
from .fight import ARTILLERY, LEADER, combat, combat_event, decision, flag, ground, light
from .play import refused, submit

ATTACK = {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"}
SUPPORTED = {**ATTACK, "support": ["b-art"]}


def test_8_8_supporting_artillery_adds_its_attack_factor() -> None:
    data = ground()
    unit(data, "b-art", "0504", formation="1", **ARTILLERY)  # two hexes from 0704, next to b-1, not to the enemy
    game = combat(data, [2, 1])  # 6 + 4 - 5 = +5: die 2 = Dc(NE), passed
    p = game.preview("blue", SUPPORTED)
    assert p["legal"] and p["differential"] == 5 and p["support_fire"][0]["value"] == 4
    events = submit(game, "blue", SUPPORTED)
    assert combat_event(events)["differential"] == 5
    assert game.state.units["b-art"].attacked  # 7.5: it has fired this phase


def test_8_8_supporting_fire_is_doubled_against_cavalry() -> None:
    data = ground()
    unit(data, "b-art", "0504", formation="1", **ARTILLERY)
    unit(data, "r-1", "0704", side="red", kind="cavalry", formation="7", full={"cf": 3, "mr": 4, "ma": 8, "charge": 4},
         ineffective={"cf": 1, "mr": 2, "ma": 10})
    game = combat(data)
    p = game.preview("blue", SUPPORTED)
    assert p["support_fire"][0] == {"unit": "b-art", "printed": 4, "leader": 0, "halvings": [], "doubled": "8.8",
                                    "value": 8}


def test_8_8_the_supporting_artillery_is_not_next_to_an_enemy_and_is_next_to_an_attacker() -> None:
    data = ground()
    unit(data, "b-art", "0603", formation="1", **ARTILLERY)  # adjacent to r-1 at 0704
    game = combat(data)
    e = refused(game, "blue", SUPPORTED)
    assert e.rule in ("8.8(1)", "8.4")
    data = ground()
    unit(data, "b-art", "0502", formation="1", **ARTILLERY)  # three hexes away, not next to b-1
    game = combat(data)
    assert refused(game, "blue", SUPPORTED).rule == "8.8(3)"


def test_8_4_disrupted_or_ineffective_artillery_cannot_fire() -> None:
    data = ground()
    unit(data, "b-art", "0504", formation="1", **ARTILLERY)
    flag(data, "b-art", disrupted=True)
    game = combat(data)
    assert refused(game, "blue", SUPPORTED).rule == "8.4(2)"


def test_8_6_line_of_sight_along_a_hexside_is_blocked_only_when_both_hexes_block() -> None:
    from server.rules.standard.bombard import has_los
    from server.rules.standard.context import StdCtx

    data = ground("0705")
    data["map"]["hexes"]["0604"] = "woods"
    unit(data, "b-art", "0504", formation="1", **ARTILLERY)
    # the line from 0504 to 0704 runs along the hexside between 0603 and 0604 (R2)
    assert has_los(StdCtx.of(combat(data)), "0504", "0704")
    data["map"]["hexes"]["0603"] = "woods"
    game = combat(data)
    assert not has_los(StdCtx.of(game), "0504", "0704")
    e = refused(game, "blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1",
                               "support": ["b-art"]})
    assert e.rule in ("8.6", "8.8(3)")


def test_8_7_range_counts_the_target_hex_and_a_hill_adds_one() -> None:
    data = ground()
    unit(data, "b-art", "0504", formation="1", kind="artillery", full={"attack": 4, "defense": 1, "range": 1, "ma": 3},
         ineffective={"attack": 1, "defense": 0, "range": 1, "ma": 3})
    game = combat(data)
    assert refused(game, "blue", SUPPORTED).rule == "8.7"
    data["map"]["hexes"]["0504"] = "hill"
    game = combat(data)
    assert game.preview("blue", SUPPORTED)["legal"]


def test_14_3_3_at_twilight_artillery_fires_only_at_adjacent_hexes() -> None:
    data = ground()
    light(data, "twilight")
    unit(data, "b-art", "0504", formation="1", **ARTILLERY)
    game = combat(data)
    assert refused(game, "blue", SUPPORTED).rule == "14.3(3)"


def test_8_5_ammo_flips_the_supporting_artillery() -> None:
    data = ground()
    unit(data, "b-art", "0504", formation="1", **ARTILLERY)
    game = combat(data, [1, 1])  # +5: die 1 = NE Ammo
    submit(game, "blue", SUPPORTED)
    assert game.state.units["b-art"].ineffective and game.state.decision is None


def test_8_5_ammo_with_two_supporting_batteries_is_the_attackers_choice() -> None:
    data = ground()
    unit(data, "b-art", "0504", formation="1", **ARTILLERY)
    unit(data, "b-art2", "0605", formation="1", **ARTILLERY)
    game = combat(data, [1, 1])  # 6 + 4 + 4 - 5 = +9: die 1 = Dc(NE) Ammo, passed
    submit(game, "blue", {**ATTACK, "support": ["b-art", "b-art2"]})
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("ammo", "blue", "8.5")
    game.submit("blue", {"type": "choose", "option": "b-art2"})
    assert game.state.units["b-art2"].ineffective and not game.state.units["b-art"].ineffective


# --- 8.4, 8.5 bombardment -------------------------------------------------------------------------------------------
BOMBARD = {"type": "bombard", "target": "0704", "artillery": ["b-art"]}


def battery(data: dict, uid: str = "b-art", hex_: str = "0504", attack: int = 4) -> None:  # type: ignore[type-arg]
    unit(data, uid, hex_, formation="1", kind="artillery", full={"attack": attack, "defense": 1, "range": 3, "ma": 3},
         ineffective={"attack": 1, "defense": 0, "range": 2, "ma": 3})


def test_8_4_bombardment_of_a_hex_two_away_and_8_5_its_result_on_the_unit() -> None:
    data = ground("0404")
    battery(data)
    game = combat(data, [4, 1])  # strength 4 (+3..+4): die 4 = Dr
    events = game.submit("blue", BOMBARD)
    assert any(e["type"] == "combat" and e["rule"] == "8.5" and e["result"] == "Dr" for e in events)
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("result", "red", "8.5")
    game.submit("red", {"type": "choose", "option": "disrupt"})
    assert game.state.units["r-1"].disrupted and game.state.units["b-art"].attacked
    assert "r-1" in game.state.extra["attacked_units"]  # 8.4: a result inflicted counts as an attack for 7.2


def test_8_5_a_results_are_ignored_and_ammo_flips_the_battery_and_no_result_is_no_attack() -> None:
    data = ground("0404")
    battery(data)
    game = combat(data, [1, 1])  # +3..+4: die 1 = Ac(NE) Ammo: read NE Ammo
    game.submit("blue", BOMBARD)
    assert game.state.units["b-art"].ineffective and not game.state.units["r-1"].disrupted
    assert "r-1" not in game.state.extra["attacked_units"]  # 8.4: no result, no attack for 7.2
    assert game.state.decision is None and game.state.combat is None


def test_8_5_on_ex_only_the_target_loses_a_step() -> None:
    data = ground("0404")
    battery(data, attack=2)
    game = combat(data, [3, 1])  # +1..+2: die 3 = Ex Leader
    game.submit("blue", BOMBARD)
    assert game.state.units["r-1"].reduced and game.state.units["b-art"].status == "map"
    assert not game.state.units["b-art"].ineffective


def test_8_4_an_adjacent_hex_is_attacked_not_bombarded() -> None:
    data = ground("0404")
    battery(data, hex_="0604")
    game = combat(data)
    assert refused(game, "blue", BOMBARD).rule == "8.4"


def test_8_4_every_battery_firing_at_a_hex_is_declared_at_once() -> None:
    data = ground("0404")
    battery(data)
    battery(data, "b-art2", "0505")
    game = combat(data, [2, 1, 2, 1])
    game.submit("blue", BOMBARD)
    e = refused(game, "blue", {**BOMBARD, "artillery": ["b-art2"]})
    assert e.rule == "8.4" and "declared" in e.message


STACKED = {**BOMBARD, "artillery": ["b-art", "b-art2"]}


def fires(events: list[dict]) -> list[int]:  # type: ignore[type-arg]
    """The strength of each bombardment resolved, in order."""
    return [e["differential"] for e in events if e["type"] == "combat"]


def test_8_4_stacked_batteries_may_bombard_separately() -> None:
    data = ground("0404")
    battery(data)
    battery(data, "b-art2", "0504")
    game = combat(data, [2, 1, 2, 1])  # each fires 4 alone: die 2 = NE
    assert fires(game.submit("blue", {**STACKED, "groups": [["b-art"], ["b-art2"]]})) == [4, 4]
    game = combat(data, [2, 1, 2, 1])  # 8.4: declared without groups, each battery's bombardment is its own
    assert fires(game.submit("blue", STACKED)) == [4, 4]
    unit(data, "r-2", "0602", side="red", kind="infantry", formation="7", full={"cf": 5, "mr": 4, "ma": 4},
         reduced={"cf": 3, "mr": 3, "ma": 4})
    game = combat(data, [2, 1, 2, 1])  # one battery of the stack bombards each hex
    assert fires(game.submit("blue", BOMBARD)) == [4]
    assert fires(game.submit("blue", {"type": "bombard", "target": "0602", "artillery": ["b-art2"]})) == [4]


def test_8_4_stacked_batteries_may_target_different_units_in_one_hex() -> None:
    data = ground("0404")
    battery(data)
    battery(data, "b-art2", "0504")
    unit(data, "r-cav", "0704", side="red", kind="cavalry", formation="7",
         full={"cf": 3, "mr": 4, "ma": 8, "charge": 4}, ineffective={"cf": 1, "mr": 2, "ma": 10})
    game = combat(data, [2, 1, 2, 1])  # 4 at the infantry: die 2 = NE; 8 at the cavalry (9.2(4)): die 2 = Dr
    game.submit("blue", {**STACKED, "groups": [["b-art"], ["b-art2"]]})
    d = decision(game)
    assert (d["kind"], d["task"]["group"]) == ("bombard_unit", ["b-art"])
    assert fires(game.submit("blue", {"type": "choose", "option": "r-1"})) == [4]
    d = decision(game)
    assert (d["kind"], d["task"]["group"]) == ("bombard_unit", ["b-art2"])
    assert fires(game.submit("blue", {"type": "choose", "option": "r-cav"})) == [8]
    assert decision(game)["kind"] == "result"
    game.submit("red", {"type": "choose", "option": "retreat"})
    assert decision(game)["task"]["units"] == ["r-cav"]  # the infantry, fired at by the other battery, stays


def test_8_4_batteries_combine_only_when_stacked_adjacent_or_coordinated() -> None:
    together = {**STACKED, "groups": [["b-art", "b-art2"]]}
    for hex_ in ("0504", "0505"):  # stacked, then adjacent: one bombardment of 8 (die 2 = Dr)
        data = ground("0404")
        battery(data)
        battery(data, "b-art2", hex_)
        game = combat(data, [2, 1])
        assert fires(game.submit("blue", together)) == [8]
    data = ground("0404")
    battery(data)
    battery(data, "b-art2", "0605")  # two hexes from b-art: not coordinated
    game = combat(data)
    e = refused(game, "blue", together)
    assert e.rule == "8.4" and "stacked with or adjacent to" in e.message
    unit(data, "b-ldr", "0505", formation="1", span=["2"], **LEADER)  # next to both, neither in his span
    game = combat(data)
    e = refused(game, "blue", {**STACKED, "groups": [["b-art", "b-art2", "b-ldr"]]})
    assert e.rule == "8.4" and "command span" in e.message
    unit(data, "b-ldr", "0505", formation="1", span=["1"], **LEADER)  # a coordinating leader next to both
    game = combat(data, [2, 1])
    assert fires(game.submit("blue", {**STACKED, "groups": [["b-art", "b-art2", "b-ldr"]]})) == [8]
    assert game.state.extra["assisted"]["b-ldr"] == 1  # 10.3: coordinating is his assist of the turn
    game = combat(data)
    e = refused(game, "blue", {**BOMBARD, "groups": [["b-art", "b-ldr"]]})
    assert e.rule == "8.4" and "two or more" in e.message


def test_14_3_2_at_twilight_batteries_fire_separately_and_only_at_adjacent_hexes() -> None:
    data = ground("0404")
    light(data, "twilight")
    battery(data)
    game = combat(data)
    assert refused(game, "blue", BOMBARD).rule == "14.3(3)"
    battery(data, "b-art", "0604")  # across a river from 0704 (8.4: an adjacent hex behind a prohibited hexside)
    battery(data, "b-art2", "0604")
    data["map"]["hexsides"] += [{"hexes": ["0604", "0704"], "features": ["river"]}]
    game = combat(data, [2, 1, 2, 1])
    assert refused(game, "blue", {**STACKED, "groups": [["b-art", "b-art2"]]}).rule == "14.3(2)"
    assert fires(game.submit("blue", STACKED)) == [4, 4]


def test_14_2_5_no_bombardment_at_night() -> None:
    data = ground("0404")
    light(data, "night")
    battery(data)
    game = combat(data)
    assert refused(game, "blue", BOMBARD).rule == "14.2(5)"


def test_8_4_the_battery_targets_one_unit_of_the_hex_and_9_2_4_doubles_against_cavalry() -> None:
    data = ground("0404")
    battery(data)
    unit(data, "r-cav", "0704", side="red", kind="cavalry", formation="7",
         full={"cf": 3, "mr": 4, "ma": 8, "charge": 4}, ineffective={"cf": 1, "mr": 2, "ma": 10})
    game = combat(data, [2, 1])  # 8 against the cavalry (+7..+9): die 2 = Dr
    game.submit("blue", BOMBARD)
    d = decision(game)
    assert (d["kind"], d["side"]) == ("bombard_unit", "blue") and {o["id"] for o in d["options"]} == {"r-1", "r-cav"}
    events = game.submit("blue", {"type": "choose", "option": "r-cav"})
    assert next(e for e in events if e["type"] == "combat")["differential"] == 8
    d = decision(game)
    assert d["kind"] == "result"
    game.submit("red", {"type": "choose", "option": "retreat"})
    d = decision(game)
    assert d["kind"] == "retreat" and d["task"]["units"] == ["r-cav"]  # 8.4: the target unit alone


def test_8_5_the_bombardment_preview_shows_each_group_and_target() -> None:
    data = ground("0404")
    battery(data)
    game = combat(data)
    p = game.preview("blue", BOMBARD)
    assert p["legal"] and p["groups"][0]["artillery"] == ["b-art"]
    t = p["groups"][0]["targets"][0]
    assert t["unit"] == "r-1" and t["strength"] == 4 and t["results"][0] == "NE Ammo" and t["results"][3] == "Dr"
    assert game.preview("blue", {**BOMBARD, "target": "0604"})["legal"] is False
    battery(data, "b-art2", "0504")
    game = combat(data)
    p = game.preview("blue", {**STACKED, "groups": [["b-art", "b-art2"]]})
    assert [(g["artillery"], g["targets"][0]["strength"]) for g in p["groups"]] == [(["b-art", "b-art2"], 8)]
    p = game.preview("blue", STACKED)
    assert [(g["artillery"], g["targets"][0]["strength"]) for g in p["groups"]] == [(["b-art"], 4), (["b-art2"], 4)]
    p = game.preview("blue", {**STACKED, "groups": [["b-art"]]})
    assert p["legal"] is False and p["rule"] == "8.4"


def test_8_4_the_bots_bombard_with_part_of_a_stack_apart_or_together() -> None:
    from server.rules.standard.bombard import bombard_commands
    from server.rules.standard.context import StdCtx

    data = ground("0404")
    battery(data)
    battery(data, "b-art2", "0504")
    unit(data, "b-ldr", "0504", formation="1", span=["1"], **LEADER)
    game = combat(data)
    cmds = [c for c in bombard_commands(StdCtx.of(game), "blue") if c["target"] == "0704"]
    assert {"type": "bombard", "target": "0704", "artillery": ["b-art"]} in cmds
    assert {"type": "bombard", "target": "0704", "artillery": ["b-art", "b-art2"]} in cmds  # each alone
    assert {"type": "bombard", "target": "0704", "artillery": ["b-art", "b-art2"],
            "groups": [["b-art", "b-art2"]]} in cmds
    for c in cmds:
        assert game.preview("blue", c)["legal"], c


def test_8_4_the_page_options_list_bombardments_and_7_13_charges() -> None:
    from .play import new_game

    data = ground("0504")
    battery(data, hex_="0404")
    game = new_game(data, [])
    opts = game.options("blue", ["b-1"])
    assert {"type": "charge", "units": ["b-1"], "path": ["0504", "0604"], "target": "0704"} in opts["charges"]
    game.submit("blue", {"type": "end_phase"})
    opts = game.options("blue", ["b-art"])
    assert opts["bombardments"] and opts["bombardments"][0]["command"]["artillery"] == ["b-art"]


# --- 8.6 line of sight along a hexside (S29) ------------------------------------------------------------------------
# The line from 0504 to 0704 runs along the hexside between 0603 and 0604; it leaves 0504 through the corner where
# 0504's hexsides with 0603 and 0604 meet and enters 0704 through the corner of 0704's hexsides with them (R1, even).
ALONG = ("0603", "0604")
CORNER_SIDES = (("0504", "0603"), ("0504", "0604"), ("0603", "0704"), ("0604", "0704"))


def walls(data: dict, *sides: tuple[str, str]) -> None:  # type: ignore[type-arg]
    """A hexside feature that blocks the line of sight on each of `sides`."""
    data["tec"]["hexsides"]["wall"] = {"name": "Wall", "blocks_los": True}
    data["map"]["hexsides"] += [{"hexes": list(side), "features": ["wall"]} for side in sides]


def sees(game: Game, a: str, b: str) -> bool:
    from server.rules.standard.bombard import has_los
    from server.rules.standard.context import StdCtx

    return has_los(StdCtx.of(game), a, b)


def test_8_6_los_along_a_hexside_blocked_only_if_both_hexes_block() -> None:
    data = ground("0404")
    battery(data)
    walls(data, ALONG)  # 8.6: the hexside the line runs along does not block it ...
    data["map"]["hexes"]["0604"] = "woods"  # ... nor does one blocked hex beside it
    game = combat(data)
    assert sees(game, "0504", "0704") and sees(game, "0704", "0504")
    assert game.preview("blue", BOMBARD)["legal"]
    data["map"]["hexes"]["0603"] = "woods"  # both hexes beside it blocked: blocked
    game = combat(data)
    assert not sees(game, "0504", "0704")
    assert refused(game, "blue", BOMBARD).rule == "8.6"


def test_8_6_hexside_terrain_ignored_along_a_hexside() -> None:
    data = ground("0404")
    battery(data)
    walls(data, ALONG, *CORNER_SIDES)  # the hexside run along and every hexside ending at the line's corners
    game = combat(data, [4, 1])  # strength 4: die 4 = Dr
    assert sees(game, "0504", "0704")
    opts = game.options("blue", ["b-art"])  # the page lists the bombardment (8.6 reading in options too)
    assert [b["command"]["target"] for b in opts["bombardments"]] == ["0704"]
    events = game.submit("blue", BOMBARD)
    assert any(e["type"] == "combat" and e["rule"] == "8.5" for e in events)


def test_8_6_supporting_fire_along_a_walled_hexside() -> None:
    data = ground()  # b-1 at 0604 attacks r-1 at 0704; the battery at 0504 is next to b-1
    unit(data, "b-art", "0504", formation="1", **ARTILLERY)
    walls(data, ALONG, *CORNER_SIDES)
    data["map"]["hexes"]["0603"] = "woods"
    game = combat(data)
    p = game.preview("blue", SUPPORTED)
    assert p["legal"] and p["support_fire"][0]["unit"] == "b-art"


def test_8_6_a_blocking_hexside_the_line_crosses_still_blocks() -> None:
    data = ground("0303")
    battery(data, hex_="0404")  # 0404 to 0704 is no hexside line: it crosses 0504|0604
    walls(data, ("0504", "0604"))
    game = combat(data)
    assert not sees(game, "0404", "0704")
    assert refused(game, "blue", BOMBARD).rule == "8.6"


def test_8_6_a_line_crossing_a_hexside_at_its_midpoint_does_not_run_along_it() -> None:
    # 0303 to 0704 is no line along hexsides, but it crosses the 0503|0504 hexside exactly at its midpoint (where the
    # kernel's two walks split): it passes through both hexes, and any blocked one of them blocks it.
    data = ground("0404")
    unit(data, "b-art", "0303", formation="1", kind="artillery", full={"attack": 4, "defense": 1, "range": 4, "ma": 3},
         ineffective={"attack": 1, "defense": 0, "range": 2, "ma": 3})
    game = combat(data)
    assert sees(game, "0303", "0704") and game.preview("blue", BOMBARD)["legal"]
    data["map"]["hexes"]["0504"] = "woods"
    game = combat(data)
    assert not sees(game, "0303", "0704") and not sees(game, "0704", "0303")
    assert refused(game, "blue", BOMBARD).rule == "8.6"
    del data["map"]["hexes"]["0504"]
    walls(data, ("0403", "0503"))  # the line crosses into 0503 there
    assert not sees(combat(data), "0303", "0704")
