"""Decision time per bot level (issue 15): median and max wall-clock time per decision, on each scenario.

Each level plays itself (`vedette arena`'s machinery: belief game built for every decision, invariants
checked after every command) for a few games per scenario; every decision's time is taken, the belief
game's construction included. With `--iterations N` the search level thinks for N nodes per decision
instead of the clock (greedy then runs to completion): the arena's reproducible setting.

    nice -n 19 .venv/bin/python bench/bench_bots.py --games 2                       # clock: 1 s a decision
    nice -n 19 .venv/bin/python bench/bench_bots.py --games 2 --iterations 1500     # node budget
    nice -n 19 .venv/bin/python bench/bench_bots.py --scenarios tutorial --levels search --json

Prints a Markdown table (and with --json one JSON line per scenario and level).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots.arena import arena
from server.rules_cli import find_scenario

SCENARIOS = ("tutorial", "salem-church", "hougoumont", "standard-tutorial")
LEVELS = ("random", "greedy", "search")


def measure(scenario: str, level: str, games: int, seed: int, budget: float, iterations: int | None) -> dict[str, object]:
    sc = find_scenario(scenario)
    t0 = time.perf_counter()
    report = arena(sc, level, level, games, seed, budget, iterations=iterations)
    wall = time.perf_counter() - t0
    times = [t for ts in report.times.values() for t in ts]
    times.sort()
    return {
        "scenario": scenario, "level": level, "games": games, "seed": seed,
        "budget_s": budget if iterations is None else None, "iterations": iterations, "decisions": len(times),
        "median_ms": round(statistics.median(times) * 1000, 1) if times else None,
        "p90_ms": round(times[int(0.9 * (len(times) - 1))] * 1000, 1) if times else None,
        "max_ms": round(max(times) * 1000, 1) if times else None,
        "mean_ms": round(sum(times) / len(times) * 1000, 1) if times else None,
        "violations": report.violations, "illegal_commands": report.illegal, "wall_s": round(wall, 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scenarios", nargs="+", default=list(SCENARIOS))
    p.add_argument("--levels", nargs="+", default=list(LEVELS))
    p.add_argument("--games", type=int, default=2, help="self-play games per scenario and level")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget", type=float, default=1.0, help="seconds per decision (the product's default: 1)")
    p.add_argument("--iterations", type=int, default=None, help="search's node budget instead of the clock")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load:.1f}", flush=True)
    budget = f"{args.iterations} nodes" if args.iterations is not None else f"{args.budget} s"
    print(f"# self-play, {args.games} games per scenario and level, seed {args.seed}, search budget {budget}")
    print("| scenario | level | decisions | median | p90 | max | games' wall time |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    for scenario in args.scenarios:
        for level in args.levels:
            row = measure(scenario, level, args.games, args.seed, args.budget, args.iterations)
            rows.append(row)
            print(f"| {scenario} | {level} | {row['decisions']} | {row['median_ms']} ms | {row['p90_ms']} ms | "
                  f"{row['max_ms']} ms | {row['wall_s']} s |", flush=True)
    if args.json:
        for row in rows:
            print(json.dumps(row))
    return 1 if any(r["violations"] or r["illegal_commands"] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
