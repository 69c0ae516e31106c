"""How big a websocket patch is (issue 40: "a websocket patch for an ordinary move stays small, report its bytes").

Random games of each scenario are played in the rules core; after every `move` command each viewer (both seats and
a spectator) gets the JSON Patch from its view before to its view after, made by the server's own diff
(server/realtime/diff.py), and its bytes are the size of the patch as the socket sends it (orjson). The figures go
to docs/benchmarks.md. Run by hand:

    .venv/bin/python bench/bench_patch_size.py --scenarios tutorial hougoumont koniggratz --games 3
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.realtime.diff import make_patch
from server.rules import Game
from server.rules.kernel.randomplayer import RandomPlayer
from server.rules_cli import find_scenario


def patch_sizes(scenario_id: str, games: int, seed: int) -> dict[str, Any]:
    scenario = find_scenario(scenario_id)
    moves: list[int] = []
    views: list[int] = []
    for g in range(games):
        rng = random.Random(f"{seed}:{scenario_id}:{g}")
        game = Game.new(scenario, f"patch-bench-seed-{g:08d}")
        player = RandomPlayer(rng)
        viewers = [*game.scenario.side_order, "spectator"]
        before = {v: game.view(v) for v in viewers}
        for _ in range(20000):
            if game.is_over:
                break
            side = game.awaiting
            command = player.choose(game, side)
            game.submit(side, command)
            after = {v: game.view(v) for v in viewers}
            if command["type"] == "move":
                for v in viewers:
                    moves.append(len(orjson.dumps(make_patch(before[v], after[v]))))
            before = after
        views.extend(len(orjson.dumps(before[v])) for v in viewers)
    moves.sort()
    return {
        "scenario": scenario_id, "games": games, "move_patches": len(moves),
        "move_patch_bytes": {"median": statistics.median(moves), "p90": moves[int(len(moves) * 0.9)],
                             "p99": moves[int(len(moves) * 0.99)], "max": moves[-1]},
        "whole_view_bytes_median": statistics.median(views),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", nargs="+", default=["tutorial", "hougoumont", "koniggratz"])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=40)
    args = parser.parse_args()
    for scenario_id in args.scenarios:
        row = patch_sizes(scenario_id, args.games, args.seed)
        row["machine"] = f"{platform.machine()} Python {platform.python_version()}"
        print(json.dumps(row))


if __name__ == "__main__":
    main()
