"""bench/bench_kernel_replay.py: the recorded commands replay as they were played, and the replay runs them all."""

from __future__ import annotations

import gc
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_kernel_replay", ROOT / "bench" / "bench_kernel_replay.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_recorded_commands_replay_to_the_same_games() -> None:
    from server.rules.kernel.game import Game
    from server.rules_cli import find_scenario

    bench = _bench()
    games = bench.record("tutorial", 60)
    assert sum(len(played) for _, played in games) == 60
    assert games == bench.record("tutorial", 60)  # seeded: the same commands every time
    scenario = find_scenario("tutorial")
    for name, played in games:
        game = Game.new(scenario, name)
        for side, command in played:
            game.submit(side, command)  # each one legal where it was recorded
    thresholds = gc.get_threshold()
    try:
        assert bench.replay("tutorial", games, 60) > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
