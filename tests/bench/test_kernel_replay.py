"""bench/bench_kernel_replay.py: the recorded commands replay as they were played, and the replay runs them all."""

from __future__ import annotations

import gc

from bench_module import load_bench


def test_the_recorded_commands_replay_to_the_same_games() -> None:
    from server.rules.kernel.game import Game
    from server.rules_cli import find_scenario

    bench = load_bench("bench_kernel_replay")
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
