"""Bot against bot (`vedette arena`): alternating sides, every game checked by the invariant checker."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.rules import Game, IllegalCommand, Scenario
from server.rules.kernel.invariants import check_invariants

from . import Bot, belief_game, make_bot

NO_CLOCK = 3600.0  # seconds: a budget no decision reaches, so choices never depend on the machine's load


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k/n ((0, 1) when n is 0)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class ArenaReport:
    scenario: str
    a: str
    b: str
    seed: int
    iterations: int | None = None
    ruleset: str | None = None  # the edition played (None: the scenario's own)
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    by_side: dict[str, dict[str, int]] = field(default_factory=dict)  # a's side -> {"a", "b", "draw"}
    violations: int = 0
    illegal: int = 0
    examples: list[str] = field(default_factory=list)
    commands: int = 0
    seconds: float = 0.0
    times: dict[str, list[float]] = field(default_factory=dict)  # level label -> seconds per decision

    def to_json(self) -> dict[str, Any]:
        decisive = self.a_wins + self.b_wins
        lo, hi = wilson(self.a_wins, decisive)
        dec: dict[str, Any] = {}
        for label, ts in sorted(self.times.items()):
            if ts:
                dec[label] = {"decisions": len(ts), "median_ms": round(statistics.median(ts) * 1000, 2),
                              "max_ms": round(max(ts) * 1000, 1), "mean_ms": round(sum(ts) / len(ts) * 1000, 2)}
        return {
            "scenario": self.scenario, "ruleset": self.ruleset, "a": self.a, "b": self.b, "seed": self.seed, "iterations": self.iterations,
            "games": self.games,
            "a_wins": self.a_wins, "b_wins": self.b_wins, "draws": self.draws,
            "a_share_of_decisive": round(self.a_wins / decisive, 4) if decisive else None,
            "a_share_ci95": [round(lo, 4), round(hi, 4)],
            "by_side": self.by_side, "violations": self.violations, "illegal_commands": self.illegal,
            "violation_examples": self.examples[:10], "commands": self.commands, "seconds": round(self.seconds, 1),
            "decision_time": dec,
        }


def play_game(scenario: Scenario, bots: dict[str, Bot], labels: dict[str, str], game_seed: str,
              rngs: dict[str, random.Random], budget_s: float, report: ArenaReport,
              max_commands: int = 20000, ruleset: str | None = None) -> Game:
    """One game (under `ruleset`, one the scenario declares; None: its own); each side's bot sees only its belief
    game. Invariants checked after every command."""
    game = Game.new(scenario, game_seed, ruleset)
    n = 0
    while not game.is_over:
        side = game.awaiting
        assert side is not None
        t0 = time.perf_counter()
        cmd = bots[side].choose(belief_game(game, side, rngs[side]), side, rngs[side], budget_s)
        report.times.setdefault(labels[side], []).append(time.perf_counter() - t0)
        before = (game.state.turn, game.state.phase, game.state.active)
        try:
            events = game.submit(side, cmd)
        except IllegalCommand as e:
            report.illegal += 1
            report.examples.append(f"{game_seed} command {n + 1}: {labels[side]} sent an illegal {cmd}: {e}")
            fallback = make_bot("random")
            cmd = fallback.choose(belief_game(game, side, rngs[side]), side, rngs[side], budget_s)
            events = game.submit(side, cmd)
        n += 1
        for p in check_invariants(game, events, before):
            report.violations += 1
            report.examples.append(f"{game_seed} command {n} {cmd}: {p}")
        if n >= max_commands:
            report.violations += 1
            report.examples.append(f"{game_seed}: no result after {max_commands} commands")
            break
    report.commands += n
    if game.is_over and game.replay_to(game.version).state.to_json() != game.state.to_json():
        report.violations += 1
        report.examples.append(f"{game_seed}: replaying the log does not reproduce the final state")
    return game


def arena(scenario: Scenario, a: str, b: str, games: int, seed: int = 1, budget_s: float = 1.0,
          progress: Callable[[int, ArenaReport], None] | None = None, iterations: int | None = None,
          ruleset: str | None = None) -> ArenaReport:
    """`games` games of level `a` against level `b`, `a` taking the first side in even games, under `ruleset` (one
    the scenario declares; None: its own). `iterations`: the search level's budget in nodes per decision instead of
    the clock (reproducible)."""
    report = ArenaReport(scenario.id, a, b, seed, iterations=iterations, ruleset=ruleset or scenario.ruleset)
    first, second = scenario.side_order
    for s in scenario.side_order:
        report.by_side[s] = {"a": 0, "b": 0, "draw": 0}
    bot_a, bot_b = make_bot(a, iterations), make_bot(b, iterations)
    label_a, label_b = (a, b) if a != b else (f"{a} (a)", f"{b} (b)")
    start = time.perf_counter()
    for i in range(games):
        a_side, b_side = (first, second) if i % 2 == 0 else (second, first)
        bots = {a_side: bot_a, b_side: bot_b}
        labels = {a_side: label_a, b_side: label_b}
        rngs = {s: random.Random(f"arena:{seed}:{i}:{s}") for s in scenario.side_order}
        # with a node budget nobody reads the clock: greedy runs to completion, search counts nodes
        budget = NO_CLOCK if iterations is not None else budget_s
        game = play_game(scenario, bots, labels, f"arena-game-seed-{seed}-{i:08d}", rngs, budget, report,
                         ruleset=ruleset)
        winner = (game.result or {}).get("winner")
        report.games += 1
        if winner is None:
            report.draws += 1
            report.by_side[a_side]["draw"] += 1
        elif winner == a_side:
            report.a_wins += 1
            report.by_side[a_side]["a"] += 1
        else:
            report.b_wins += 1
            report.by_side[a_side]["b"] += 1
        report.seconds = time.perf_counter() - start
        if progress is not None:
            progress(i, report)
    return report
