"""Morale checks in the Standard rules (seed 002 2.4, with 2.8(5), 10.3, 14.2(2), 14.3(1), R13).

2.4: roll a die; a roll greater than the MR fails; a 1 always passes and a 6 always fails.  2.8(5): a
disrupted unit checks at MR - 2 (the recovery check does not, R13 on 11.1).  10.3: an assisting leader adds
his morale rating.  14.2(2), 14.3(1): two (night) or one (twilight) is added to the die roll.

The edition's procedures (context.py's morale checks, moving.py) play these rules in a game.
"""

from __future__ import annotations

LIGHT_ADD = {"day": 0, "twilight": 1, "night": 2}  # 14.3(1), 14.2(2)


def morale_passes(die: int, mr: int, *, disrupted: bool = False, recovery: bool = False, leader_morale: int = 0,
                  light: str = "day") -> bool:
    """Whether a morale check passes."""
    if not 1 <= die <= 6:
        raise ValueError(f"a die shows 1 to 6, not {die}")
    if die == 1:
        return True  # 2.4, 14.2(2), 14.3(1): a 1 always passes
    if die == 6:
        return False  # 2.4, 10.3: a 6 always fails, leader or not
    rating = mr + leader_morale - (2 if disrupted and not recovery else 0)
    return die + LIGHT_ADD[light] <= rating
