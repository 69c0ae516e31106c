"""Dice (R11): every die is rolled by the server from a per-game secret seed and the seats'
own random contributions, by a published derivation anyone can recompute (docs/dice.md).

Scheme "vedette-dice-2" (every game created since the seats contribute):

    key   = HMAC-SHA256(key = seed (UTF-8),
                        msg = "vedette-dice-2\\n" + for each side, sorted by its id: side + "=" + contribution + "\\n")
    die n = the first byte b < 252 of HMAC-SHA256(key, f"{n}:{k}") for k = 0, 1, 2, ...; the die shows b % 6 + 1

A contribution is 64 lowercase hex digits (32 random bytes from the player's browser), or "" for a seat
that did not send one. 252 = 6 * 42, so rejecting the bytes 252..255 keeps the six faces exactly equally
likely (no modulo bias). The server commits to the seed by publishing SHA-256(seed) before any seat
contributes and publishes the seed when the game ends.

Scheme "vedette-dice-1" (games created before): the same per-die step with the seed itself as the key.

A ten-sided die (R17.1, Musket & Pike: an edition whose `Edition.die_faces` is 10) is made the same way with 250
for 252 and 10 for 6: die n = the first byte b < 250 of the same blocks, showing b % 10, i.e. 0..9 (250 = 10 * 25,
so the ten faces are exactly equally likely). A game rolls one kind of die throughout: its edition's.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from typing import Protocol

SCHEME = "vedette-dice-2"
LEGACY_SCHEME = "vedette-dice-1"
SCHEMES = (SCHEME, LEGACY_SCHEME)
CONTRIBUTION_PATTERN = r"^[0-9a-f]{64}$"
_HEX = frozenset("0123456789abcdef")


class Dice(Protocol):
    count: int

    def roll(self) -> int: ...


def seed_hash(seed: str) -> str:
    """The commitment published when the game is created."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def check_contribution(value: object) -> str:
    """A seat's contribution: 64 lowercase hex digits, or "" (none). ValueError otherwise."""
    if value is None or value == "":
        return ""
    if not isinstance(value, str) or len(value) != 64 or not set(value) <= _HEX:
        raise ValueError("a dice contribution is 64 lowercase hexadecimal digits (32 random bytes)")
    return value


def dice_key(seed: str, contributions: Mapping[str, str], scheme: str = SCHEME) -> bytes:
    """The HMAC key every die of a game is drawn with."""
    if scheme == LEGACY_SCHEME:
        return seed.encode("utf-8")
    if scheme != SCHEME:
        raise ValueError(f"unknown dice scheme {scheme!r}")
    message = SCHEME + "\n" + "".join(f"{side}={contributions[side]}\n" for side in sorted(contributions))
    return hmac.new(seed.encode("utf-8"), message.encode("utf-8"), hashlib.sha256).digest()


# The dice a game may roll: faces -> (the first byte value rejected, the lowest face). The d6 shows 1..6 (R11),
# the d10 0..9 (R17.1: "0-8 No Effect / 9 Leader removed"); each limit is the largest multiple of the faces
# below 256, so no face is favoured.
FACES: dict[int, tuple[int, int]] = {6: (252, 1), 10: (250, 0)}


def faces_range(faces: int) -> range:
    """The values a die of `faces` faces shows (1..6, or 0..9 for the d10)."""
    _, low = FACES[faces]
    return range(low, low + faces)


def die_from_key(key: bytes, index: int, faces: int = 6) -> int:
    """The index-th die (counting from 0), uniform on 1..6 (a d10: 0..9, R17.1) by rejection sampling on bytes."""
    limit, low = FACES[faces]
    counter = 0
    while True:
        digest = hmac.new(key, f"{index}:{counter}".encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < limit:  # 252 = 6 * 42, 250 = 10 * 25: keeps every face exactly equally likely
                return byte % faces + low
        counter += 1


def die_from_seed(seed: str, index: int, contributions: Mapping[str, str] | None = None,
                  scheme: str = SCHEME, faces: int = 6) -> int:
    """The index-th die of a game with this seed and these contributions (none: every seat "")."""
    return die_from_key(dice_key(seed, contributions or {}, scheme), index, faces)


class SeededDice:
    """The only dice a real game uses. Without a key (a seat's contribution is still awaited) it refuses to roll."""

    def __init__(self, key: bytes | str | None, count: int = 0, faces: int = 6) -> None:
        if faces not in FACES:
            raise ValueError(f"a die has {' or '.join(map(str, FACES))} faces, not {faces}")
        self._key = key.encode("utf-8") if isinstance(key, str) else key
        self.count = count
        self.faces = faces

    def roll(self) -> int:
        if self._key is None:
            raise RuntimeError("R11: no die is rolled before both seats' dice contributions are in")
        value = die_from_key(self._key, self.count, self.faces)  # looked up at call time: tests may patch it
        self.count += 1
        return value


class LoadedDice:
    """Dice with fixed results, for tests only; the game API never accepts them."""

    def __init__(self, values: list[int], faces: int = 6) -> None:
        shows = faces_range(faces)
        for v in values:
            if v not in shows:
                raise ValueError(f"a die shows {shows[0]} to {shows[-1]}, not {v}")
        self._values = list(values)
        self.faces = faces
        self.count = 0

    def roll(self) -> int:
        if not self._values:
            raise AssertionError("the loaded dice ran out: the test rolled more dice than it loaded")
        self.count += 1
        return self._values.pop(0)

    @property
    def remaining(self) -> int:
        return len(self._values)
