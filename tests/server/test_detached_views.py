"""A view a connection keeps as its last one (`hub._detached`) is never altered by the game's later changes:
the next patch is made against it, so a field that shared an object with the state could hide a change.
The fields kept as `build_views` made them must therefore hold nothing of the state."""

from __future__ import annotations

import json
import random
from dataclasses import fields
from pathlib import Path
from typing import Any

import jsonpatch
import orjson
import pytest

from server.realtime.diff import make_patch
from server.realtime.hub import _KEPT_AS_BUILT, _detached
from server.rules import parse_scenario
from server.rules.kernel.game import Game
from server.rules.kernel.randomplayer import RandomPlayer
from server.rules.kernel.state import GameState

ROOT = Path(__file__).resolve().parents[2]


def _containers(value: Any, into: set[int]) -> set[int]:
    if isinstance(value, (dict, list)):
        into.add(id(value))
        for child in value.values() if isinstance(value, dict) else value:
            _containers(child, into)
    return into


@pytest.mark.parametrize("name", ["tutorial", "hougoumont", "salem-church"])
def test_a_kept_view_holds_nothing_of_the_state_and_patches_to_the_next(name: str) -> None:
    scenario = parse_scenario(json.loads((ROOT / "scenarios" / f"{name}.json").read_text("utf-8")), name)
    sides = list(scenario.side_order)
    shared_seen = False
    for seed in (1, 2):
        game = Game.new(scenario, f"detached-views-seed-{seed:08d}")
        player = RandomPlayer(random.Random(seed))
        kept = [_detached(v) for v in game.views(sides, share_units=True)]
        for _ in range(150):
            if game.is_over:
                break
            side = game.awaiting
            assert side is not None
            game.submit(side, player.choose(game, side))
            built = game.views(sides, share_units=True)
            state: set[int] = set()
            for f in fields(GameState):
                if f.name != "units":
                    _containers(getattr(game.state, f.name), state)
            for view in built:
                for key, value in view.items():
                    if key in _KEPT_AS_BUILT and key not in ("units", "unit_defs"):
                        assert not _containers(value, set()) & state, f"{key} shares an object with the state"
                    elif key not in _KEPT_AS_BUILT and _containers(value, set()) & state:
                        shared_seen = True  # a copied field (the prompt, the combat) that does share
            fresh = [_detached(v) for v in built]
            for view in fresh:  # and what is copied shares nothing any more
                copied = {k: v for k, v in view.items() if k not in _KEPT_AS_BUILT}
                assert not _containers(copied, set()) & state
            for old, new in zip(kept, fresh, strict=True):  # the patch turns the last view into the new one
                held = orjson.loads(orjson.dumps(old))
                assert jsonpatch.apply_patch(held, make_patch(old, new)) == orjson.loads(orjson.dumps(new))
            kept = fresh
    assert shared_seen  # the scan does find sharing where there is some
