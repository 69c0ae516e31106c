"""The Standard rules' game turn (seed 002 3.2) and the voluntary flip to the ineffective side (2.6)."""

from __future__ import annotations

from server.rules.kernel.state import UnitState
from server.rules.standard.scenario import parse_standard_scenario
from server.rules.standard.turn import TURN_MARKER, Step, may_flip_ineffective, next_step, sequence

from .builder import standard_data, unit


def test_3_2_a_turn_has_five_phases_first_player_first() -> None:
    sc = parse_standard_scenario(standard_data(), "t")
    assert sequence(sc) == (Step("blue", "movement"), Step("blue", "combat"), Step("red", "movement"),
                            Step("red", "combat"), Step(None, TURN_MARKER))


def test_3_2_recovery_is_no_phase_of_its_own() -> None:
    sc = parse_standard_scenario(standard_data(), "t")
    assert all(s.phase != "recovery" for s in sequence(sc))


def test_3_2_the_first_player_comes_from_the_scenario() -> None:
    data = standard_data()
    data["first_player"] = "red"
    sc = parse_standard_scenario(data, "t")
    assert sequence(sc)[0] == Step("red", "movement") and sequence(sc)[2] == Step("blue", "movement")


def test_3_2_the_turn_marker_phase_advances_the_turn_or_ends_the_game() -> None:
    sc = parse_standard_scenario(standard_data(), "t")
    turn, step = 1, sequence(sc)[0]
    seen = []
    while step.phase != "over":
        seen.append((turn, step.side, step.phase))
        turn, step = next_step(sc, turn, step)
    assert len(seen) == 5 * sc.turns
    assert seen[4] == (1, None, TURN_MARKER) and seen[5] == (2, "blue", "movement")
    assert seen[-1] == (4, None, TURN_MARKER) and turn == 4


def _flip_ground() -> tuple:
    data = standard_data()
    unit(data, "b-cav", kind="cavalry", formation="1", hex="0305", full={"cf": 3, "mr": 4, "ma": 8, "charge": 4},
         ineffective={"cf": 1, "mr": 2, "ma": 10})
    unit(data, "b-bn", kind="battalion", formation="1", hex="0306", full={"cf": 1, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    return parse_standard_scenario(data, "t"), UnitState("b-cav", "0305"), UnitState("b-bn", "0306")


def test_2_6_cavalry_may_flip_at_the_start_of_its_movement_phase() -> None:
    sc, cav, _ = _flip_ground()
    assert may_flip_ineffective(sc, cav, "blue", "movement", any_moved=False) is None


def test_2_6_not_after_a_unit_has_moved_nor_in_another_phase_or_turn() -> None:
    sc, cav, _ = _flip_ground()
    assert "before any unit moves" in (may_flip_ineffective(sc, cav, "blue", "movement", any_moved=True) or "")
    assert may_flip_ineffective(sc, cav, "blue", "combat", any_moved=False) is not None
    assert may_flip_ineffective(sc, cav, "red", "movement", any_moved=False) is not None


def test_2_6_only_artillery_and_cavalry_and_only_once() -> None:
    sc, cav, bn = _flip_ground()
    assert "not battalion units" in (may_flip_ineffective(sc, bn, "blue", "movement", False) or "")
    brigade = UnitState("b-1", "0404")
    assert "not infantry units" in (may_flip_ineffective(sc, brigade, "blue", "movement", False) or "")
    cav.ineffective = True
    assert "already" in (may_flip_ineffective(sc, cav, "blue", "movement", False) or "")
