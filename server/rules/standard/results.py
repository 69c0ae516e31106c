"""What a CRT result does in the Standard rules (seed 002 7.8, read through RULINGS.md R12): the choices it
leaves the owning player after the primary unit's morale check.

* NE: nothing.
* Xr: the owner chooses — the primary is disrupted, or the whole side retreats; no choice when the primary
  already is disrupted (it must retreat).
* Xc(Y): the primary checks; pass: Y; fail: as Xr.
* Xx: pass: the primary loses a step and nobody advances — or, if the owner chooses, all are disrupted and
  retreat; fail: all are disrupted and retreat.
* Dm(Y): pass: Y (read with the same passed check: one morale die per combat, 7.3(6)); fail: the defenders
  rout (7.10) and the attacker receives a fortune of war (12.4).  Am (9.3(5), 9.4 only) mirrors it.
* Ex: the primary unit on each side loses a step; nobody retreats or advances.
* DF: the defending player receives a fortune of war; Leader: casualty checks (10.3); Ammo: one bombarding
  artillery unit goes ineffective (8.5) — in addition to the result.
Victorious attackers may advance (7.12) only when the defenders retreat or rout.

The edition's procedures (close_combat.py, bombard.py, combat_results.py) play these rules in a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from .crt import Result, parse_cell

NONE = "none"
DISRUPT = "disrupt"  # the primary unit only (Xr)
RETREAT = "retreat"  # the whole side (Xr, Xc fail)
DISRUPT_RETREAT = "disrupt_retreat"  # all disrupted, then the side retreats (Xx)
STEP_LOSS = "step_loss"  # the primary loses a step (Xx pass)
ROUT = "rout"  # 7.10 (Dm fail)
EXCHANGE = "exchange"  # Ex


@dataclass(frozen=True, slots=True)
class Outcome:
    """One way a result may be carried out."""

    side: str | None  # "attacker", "defender", "both" or None
    effect: str
    advance: bool = False  # 7.12: the attackers may advance
    fow_attacker: bool = False  # Dm fail: the attacking player receives a FOW (12.4)

    @property
    def label(self) -> str:
        return f"{self.side or 'nobody'}: {self.effect}"


def outcomes(result: Result | str, passed: bool | None, primary_disrupted: bool) -> list[Outcome]:
    """The outcomes open to the owning player (one element: no choice).  `passed`: the primary's morale
    check (None when the result needs none)."""
    r = parse_cell(result) if isinstance(result, str) else result
    if r.result == "NE":
        return [Outcome(None, NONE)]
    if r.result == "Ex":
        return [Outcome("both", EXCHANGE)]
    side = "attacker" if r.result[0] == "A" else "defender"
    letter = r.result[1]
    if letter in ("c", "x", "m") and passed is None:
        raise ValueError(f"{r}: the primary unit's morale check decides it (7.8)")
    if letter == "r":
        return _retreat_choice(side, primary_disrupted)
    if letter == "c":
        if passed:
            return outcomes(_on_pass(r, side), passed, primary_disrupted)
        return _retreat_choice(side, primary_disrupted)
    if letter == "x":
        both_ways = Outcome(side, DISRUPT_RETREAT, advance=side == "defender")
        return [Outcome(side, STEP_LOSS), both_ways] if passed else [both_ways]
    if letter == "m":
        if passed:
            return outcomes(_on_pass(r, side), passed, primary_disrupted)
        return [Outcome(side, ROUT, advance=side == "defender", fow_attacker=side == "defender")]
    raise ValueError(f"{r}: not a result of 7.8")


def _retreat_choice(side: str, primary_disrupted: bool) -> list[Outcome]:
    retreat = Outcome(side, RETREAT, advance=side == "defender")
    return [retreat] if primary_disrupted else [Outcome(side, DISRUPT), retreat]


def _on_pass(r: Result, side: str) -> Result:
    if r.on_pass is None:
        return Result("NE")  # 8.5: bombardment ignores the parenthesised result
    return Result(r.on_pass)
