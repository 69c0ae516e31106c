"""19.4 Rain (seed 002) as a scenario mechanism, with the Rain Table designed in S50 (docs/rulings.md): the weather
states and their effects (weather.py), the scenario's `weather` block, the roll in the Game Turn marker phase
(phases.py), the line of sight (bombard.py) and the four-MP cap on every move (moving.py).

Positions on builder.py's 10x8 clear map: a long-ranged blue battery at 0106 firing east along row 06 (a hex of the
same row is as many hexes away as the columns differ), a fast blue cavalry unit at 0102 moving east along row 02."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import Game, ScenarioError
from server.rules.standard import weather
from server.rules.standard.bombard import bombard_problem
from server.rules.standard.context import StdCtx
from server.rules.standard.scenario import parse_standard_scenario

from .builder import standard_data, unit
from .fight import INF, combat
from .play import end, load, new_game, refused

LONG_GUN = {"kind": "artillery", "formation": "1", "full": {"attack": 4, "defense": 1, "range": 10, "ma": 3},
            "ineffective": {"attack": 1, "defense": 0, "range": 2, "ma": 3}}
CAVALRY = {"kind": "cavalry", "formation": "1", "full": {"cf": 3, "mr": 4, "ma": 8, "charge": 4},
           "ineffective": {"cf": 1, "mr": 2, "ma": 10}}


def rainy(start: str | None, **block: Any) -> dict[str, Any]:
    """The test ground with a `weather` block starting in `start` (None: no block at all)."""
    data = standard_data()
    if start is not None:
        data["weather"] = {"start": start, **block}
    return data


def battery(data: dict[str, Any], targets: list[str], *, hill: bool = False) -> Game:
    """Blue's combat phase of turn 1: the long gun at 0106, a red infantry unit in each target hex."""
    unit(data, "b-art", "0106", **LONG_GUN)
    for i, h in enumerate(targets):
        unit(data, f"r-t{i}", h, side="red", kind="infantry", formation="7", **INF)
    if hill:
        data["map"]["hexes"]["0106"] = "hill"
    return combat(data)


def may_fire(game: Game, target: str) -> str | None:
    return bombard_problem(StdCtx.of(game), "blue", "b-art", target)


def bombard(target: str) -> dict[str, Any]:
    return {"type": "bombard", "target": target, "artillery": ["b-art"]}


def row(a: int, b: int, r: int = 2) -> list[str]:
    """The hexes of row `r` from column a to column b."""
    return [f"{c:02d}{r:02d}" for c in range(a, b + 1)]


# --- the line of sight ----------------------------------------------------------------------------------------------
def test_19_4_light_rain_limits_los_to_six_hexes() -> None:
    game = battery(rainy("light"), ["0706", "0806"])
    assert game.scenario.grid.distance("0106", "0806") == 7
    assert may_fire(game, "0706") is None  # six hexes
    e = refused(game, "blue", bombard("0806"))
    assert e.rule == "19.4"
    assert "light rain" in e.message.lower() and "6 hexes" in e.message
    # the same shot in clear weather (and with no weather at all) is within 8.6's ten hexes
    assert may_fire(battery(rainy("clear"), ["0806"]), "0806") is None
    assert may_fire(battery(rainy(None), ["0806"]), "0806") is None


def test_19_4_hills_extend_light_rain_los_by_one() -> None:
    game = battery(rainy("light"), ["0806", "0906"], hill=True)
    assert may_fire(game, "0806") is None  # seven hexes from a hill (8.7)
    e = refused(game, "blue", bombard("0906"))
    assert e.rule == "19.4" and "7 hexes" in e.message and "8.7" in e.message


def test_19_4_fieldworks_extend_light_rain_los_by_two_through_the_scenario_hook() -> None:
    works = {"side": "blue", "hexes": ["0106"]}
    game = battery(rainy("light", fieldworks=works), ["0906", "1006"], hill=True)
    assert may_fire(game, "0906") is None  # 6 + 1 (hill) + 2 (fieldworks)
    assert may_fire(game, "1006") is None  # nine hexes
    game = battery(rainy("light", fieldworks=works), ["0906"])
    assert may_fire(game, "0906") is None  # 6 + 2
    # 19.6: no bonus when firing in support
    assert bombard_problem(StdCtx.of(game), "blue", "b-art", "0906", support=True) is not None


def test_19_4_heavy_rain_limits_los_to_four_whatever_the_bonus() -> None:
    works = {"side": "blue", "hexes": ["0106"]}
    game = battery(rainy("heavy", fieldworks=works), ["0506", "0606"], hill=True)
    assert may_fire(game, "0506") is None  # four hexes
    e = refused(game, "blue", bombard("0606"))
    assert e.rule == "19.4" and "heavy rain" in e.message.lower() and "4 hexes" in e.message
    # the bombardments the page is offered leave the hex out
    targets = {o["command"]["target"] for o in game.options("blue", ["b-art"])["bombardments"]}
    assert "0506" in targets and "0606" not in targets


