"""Standard rules (issue 13) benchmark, run by hand; results go to docs/benchmarks.md.

On a generated 55x35 map with 280 counters (issue 13's size): the lines-of-retreat map for a side and a
unit class (7.6; target < 5 ms), one move validated (4.x, 6.2), one move command submitted through `Game`
(validated, applied, 12.1/12.2 and objective bookkeeping; target < 1 ms), and a random full game of
`standard-tutorial` (target < 1 s).
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.rules import Game, IllegalCommand, parse_scenario
from server.rules.kernel.randomplayer import play_random_game
from server.rules.kernel.state import UnitState
from server.rules.standard.movement import Move, check_move
from server.rules.standard.retreat import retreat_lines
from server.rules.standard.scenario import parse_standard_scenario

COLS, ROWS, PER_SIDE = 55, 35, 140


def big_scenario(seed: int = 13) -> dict[str, Any]:
    rng = random.Random(seed)
    hexes, secondary = {}, {}
    for c in range(1, COLS + 1):
        for r in range(1, ROWS + 1):
            h = f"{c:02d}{r:02d}"
            x = rng.random()
            if x < 0.15:
                hexes[h] = "woods"
            elif x < 0.22:
                hexes[h] = "hill"
            elif x < 0.24:
                hexes[h] = "marsh"
            if rng.random() < 0.04:
                secondary[h] = ["village"]
    roads = [{"path": [f"{c:02d}{ROWS // 2:02d}" for c in range(1, COLS + 1)]}]
    trails = [{"path": [f"{COLS // 3:02d}{r:02d}" for r in range(1, ROWS + 1)]}]
    units: list[dict[str, Any]] = []
    setup: list[dict[str, Any]] = []
    taken: set[str] = set()
    for side, cols in (("blue", range(2, 25)), ("red", range(32, 55))):
        fid = "1" if side == "blue" else "7"
        units += [{"id": f"{side}-hq", "side": side, "kind": "hq", "name": "HQ", "ma": 6},
                  {"id": f"{side}-tr", "side": side, "kind": "trains", "name": "Trains", "ma": 4}]
        edge = 1 if side == "blue" else COLS
        setup += [{"unit": f"{side}-hq", "hex": f"{edge:02d}05"}, {"unit": f"{side}-tr", "hex": f"{edge:02d}06"}]
        for i in range(PER_SIDE - 2):
            kind = rng.choice(["infantry", "infantry", "infantry", "battalion", "cavalry", "artillery"])
            u: dict[str, Any] = {"id": f"{side}-{i}", "side": side, "kind": kind, "name": f"{side} {i}", "formation": fid}
            if kind == "infantry":
                u.update(full={"cf": 5, "mr": 4, "ma": 4}, reduced={"cf": 3, "mr": 3, "ma": 4})
            elif kind == "battalion":
                u.update(full={"cf": 1, "mr": 4, "ma": 5}, ineffective={"cf": 0, "mr": 2, "ma": 5})
            elif kind == "cavalry":
                u.update(full={"cf": 3, "mr": 4, "ma": 8, "charge": 4}, ineffective={"cf": 1, "mr": 2, "ma": 10})
            else:
                u.update(full={"attack": 3, "defense": 2, "range": 4, "ma": 3},
                         ineffective={"attack": 1, "defense": 1, "range": 2, "ma": 3})
            while True:
                h = f"{rng.choice(list(cols)):02d}{rng.randint(1, ROWS):02d}"
                if hexes.get(h) != "marsh" and h not in taken:
                    break
            taken.add(h)
            units.append(u)
            setup.append({"unit": u["id"], "hex": h})
    return {
        "id": "bench-standard", "title": "Standard benchmark", "ruleset": "standard",
        "map": {"columns": COLS, "rows": ROWS, "default_terrain": "clear", "hexes": hexes, "secondary": secondary,
                "roads": roads, "trails": trails},
        "tec": {
            "terrain": {
                "clear": {"name": "Clear", "move": {"infantry": 1, "cavalry": 1, "artillery": 1}, "clear": True},
                "woods": {"name": "Woods", "move": {"infantry": 2, "cavalry": 3, "artillery": 3}, "no_march": True},
                "hill": {"name": "Hill", "move": {"infantry": 2, "cavalry": 2, "artillery": 3}, "hill": True},
                "marsh": {"name": "Marsh", "move": {"infantry": 3}, "prohibited": ["cavalry", "artillery"]},
            },
            "secondary": {"village": {"name": "Village", "move_add": {"cavalry": 1, "artillery": 1}}},
        },
        "sides": {
            "blue": {"name": "Blue", "color": "#2040a0", "edge": "west", "loc": ["0101", "0135"]},
            "red": {"name": "Red", "color": "#a02020", "edge": "east", "loc": [f"{COLS:02d}01", f"{COLS:02d}35"]},
        },
        "formations": {"1": {"side": "blue", "name": "I"}, "7": {"side": "red", "name": "VII"}},
        "units": units, "setup": setup, "turns": 2,
        "trt": [{"light": "day"}, {"light": "night"}], "first_player": "blue",
        "victory": {"description": "bench"},
    }


def timed(fn: Any, n: int) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


SEED = "bench-standard-seed-0000000"


def submit_moves(sc: Any, legal: list[dict[str, Any]]) -> list[float]:
    """Submit each move whose units have not moved yet on a fresh game; the seconds each accepted one took."""
    game = Game.new(sc, SEED)
    took = []
    for cmd in legal:
        if any(game.state.units[u].moved for u in cmd["units"]):
            continue
        t0 = time.perf_counter()
        try:
            game.submit("blue", cmd)
        except IllegalCommand:
            continue
        took.append(time.perf_counter() - t0)
    return took


def main() -> None:
    sc = parse_standard_scenario(big_scenario(), "bench")
    units = {p.unit: UnitState(p.unit, p.hex) for p in sc.setup}
    out: dict[str, Any] = {"python": platform.python_version(), "map": f"{COLS}x{ROWS}", "counters": len(units)}
    for cls in ("infantry", "cavalry", "artillery"):
        out[f"slr_map_ms_{cls}"] = round(timed(lambda c=cls: retreat_lines(sc, units, "blue", "blue", c), 50), 3)
    rng = random.Random(1)
    movers = [u for u in units if u.startswith("blue-") and sc.units[u].kind.is_combat]
    moves = []
    for uid in movers:
        h = units[uid].hex
        assert h is not None
        path = [h]
        for _ in range(3):
            path.append(rng.choice(sc.grid.neighbors(path[-1])))
        moves.append(Move((uid,), tuple(dict.fromkeys(path)), 6))

    def validate_all() -> None:
        for m in moves:
            try:
                check_move(sc, units, m)
            except IllegalCommand:
                pass

    out["move_check_ms"] = round(timed(validate_all, 5) / len(moves), 4)

    # Every blue stack's move, in turn, over fresh games on the same scenario object, as a server keeps it:
    # the first pass also fills the scenario's memos (terrain costs, lines found); the next five are the
    # steady state (their median over all moves: this VM's speed wanders by up to 2x from run to run).
    legal = [c for c in Game.new(sc, SEED).legal_commands("blue", random.Random(2), limit=400) if c["type"] == "move"]
    first = submit_moves(sc, legal)
    steady = [t for _ in range(5) for t in submit_moves(sc, legal)]
    out["submit_move_ms_median_first_pass"] = round(statistics.median(first) * 1000, 3)
    out["submit_move_ms_median"] = round(statistics.median(steady) * 1000, 3)
    out["submit_moves_timed"] = len(steady)

    tutorial = parse_scenario(json.loads((ROOT / "scenarios" / "standard" / "standard-tutorial.json").read_text()), "t")
    games = []
    for seed in range(10):
        t0 = time.perf_counter()
        play_random_game(tutorial, seed, check=False)
        games.append(time.perf_counter() - t0)
    out["random_tutorial_game_s_median"] = round(statistics.median(games), 3)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
