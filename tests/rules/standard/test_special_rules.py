"""Three of Königgrätz's special rules (seed 002 19.2, 19.5, 19.9) as mechanisms a Standard scenario may switch on
(special.py, S51): ridge hexsides in the TEC (`ridge: true`, 19.2) blocking the line of sight unless an end is
adjacent; the `special_rules` block's needle gun (19.9) and lethargy (19.5).

Positions on builder.py's 10x8 clear map: a long-ranged blue battery at 0106 firing east along row 06; b-1 (CF 6)
at 0604 attacking r-1 (CF 5) at 0704 (test_game_combat.py's contact: die 3 = Ex)."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import Game, ScenarioError
from server.rules.kernel.hexes import hexside_key
from server.rules.kernel.los import sight_line
from server.rules.standard.bombard import bombard_problem, has_los
from server.rules.standard.context import StdCtx
from server.rules.standard.movement import terrain_cost
from server.rules.standard.scenario import parse_standard_scenario

from .builder import standard_data, unit
from .fight import INF, combat, flag
from .play import end, load, new_game, refused, submit

LONG_GUN = {"kind": "artillery", "formation": "1", "full": {"attack": 4, "defense": 1, "range": 10, "ma": 3},
            "ineffective": {"attack": 1, "defense": 0, "range": 2, "ma": 3}}
ATTACK = {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"}


def problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as e:
        parse_standard_scenario(data, "t")
    return e.value.problems


# --- 19.2 ridge hexsides --------------------------------------------------------------------------------------------
def ridged(*sides: tuple[str, str]) -> dict[str, Any]:
    data = standard_data()
    data["tec"]["hexsides"]["ridge"] = {"name": "Ridge", "ridge": True}
    data["map"]["hexsides"] += [{"hexes": list(s), "features": ["ridge"]} for s in sides]
    return data


def middle_side() -> tuple[str, str]:
    """A hexside the line 0106 -> 0806 crosses, touching neither end nor the hexes next to them."""
    sc = parse_standard_scenario(standard_data(), "t")
    line = sight_line(sc.grid, "0106", "0806")
    near = {"0106", "0806"} | set(sc.grid.neighbors("0106")) | set(sc.grid.neighbors("0806"))
    return next(s for s in line.crossed if not set(s) & near)


def test_19_2_a_ridge_blocks_los_unless_an_end_is_adjacent() -> None:
    x, y = middle_side()
    data = ridged((x, y))
    unit(data, "b-art", "0106", **LONG_GUN)
    unit(data, "r-t", "0806", side="red", kind="infantry", formation="7", **INF)
    game = combat(data)
    ctx = StdCtx.of(game)
    assert not has_los(ctx, "0106", "0806")  # neither end is beside the ridge
    e = bombard_problem(ctx, "blue", "b-art", "0806")
    assert e is not None and e.startswith("8.6") and "line of sight" in e
    assert not has_los(ctx, "0806", "0106")  # for all purposes, either way
    # the observed (or the observing) unit beside the ridge, on either side of it, sees across
    for end_ in (x, y):
        assert has_los(ctx, "0106", end_) or hexside_key(x, y) not in sight_line(ctx.sc.grid, "0106", end_).crossed
        assert has_los(ctx, end_, "0106") or hexside_key(x, y) not in sight_line(ctx.sc.grid, end_, "0106").crossed
    far = next(h for h in ("0806", "0906", "1006") if hexside_key(x, y) in sight_line(ctx.sc.grid, x, h).crossed
               or hexside_key(x, y) in sight_line(ctx.sc.grid, y, h).crossed)
    assert has_los(ctx, x, far) and has_los(ctx, y, far) and has_los(ctx, far, x) and has_los(ctx, far, y)
    # without the ridge the same line is clear
    assert has_los(StdCtx.of(combat(standard_data())), "0106", "0806")


def test_19_2_a_ridge_is_otherwise_a_clear_hexside() -> None:
    x, y = middle_side()
    sc = parse_standard_scenario(ridged((x, y)), "t")
    clear = parse_standard_scenario(standard_data(), "t")
    for cls in ("infantry", "cavalry", "artillery", "leader", "trains"):
        assert sc.could_move(cls, x, y) and sc.could_move(cls, y, x)  # 4.5, 12.2: crossed as clear
        assert sc.zoc_from(cls, x) == clear.zoc_from(cls, x)  # 6.4: no ZOC blocked
    for cls in ("infantry", "cavalry", "artillery"):
        assert terrain_cost(sc, cls, x, y) == terrain_cost(clear, cls, x, y)  # 4.5: no extra cost
    assert sc.hexside_effects(x, y) == ()  # 7.7, 7.12, 7.13(3), 9.3(1): no combat effect, no bar to a charge
    assert sc.ridges == frozenset({hexside_key(x, y)})
    # a ridge with another effect is not 19.2's ridge
    data = ridged((x, y))
    data["tec"]["hexsides"]["ridge"]["move_add"] = {"infantry": 1}
    assert any(p == "tec.hexsides.ridge.move_add" and "19.2" in r for p, r in problems(data))


# --- 19.9 the needle gun --------------------------------------------------------------------------------------------
def needle(side: str) -> dict[str, Any]:
    data = standard_data()
    data["special_rules"] = {"needle_gun": {"side": side}}
    data["setup"] = [dict(s, hex="0604") if s["unit"] == "b-1" else s for s in data["setup"]]
    return data


def exchange(data: dict[str, Any]) -> tuple[Game, list[dict[str, Any]]]:
    game = new_game(data, [])
    end(game)
    load(game, [3, 2])  # +1: die 3 = Ex Leader (no leaders here)
    return game, submit(game, "blue", ATTACK)


def test_19_9_needle_gun_infantry_takes_no_loss_on_an_exchange_from_the_enemys_attack() -> None:
    game, events = exchange(needle("red"))  # blue attacks red's needle-gun infantry
    assert game.state.units["b-1"].reduced  # the attacker's primary loses its step
    assert not game.state.units["r-1"].reduced  # 19.9: the needle gun's infantry does not
    assert any(e.get("rule") == "19.9" for e in events)
    assert game.state.decision is None


def test_19_9_the_needle_gun_side_attacking_still_loses_on_an_exchange() -> None:
    game, _ = exchange(needle("blue"))  # blue's needle-gun infantry attacks
    assert game.state.units["b-1"].reduced and game.state.units["r-1"].reduced  # 7.8 as ever


def test_19_9_a_needle_gun_side_must_be_a_side() -> None:
    data = needle("prussia")
    assert any(p == "special_rules.needle_gun.side" and "prussia" in r for p, r in problems(data))


# --- 19.5 lethargy --------------------------------------------------------------------------------------------------
def lethargic(die: int, *, inactive: bool = False) -> tuple[Game, list[dict[str, Any]]]:
    """Red lethargic (19.5); red's movement phase of turn 1 begins with `die`."""
    data = standard_data()
    data["special_rules"] = {"lethargy": {"side": "red", "active": [1, 2, 3]}}
    if inactive:
        flag(data, "r-hq", inactive=True)
    game = new_game(data, [])
    end(game)  # blue's movement
    load(game, [die])
    return game, game.submit("blue", {"type": "end_phase"})  # blue's combat: red's movement begins


