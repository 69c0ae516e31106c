"""Horse and Musket scenarios (scenario.py, R16.3-R16.5, R16.12, R16.18) and the first battle, R16.22's hm-hochdorf:
its ground, armies, generals and objectives as designed, the checks R16.22 made on the kernel's grid, `vedette
validate-scenario`, and the file its generator writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.rules import ScenarioError, parse_scenario
from server.rules.horse_and_musket.scenario import HMScenario
from server.rules.horse_and_musket.tables import Kind
from server.rules_cli import find_scenario

from .builder import Board

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def hochdorf() -> HMScenario:
    sc = find_scenario("hm-hochdorf")
    assert isinstance(sc, HMScenario)
    return sc


def test_r16_22_the_ground(hochdorf: HMScenario) -> None:
    assert (hochdorf.grid.columns, hochdorf.grid.rows, hochdorf.grid.shifted, hochdorf.turns) == (24, 16, "even", 8)
    assert {h for h, t in hochdorf.hex_terrain.items() if t == "hill"} == {"1104", "1105", "1204", "1205", "1304",
                                                                          "1305"}
    assert all(hochdorf.elevation_at(h) == 1 for h in ("1104", "1305")) and hochdorf.elevation_at("1106") == 0
    assert hochdorf.fieldworks == {"1205"}
    assert (hochdorf.terrain_at("1407"), hochdorf.terrain_at("1508")) == ("town", "town")
    assert [hochdorf.terrain_at(f"20{r:02d}") for r in (1, 7, 12, 16)] == ["river", "bridge", "ford", "river"]
    assert hochdorf.hedge_between("1006", "1007") and hochdorf.hedge_between("1107", "1006")
    assert {h for h, t in hochdorf.hex_terrain.items() if t == "woods"} == {"0509", "0510", "0609", "0610", "0709"}
    assert {h for h, t in hochdorf.hex_terrain.items() if t == "crops"} == {"1610", "1710", "1711"}


def test_r16_22_the_armies_and_their_generals(hochdorf: HMScenario) -> None:
    sides = {s: [u for u in hochdorf.side_units[s] if hochdorf.units[u].kind is not Kind.GENERAL]
             for s in hochdorf.side_order}
    assert hochdorf.side_order == ("prussian", "austrian") and [len(v) for v in sides.values()] == [9, 9]
    assert (hochdorf.sides["prussian"].initiative, hochdorf.sides["prussian"].discipline) == (1, True)
    assert (hochdorf.sides["austrian"].initiative, hochdorf.sides["austrian"].discipline) == (0, False)
    d = hochdorf.units
    assert (d["p-jaeg"].kind, d["p-jaeg"].weapon) == (Kind.LI, "rifle")
    assert (d["p-drag"].kind, d["p-drag"].dragoon, d["p-huss"].weapon) == (Kind.HC, True, "carbine")
    assert (d["p-cuir"].grade, d["a-cuir"].grade, d["a-gren"].grade) == ("elite", "average", "elite")
    assert {g: (d[g].quality, d[g].role) for g in ("p-cinc", "a-cinc", "a-cav")} == {
        "p-cinc": ("gifted", "c-in-c"), "a-cinc": ("competent", "c-in-c"), "a-cav": ("incompetent", "brigade")}
    setup = {p.unit: (p.hex, p.facing, p.formation) for p in hochdorf.setup}
    assert setup["a-gren"] == ("1205", "S", "line") and setup["p-fus"] == ("1214", "N", "column")
    assert setup["p-art"] == ("1112", "N", "deployed") and setup["a-cav"][0] == "1704"
    assert hochdorf.break_at == {"prussian": 5, "austrian": 5}


def test_r16_22_what_was_checked_on_the_kernel_grid(hochdorf: HMScenario) -> None:
    grid = hochdorf.grid
    where = {p.unit: p.hex for p in hochdorf.setup}
    for uid, u in hochdorf.units.items():
        if u.brigade:
            assert grid.distance(where[uid], where[u.brigade]) <= 5
    assert grid.distance(where["p-cinc"], where["p-inf"]) == grid.distance(where["a-cinc"], where["a-inf"]) == 2
    assert grid.distance(where["p-cinc"], where["p-cav"]) == grid.distance(where["a-cinc"], where["a-cav"]) == 5
    apart = [grid.distance(where[p], where[a]) for p in hochdorf.side_units["prussian"]
             for a in hochdorf.side_units["austrian"] if hochdorf.units[p].kind is not Kind.GENERAL
             and hochdorf.units[a].kind is not Kind.GENERAL]
    assert (min(apart), max(apart)) == (5, 15)


def test_r16_18_r16_22_the_objectives(hochdorf: HMScenario) -> None:
    assert [(o.hex, o.points, o.owner) for o in hochdorf.victory.objectives] == [
        ("1104", 2, "austrian"), ("1407", 2, "austrian"), ("1508", 2, "austrian")]


def test_the_file_is_what_its_generator_writes_and_validates() -> None:
    build = subprocess.run([sys.executable, "scenarios/tools/build_scenarios.py", "--check"], cwd=ROOT,
                           capture_output=True, text=True, timeout=300, check=False)
    assert build.returncode == 0, build.stderr
    out = subprocess.run([sys.executable, "-m", "server.cli", "validate-scenario",
                          "scenarios/horse-and-musket/hm-hochdorf.json"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, check=False)
    assert out.returncode == 0 and "ok (Hochdorf, 1758" in out.stdout, out.stderr


@pytest.mark.parametrize(("change", "path"), [
    (lambda d: d["map"]["hexes"].update({"0505": "swamp"}), "map.hexes.0505"),
    (lambda d: d["setup"].append({"unit": "x", "hex": "0606", "facing": "N"}), "setup[4].unit"),
    (lambda d: d["units"].append(dict(d["units"][2], id="dup")) or d["setup"].append(
        {"unit": "dup", "hex": "0606", "facing": "N", "formation": "line"}), "setup[4].hex"),
    (lambda d: d["units"].append({"id": "h", "side": "blue", "name": "h", "type": "hc", "weapon": "carbine"})
     or d["setup"].append({"unit": "h", "hex": "0101", "facing": "N"}), "units[4].weapon"),
    (lambda d: d["map"]["hexes"].update({"0606": "town"}), "setup[2].hex"),
    (lambda d: d["map"]["elevation"].update({"0707": 2}), "map.elevation.0707"),
])
def test_a_bad_scenario_is_refused_with_the_field_named(change: object, path: str) -> None:
    data = json.loads(json.dumps(Board().unit("b", "blue", "hc", "0606").unit("r", "red", "co", "0603").data))
    change(data)  # type: ignore[operator]
    with pytest.raises(ScenarioError) as err:
        parse_scenario(data, "bad")
    assert path in [p for p, _ in err.value.problems], err.value.problems