# --- the four-MP cap ------------------------------------------------------------------------------------------------
def cavalry_game(start: str | None, dice: list[int] | None = None, at: str = "0102", **flags: Any) -> Game:
    data = rainy(start)
    unit(data, "b-cav", at, **CAVALRY)
    data["setup"] = [dict(s, **flags) if s["unit"] == "b-cav" else s for s in data["setup"]]
    return new_game(data, dice or [])


def test_19_4_heavy_rain_caps_a_move_at_four_mp() -> None:
    game = cavalry_game("heavy")
    e = refused(game, "blue", {"type": "move", "units": ["b-cav"], "path": row(1, 6)})
    assert e.rule == "19.4" and "4 MP" in e.message and "heavy rain" in e.message.lower()
    opts = game.options("blue", ["b-cav"])["normal"]
    assert opts["ma"] == 4 and opts["limit"]["rule"] == "19.4"
    assert "0502" in opts["reachable"] and "0602" not in opts["reachable"]
    game.submit("blue", {"type": "move", "units": ["b-cav"], "path": row(1, 5)})
    assert game.state.units["b-cav"].hex == "0502"
    # in light rain the cavalry keeps its eight MP
    game = cavalry_game("light")
    assert "limit" not in game.options("blue", ["b-cav"])["normal"]
    game.submit("blue", {"type": "move", "units": ["b-cav"], "path": row(1, 9)})
    assert game.state.units["b-cav"].hex == "0902"


def test_19_4_heavy_rain_caps_marches_rolled_mas_and_leaders() -> None:
    game = cavalry_game("heavy", at="0101")  # row 01: the march stays clear of red's zone of control (4.7)
    e = refused(game, "blue", {"type": "move", "units": ["b-cav"], "path": row(1, 6, 1), "march": True})
    assert e.rule == "19.4"
    assert game.options("blue", ["b-cav"])["march"]["ma"] == 4
    game = cavalry_game("heavy", [6, 6], disrupted=True)  # 4.4: a disrupted unit rolls (two dice: MA above 6)
    game.submit("blue", {"type": "declare", "units": ["b-cav"]})
    assert refused(game, "blue", {"type": "move", "units": ["b-cav"], "path": row(1, 6)}).rule == "19.4"
    data = rainy("heavy")
    unit(data, "b-ldr", "0101", kind="leader", formation="1", leader={"combat": 1, "morale": 2, "movement": 2})
    game = new_game(data, [])
    e = refused(game, "blue", {"type": "move", "units": ["b-ldr"], "path": row(1, 6, 1)})
    assert e.rule == "19.4"  # 10.1's twelve MP, cut to four


# --- the weather of the next turn -----------------------------------------------------------------------------------
def to_turn_marker(game: Game, dice: list[int]) -> list[dict[str, Any]]:
    """End turn 1's first three phases, then the fourth with `dice` loaded: the Game Turn marker phase runs."""
    end(game, 3)
    load(game, dice)
    return game.submit(game.awaiting or "red", {"type": "end_phase"})


def test_19_4_the_next_turns_weather_is_rolled_in_the_game_turn_marker_phase() -> None:
    game = new_game(rainy("light"), [])
    assert game.state.extra["weather"] == "light"
    assert game.view("red")["standard"]["weather"]["now"] == "light"
    events = to_turn_marker(game, [6])
    rolls = [e for e in events if e["type"] == "dice" and e.get("rule") == "19.4"]
    assert len(rolls) == 1 and rolls[0]["dice"] == [6]
    told = next(e for e in events if e["type"] == "weather")
    assert told["rule"] == "19.4" and told["weather"] == weather.DEFAULT_TABLE["light"][5] == "heavy"
    assert game.state.turn == 2 and game.state.extra["weather"] == "heavy"
    for viewer in ("blue", "red", "spectator"):
        w = game.view(viewer)["standard"]["weather"]
        assert w["now"] == "heavy" and w["rule"] == "19.4" and "4 MP" in w["effects"]


def test_19_4_the_scenarios_own_table_is_read() -> None:
    table = {"clear": ["clear"] * 6, "light": ["clear"] * 6, "heavy": ["heavy"] * 6}
    game = new_game(rainy("light", table=table), [])
    to_turn_marker(game, [6])
    assert game.state.extra["weather"] == "clear"


