"""Micro-benchmark for server/rules/hexes.py; run by hand, not a test.

    .venv/bin/python bench/bench_hexes.py

The movement engine's budget is a reachable-hex search on a 40x30 map in
under 2 ms median, so the grid tables it leans on are timed here in isolation.
"""

from __future__ import annotations

import heapq
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.rules.kernel.hexes import HexGrid
from server.rules.kernel.los import line_of_sight


def median_us(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1e6


def reachable(grid: HexGrid, start: str, budget: int, cost: dict[str, int]) -> dict[str, int]:
    # Shaped like the engine's Dijkstra: neighbour lookups dominate.
    best = {start: 0}
    frontier = [(0, start)]
    while frontier:
        spent, h = heapq.heappop(frontier)
        if spent > best[h]:
            continue
        for n in grid.neighbors(h):
            c = spent + cost[n]
            if c <= budget and c < best.get(n, budget + 1):
                best[n] = c
                heapq.heappush(frontier, (c, n))
    return best


def main() -> None:
    rng = random.Random(8_2)
    print(f"HexGrid(40, 30) build      {median_us(lambda: HexGrid(40, 30), 50):10.1f} us")
    print(f"HexGrid(99, 99) build      {median_us(lambda: HexGrid(99, 99), 10):10.1f} us")

    grid = HexGrid(40, 30)
    ids = grid.all_hexes()
    pairs = [(rng.choice(ids), rng.choice(ids)) for _ in range(10_000)]

    def distances() -> None:
        for a, b in pairs:
            grid.distance(a, b)

    per = median_us(distances, 20) / len(pairs)
    print(f"distance                   {per * 1000:10.1f} ns")

    def neighbours() -> None:
        for a, _ in pairs:
            grid.neighbors(a)

    per = median_us(neighbours, 20) / len(pairs)
    print(f"neighbors                  {per * 1000:10.1f} ns")

    cost = {h: rng.choice((1, 1, 1, 2, 3)) for h in ids}
    starts = [rng.choice(ids) for _ in range(200)]
    times = []
    for s in starts:
        t0 = time.perf_counter()
        reachable(grid, s, 8, cost)
        times.append(time.perf_counter() - t0)
    print(f"reachable (8 MP) median    {statistics.median(times) * 1e6:10.1f} us")

    print(f"within(radius 6)           {median_us(lambda: grid.within('2015', 6), 200):10.1f} us")

    blocking = {h for h in ids if rng.random() < 0.15}
    los_pairs = pairs[:2000]

    def los() -> None:
        for a, b in los_pairs:
            line_of_sight(grid, a, b, blocking.__contains__, lambda x, y: False)

    per = median_us(los, 5) / len(los_pairs)
    print(f"line_of_sight (random)     {per:10.1f} us")


if __name__ == "__main__":
    main()
