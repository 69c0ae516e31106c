"""Issue 42: the random player finishes seeded games of hm-hochdorf with no invariant violation (the kernel's and
Horse and Musket's, invariants.py, after every command, and a replay of each finished game reproducing its state);
a saved game resumes identically and its record verifies. Its seeded random games are pinned with every shipped
scenario's in tests/rules/kernel/test_known_answers.py (R11)."""

from __future__ import annotations

import json
import os
import random

import pytest

from server.rules import Game, verify_record
from server.rules.horse_and_musket.scenario import HMScenario
from server.rules.kernel.randomplayer import RandomPlayer, simulate
from server.rules_cli import find_scenario


@pytest.fixture(scope="module")
def hochdorf() -> HMScenario:
    sc = find_scenario("hm-hochdorf")
    assert isinstance(sc, HMScenario)
    return sc


# `make test` plays 60 (its 20-minute budget); issue 42's 200 are `vedette simulate --scenario hm-hochdorf --games 200`
# (docs/scenarios.md), or this test with SIM_GAMES=200.
SIM_GAMES = int(os.environ.get("SIM_GAMES", "60"))


@pytest.mark.slow
def test_the_random_player_finishes_seeded_games_with_no_invariant_violation(hochdorf: HMScenario) -> None:
    report = simulate(hochdorf, SIM_GAMES, seed=1)
    assert report.games == SIM_GAMES
    assert report.violations == 0, report.examples[:5]


def test_a_few_random_games_finish_cleanly(hochdorf: HMScenario) -> None:
    report = simulate(hochdorf, 4, seed=500)
    assert report.violations == 0, report.examples[:5]
    assert sum(report.wins.values()) + report.draws == 4


def test_a_saved_game_resumes_identically_and_its_record_verifies(hochdorf: HMScenario) -> None:
    game = Game.new(hochdorf, "hm-save-load-seed-0001")
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
            resumed = Game.from_json(hochdorf, json.loads(json.dumps(game.to_json())))
            assert resumed.state.to_json() == game.state.to_json()
            assert resumed.view("prussian") == game.view("prussian")
            mark = len(commands)
    assert resumed is not None
    for side, cmd in commands[mark:]:
        resumed.submit(side, cmd)
    assert resumed.state.to_json() == game.state.to_json()
    assert verify_record(game.record(), hochdorf) == []
    tampered = game.record()
    tampered["commands"] = [dict(c, dice=[7 - d for d in c["dice"]]) if c["dice"] else c
                            for c in tampered["commands"]]
    assert verify_record(tampered, hochdorf) != []
