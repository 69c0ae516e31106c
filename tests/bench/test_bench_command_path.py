"""bench/bench_command_path.py: two runs play the same commands with the same events (what `--callgrind`
relies on to compare two commits' instruction counts; its `played_sha256` shows it), and the run without
commands that `--callgrind` subtracts works. The bench's players roll no dice today (they end every phase);
`--same-dice` keeps the runs equal if that changes."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from bench_module import load_bench


def _run(bench: Any, commands: int) -> dict[str, Any]:
    args = argparse.Namespace(db="sqlite", scenario="tutorial", commands=commands, profile=None, same_dice=True)
    result: dict[str, Any] = asyncio.run(bench.run(args))
    return result


def test_two_runs_play_the_same_commands_and_the_empty_run_works() -> None:
    bench = load_bench("bench_command_path")
    first, second = _run(bench, 40), _run(bench, 40)
    assert first["commands"] > 30
    assert first["played_sha256"] == second["played_sha256"]
    assert first["commands"] == second["commands"] and first["games"] == second["games"]
    shorter = _run(bench, 20)
    assert shorter["played_sha256"] != first["played_sha256"]  # the digest covers what was played
    assert _run(bench, 0)["commands"] == 0
