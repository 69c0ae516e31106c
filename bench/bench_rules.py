"""Rules-core benchmark (run by hand; results go to docs/benchmarks.md).

Targets (issue 2): on a 40x30 map with 60 units, reachable hexes for one unit median < 2 ms and one
command validated and applied median < 0.5 ms; a complete random game of the tutorial < 0.5 s.
Königgrätz (issue 40, 296 counters, `--koniggratz`): the random player's commands validated and applied median
< 2 ms, a view < 5 ms, a random full game < 5 s.
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.rules import Game, parse_scenario
from server.rules.kernel.randomplayer import RandomPlayer, play_random_game
from server.rules.quickplay.movement import build_group, reachable
from server.rules_cli import find_scenario


def big_scenario(seed: int = 5) -> dict:
    rng = random.Random(seed)
    tut = json.loads((ROOT / "scenarios" / "tutorial.json").read_text())
    cols, rows = 40, 30
    hexes = {}
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            x = rng.random()
            if x < 0.15:
                hexes[f"{c:02d}{r:02d}"] = "woods"
            elif x < 0.22:
                hexes[f"{c:02d}{r:02d}"] = "hill"
            elif x < 0.25:
                hexes[f"{c:02d}{r:02d}"] = "town"
    hexsides = []
    for r in range(1, rows + 1):  # a stream between columns 20 and 21
        hexsides.append({"hexes": [f"20{r:02d}", f"21{r:02d}"], "features": ["stream"]})
        if r < rows:
            hexsides.append({"hexes": [f"20{r:02d}", f"21{r + 1:02d}"], "features": ["stream"]})
    road = [f"{c:02d}15" for c in range(1, cols + 1)]
    units, setup = [], []
    kinds = ["infantry"] * 6 + ["battalion", "artillery", "cavalry", "leader"]
    for side, col0, form in (("blue", 8, "1"), ("red", 28, "G")):
        for i in range(30):
            kind = kinds[i % len(kinds)]
            uid = f"{side}-{i}"
            u = {"id": uid, "side": side, "kind": kind, "name": uid, "formation": form}
            if kind == "leader":
                u["leader"] = {"combat": 1, "morale": 1, "movement": 1}
            elif kind == "infantry":
                u["full"] = {"attack": 5, "defense": 5, "mr": 4, "ma": 4}
                u["reduced"] = {"attack": 3, "defense": 3, "mr": 3, "ma": 4}
            elif kind == "cavalry":
                u["full"] = {"attack": 3, "defense": 3, "mr": 4, "ma": 8, "charge": 6}
            elif kind == "artillery":
                u["full"] = {"attack": 4, "defense": 1, "mr": 3, "ma": 4}
                u["range"] = 3
            else:
                u["full"] = {"attack": 2, "defense": 2, "mr": 4, "ma": 5}
            units.append(u)
            hx = f"{col0 + (i % 5):02d}{3 + (i // 5) * 4:02d}"
            hexes[hx] = "clear"
            setup.append({"unit": uid, "hex": hx})
    data = dict(tut)
    data.update({
        "id": "bench-40x30", "title": "Benchmark 40x30",
        "map": {"columns": cols, "rows": rows, "shifted": "even", "default_terrain": "clear", "hexes": hexes,
                "hexsides": hexsides, "roads": [{"path": road}]},
        "sides": {"blue": dict(tut["sides"]["blue"], entry_hexes=["0115"]),
                  "red": dict(tut["sides"]["red"], entry_hexes=["4015"])},
        "formations": {"1": {"side": "blue", "name": "1st"}, "G": {"side": "red", "name": "G"}},
        "units": units, "setup": setup, "reinforcements": [],
        "victory": {"description": "points", "objectives": []},
    })
    data.pop("turn_labels", None)
    return data


def median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 3)


def koniggratz(games: int = 5) -> dict[str, object]:
    """Issue 40's figures on the whole battle: every command of random games (the set-up's included) timed through
    `Game.submit`, the Prussian view after each, and whole random games (without the invariant checks)."""
    sc = find_scenario("koniggratz")
    cmd_times: list[float] = []
    view_times: list[float] = []
    for seed in range(games):
        game = Game.new(sc, f"bench-koniggratz-seed-{seed:08d}")
        player = RandomPlayer(random.Random(seed))
        while not game.is_over:
            side = game.awaiting
            assert side is not None
            cmd = player.choose(game, side)
            t = time.perf_counter()
            game.submit(side, cmd)
            cmd_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            game.view("prussia")
            view_times.append(time.perf_counter() - t)
    game_times = []
    for seed in range(games):
        t = time.perf_counter()
        play_random_game(sc, seed, check=False)
        game_times.append(time.perf_counter() - t)
    return {
        "koniggratz_units": len(sc.units),
        "koniggratz_command_median_ms": median_ms(cmd_times),
        "koniggratz_command_p90_ms": round(sorted(cmd_times)[int(len(cmd_times) * 0.9)] * 1000, 3),
        "koniggratz_view_median_ms": median_ms(view_times),
        "koniggratz_random_game_median_s": round(statistics.median(game_times), 3),
        "koniggratz_random_game_max_s": round(max(game_times), 3),
        "koniggratz_commands_per_game": len(cmd_times) / games,
    }


def main() -> None:
    if "--koniggratz" in sys.argv:
        print(json.dumps({"machine": f"{platform.machine()}, {platform.python_implementation()} "
                                     f"{platform.python_version()}", **koniggratz()}, indent=1))
        return
    sc = parse_scenario(big_scenario(), "bench-40x30")
    game = Game.new(sc, "bench-seed-0123456789abcdef")
    ctx = game.context()
    movers = [u for u in sc.side_units["blue"] if not ctx.is_leader(u)]
    reach_times = []
    sizes = []
    for _ in range(5):
        for u in movers:
            ctx = game.context()
            t = time.perf_counter()
            g = build_group(ctx, "blue", [u])
            r = reachable(ctx, g)
            reach_times.append(time.perf_counter() - t)
            sizes.append(len(r))
    cmd_times = []
    for i in range(200):
        game = Game.new(sc, "bench-seed-0123456789abcdef")
        ctx = game.context()
        u = movers[i % len(movers)]
        r = reachable(ctx, build_group(ctx, "blue", [u]))
        dest = sorted(r)[i % len(r)]
        cmd = {"type": "move", "units": [u], "path": r[dest].path}
        t = time.perf_counter()
        game.submit("blue", cmd)
        cmd_times.append(time.perf_counter() - t)
    tutorial = find_scenario("tutorial")
    game_times = []
    commands = 0
    for seed in range(30):
        t = time.perf_counter()
        g = play_random_game(tutorial, seed, check=False)
        game_times.append(time.perf_counter() - t)
        commands += g.version
    out = {
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
        "reachable_one_unit_median_ms": median_ms(reach_times),
        "reachable_hexes_median": statistics.median(sizes),
        "command_validate_apply_median_ms": median_ms(cmd_times),
        "random_tutorial_game_median_s": round(statistics.median(game_times), 3),
        "random_tutorial_game_max_s": round(max(game_times), 3),
        "random_tutorial_commands_per_game": commands / len(game_times),
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
