"""19.8 A: the opponent may not examine the markers or the units in a box until revealed. Random games of a small
scenario with hidden movement (hidden_ground.py): nothing the opponent or a spectator may read (views, events,
undo, the scenario file) names a boxed unit or tells the real marker from the dummy."""

from __future__ import annotations

import json
import random
from typing import Any

from server.rules import Game, filter_events, parse_scenario, scenario_json_for
from server.rules.kernel.state import STATUS_HIDDEN

from .hidden_ground import BOXED, hidden_data
from .leakcheck import markers_alike, random_play

GAMES = 100
COMMANDS = 70
READERS = ("red", "spectator")


def _secret(game: Game) -> set[str]:
    return {u for u in BOXED if game.state.units[u].status == STATUS_HIDDEN}


def _leaks(game: Game, what: Any, secret: set[str]) -> list[str]:
    text = json.dumps(what)
    out = [f"names {u}" for u in secret if u in text]
    if '"real"' in text:
        out.append("carries a real flag")
    return out


def play_and_check(seed: int, real_a: int, real_b: int) -> list[str]:
    game = Game.new(parse_scenario(hidden_data(real_a, real_b), "hm"), f"hidden-leak-seed-{seed:08d}")
    rng = random.Random(seed)
    problems: list[str] = []
    for reader in READERS:
        problems += _leaks(game, scenario_json_for(game.scenario, reader), _secret(game))
    for _side, _cmd, events in random_play(game, rng, COMMANDS):
        secret = _secret(game)
        if game.is_over:  # everybody may know everything now
            break
        for reader in READERS:
            view = game.view(reader)
            problems += [f"{reader} view: {p}" for p in _leaks(game, view, secret) + markers_alike(view)]
            problems += [f"{reader} event: {p}" for p in _leaks(game, filter_events(events, reader), secret)]
    return problems


def test_19_8_A_a_hundred_random_games_leak_nothing() -> None:
    problems: list[str] = []
    for seed in range(GAMES):
        problems += play_and_check(seed, 1 + seed % 2, 2 - seed % 2)
    assert problems == []
