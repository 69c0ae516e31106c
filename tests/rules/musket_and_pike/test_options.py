"""R17.95: every command the engine offers the active side is among the page's options (each unit's `commands` or
the side's `actions`), and each fire option carries its table, column, modifiers and results' chances."""

from __future__ import annotations

import json
import random

from server.rules import Game
from server.rules.kernel.randomplayer import RandomPlayer
from server.rules_cli import find_scenario


def test_r17_95_every_legal_command_is_a_page_option() -> None:
    sc = find_scenario("mp-lindau")
    g = Game.new(sc, "options-seed-0000000001")
    p = RandomPlayer(random.Random(11))
    checked = fires = 0
    while not g.is_over and checked < 60:
        side = g.awaiting
        assert side is not None
        if g.state.decision is None:
            opts = g.options(side, list(sc.side_units[side]))
            offered = {json.dumps(c, sort_keys=True) for u in opts["units"].values() for c in u.get("commands", [])}
            offered |= {json.dumps(c, sort_keys=True) for c in opts["actions"]}
            for c in g.legal_commands(side, random.Random(0), 10_000):
                assert json.dumps(c, sort_keys=True) in offered, c
            for u in opts["units"].values():
                for f in u.get("fire", []):
                    fires += 1
                    assert f["table"] and f["column"] and abs(sum(f["results"].values()) - 1) < 1e-9
            checked += 1
        g.submit(side, p.choose(g, side))
    assert checked >= 20
