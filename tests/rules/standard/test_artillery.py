"""Artillery in the Standard rules (seed 002 8.3-8.8, 14.2(5), 14.3(3)): supporting fire, bombardment, range, line of
sight and Ammo, each as the seed demands."""

from __future__ import annotations

from .builder import unit
from .fight import ARTILLERY, combat, combat_event, decision, flag, ground, light
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
    from server.rules.standard.context import StdCtx
    from server.rules.standard.fighting import has_los

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
