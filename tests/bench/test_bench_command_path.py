"""bench/bench_command_path.py: two runs play the same commands with the same events (what `--callgrind`
relies on to compare two commits' instruction counts; its `played_sha256` shows it), and the run without
commands that `--callgrind` subtracts works. The bench's players roll no dice today (they end every phase);
`--same-dice` keeps the runs equal if that changes."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> Any:
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("bench_command_path", ROOT / "bench" / "bench_command_path.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(bench: Any, commands: int) -> dict[str, Any]:
    args = argparse.Namespace(db="sqlite", scenario="tutorial", commands=commands, profile=None, same_dice=True)
    result: dict[str, Any] = asyncio.run(bench.run(args))
    return result


def test_two_runs_play_the_same_commands_and_the_empty_run_works() -> None:
    bench = _bench()
    first, second = _run(bench, 40), _run(bench, 40)
    assert first["commands"] > 30
    assert first["played_sha256"] == second["played_sha256"]
    assert first["commands"] == second["commands"] and first["games"] == second["games"]
    shorter = _run(bench, 20)
    assert shorter["played_sha256"] != first["played_sha256"]  # the digest covers what was played
    assert _run(bench, 0)["commands"] == 0
