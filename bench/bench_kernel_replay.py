"""The rules core's and the views' part of a command, counted in instructions that a noisy machine does not blur.

A VM whose neighbours steal time moves the timed benchmarks by 10-30 % from one run to the next (session 16,
docs/benchmarks.md), which hides any change smaller than that. This replays a fixed list of commands and, with
`--callgrind`, counts the CPU instructions they take under valgrind's callgrind (the same count for the same
code and input, whatever else the machine does):

* the commands: seeded random games of the scenario (kernel/randomplayer.py), recorded once;
* each command judged by the rules core (`Game.submit`), both seats' views built as the hub builds them
  (`share_units`, `hub._detached`), and each seat's patch made (`realtime/diff.py`) and serialised;
* the collector set as `vedette serve` sets it (`gc.freeze`, thresholds 100 and 3: server/gctune.py).

What it leaves out: the database write, the websocket frames and the event loop (bench_command_path.py and
bench_server.py time those). Run from the tree being measured; A/B two commits from two worktrees.

    .venv/bin/python bench/bench_kernel_replay.py --scenario hougoumont --commands 400              # CPU time
    .venv/bin/python bench/bench_kernel_replay.py --scenario hougoumont --commands 400 --callgrind  # instructions

With `--callgrind` the replay runs twice under valgrind (all the commands, and none, for the start-up to
subtract), with PYTHONHASHSEED=0 and address randomisation off (`setarch -R`); seen repeatable to 0.5 %.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def record(scenario_name: str, commands: int) -> list[tuple[str, list[tuple[str, dict[str, Any]]]]]:
    """(game seed, [(side, command), ...]) for seeded random games until `commands` are recorded."""
    from server.rules.kernel.game import Game
    from server.rules.kernel.randomplayer import RandomPlayer
    from server.rules_cli import find_scenario

    scenario = find_scenario(scenario_name)
    games: list[tuple[str, list[tuple[str, dict[str, Any]]]]] = []
    seed = 0
    while sum(len(c) for _, c in games) < commands:
        seed += 1
        name = f"kernel-replay-seed-{seed:010d}"
        game, player, played = Game.new(scenario, name), RandomPlayer(random.Random(seed)), []
        while not game.is_over and sum(len(c) for _, c in games) + len(played) < commands:
            side = game.awaiting
            assert side is not None
            command = player.choose(game, side)
            game.submit(side, command)
            played.append((side, command))
        games.append((name, played))
    return games


def replay(scenario_name: str, games: list[Any], commands: int) -> float:
    """CPU seconds to replay the first `commands` of `games` with both seats' views and patches."""
    import orjson

    from server.realtime.diff import make_patch
    from server.realtime.hub import _detached
    from server.rules.kernel.game import Game
    from server.rules_cli import find_scenario

    scenario = find_scenario(scenario_name)
    sides = list(scenario.side_order)
    if games:  # the scenario's lazily built tables (step costs, ...) are built outside the measurement
        warm = Game.new(scenario, games[0][0])
        for side, command in games[0][1]:
            warm.submit(side, command)
            warm.views(sides, share_units=True)
    gc.collect()
    gc.freeze()
    gc.set_threshold(100, 3, 1_000_000)
    started = time.process_time()
    done = 0
    for name, played in games:
        if done >= commands:
            break
        game = Game.new(scenario, name)
        last = [_detached(v) for v in game.views(sides, share_units=True)]
        for side, command in played:
            if done >= commands:
                break
            game.submit(side, command)
            done += 1
            views = [_detached(v) for v in game.views(sides, share_units=True)]
            for old, new in zip(last, views, strict=True):
                orjson.dumps(make_patch(old, new))
            last = views
    return time.process_time() - started


def instructions(args: argparse.Namespace, commands_file: str) -> int:
    """Instructions of one replay of `args.commands` commands, start-up subtracted (callgrind)."""
    from callgrind import instructions as counted

    runs = [counted([sys.executable, __file__, "--scenario", args.scenario, "--commands", str(n),
                     "--replay-file", commands_file])[0] for n in (args.commands, 0)]
    return runs[0] - runs[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="hougoumont")
    parser.add_argument("--commands", type=int, default=400)
    parser.add_argument("--callgrind", action="store_true", help="count instructions under valgrind")
    parser.add_argument("--replay-file", help=argparse.SUPPRESS)  # the inner runs of --callgrind
    args = parser.parse_args()
    if args.replay_file:
        replay(args.scenario, json.loads(Path(args.replay_file).read_text("utf-8")), args.commands)
        return
    games = record(args.scenario, args.commands)
    out: dict[str, Any] = {"scenario": args.scenario, "commands": args.commands}
    if args.callgrind:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(games, f)
        try:
            out["instructions_per_command"] = round(instructions(args, f.name) / args.commands)
        finally:
            os.unlink(f.name)
    else:
        seconds = min(replay(args.scenario, games, args.commands) for _ in range(3))
        out["cpu_ms_per_command"] = round(seconds * 1000 / args.commands, 3)
    out["machine"] = f"{platform.machine()} {platform.python_version()}"
    out["date"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
