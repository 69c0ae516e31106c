"""The command step (3, 3.t, 3.1-3.4, R16.9): groups, the rolls by general quality, who may act, Aide-de-camp.

The groups are formed and rolled the moment the step begins; each group's result says how many of its units may act
in the movement steps ("half" is rounded up), and the owner picks which by acting with them (`allowance_problem`
refuses the one too many). A Forced March card lets one forbidden unit act (R16.10).
"""

from __future__ import annotations

from typing import Any

from ..kernel.errors import IllegalCommand
from . import deck
from .context import HMCtx
from .scenario import BRIGADE, C_IN_C
from .tables import ALL, C_IN_C_RADIUS, COMMAND_RADIUS, HALF, NO_MOVE, QUALITIES, command_result


def _best(ctx: HMCtx, uid: str, generals: list[str], exclude: str | None) -> str | None:
    """3.4, R16.9: the best other general within 5 hexes: gifted, competent, incompetent, then nearest, lowest id."""
    grid = ctx.sc.grid
    here = ctx.hex_of(uid)
    near = [g for g in generals if g != exclude and grid.distance(here, ctx.hex_of(g)) <= COMMAND_RADIUS]
    if not near:
        return None
    return min(near, key=lambda g: (-QUALITIES.index(ctx.d(g).quality), grid.distance(here, ctx.hex_of(g)), g))


def form_groups(ctx: HMCtx, side: str) -> list[dict[str, Any]]:
    """R16.9's groups, in the order generals are listed, then each independent unit (3.3)."""
    grid = ctx.sc.grid
    generals = ctx.generals_of(side)
    members: dict[str, list[str]] = {g: [] for g in generals}
    alone: list[str] = []
    for uid in ctx.units_of(side):
        own = ctx.d(uid).brigade
        if own in members and grid.distance(ctx.hex_of(uid), ctx.hex_of(own)) <= COMMAND_RADIUS:
            members[own].append(uid)
            continue
        other = _best(ctx, uid, generals, own)
        if other is None:
            alone.append(uid)
        else:
            members[other].append(uid)
    groups: list[dict[str, Any]] = [{"general": g, "units": us} for g, us in members.items() if us]
    groups += [{"general": None, "units": [u]} for u in alone]
    return groups


def modifier(ctx: HMCtx, general: str | None) -> int:
    """3.1, 3.2, R16.9: -1 for a brigade commander who rallied this player turn; +1 when the C-in-C is within 3 hexes
    of him and did not rally (never on the C-in-C's own roll); an independent unit -1 (3.3)."""
    if general is None:
        return -1
    d = ctx.d(general)
    if d.role != BRIGADE:
        return 0
    rallied = ctx.x.get("rallied", [])
    out = -1 if general in rallied else 0
    grid = ctx.sc.grid
    for chief in ctx.generals_of(d.side):
        if (ctx.d(chief).role == C_IN_C and chief not in rallied
                and grid.distance(ctx.hex_of(chief), ctx.hex_of(general)) <= C_IN_C_RADIUS):
            out += 1
    return out


