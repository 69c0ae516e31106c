"""Dice and determinism (R11): seeded dice, replay, the game record and its verification, the secret seed."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from server.rules import Game, seed_hash, verify_record
from server.rules.kernel.dice import LoadedDice, SeededDice, die_from_seed

SEED = "determinism-seed-5f0c2a9e1b7d4c38"


def play(scenario, seed: str, plies: int, rng_seed: int = 1) -> Game:
    """Play `plies` legal commands chosen by a fixed RNG (ending phases now and then)."""
    game = Game.new(scenario, seed)
    rng = random.Random(rng_seed)
    for _ in range(plies):
        if game.is_over:
            break
        side = game.awaiting
        assert side is not None
        cmds = list(game.legal_commands(side, random.Random(rng.random())))
        if game.state.decision is None and rng.random() < 0.25:
            cmd = {"type": "end_phase"}
        else:
            cmd = rng.choice(cmds)
        game.submit(side, cmd)
    return game


def replay(scenario, seed: str, log: list[dict]) -> Game:
    game = Game.new(scenario, seed)
    for entry in log:
        game.submit(entry["side"], entry["command"])
    return game


def test_r11_the_same_seed_and_commands_give_the_same_state(tutorial) -> None:
    a = play(tutorial, SEED, 150)
    assert a.state.dice_count > 0, "the sample game should roll some dice"
    b = replay(tutorial, SEED, a.log)
    assert b.to_json() == a.to_json()
    assert b.log == a.log


def test_r11_a_different_seed_gives_different_dice() -> None:
    assert [die_from_seed("seed-one-0123456789", i) for i in range(40)] != \
           [die_from_seed("seed-two-0123456789", i) for i in range(40)]


def test_r11_dice_depend_only_on_seed_and_index() -> None:
    d = SeededDice("some-seed-0123456789")
    rolls = [d.roll() for _ in range(30)]
    assert rolls == [die_from_seed("some-seed-0123456789", i) for i in range(30)]
    resumed = SeededDice("some-seed-0123456789", count=10)
    assert [resumed.roll() for _ in range(20)] == rolls[10:]


def test_r11_die_from_seed_is_uniform_over_one_to_six() -> None:
    n = 60000
    counts = Counter(die_from_seed("chi-square-fixed-seed-2024", i) for i in range(n))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    expected = n / 6
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert chi2 < 20.515, counts  # 5 degrees of freedom, p = 0.001


def test_r11_loaded_dice_only_show_one_to_six() -> None:
    with pytest.raises(ValueError):
        LoadedDice([0])
    with pytest.raises(ValueError):
        LoadedDice([7])


def test_r11_a_seed_must_be_a_long_secret() -> None:
    with pytest.raises(ValueError):
        Game.new(None, "short")  # type: ignore[arg-type]


def finished(tutorial, plies: int = 120) -> Game:
    game = play(tutorial, SEED, plies)
    if not game.is_over:
        game.submit("red", {"type": "resign"})
    return game


def test_r11_record_and_verify_round_trip(tutorial) -> None:
    game = finished(tutorial)
    rec = game.record()
    assert rec["seed"] == SEED and rec["seed_hash"] == seed_hash(SEED)
    assert verify_record(json.loads(json.dumps(rec)), tutorial) == []


def test_r11_a_tampered_die_is_detected(tutorial) -> None:
    rec = finished(tutorial).record()
    bad = copy.deepcopy(rec)
    i = next(i for i, e in enumerate(bad["commands"]) if e["dice"])
    bad["commands"][i]["dice"][0] = bad["commands"][i]["dice"][0] % 6 + 1
    problems = verify_record(bad, tutorial)
    assert problems and f"command {i + 1}" in problems[0]


def test_r11_a_tampered_seed_is_detected(tutorial) -> None:
    rec = finished(tutorial).record()
    bad = dict(rec, seed="another-seed-entirely-0123456789")
    assert any("seed hash" in p for p in verify_record(bad, tutorial))


def test_r11_a_tampered_result_is_detected(tutorial) -> None:
    rec = finished(tutorial).record()
    bad = copy.deepcopy(rec)
    bad["result"]["winner"] = "blue" if rec["result"]["winner"] != "blue" else "red"
    assert verify_record(bad, tutorial) != []


def test_r11_an_unfinished_record_cannot_be_verified_and_has_no_seed(tutorial) -> None:
    game = play(tutorial, SEED, 30)
    assert not game.is_over
    rec = game.record()
    assert "seed" not in rec and SEED not in json.dumps(rec)
    assert verify_record(rec, tutorial) != []


def test_r11_the_seed_is_never_in_a_seats_or_spectators_view_until_the_game_is_over(tutorial) -> None:
    game = play(tutorial, SEED, 60)
    assert not game.is_over
    for viewer in ("blue", "red", "spectator"):
        v = json.dumps(game.view(viewer))
        assert SEED not in v
        assert game.view(viewer)["seed_hash"] == seed_hash(SEED)
    game.submit("blue", {"type": "resign"})
    for viewer in ("blue", "red", "spectator"):
        assert game.view(viewer)["seed"] == SEED
