"""Disruption and ineffectiveness (2.3, 11.1, 11.3): every unit may be disrupted; artillery, cavalry and leaders also
go ineffective; an ineffective unit operates as a disrupted one (no ZOC, morale less two); a battalion reads as
one-step infantry (T1)."""

from __future__ import annotations

from server.rules.kernel.core import Ctx
from server.rules.quickplay_2013.status import disrupt, make_ineffective, morale

from .conftest import Position2013


def test_2_3_every_unit_disrupts_and_only_artillery_cavalry_and_leaders_flip(pos: Position2013) -> None:
    pos.unit("c1", "blue", "cavalry", hex="0204")
    pos.unit("b1", "blue", "battalion", hex="0206")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    ctx = Ctx.of(game)
    assert disrupt(ctx, "c1", "11.1") and make_ineffective(ctx, "c1", "9.1(1)")
    assert disrupt(ctx, "b1", "11.1") and not make_ineffective(ctx, "b1", "9.1(1)")
    assert game.state.units["c1"].disrupted and game.state.units["c1"].ineffective


def test_11_3_an_ineffective_unit_exerts_no_zoc_and_checks_at_two_less(pos: Position2013) -> None:
    pos.unit("a1", "blue", "artillery", hex="0404", mr=4, ineffective=True,
             ineffective_factors={"attack": 0, "defense": 1, "mr": 3, "ma": 3})
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    ctx = Ctx.of(game)
    assert morale(ctx, "a1") == 1 and not ctx.exerts_zoc("a1")
