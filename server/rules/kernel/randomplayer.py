"""A random legal player and the simulator behind `vedette simulate`."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from .game import Game
from .invariants import check_invariants
from .scenario import Scenario

END_PHASE_BIAS = 0.15  # chance of ending a phase while other commands remain: keeps random games moving


class RandomPlayer:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game, side: str) -> dict[str, Any]:
        """Pick a family of legal commands at random, then one command of it; end the phase now and then."""
        families = game.ruleset.command_families(game, side, self.rng)
        can_end = game.state.decision is None and game.ruleset.can_end_phase(game, side)
        while families:
            if can_end and self.rng.random() < END_PHASE_BIAS:
                break
            i = self.rng.randrange(len(families))
            cmds = families[i]()
            if cmds:
                return self.rng.choice(cmds)
            families.pop(i)
        if not can_end:
            raise AssertionError(f"no legal answer for {side}'s pending {game.state.decision}")
        return {"type": "end_phase"}


@dataclass
class SimulationReport:
    games: int = 0
    commands: int = 0
    seconds: float = 0.0
    violations: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    turns_total: int = 0
    examples: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games, "commands": self.commands, "seconds": round(self.seconds, 3),
            "violations": self.violations, "wins": self.wins, "draws": self.draws,
            "average_turns": round(self.turns_total / self.games, 2) if self.games else 0,
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else 0,
            "commands_per_second": round(self.commands / self.seconds, 1) if self.seconds else 0,
            "violation_examples": self.examples[:10],
        }


def play_random_game(scenario: Scenario, seed: int, check: bool = True, max_commands: int = 20000,
                     report: SimulationReport | None = None, options: dict[str, Any] | None = None,
                     ruleset: str | None = None) -> Game:
    """One game of random legal commands (`options`: the game's options, e.g. Standard's free set-up; `ruleset`: an
    edition the scenario declares besides its own, None for its own)."""
    rng = random.Random(seed)
    game = Game.new(scenario, f"simulated-game-seed-{seed:016d}", ruleset=ruleset, options=options)
    player = RandomPlayer(rng)
    n = 0
    while not game.is_over:
        side = game.awaiting
        assert side is not None
        cmd = player.choose(game, side)
        before = (game.state.turn, game.state.phase, game.state.active)
        events = game.submit(side, cmd)
        n += 1
        if check and report is not None:
            for p in check_invariants(game, events, before):
                report.violations += 1
                report.examples.append(f"game {seed} command {n} {cmd}: {p}")
        if n >= max_commands:
            if report is not None:
                report.violations += 1
                report.examples.append(f"game {seed}: no result after {max_commands} commands")
            break
    if report is not None:
        report.commands += n
    if check and report is not None and game.is_over:
        replayed = game.replay_to(game.version)
        if replayed.state.to_json() != game.state.to_json():
            report.violations += 1
            report.examples.append(f"game {seed}: replaying the log does not reproduce the final state")
    return game


def simulate(scenario: Scenario, games: int, seed: int, check: bool = True, ruleset: str | None = None) -> SimulationReport:
    report = SimulationReport(wins={s: 0 for s in scenario.side_order})
    start = time.perf_counter()
    for i in range(games):
        game = play_random_game(scenario, seed + i, check, report=report, ruleset=ruleset)
        report.games += 1
        report.turns_total += game.state.turn
        winner = (game.result or {}).get("winner")
        if winner is None:
            report.draws += 1
        else:
            report.wins[winner] += 1
    report.seconds = time.perf_counter() - start
    return report
