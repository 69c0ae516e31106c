"""options.py's `commands` and `actions` (R16.19): the page offers, for the selected units and generals and for the
step, every command the engine would accept, so that each is reachable by a click. Over a random game of hm-hochdorf
each command the legal lists produce (R16.10's cards included) is among the options, and the side not awaited is
offered nothing."""

from __future__ import annotations

import json
import random

from server.rules import Game
from server.rules.horse_and_musket import geometry
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


def test_r16_19_each_command_names_the_hex_a_click_on_the_map_means() -> None:
    """The page gives a command by a click on a hex (R16.19): `at` is where a move ends (the referee's preview, 4.2,
    R16.11), for a turn in place the neighbour across the new front hexside (R16.4), the target's hex of a charge (4.1)
    or a fire (5), the last hex of a general's ride (R16.11) and the rallied unit's hex (2.1). Over a random game."""
    sc = find_scenario("hm-hochdorf")
    game = Game.new(sc, "options-where-seed-000000001")
    player = RandomPlayer(random.Random(8))
    seen: set[str] = set()
    for _ in range(400):
        if game.is_over:
            break
        side = game.awaiting
        assert side is not None
        if game.state.decision is None:
            opts = game.options(side, list(sc.units))
            for uid, entry in opts["units"].items():
                assert len(entry["at"]) == len(entry["commands"])
                for c, at in zip(entry["commands"], entry["at"], strict=True):
                    t = c["type"]
                    seen.add(t)
                    if t == "move":
                        pv = game.preview(side, {k: v for k, v in c.items() if k != "card"})
                        legs = c.get("legs") or []
                        turn = (len(legs) == 1 and not legs[0].get("steps") and "formation" not in c
                                and "deploy_facing" not in c)
                        here = game.state.units[uid].hex
                        # R16.4's "toward": the neighbour whose shared hexside is the new facing
                        ahead = [n for n in sc.grid.neighbors(here)
                                 if geometry.toward(sc.grid, here, pv["facing"], n) == geometry.index(pv["facing"])]
                        want = ahead[0] if turn else pv["hex"]
                        assert at == want, (c, at, pv)
                    elif t in ("charge", "fire"):
                        assert at == game.state.units[c["target"]].hex
                    elif t == "general":
                        assert at == c["path"][-1]
                    elif t == "rally":
                        assert at == game.state.units[c["unit"]].hex
        game.submit(side, player.choose(game, side))
    assert {"move", "charge", "fire", "general", "rally"} <= seen, seen
