"""options.py's `commands` and `actions` (R16.19): the page offers, for the selected units and generals and for the
step, every command the engine would accept, so that each is reachable by a click. Over a random game of hm-hochdorf
each command the legal lists produce (R16.10's cards included) is among the options, and the side not awaited is
offered nothing."""

from __future__ import annotations

import json
import random

from server.rules import Game
from server.rules.kernel.randomplayer import RandomPlayer
from server.rules_cli import find_scenario


def _key(c: dict[str, object]) -> str:
    return json.dumps(c, sort_keys=True)


def test_every_legal_command_is_among_the_options() -> None:
    sc = find_scenario("hm-hochdorf")
    game = Game.new(sc, "options-commands-seed-00000001")
    player = RandomPlayer(random.Random(5))
    checked = set()
    for _ in range(300):
        if game.is_over:
            break
        side = game.awaiting
        assert side is not None
        if game.state.decision is None:
            opts = game.options(side, list(sc.units))
            offered = {_key(c) for u in opts["units"].values() for c in u.get("commands", [])}
            offered |= {_key(c) for c in opts.get("actions", [])}
            for c in game.legal_commands(side, random.Random(1), limit=300):
                if c["type"] == "end_phase":
                    continue
                assert _key(c) in offered, f"R16.19: {c} is legal but not offered to the page"
                checked.add(str(c["type"]) + (f":{c['card']}" if "card" in c else ""))
            other = next(s for s in sc.side_order if s != side)
            assert game.options(other, list(sc.units)) == {"units": {}}  # R16.19: only the side awaited acts
        game.submit(side, player.choose(game, side))
    # the families this game offered: at least moves, charges, fire and the end of a step
    assert {"move", "charge", "fire", "end_step"} <= checked, checked
