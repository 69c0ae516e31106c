"""Reinforcements as 17.4 writes them (seed 002 13.1, 17.1, 17.4; S60, S61): lettered entry points, a group's choice of
entry hexes ("and/or" and "OR"), arrivals decided by a die, leaders arriving with a unit of their span."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.rules.kernel.scenario import ScenarioError
from server.rules.standard.options import unit_options
from server.rules.standard.scenario import parse_standard_scenario

from .builder import standard_data, unit
from .play import end, hex_of, new_game, refused, submit

INF = {"full": {"cf": 4, "mr": 4, "ma": 4}, "reduced": {"cf": 2, "mr": 3, "ma": 4}}
LEADER = {"combat": 1, "morale": 1, "movement": 2}


def ground(*groups: dict[str, Any]) -> dict[str, Any]:
    """Blue's entry points A 0102, B 0105, C 0107; b-2, b-3 (formation 1) and b-4 (formation 2) waiting off the map."""
    data = standard_data()
    data["sides"]["blue"]["entry_points"] = {"A": "0102", "B": "0105", "C": "0107"}
    for uid, f in (("b-2", "1"), ("b-3", "1"), ("b-4", "2")):
        unit(data, uid, None, kind="infantry", formation=f, **INF)
    data["reinforcements"] = list(groups)
    return data


def problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as e:
        parse_standard_scenario(data, "t")
    return e.value.problems


def ends(game: Any, times: int) -> list[dict[str, Any]]:
    """End `times` phases; the events they made."""
    out: list[dict[str, Any]] = []
    for _ in range(times):
        out += game.submit(game.awaiting, {"type": "end_phase"})
    return out


def arrivals_of(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "arrival"]


# --- the data ------------------------------------------------------------------------------------------------------
def test_17_1_entry_letters_name_the_sides_entry_points() -> None:
    sc = parse_standard_scenario(ground({"units": ["b-2", "b-3", "b-4"], "turn": 1, "entry": ["B", "C"]}), "t")
    a = sc.arrivals["b-3"]
    assert (a.hexes, a.mode, a.hex, a.turn, a.roll) == (("0105", "0107"), "any", "0105", 1, frozenset())
    assert sc.arrivals["b-2"].group == sc.arrivals["b-4"].group


def test_17_1_an_unknown_letter_or_a_hex_off_the_edge_is_refused_with_its_path() -> None:
    got = problems(ground({"units": ["b-2", "b-3", "b-4"], "turn": 1, "entry": ["B", "Q"]}))
    assert got[0][0] == "reinforcements[0].entry[1]" and "'Q' is neither an entry point" in got[0][1]
    got = problems(ground({"units": ["b-2", "b-3", "b-4"], "turn": 1, "entry": ["0505"]}))
    assert got == [("reinforcements[0].entry[0]", "entry hex 0505 is not on a map edge (13.1)")]
    data = ground({"units": ["b-2", "b-3", "b-4"], "turn": 1, "entry": ["A"]})
    data["sides"]["blue"]["entry_points"]["D"] = "0404"
    assert ("sides.blue.entry_points.D", "entry hex 0404 is not on a map edge (13.1)") in problems(data)


def test_17_4_the_group_forms_are_checked() -> None:
    base = {"units": ["b-2", "b-3", "b-4"], "turn": 1}
    got = problems(ground({**base, "entry": ["A"], "hex": "0102"}))
    assert got[0][0] == "reinforcements[0]" and "not both" in got[0][1]
    got = problems(ground({**base, "hex": "0102", "entry_mode": "one"}))
    assert got[0][0] == "reinforcements[0].entry_mode"
    got = problems(ground({**base, "entry": ["A"], "arrival": {"roll": [1, 2], "repeat": True, "else_turn": 2}}))
    assert got[0][0] == "reinforcements[0].arrival"
    got = problems(ground({**base, "entry": ["A"], "arrival": {"roll": [1, 2], "else_turn": 1}}))
    assert got[0][0] == "reinforcements[0].arrival.else_turn"
    got = problems(ground({**base, "entry": ["A"], "with_span": True}))
    assert got[0] == ("reinforcements[0].with_span", "only leaders arrive with a unit of their command span (17.4)")
    got = problems(ground({**base, "entry": ["A"], "entry_mod": "one"}))
    assert got[0][0] == "reinforcements[0].entry_mod" and "entry_mode" in got[0][1]
    got = problems(ground({**base, "entry": ["A"], "arrival": {"roll": [1], "repeats": True}}))
    assert got[0][0] == "reinforcements[0].arrival.repeats"