def test_19_4_a_forced_turn_ignores_the_table() -> None:
    game = new_game(rainy("light", forced={"2": "clear", "3": "heavy"}), [])
    assert game.view("blue")["standard"]["weather"]["next"] == "clear"  # known in advance
    events = to_turn_marker(game, [])  # no die is rolled
    assert not [e for e in events if e["type"] == "dice"]
    told = next(e for e in events if e["type"] == "weather")
    assert told["rule"] == "19.4" and told["forced"] is True
    assert game.state.turn == 2 and game.state.extra["weather"] == "clear"
    assert game.view("blue")["standard"]["weather"]["next"] == "heavy"


def test_19_4_a_scenario_without_weather_plays_as_before() -> None:
    game = new_game(rainy(None), [])
    assert "weather" not in game.state.extra
    assert "weather" not in game.view("blue")["standard"]
    events = to_turn_marker(game, [])
    assert not [e for e in events if e["type"] in ("dice", "weather")]
    assert "weather" not in game.state.extra


def test_19_4_the_default_table_keeps_the_rain_falling() -> None:
    """S50: every row is a full d6; heavy rain never clears at once; the long-run share of rain is 7 in 8."""
    t = weather.DEFAULT_TABLE
    assert set(t) == set(weather.STATES) and all(len(r) == 6 for r in t.values())
    assert weather.CLEAR not in t[weather.HEAVY]
    p = {s: 1 / 3 for s in weather.STATES}
    for _ in range(200):
        p = {s: sum(p[a] * t[a].count(s) / 6 for a in weather.STATES) for s in weather.STATES}
    assert p[weather.CLEAR] == pytest.approx(1 / 8)
    assert p[weather.LIGHT] == pytest.approx(1 / 2)
    assert p[weather.HEAVY] == pytest.approx(3 / 8)


# --- the scenario format --------------------------------------------------------------------------------------------
def problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as e:
        parse_standard_scenario(data, "t")
    return e.value.problems


def test_19_4_the_weather_block_is_read_with_the_default_table() -> None:
    sc = parse_standard_scenario(rainy("heavy", forced={"3": "clear"}), "t")
    assert sc.weather is not None
    assert sc.weather.start == "heavy" and sc.weather.forced == {3: "clear"}
    assert sc.weather.table == weather.DEFAULT_TABLE
    assert parse_standard_scenario(rainy(None), "t").weather is None


def test_19_4_a_misspelt_weather_field_is_named() -> None:
    data = rainy("light")
    data["weather"]["forcd"] = {"2": "clear"}
    found = problems(data)
    assert [p for p, _ in found] == ["weather.forcd"]
    assert "did you mean 'forced'" in found[0][1]


def test_19_4_a_misspelt_weather_state_is_named() -> None:
    data = rainy("drizzle")
    assert any(p == "weather.start" and "drizzle" in r for p, r in problems(data))
    data = rainy("light", table={"clear": ["clear"] * 6, "light": ["clear"] * 6, "heavy": ["clear"] * 5 + ["hevy"]})
    assert any(p == "weather.table.heavy[5]" and "hevy" in r for p, r in problems(data))
    data = rainy("light", table={"clear": ["clear"] * 6, "light": ["clear"] * 5, "heavy": ["clear"] * 6})
    assert any(p == "weather.table.light" for p, _ in problems(data))  # a d6 row has six results


def test_19_4_a_forced_turn_must_be_a_turn_of_the_game() -> None:
    found = problems(rainy("light", forced={"9": "clear"}))
    assert any(p == "weather.forced.9" and "turn" in r for p, r in found)
    found = problems(rainy("light", forced={"1": "clear"}))
    assert any(p == "weather.forced.1" and "start" in r for p, r in found)


def test_19_4_the_fieldworks_hook_names_a_side_and_hexes_of_the_map() -> None:
    found = problems(rainy("light", fieldworks={"side": "green", "hexes": ["0106", "9999"]}))
    paths = [p for p, _ in found]
    assert "weather.fieldworks.side" in paths and "weather.fieldworks.hexes[1]" in paths


def test_19_4_random_games_in_the_rain_finish_cleanly() -> None:
    """The tutorial with S50's table, starting in Heavy Rain: the random player meets every limit, the invariants
    hold after every command and each finished game replays to the same state."""
    import json
    from pathlib import Path

    from server.rules.kernel.randomplayer import simulate

    root = Path(__file__).resolve().parents[3]
    data = json.loads((root / "scenarios" / "standard" / "standard-tutorial.json").read_text("utf-8"))
    data["weather"] = {"start": "heavy", "forced": {"2": "light"}}
    report = simulate(parse_standard_scenario(data, "standard-tutorial"), 4, seed=50)
    assert report.games == 4 and report.violations == 0, report.examples[:5]