def test_19_5_lethargy_rolls_the_hq_active_on_1_to_3() -> None:
    game, events = lethargic(2, inactive=True)
    assert game.state.phase == "movement" and game.state.active == "red"
    assert any(e["type"] == "dice" and e.get("rule") == "19.5" and e["dice"] == [2] for e in events)
    assert "r-hq" not in game.state.extra["inactive"]  # flipped to its active side
    assert refused(game, "red", {"type": "flip", "unit": "r-hq"}).rule == "19.5"  # the die, not the owner, decides
    end(game)
    assert "r-hq" not in game.state.extra["inactive"]


def test_19_5_lethargy_leaves_the_hq_inactive_on_4_to_6() -> None:
    game, events = lethargic(5)
    assert any(e["type"] == "dice" and e.get("rule") == "19.5" and e["dice"] == [5] for e in events)
    assert "r-hq" in game.state.extra["inactive"]
    assert refused(game, "red", {"type": "flip", "unit": "r-hq"}).rule == "19.5"
    end(game)  # 12.1's recovery at the end of the phase does not apply: inactive for that turn
    assert "r-hq" in game.state.extra["inactive"]


def test_19_5_lethargy_is_only_the_named_sides() -> None:
    data = standard_data()
    data["special_rules"] = {"lethargy": {"side": "red"}}
    game = new_game(data, [])  # blue's movement phase: no roll
    assert game.state.dice_count == 0
    assert game.submit("blue", {"type": "flip", "unit": "b-hq"}) is not None  # 12.1's free choice


# --- the block ------------------------------------------------------------------------------------------------------
def test_19_a_misspelt_special_rule_is_named() -> None:
    data = standard_data()
    data["special_rules"] = {"needle_gn": {"side": "red"}}
    found = problems(data)
    assert [p for p, _ in found] == ["special_rules.needle_gn"]
    assert "did you mean 'needle_gun'" in found[0][1]
    data["special_rules"] = {"lethargy": {"side": "red", "activ": [1, 2]}}
    found = problems(data)
    assert [p for p, _ in found] == ["special_rules.lethargy.activ"]
    assert "did you mean 'active'" in found[0][1]


def test_19_without_the_block_nothing_changes() -> None:
    sc = parse_standard_scenario(standard_data(), "t")
    assert sc.special.needle_gun is None and sc.special.lethargy is None and sc.ridges == frozenset()
