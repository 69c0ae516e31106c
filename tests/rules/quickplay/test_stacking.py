"""Stacking (5.0, R4): three combat units plus one battalion or artillery unit, leaders free; the penalty at
the end of each movement and combat phase."""

from __future__ import annotations

import pytest
from position import Position

from server.rules import QuickPlay, UnitKind

INF, B, A, C, L = UnitKind.INFANTRY, UnitKind.BATTALION, UnitKind.ARTILLERY, UnitKind.CAVALRY, UnitKind.LEADER


@pytest.mark.parametrize("kinds,ok", [
    ([INF, INF, INF], True),
    ([INF, INF, INF, INF], False),
    ([C, C, C, C], False),
    ([INF, INF, INF, B], True),
    ([INF, INF, INF, A], True),
    ([C, C, C, A], True),
    ([B, B, B, B], True),
    ([A, A, A, A], True),
    ([INF, INF, INF, B, B], False),
    ([INF, INF, INF, B, L, L, L, L], True),
    ([L] * 9, True),
    ([INF, INF, INF, L, L], True),
    ([INF, INF, C, C], False),
])
def test_5_0_stacking_limit(kinds, ok) -> None:
    assert QuickPlay().stacking_ok(kinds) is ok


def overstack_position(enemy: str = "0505") -> Position:
    """Four units in 0404, a fifth at 0304; by default a red unit beside 0404 so that nothing recovers (11.3)."""
    pos = Position()
    for i in range(3):
        pos.unit(f"s{i}", "blue", hex="0404")
    pos.unit("bn", "blue", "battalion", hex="0404")
    pos.unit("b4", "blue", hex="0304")
    pos.leader("bl", "blue", hex="0404")
    pos.unit("r1", "red", hex=enemy)
    return pos


def test_5_0_overstacking_at_the_end_of_the_movement_phase_disrupts_and_makes_ineffective() -> None:
    game = overstack_position().game()
    game.submit("blue", {"type": "move", "units": ["b4"], "path": ["0304", "0404"]})
    st = game.state.units
    assert not any(st[u].disrupted for u in ("s0", "s1", "s2", "b4"))  # nothing until the phase ends
    events = game.submit("blue", {"type": "end_phase"})
    assert "overstacked" in [e["type"] for e in events]
    assert all(st[u].disrupted and not st[u].ineffective for u in ("s0", "s1", "s2", "b4"))
    assert st["bn"].ineffective and not st["bn"].disrupted
    assert not st["bl"].ineffective and not st["bl"].disrupted  # leaders never count and are not penalised
    assert all(st[u].hex == "0404" for u in ("s0", "s1", "s2", "b4", "bn"))  # no retreat


def test_5_0_passing_through_is_free() -> None:
    game = overstack_position(enemy="0705").game()
    game.submit("blue", {"type": "move", "units": ["b4"], "path": ["0304", "0404", "0504"]})
    events = game.submit("blue", {"type": "end_phase"})
    assert "overstacked" not in [e["type"] for e in events]
    assert not any(game.state.units[u].disrupted for u in ("s0", "s1", "s2", "b4"))
    assert not game.state.units["bn"].ineffective


def test_5_0_a_legal_stack_is_not_penalised() -> None:
    game = overstack_position().game()
    game.submit("blue", {"type": "end_phase"})
    assert not any(game.state.units[u].disrupted for u in ("s0", "s1", "s2"))


def test_5_0_one_step_units_go_ineffective_and_the_penalty_has_no_further_effect_on_impaired_units() -> None:
    pos = Position()
    pos.unit("s0", "blue", hex="0404", disrupted=True)
    pos.unit("c1", "blue", "cavalry", hex="0404", ineffective=True)
    pos.unit("a1", "blue", "artillery", hex="0404")
    pos.unit("c2", "blue", "cavalry", hex="0404")
    pos.unit("c3", "blue", "cavalry", hex="0404")
    pos.unit("r1", "red", hex="0505")  # adjacent: no recovery in the recovery phase that follows
    game = pos.game()
    game.submit("blue", {"type": "end_phase"})
    st = game.state.units
    assert st["s0"].disrupted and st["s0"].hex == "0404" and st["s0"].status == "map" and not st["s0"].reduced
    assert st["c1"].ineffective and st["c1"].hex == "0404"
    assert st["a1"].ineffective and st["c2"].ineffective and st["c3"].ineffective


def test_5_0_overstacking_is_checked_for_both_sides_at_the_end_of_a_movement_phase() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0708")  # adjacent: red cannot recover before we look
    for i in range(4):
        pos.unit(f"r{i}", "red", hex="0808")
    game = pos.game()
    game.submit("blue", {"type": "end_phase"})
    assert all(game.state.units[f"r{i}"].disrupted for i in range(4))


def test_5_0_overstacking_is_checked_at_the_end_of_the_combat_phase() -> None:
    pos = Position()
    for i in range(4):
        pos.unit(f"b{i}", "blue", hex="0404")
    pos.unit("r1", "red", hex="1008")
    game = pos.game(phase="combat")
    game.submit("blue", {"type": "end_phase"})
    assert all(game.state.units[f"b{i}"].disrupted for i in range(4))
    assert (game.state.phase, game.state.active) == ("movement", "red")


def test_5_0_overstacking_is_not_checked_at_the_end_of_the_recovery_phase() -> None:
    pos = Position()
    for i in range(4):
        pos.unit(f"b{i}", "blue", hex="0404")
    pos.unit("r1", "red", hex="1008")
    game = pos.game(phase="recovery")
    game.submit("blue", {"type": "end_phase"})
    assert game.state.phase == "combat"
    assert not any(game.state.units[f"b{i}"].disrupted for i in range(4))