# --- 17.4 "and/or" and "OR" -------------------------------------------------------------------------------------------
def test_17_4_and_or_each_unit_picks_any_listed_hex() -> None:
    game = new_game(ground({"units": ["b-2", "b-3", "b-4"], "turn": 1, "entry": ["B", "C"]}), [])
    reach = unit_options(game, "blue", ["b-2"])["normal"]["reachable"]
    assert reach["0105"]["path"] == ["0105"] and reach["0107"]["path"] == ["0107"]  # the page offers both hexes
    assert refused(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0102"]}).rule == "13.1"
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0105", "0205"]})
    submit(game, "blue", {"type": "move", "units": ["b-3"], "path": ["0107"]})
    assert (hex_of(game, "b-2"), hex_of(game, "b-3")) == ("0205", "0107")
    legal = [c for c in game.legal_commands("blue", random.Random(1), limit=2000) if c.get("units") == ["b-4"]]
    assert {c["path"][0] for c in legal if c["type"] == "move"} == {"0105", "0107"}  # the bots choose too


def test_17_4_or_the_first_unit_to_enter_fixes_the_groups_hex() -> None:
    game = new_game(ground({"units": ["b-2", "b-3", "b-4"], "turn": 1, "entry": ["B", "C"], "entry_mode": "one"}), [])
    events = submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0107"]})
    assert any(e["type"] == "entry" and e["hex"] == "0107" for e in events)
    assert refused(game, "blue", {"type": "move", "units": ["b-3"], "path": ["0105"]}).rule == "13.1"
    assert {r["path"][0] for r in unit_options(game, "blue", ["b-3"])["normal"]["reachable"].values()} == {"0107"}
    submit(game, "blue", {"type": "move", "units": ["b-3"], "path": ["0107", "0207"]})
    assert hex_of(game, "b-3") == "0207"


# --- 17.4 arrival by die (S61) ----------------------------------------------------------------------------------------
def test_17_4_a_repeating_die_rolls_each_turn_until_the_group_arrives() -> None:
    game = new_game(ground({"units": ["b-2"], "turn": 2, "entry": ["B"], "arrival": {"roll": [1, 2], "repeat": True}},
                           {"units": ["b-3", "b-4"], "turn": 1, "hex": "0102"}))
    # turn 1: no roll yet (its turn has not come), the unit waits for turn 2
    assert game.state.units["b-2"].entry_turn == 2
    events = ends(game, 4)
    ev = [e for e in events if e.get("purpose") == "arrival"]
    assert len(ev) == 1 and ev[0]["rule"] == "17.4"  # rolled with the game's fair dice: in the dice log
    got = arrivals_of(events)[-1]
    assert game.state.turn == 2 and game.state.units["b-2"].entry_turn in (2, 3)
    assert got["die"] == ev[0]["dice"][0] and got["arrives"] == (got["die"] in (1, 2))


def test_17_4_a_missed_repeating_roll_waits_and_rolls_again() -> None:
    data = ground({"units": ["b-2"], "turn": 1, "entry": ["B"], "arrival": {"roll": [1, 2], "repeat": True}},
                  {"units": ["b-3", "b-4"], "turn": 1, "hex": "0102"})
    data["first_player"] = "red"  # blue's phase comes after the dice are loaded
    game = new_game(data, [5, 2])
    last = arrivals_of(ends(game, 2))[-1]  # red's movement and combat: blue's movement phase of turn 1 rolls 5
    assert game.state.active == "blue" and game.state.units["b-2"].entry_turn == 2
    assert (last["die"], last["arrives"], last["turn"]) == (5, False, 2)
    assert refused(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0105"]}).rule == "13.1"
    last = arrivals_of(ends(game, 4))[-1]  # turn 2: blue rolls 2
    assert (last["die"], last["arrives"]) == (2, True)
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0105"]})
    assert hex_of(game, "b-2") == "0105"


def test_17_4_a_single_roll_else_arrives_on_the_later_turn_without_rolling_again() -> None:
    data = ground({"units": ["b-2", "b-3"], "turn": 1, "entry": ["A", "B"], "entry_mode": "one",
                   "arrival": {"roll": [1, 2, 3], "else_turn": 2}}, {"unit": "b-4", "turn": 1, "hex": "0102"})
    data["first_player"] = "red"
    game = new_game(data, [4])
    last = arrivals_of(ends(game, 2))[-1]
    assert (last["die"], last["arrives"], last["turn"]) == (4, False, 2)
    assert [game.state.units[u].entry_turn for u in ("b-2", "b-3")] == [2, 2]
    end(game, 4)  # turn 2: no die (the loaded dice are empty: a roll would fail)
    assert game.state.turn == 2 and game.state.active == "blue"
    submit(game, "blue", {"type": "move", "units": ["b-3"], "path": ["0102"]})
    assert hex_of(game, "b-3") == "0102"


def test_17_4_a_hit_makes_the_group_available_at_once() -> None:
    data = ground({"units": ["b-2"], "turn": 1, "entry": ["B"], "arrival": {"roll": [1, 2, 3], "else_turn": 2}},
                  {"units": ["b-3", "b-4"], "turn": 1, "hex": "0102"})
    data["first_player"] = "red"
    game = new_game(data, [3])
    assert arrivals_of(ends(game, 2))[-1]["arrives"] is True
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0105"]})
    assert hex_of(game, "b-2") == "0105"


# --- 17.4 leaders arrive with a unit of their span (S60) -------------------------------------------------------------
def with_leader() -> dict[str, Any]:
    data = ground({"units": ["b-2", "b-3"], "turn": 1, "entry": ["A"]}, {"units": ["b-4"], "turn": 1, "entry": ["C"]},
                  {"units": ["b-ldr"], "turn": 1, "entry": ["B"], "with_span": True})
    unit(data, "b-ldr", None, kind="leader", formation="1", span=["1"], leader=LEADER)
    return data


def test_17_4_a_leader_arrives_with_a_unit_of_his_span_at_its_hex() -> None:
    game = new_game(with_leader(), [])
    assert refused(game, "blue", {"type": "move", "units": ["b-ldr"], "path": ["0105"]}).rule == "17.4"
    assert refused(game, "blue", {"type": "move", "units": ["b-ldr", "b-4"], "path": ["0107"]}).rule == "17.4"
    submit(game, "blue", {"type": "move", "units": ["b-ldr", "b-2"], "path": ["0102", "0202"]})
    assert hex_of(game, "b-ldr") == hex_of(game, "b-2") == "0202"


def test_17_4_a_leader_may_follow_a_unit_of_his_span_that_entered_this_phase() -> None:
    game = new_game(with_leader(), [])
    submit(game, "blue", {"type": "move", "units": ["b-4"], "path": ["0107"]})
    assert refused(game, "blue", {"type": "move", "units": ["b-ldr"], "path": ["0107"]}).rule == "17.4"
    submit(game, "blue", {"type": "move", "units": ["b-3"], "path": ["0102", "0202"]})
    submit(game, "blue", {"type": "move", "units": ["b-ldr"], "path": ["0102", "0202"]})
    assert hex_of(game, "b-ldr") == "0202"


def test_17_4_the_bots_offer_the_leader_with_a_span_unit() -> None:
    game = new_game(with_leader(), [])
    legal = game.legal_commands("blue", random.Random(1), limit=3000)
    assert any(c["type"] == "move" and sorted(c["units"]) == ["b-2", "b-ldr"] for c in legal)
    assert not any(c["type"] == "move" and c["units"] == ["b-ldr"] for c in legal)
