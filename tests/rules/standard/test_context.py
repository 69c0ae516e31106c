"""The Standard rules' context (server/rules/standard/context.py): its caches of the position (6.1 ZOC, occupancy)
must always equal what a fresh look at the position gives, since every rule of 4.x, 6.x, 7.6 and 12.x reads them."""

from __future__ import annotations

import random

from server.rules import Game
from server.rules.standard.context import StdCtx
from server.rules.standard.zoc import zoc_of

from .builder import standard_data, unit


def test_6_1_moves_keep_the_cached_occupancy_and_zoc_equal_to_fresh_ones() -> None:
    data = standard_data()
    for i, h in enumerate(["0402", "0403", "0502", "0603"]):
        unit(data, f"b{i}", h, kind="infantry", formation="1", full={"cf": 4, "mr": 4, "ma": 4},
             reduced={"cf": 2, "mr": 3, "ma": 4})
    from server.rules import parse_scenario

    game = Game.new(parse_scenario(data, "t"), "context-seed-00000000000")
    ctx = StdCtx.of(game)
    rng = random.Random(61)
    movers = [u for u in game.state.units if u.startswith("b")]
    checked = 0
    for _ in range(60):
        ctx.occupancy()
        ctx.zoc_of("blue")
        ctx.zoc_of("red")
        uid = rng.choice(movers)
        here = game.state.units[uid].hex
        assert here is not None
        ctx.move_unit(uid, rng.choice(game.scenario.grid.neighbors(here)))
        fresh = StdCtx.of(game)
        assert ctx.occupancy() == fresh.occupancy()
        for side in ("blue", "red"):
            assert ctx.zoc_of(side) == zoc_of(game.scenario, game.state.units, side)  # type: ignore[arg-type]
        checked += 1
    assert checked == 60
