"""Combat results (7.5) applied to a combat in `state.combat`, for whichever side they strike.

* NE: nothing; Ex: the primary unit of each side loses a step (7.7), nobody retreats or advances.
* Ar/Dr: the affected units retreat or are disrupted, the owner's choice (R14.2: units already disrupted retreat).
* Ac/Dc: the primary checks morale; passing applies the parenthesised result, failing reads as Ar/Dr.
* Ax/Dx: the primary checks morale; passing, it loses a step and nobody advances, unless the owner prefers the
  failure's effect: every unit of the side disrupted and retreating.
* Dm: the primary defender checks morale; failing, every defender routs (7.8); passing applies the parenthesised
  result with that check already passed (T8).  Am arises only in charges (9.2 step 4) and reads as Dm.
The units of a side are all its units in the hexes that took part, non-participants included (5.0); bombarding
artillery is not affected, artillery in an EZOC is (8.2).  A defender's retreat lets the attackers advance (7.9).
"""

from __future__ import annotations

from typing import Any

from ..kernel.aftercombat import step_loss
from ..kernel.core import Ctx
from ..kernel.procedures import losing_groups as kernel_losing_groups
from ..kernel.state import STATUS_MAP
from .crt import Result, morale_passes
from .retreat import queue_group_retreats
from .status import disrupt


def losing_groups(ctx: Ctx, c: dict[str, Any], side: str) -> dict[str, list[str]]:
    """Hex -> every unit of `side` there that the result strikes (5.0; 8.2: bombarding artillery not in an EZOC is
    not affected; a bombardment strikes only the unit it is resolved against)."""
    if c["kind"] == "bombard":
        uid = c["def_primary"]
        return {c["target"]: [uid]} if side == c["defender"] and ctx.u(uid).status == STATUS_MAP else {}
    return kernel_losing_groups(ctx, c, side)


def primary_of(c: dict[str, Any], side: str) -> str | None:
    return c.get("primary") if side == c["attacker"] else c.get("def_primary")


def apply_result(ctx: Ctx, c: dict[str, Any], res: Result, morale_die: int, rating_of: Any) -> None:
    """Apply a CRT result; `rating_of(uid)` is the primary's morale rating in this combat (7.1(3), 9.3, 10.0(2))."""
    c["advance"] = 0
    if res.result == "NE":
        ctx.emit("no_effect", "7.5: NE: no effect", rule="7.5")
        return
    if res.result == "Ex":
        ctx.emit("exchange", "7.5: Ex: the primary unit on each side loses a step", rule="7.5")
        for side in (c["defender"], c["attacker"]):
            p = primary_of(c, side)
            if p is not None and ctx.u(p).status == STATUS_MAP and (c["kind"] != "bombard" or side == c["defender"]):
                step_loss(ctx, c, p, "7.7")
        return
    side = c["attacker"] if res.side == "A" else c["defender"]
    if c["kind"] == "bombard" and side == c["attacker"]:
        ctx.emit("no_effect", f"8.2: {res.text}: bombarding artillery is not affected by any combat result", rule="8.2")
        return
    primary = primary_of(c, side)
    if primary is None or ctx.u(primary).status != STATUS_MAP:
        return
    c["loser"] = side
    letter = res.letter
    if letter == "r":
        offer_retreat_or_disrupt(ctx, c, side)
        return
    rating = rating_of(primary)
    passed = morale_passes(morale_die, rating)
    c["passed"] = passed
    ctx.emit("morale", f"7.5: {ctx.name(primary)} checks morale: die {morale_die} against {rating}: "
             f"{'passes' if passed else 'fails'}", unit=primary, die=morale_die, rating=rating, passed=passed, rule="7.5")
    if letter == "c":
        if not passed:
            offer_retreat_or_disrupt(ctx, c, side)
        elif res.secondary not in (None, "NE"):
            apply_secondary(ctx, c, side, res.secondary)
        else:
            ctx.emit("no_effect", f"7.5: {res.text}: the check holds: no effect", rule="7.5")
    elif letter == "x":
        if passed:
            offer_loss_or_retreat(ctx, c, side)
        else:
            disrupt_and_retreat(ctx, c, side)
    elif letter == "m":
        if passed:
            apply_secondary(ctx, c, side, res.secondary or "NE")
        else:
            rout(ctx, c, side, "7.8")


def apply_secondary(ctx: Ctx, c: dict[str, Any], side: str, secondary: str) -> None:
    """7.5: the parenthesised result, its primary's check already passed (T8)."""
    ctx.emit("secondary", f"7.5: the check holds: the parenthesised result {secondary} applies", rule="7.5")
    if secondary.endswith("r"):
        offer_retreat_or_disrupt(ctx, c, side)
    elif secondary.endswith("x"):
        offer_loss_or_retreat(ctx, c, side)


