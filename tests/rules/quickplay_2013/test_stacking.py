"""Stacking (5.0): no limit while moving; more than three units in a hex at the end of a movement or combat phase
are all disrupted, artillery and cavalry included (2.3); leaders never count (10.0)."""

from __future__ import annotations

from .conftest import Position2013
from .play import end_phase, move, of_type


def test_5_0_more_than_three_units_at_the_end_of_movement_are_all_disrupted(pos: Position2013) -> None:
    for uid in ("b1", "b2", "b3"):
        pos.unit(uid, "blue", hex="0304")
    pos.unit("a1", "blue", "artillery", hex="0204")
    pos.leader("bl", "blue", hex="0304")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    move(game, ["a1"], ["0204", "0304"])  # passing or entering is free
    events = end_phase(game)
    assert of_type(events, "overstacked")
    assert all(game.state.units[u].disrupted for u in ("b1", "b2", "b3", "a1"))
    assert not game.state.units["a1"].ineffective


def test_5_0_three_units_and_a_leader_are_not_over_stacked(pos: Position2013) -> None:
    for uid in ("b1", "b2", "b3"):
        pos.unit(uid, "blue", hex="0304")
    pos.leader("bl", "blue", hex="0304")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    assert not of_type(end_phase(game), "overstacked")
