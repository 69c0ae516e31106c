"""Issue 43: the random player finishes seeded games of mp-lindau with no invariant violation (the kernel's and
Musket & Pike's, invariants.py, after every command, and a replay reproducing each final state); a saved game resumes
identically and its record verifies with its d10s (R17.1), and a tampered d10 fails `verify_record` and `vedette
replay`."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from server.rules import Game, verify_record
from server.rules.kernel.randomplayer import RandomPlayer, simulate
from server.rules.musket_and_pike.scenario import MPScenario
from server.rules_cli import find_scenario

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def lindau() -> MPScenario:
    sc = find_scenario("mp-lindau")
    assert isinstance(sc, MPScenario)
    return sc


@pytest.fixture(scope="module")
def finished(lindau: MPScenario) -> Game:
    game = Game.new(lindau, "mp-record-seed-000000001")
    player = RandomPlayer(random.Random(3))
    while not game.is_over:
        side = game.awaiting
        assert side is not None
        game.submit(side, player.choose(game, side))
    return game


@pytest.mark.slow
def test_the_random_player_finishes_games_with_no_invariant_violation(lindau: MPScenario) -> None:
    report = simulate(lindau, 6, seed=700)
    assert report.games == 6
    assert report.violations == 0, report.examples[:5]
    assert sum(report.wins.values()) + report.draws == 6


def test_r17_1_a_record_of_d10s_verifies(finished: Game, lindau: MPScenario) -> None:
    record = finished.record()
    assert record["dice"]["faces"] == 10
    rolled = [d for c in record["commands"] for d in c["dice"]]
    assert rolled and all(0 <= d <= 9 for d in rolled) and 0 in rolled
    assert verify_record(record, lindau) == []


def test_r17_1_a_tampered_d10_fails_verification(finished: Game, lindau: MPScenario) -> None:
    record = json.loads(json.dumps(finished.record()))
    i = next(i for i, c in enumerate(record["commands"]) if c["dice"])
    record["commands"][i]["dice"][0] = (record["commands"][i]["dice"][0] + 1) % 10
    problems = verify_record(record, lindau)
    assert problems and f"command {i + 1}" in problems[0]
    record = json.loads(json.dumps(finished.record()))
    record["dice"]["faces"] = 6
    assert verify_record(record, lindau) != []


def test_r17_1_vedette_replay_fails_on_a_tampered_d10(finished: Game, tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(finished.record()))
    bad_record = json.loads(json.dumps(finished.record()))
    i = next(i for i, c in enumerate(bad_record["commands"]) if c["dice"])
    bad_record["commands"][i]["dice"][0] = (bad_record["commands"][i]["dice"][0] + 1) % 10  # still a d10 face
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_record))
    run = [sys.executable, "-m", "server.cli", "replay"]
    ok = subprocess.run([*run, str(good)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert ok.returncode == 0, ok.stderr
    assert "OK" in ok.stdout
    no = subprocess.run([*run, str(bad)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert no.returncode != 0
    assert "dice" in (no.stdout + no.stderr)


def test_a_saved_game_resumes_identically(lindau: MPScenario) -> None:
    game = Game.new(lindau, "mp-save-load-seed-0001")
    player = RandomPlayer(random.Random(7))
    commands = []
    resumed: Game | None = None
    mark = 0
    while not game.is_over:
        side = game.awaiting
        assert side is not None
        cmd = player.choose(game, side)
        commands.append((side, cmd))
        game.submit(side, cmd)
        if len(commands) == 60:
            resumed = Game.from_json(lindau, json.loads(json.dumps(game.to_json())))
            assert resumed.state.to_json() == game.state.to_json()
            assert resumed.view("imperial") == game.view("imperial")
            mark = len(commands)
    assert resumed is not None
    for side, cmd in commands[mark:]:
        resumed.submit(side, cmd)
    assert resumed.state.to_json() == game.state.to_json()
