"""Leaders (10.0): one die for each involved leader on a Leader result, killed on 5 or 6; a leader moving with units
lends its movement factor."""

from __future__ import annotations

from server.rules.kernel.core import Ctx
from server.rules.quickplay_2013.leaders import leader_casualty_checks

from .conftest import Position2013
from .play import move, of_type


def test_10_0_a_leader_check_kills_on_five_or_six(pos: Position2013) -> None:
    pos.leader("bl", "blue", hex="0204")
    pos.leader("b2", "blue", hex="0206")
    pos.unit("b1", "blue", hex="0204")
    pos.unit("r1", "red", hex="1008")
    game = pos.game(dice=[4, 5])
    ctx = Ctx.of(game)
    leader_casualty_checks(ctx, ["bl", "b2"])
    assert of_type(ctx.events, "leader_safe")[0]["unit"] == "bl" and game.state.units["b2"].status == "dead"


def test_10_0_1_the_leader_adds_its_movement_factor_moving_with_its_units(pos: Position2013) -> None:
    pos.leader("bl", "blue", hex="0204", movement=2)
    pos.unit("b1", "blue", hex="0204", ma=2)
    pos.unit("r1", "red", hex="0504", disrupted=True)  # 0404 next to it: no march
    game = pos.game()
    assert game.options("blue", ["b1", "bl"])["ma"] == 4
    move(game, ["b1", "bl"], ["0204", "0304", "0303", "0403"])
