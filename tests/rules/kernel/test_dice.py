"""Dice and determinism (R11): seeded dice, replay, the game record and its verification, the secret seed."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from server.rules import Game, IllegalCommand, seed_hash, verify_record
from server.rules.kernel.dice import (
    LEGACY_SCHEME,
    SCHEME,
    LoadedDice,
    SeededDice,
    check_contribution,
    dice_key,
    die_from_key,
    die_from_seed,
)

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
        if game.state.decision is None and rng.random() < 0.25 and {"type": "end_phase"} in cmds:
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


def test_r11_dice_depend_only_on_seed_contributions_and_index() -> None:
    c = {"blue": "ab" * 32, "red": "cd" * 32}
    d = SeededDice(dice_key("some-seed-0123456789", c))
    rolls = [d.roll() for _ in range(30)]
    assert rolls == [die_from_seed("some-seed-0123456789", i, c) for i in range(30)]
    resumed = SeededDice(dice_key("some-seed-0123456789", c), count=10)
    assert [resumed.roll() for _ in range(20)] == rolls[10:]


# --- the published derivation (docs/dice.md): known answers, also checked by the browser's fairness.js ---------
KNOWN_SEED = "known-answer-seed-0123456789"
KNOWN_CONTRIBUTIONS = {"blue": "11" * 32, "red": ""}
KNOWN_KEY = "aac852797bf323d1884ad407d93ab095afaf88149a9b25adebd23662cd0a052b"
KNOWN_DICE = [2, 4, 1, 5, 5, 2, 4, 2, 4, 6, 5, 2, 4, 2, 3, 3, 1, 2, 2, 6]
KNOWN_LEGACY_DICE = [5, 1, 5, 4, 2, 1, 4, 3, 2, 4, 1, 5, 5, 3, 1, 4, 3, 3, 6, 3]


def test_r11_the_dice_derivation_gives_the_published_known_answers() -> None:
    import hashlib
    import hmac

    # the derivation written out from docs/dice.md, independently of server.rules.kernel.dice
    message = "vedette-dice-2\nblue=" + "11" * 32 + "\nred=\n"
    key = hmac.new(KNOWN_SEED.encode(), message.encode(), hashlib.sha256).digest()
    assert key.hex() == KNOWN_KEY == dice_key(KNOWN_SEED, KNOWN_CONTRIBUTIONS).hex()

    def die(n: int) -> int:
        k = 0
        while True:
            for b in hmac.new(key, f"{n}:{k}".encode(), hashlib.sha256).digest():
                if b < 252:
                    return b % 6 + 1
            k += 1

    assert [die(n) for n in range(20)] == KNOWN_DICE
    assert [die_from_seed(KNOWN_SEED, n, KNOWN_CONTRIBUTIONS) for n in range(20)] == KNOWN_DICE
    # games created before the contributions keep their dice (the seed itself is the key)
    assert [die_from_seed(KNOWN_SEED, n, scheme=LEGACY_SCHEME) for n in range(20)] == KNOWN_LEGACY_DICE


def test_r11_each_contribution_changes_the_dice() -> None:
    base = [die_from_seed(KNOWN_SEED, n, KNOWN_CONTRIBUTIONS) for n in range(40)]
    for other in ({"blue": "12" + "11" * 31, "red": ""}, {"blue": "11" * 32, "red": "00" * 32}):
        assert [die_from_seed(KNOWN_SEED, n, other) for n in range(40)] != base


def test_r11_rejection_sampling_leaves_no_modulo_bias() -> None:
    # every byte value below 252 maps to exactly 42 values per face; 252..255 are thrown away
    faces = Counter(b % 6 + 1 for b in range(252))
    assert set(faces.values()) == {42}
    key = b"\x00" * 32
    assert all(1 <= die_from_key(key, n) <= 6 for n in range(200))


def test_r11_a_contribution_is_64_hex_digits_or_nothing() -> None:
    assert check_contribution(None) == "" and check_contribution("") == ""
    assert check_contribution("0f" * 32) == "0f" * 32
    for bad in ("0F" * 32, "0f" * 31, "zz" * 32, 5, "0f" * 33):
        with pytest.raises(ValueError):
            check_contribution(bad)


def test_r11_no_die_and_no_command_before_both_contributions(tutorial) -> None:
    game = Game.new(tutorial, SEED, contributions={})
    assert not game.dice_ready and game.view("blue")["dice"]["ready"] is False
    with pytest.raises(IllegalCommand) as err:
        game.submit("blue", {"type": "end_phase"})
    assert err.value.rule == "R11"
    with pytest.raises(RuntimeError):
        SeededDice(None).roll()
    game.contribute("blue", "aa" * 32)
    with pytest.raises(ValueError):
        game.contribute("blue", "bb" * 32)  # once
    game.contribute("red", "")
    assert game.dice_ready and game.view("red")["dice"]["contributed"] == {"blue": True, "red": False}
    played = play_on(game, 80)
    assert played.state.dice_count > 0
    with pytest.raises(ValueError):
        played.contribute("red", "cc" * 32)  # contributions come before the first command
    # the snapshot keeps them: a reloaded game rolls the same dice
    again = Game.from_json(tutorial, played.to_json())
    assert again.contributions == {"blue": "aa" * 32, "red": ""} and again.dice_scheme == SCHEME


def play_on(game: Game, plies: int, rng_seed: int = 1) -> Game:
    rng = random.Random(rng_seed)
    for _ in range(plies):
        if game.is_over:
            break
        side = game.awaiting
        assert side is not None
        cmds = list(game.legal_commands(side, random.Random(rng.random())))
        end = {"type": "end_phase"}
        cmd = end if game.state.decision is None and rng.random() < 0.25 and end in cmds else rng.choice(cmds)
        game.submit(side, cmd)
    return game


def test_r11_the_record_carries_the_contributions_and_verify_recomputes_every_die(tutorial) -> None:
    game = play_on(Game.new(tutorial, SEED, contributions={"blue": "aa" * 32, "red": "bb" * 32}), 120)
    if not game.is_over:
        game.submit("red", {"type": "resign"})
    rec = json.loads(json.dumps(game.record()))
    assert rec["dice"] == {"scheme": SCHEME, "contributions": {"blue": "aa" * 32, "red": "bb" * 32}}
    assert verify_record(rec, tutorial) == []
    swapped = copy.deepcopy(rec)
    swapped["dice"]["contributions"]["red"] = "bc" * 32
    problems = verify_record(swapped, tutorial)
    assert problems and "the seed gives" in problems[0]
    dropped = copy.deepcopy(rec)
    del dropped["dice"]["contributions"]["red"]
    assert verify_record(dropped, tutorial) == ["the record does not carry both seats' dice contributions"]


def test_r11_a_game_saved_before_the_contributions_keeps_its_dice(tutorial) -> None:
    game = play(tutorial, SEED, 60)
    old = game.to_json()
    old.pop("dice")  # what a snapshot saved before the contributions looks like
    loaded = Game.from_json(tutorial, old)
    assert loaded.dice_scheme == LEGACY_SCHEME and loaded.dice_ready
    side = loaded.awaiting
    loaded.submit(side, {"type": "resign"})
    rec = loaded.record()
    assert rec["dice"]["scheme"] == LEGACY_SCHEME


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


def test_r11_a_record_of_the_old_scheme_still_verifies(tutorial) -> None:
    game = play_on(Game.new(tutorial, SEED, dice_scheme=LEGACY_SCHEME), 100)
    if not game.is_over:
        game.submit("blue", {"type": "resign"})
    rec = json.loads(json.dumps(game.record()))
    del rec["dice"]  # records published before the contributions carry no "dice"
    assert verify_record(rec, tutorial) == []


# --- the ten-sided die (R17.1: Musket & Pike rolls d10s read 0-9, made as R11's d6) -------------------------------
def test_r17_1_the_d10_takes_the_first_byte_below_250_modulo_ten() -> None:
    """R17.1: bytes < 250, byte % 10, over the same HMAC blocks as the d6 (docs/dice.md)."""
    import hashlib
    import hmac

    key = dice_key(KNOWN_SEED, KNOWN_CONTRIBUTIONS)
    for n in range(30):
        k = 0
        want = None
        while want is None:
            block = hmac.new(key, f"{n}:{k}".encode(), hashlib.sha256).digest()
            want = next((b % 10 for b in block if b < 250), None)
            k += 1
        assert die_from_key(key, n, faces=10) == want
    assert [die_from_key(key, n, 10) for n in range(20)] == KNOWN_D10


# pinned in docs/dice.md too (the page's fairness.js recomputes the same values)
KNOWN_D10 = [9, 7, 8, 0, 4, 5, 7, 9, 3, 3, 0, 1, 1, 9, 2, 2, 8, 3, 7, 5]


def test_r17_1_the_d10_is_uniform_over_zero_to_nine() -> None:
    n = 50000
    counts = Counter(die_from_seed("chi-square-fixed-seed-d10", i, faces=10) for i in range(n))
    assert set(counts) == set(range(10))
    expected = n / 10
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(10))
    assert chi2 < 27.877, counts  # 9 degrees of freedom, p = 0.001


def test_r17_1_seeded_d10s_resume_at_their_count() -> None:
    c = {"blue": "ab" * 32, "red": ""}
    d = SeededDice(dice_key("some-seed-0123456789", c), faces=10)
    rolls = [d.roll() for _ in range(200)]
    assert set(rolls) == set(range(10))
    resumed = SeededDice(dice_key("some-seed-0123456789", c), count=10, faces=10)
    assert [resumed.roll() for _ in range(190)] == rolls[10:]


def test_r17_1_loaded_test_d10s_accept_zero_to_nine_only() -> None:
    assert LoadedDice([0, 9], faces=10).roll() == 0
    with pytest.raises(ValueError):
        LoadedDice([10], faces=10)
    with pytest.raises(ValueError):
        SeededDice(None, faces=8)