def rout(ctx: Ctx, c: dict[str, Any], side: str, rule: str) -> None:
    """7.8: every unit of the side routs (three hexes, disrupted at the end); the attacker may advance two hexes."""
    groups = losing_groups(ctx, c, side)
    ctx.emit("rout", f"{rule}: {ctx.names([u for us in groups.values() for u in us if ctx.is_combat(u)])} rout",
             rule=rule)
    c["rout_side"] = side
    if side == c["defender"]:
        c["advance"] = 2
    queue_group_retreats(ctx, side, groups, rout=True, rule="7.8")


def retreat(ctx: Ctx, c: dict[str, Any], side: str) -> None:
    if side == c["defender"]:
        c["advance"] = 1
    queue_group_retreats(ctx, side, losing_groups(ctx, c, side), rout=False, rule="7.6")


def disrupt_and_retreat(ctx: Ctx, c: dict[str, Any], side: str) -> None:
    """7.5 x: all units of the affected side are disrupted (no further effect if already) and retreat."""
    for units in losing_groups(ctx, c, side).values():
        for u in units:
            disrupt(ctx, u, "7.5")
    retreat(ctx, c, side)


def offer_retreat_or_disrupt(ctx: Ctx, c: dict[str, Any], side: str) -> None:
    """7.5 r: retreat, or be disrupted in place (R14.2: the units already disrupted retreat either way)."""
    groups = losing_groups(ctx, c, side)
    units = [u for us in groups.values() for u in us if ctx.is_combat(u)]
    if not units:
        return
    options = [{"id": "retreat", "label": f"{ctx.names(units)} retreat", "choice": "retreat"}]
    if any(not ctx.u(u).disrupted for u in units):
        stay = [u for u in units if not ctx.u(u).disrupted]
        label = f"{ctx.names(stay)} {'is' if len(stay) == 1 else 'are'} disrupted in place"
        if len(stay) < len(units):
            label += " (the units already disrupted retreat)"
        options.append({"id": "disrupt", "label": label, "choice": "disrupt"})
    ctx.st.decision = {
        "kind": "retreat_or_disrupt", "side": side, "rule": "7.5",
        "text": f"{'Dr' if side == c['defender'] else 'Ar'}: your units retreat or are disrupted",
        "task": {"side": side}, "options": options, "hexes": sorted(groups), "units": units,
    }


def decide_retreat_or_disrupt(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    side = task["side"]
    if option["choice"] == "retreat":
        retreat(ctx, c, side)
        return
    groups = losing_groups(ctx, c, side)
    already = {h: [u for u in us if ctx.u(u).disrupted and ctx.is_combat(u)] for h, us in groups.items()}
    for us in groups.values():
        for u in us:
            disrupt(ctx, u, "7.5")
    # The leaders go with the retreating units only when no unit of theirs stays behind (10.0).
    movers = {h: us + [u for u in groups[h] if ctx.is_leader(u)
                       and all(v in us for v in groups[h] if ctx.is_combat(v))]
              for h, us in already.items() if us}
    if movers:
        if side == c["defender"]:
            c["advance"] = 1
        queue_group_retreats(ctx, side, movers, rout=False, rule="7.6")


def offer_loss_or_retreat(ctx: Ctx, c: dict[str, Any], side: str) -> None:
    """7.5 x, passed: the primary loses a step, or at the owner's choice the whole side is disrupted and retreats."""
    primary = primary_of(c, side)
    assert primary is not None
    ctx.st.decision = {
        "kind": "loss_or_retreat", "side": side, "rule": "7.5",
        "text": f"{ctx.name(primary)} passed its check: it loses a step, or your units are disrupted and retreat",
        "task": {"side": side}, "units": [primary], "hexes": sorted(losing_groups(ctx, c, side)),
        "options": [{"id": "loss", "label": f"{ctx.name(primary)} loses a step; no advance", "choice": "loss"},
                    {"id": "retreat", "label": "all disrupted, and retreat", "choice": "retreat"}],
    }


def decide_loss_or_retreat(ctx: Ctx, task: dict[str, Any], option: dict[str, Any]) -> None:
    c = ctx.st.combat
    assert c is not None
    side = task["side"]
    if option["choice"] == "retreat":
        disrupt_and_retreat(ctx, c, side)
        return
    primary = primary_of(c, side)
    if primary is not None:
        step_loss(ctx, c, primary, "7.7")
