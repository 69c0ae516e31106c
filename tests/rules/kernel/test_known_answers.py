"""Known answers, python-chess's perft habit: seeded random games of every shipped scenario, their
command counts and final states pinned (R11: the same seed and commands give the same game).

A change meant to make the rules core faster, not different (issue 16), must leave every one of these
as it is. A deliberate rules change updates the pins, and its commit says why."""

from __future__ import annotations

import hashlib
import json

import pytest

from server.rules.kernel.randomplayer import play_random_game
from server.rules_cli import find_scenario

# (scenario, seed, commands in the log, sha256 of the final state's JSON with sorted keys), from
# `play_random_game` on 2026-11-27 (issue 16); the same under other PYTHONHASHSEEDs and at 8d61cbb.
# standard-tutorial re-pinned on 2026-11-28 (issue 37): reinforcements may march (13.1, S18), leaders recover
# by 11.3's morale check (S14), an ineffective leader escorts no one into an EZOC (6.2), "A" units belong to
# every formation (2.4, S23), adjacent artillery is coordinated (7.14, S22), line of sight along a hexside (8.6),
# a victorious defender's advance (7.12, S49), 7.2's fortune when its triggers have fought (S20), the unit ID's
# absorption (7.11, S11), the TEC's no-charge column (S30) and batteries firing apart (8.4, S31).
PINNED = [
    ("tutorial", 1, 102, "e243b9f632a28bbfdc82d74a1e2349f62d8c717cc4db57b4daaca2cf905aa97f"),
    ("tutorial", 2, 107, "dd829c26f0126188efce27915602e00461af44f54b5a475c07429b7255e4f680"),
    ("tutorial", 3, 113, "c1d37b9246b53c2d1ef11e2fd75d293363f003d7617c5adb26cdfe93a788a14f"),
    ("hougoumont", 1, 148, "6390df57be5fc2178f90e67724150336d2675765148dbc5c08e1dcbe0cd9e960"),
    ("hougoumont", 2, 207, "19b41d1e54a1e622365f75a9ffa2d8587be838950927e0f2208de10978240e3d"),
    ("hougoumont", 3, 183, "705ab10ddcd91708c0196db567de008e71f27ce5cb6c58559a2ed295e0bc7890"),
    ("salem-church", 1, 213, "3e83532e844cb5aa65f80f0801032a127170fc2f2adb6a62afb8d1413b9dc8c9"),
    ("salem-church", 2, 247, "064f7b602edae2a9c18d261cce47a2550b1c1c3bfcccd750f7dc2b36ba0b4e4e"),
    ("salem-church", 3, 219, "c22e8ef99f38d5acb17b815dd29564416b82ea27ca8094815da0ac42174e1979"),
    ("standard-tutorial", 1, 123, "ec4f8a3de6b67f97487a398e089bd29f9d8ed2928264462d090ca652f921ac33"),
    ("standard-tutorial", 2, 89, "407d57580cc99f9e406c74104f80258d9ef66edeaf475e2e1bd637fdabf9e301"),
    ("standard-tutorial", 3, 108, "674def9eac309776d09a70774ac1ec8faa154db4ec59952a3703a4f2aae63b62"),
    # hm-hochdorf pinned on 2026-11-29 when Horse and Musket was first played (issue 42, R16)
    ("hm-hochdorf", 1, 165, "0e38859e01cfe58afafcc9aad443277eda42af5f89c14315ecbc2338c0c18eee"),
    ("hm-hochdorf", 2, 162, "cb33d14fa19bdc0e91a3b8ce01fd2aa7ef04583f2e11005b2788f73ad478923c"),
    ("hm-hochdorf", 3, 184, "aff6f28bea6dc8c9e118b01c9499a21ee5f7f03f29253087f92e53cd39377013"),
    # mp-lindau pinned on 2026-12-07 when Musket & Pike was first played (issue 43, R17; its dice are d10s, R17.1)
    ("mp-lindau", 1, 333, "415e770e95632a2ff4958a47d1aebac9376f40f2f849f08a282df5337ca8249a"),
    ("mp-lindau", 2, 324, "017cd36af61640f1a7cccf9f63f25a3b3cee862bfd8b9c4d1a4d9e7900b7d011"),
    ("mp-lindau", 3, 315, "263b0385bd68922662a22607a921cd0941a5a60814197a7e023c90ec1ee61971"),
]


@pytest.mark.parametrize(("scenario", "seed", "commands", "digest"), PINNED,
                         ids=[f"{s}-{seed}" for s, seed, _, _ in PINNED])
def test_r11_a_seeded_random_game_ends_in_its_pinned_position(scenario: str, seed: int, commands: int,
                                                               digest: str) -> None:
    game = play_random_game(find_scenario(scenario), seed=seed)
    assert game.is_over
    assert len(game.log) == commands
    assert hashlib.sha256(json.dumps(game.to_json(), sort_keys=True).encode()).hexdigest() == digest