def settle(ctx: HMCtx, group: dict[str, Any], die: int) -> None:
    """A group's roll read on 3.t: the modified total (held within 1-6), the result, the cards, how many may act."""
    g = group["general"]
    mod = modifier(ctx, g)
    quality = ctx.d(g).quality if g is not None else "incompetent"
    total = min(max(die + mod, 1), 6)
    result, cards = command_result(quality, total)
    n = len(group["units"])
    group.update(die=die, modifier=mod, total=total, result=result, cards=cards if g is not None else 0,
                 allowed={NO_MOVE: 0, HALF: (n + 1) // 2, ALL: n}[result])


def roll_groups(ctx: HMCtx, side: str) -> None:
    """3, R16.9: one d6 per general with a group and per independent unit, rolled by the server at once."""
    groups = form_groups(ctx, side)
    ctx.x["command"] = {"groups": groups}
    if not groups:
        return
    labels = [ctx.says(g["general"]) if g["general"] else f"{ctx.says(g['units'][0])} (independent)"
              for g in groups]
    dice = ctx.roll(len(groups), "command rolls", labels, "3")
    for group, die in zip(groups, dice):
        settle(ctx, group, die)
        who = labels[groups.index(group)]
        ctx.emit("command", f"3.t: {who} rolls {die}{group['modifier']:+d} = {group['total']}: "
                            f"{_say(group)}", general=group["general"], units=list(group["units"]),
                 result=group["result"], allowed=group["allowed"], rule="3.t")


def _say(group: dict[str, Any]) -> str:
    r = group["result"]
    what = {NO_MOVE: "no unit may move", HALF: f"{group['allowed']} of {len(group['units'])} units may move",
            ALL: "all units may move"}[r]
    return what + (f", draw {group['cards']} card{'s' if group['cards'] > 1 else ''}" if group["cards"] else "")


def group_of(ctx: HMCtx, uid: str) -> dict[str, Any] | None:
    for g in (ctx.x.get("command") or {}).get("groups", []):
        if uid in g["units"]:
            found: dict[str, Any] = g
            return found
    return None


def allowance_problem(ctx: HMCtx, uid: str) -> str | None:
    """R16.9: whether the unit may act now: it has acted already this movement phase, a Forced March freed it, or its
    group still has room. The refusal, or None."""
    if uid in ctx.x.get("acted", []) or uid in ctx.x.get("forced", []):
        return None
    g = group_of(ctx, uid)
    if g is None:
        return f"{ctx.says(uid)} was not on the map when the command step began"
    acted = set(ctx.x.get("acted", [])) - set(ctx.x.get("forced", []))
    used = sum(1 for u in g["units"] if u in acted)
    if g["result"] == NO_MOVE:
        return f"{ctx.says(uid)}'s command rolled 'no unit may move' (3.t)"
    if used >= g["allowed"]:
        return f"{ctx.says(uid)}'s command may move {g['allowed']} of its {len(g['units'])} units, and has (3.t)"
    return None


def act(ctx: HMCtx, side: str, uid: str, card: str | None) -> None:
    """Count the unit's act against its group (R16.9), a Forced March card freeing it first (R16.10)."""
    if card is not None:
        if uid in ctx.x.get("acted", []) or allowance_problem(ctx, uid) is None:
            raise IllegalCommand("R16.10", f"{ctx.says(uid)} may move without a Forced March")
        deck.spend(ctx, side, card, uid)
        ctx.listed("forced").append(uid)
    else:
        problem = allowance_problem(ctx, uid)
        if problem is not None:
            raise IllegalCommand("R16.9", problem)
    if uid not in ctx.x.get("acted", []):
        ctx.listed("acted").append(uid)


def aide_de_camp(ctx: HMCtx, side: str, general: str) -> None:
    """R16.10: in the command step, re-roll one of your generals' command rolls; the new roll stands."""
    g = next((g for g in (ctx.x.get("command") or {}).get("groups", []) if g["general"] == general), None)
    if g is None:
        raise IllegalCommand("R16.10", f"{ctx.says(general)} made no command roll this turn")
    (die,) = ctx.roll(1, "Aide-de-camp re-roll", [ctx.says(general)], "R16.10", general=general)
    settle(ctx, g, die)
    ctx.emit("command", f"R16.10, 3.t: {ctx.says(general)} re-rolls {die}{g['modifier']:+d} = {g['total']}: "
                        f"{_say(g)}", general=general, units=list(g["units"]), result=g["result"],
             allowed=g["allowed"], rule="3.t")


def cards_due(ctx: HMCtx) -> int:
    """3.t: the cards the step's results draw (R16.9: drawn when the step ends)."""
    return sum(int(g.get("cards", 0)) for g in (ctx.x.get("command") or {}).get("groups", []))

