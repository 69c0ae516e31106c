"""19.8 A: the opponent may not examine the markers or the units in a box until revealed. Random games of a small
scenario with hidden movement (hidden_ground.py): nothing the opponent or a spectator may read (views, events,
undo, the scenario file) names a boxed unit or tells the real marker from the dummy."""

from __future__ import annotations

import json
import random
from typing import Any

from server.rules import Game, IllegalCommand, filter_events, parse_scenario, scenario_json_for
from server.rules.kernel.randomplayer import RandomPlayer
from server.rules.kernel.state import STATUS_HIDDEN

from .hidden_ground import BOXED, hidden_data

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


def _markers_alike(view: dict[str, Any]) -> list[str]:
    by_box: dict[str, list[dict[str, Any]]] = {}
    for m in view.get("hidden", {}).get("markers", []):
        by_box.setdefault(m["box"], []).append({k: v for k, v in m.items() if k not in ("id", "hex", "moved")})
    return [f"box {b}'s markers differ" for b, ms in by_box.items() if any(m != ms[0] for m in ms)]


def play_and_check(seed: int, real_a: int, real_b: int) -> list[str]:
    game = Game.new(parse_scenario(hidden_data(real_a, real_b), "hm"), f"hidden-leak-seed-{seed:08d}")
    rng = random.Random(seed)
    player = RandomPlayer(rng)
    problems: list[str] = []
    for reader in READERS:
        problems += _leaks(game, scenario_json_for(game.scenario, reader), _secret(game))
    for _ in range(COMMANDS):
        if game.is_over:
            break
        side = game.awaiting
        assert side is not None
        cmd = player.choose(game, side)
        if rng.random() < 0.1 and game.can_undo(side):
            cmd = {"type": "undo"}
        try:
            events = game.submit(side, cmd)
        except IllegalCommand as e:
            raise AssertionError(f"the random player's {cmd} was refused: {e}") from e
        secret = _secret(game)
        if game.is_over:  # everybody may know everything now
            break
        for reader in READERS:
            view = game.view(reader)
            problems += [f"{reader} view: {p}" for p in _leaks(game, view, secret) + _markers_alike(view)]
            problems += [f"{reader} event: {p}" for p in _leaks(game, filter_events(events, reader), secret)]
    return problems


def test_19_8_A_a_hundred_random_games_leak_nothing() -> None:
    problems: list[str] = []
    for seed in range(GAMES):
        problems += play_and_check(seed, 1 + seed % 2, 2 - seed % 2)
    assert problems == []
