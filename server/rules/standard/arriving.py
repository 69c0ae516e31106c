"""Reinforcements arriving in a game (seed 002 13.1, 17.4; S60, S61): the listed hexes a waiting unit may enter by,
the group of mode "one" bound to its first unit's hex, leaders arriving with a unit of their span, and the arrival
die rolled at the start of the owning side's movement phase.  The data is arrivals.py's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..kernel.errors import IllegalCommand
from ..kernel.state import STATUS_OFFBOARD
from .arrivals import ONE
from .context import StdCtx
from .movement import entry_shift_cost
from .tactics import in_span


# --- play ------------------------------------------------------------------------------------------------------------
def listed_hexes(ctx: StdCtx, uid: str) -> tuple[str, ...]:
    """13.1, 17.4: the listed entry hexes a waiting reinforcement may enter by now (S60: a group of mode "one" is bound
    to the hex its first unit entered by)."""
    a = ctx.sc.arrivals.get(uid)
    if a is None:
        h = ctx.st.units[uid].entry_hex
        return (h,) if h is not None else ()
    fixed = ctx.x.get("entry_fixed", {}).get(a.group)
    return (fixed,) if fixed is not None else a.hexes


def entry_listed(ctx: StdCtx, units: Sequence[str]) -> tuple[str, ...]:
    """13.1, 17.4 (S60): the listed hexes these reinforcements, entering together, may enter by, or IllegalCommand.
    A `with_span` leader enters with a unit of his command span: in the same command (he takes its hexes), or alone
    at a hex where such a unit entered this phase."""
    arr = ctx.sc.arrivals
    escorts = [u for u in units if not (u in arr and arr[u].with_span)]
    for ldr in (u for u in units if u not in escorts):
        if escorts and not any(in_span(ctx.sc, ldr, u) for u in escorts):
            raise IllegalCommand("17.4", f"{ctx.name(ldr)} arrives with a unit of his command span; none of "
                                         f"{ctx.names(escorts)} is")
    if not escorts:
        entered: Mapping[str, Sequence[str]] = ctx.x.get("arrived_by", {})
        hexes = sorted(h for h, us in entered.items() if all(any(in_span(ctx.sc, ldr, u) for u in us) for ldr in units))
        if not hexes:
            raise IllegalCommand("17.4", f"{ctx.names(list(units))} arrive with a unit of their command span: enter "
                                         "together with one, or where one entered this phase")
        return tuple(hexes)
    shared = set(listed_hexes(ctx, escorts[0]))
    for u in escorts[1:]:
        shared &= set(listed_hexes(ctx, u))
    if not shared:
        raise IllegalCommand("13.1", "units entering together share an entry hex")
    first = listed_hexes(ctx, escorts[0])
    return tuple(h for h in first if h in shared)


def after_entry(ctx: StdCtx, units: Sequence[str], entered: str, listed: Sequence[str]) -> None:
    """17.4 (S60): the first unit of a group of mode "one" to enter fixes the group's listed hex (the one its entry
    was shifted from, 13.1); every unit entering is noted at the hex it entered by, for the leaders who arrive with
    a unit of their span."""
    arr = ctx.sc.arrivals
    if any(a.with_span for a in arr.values()):  # kept in the state only when a leader may need it
        ctx.x.setdefault("arrived_by", {}).setdefault(entered, []).extend(units)
    for u in units:
        a = arr.get(u)
        if a is None or a.mode != ONE or a.group in ctx.x.get("entry_fixed", {}):
            continue
        side = ctx.side_of(u)
        costs = {h: entry_shift_cost(ctx.sc, ctx.st.units, side, h, entered) for h in listed}
        chosen = min((c, h) for h, c in costs.items() if c is not None)[1] if any(
            c is not None for c in costs.values()) else entered
        ctx.x.setdefault("entry_fixed", {})[a.group] = chosen
        for v, b in arr.items():  # the off-map box shows the rest of the group at that hex
            if b.group == a.group and ctx.st.units[v].status == STATUS_OFFBOARD:
                ctx.st.units[v].entry_hex = chosen
        ctx.emit("entry", f"17.4: {ctx.name(u)} entered by {chosen}: the rest of its group enters there too",
                 unit=u, hex=chosen, rule="17.4")


def roll_arrivals(ctx: StdCtx, side: str) -> None:
    """17.4 (S61): at the start of the side's movement phase, each group whose arrival a die decides and whose turn
    has come rolls one die (the game's dice, logged and public): on a listed number the group is available now;
    otherwise it waits for `else_turn`, or (`repeat`) rolls again next turn."""
    done: list[str] = ctx.x.get("arrived_groups", [])
    groups: dict[str, list[str]] = {}
    for uid, a in sorted(ctx.sc.arrivals.items()):
        s = ctx.st.units[uid]
        if a.roll and a.group not in done and ctx.side_of(uid) == side and s.status == STATUS_OFFBOARD \
                and s.entry_turn == ctx.st.turn:
            groups.setdefault(a.group, []).append(uid)
    if groups:
        ctx.x["arrived_groups"] = done  # kept in the state only by a scenario with arrival dice
    for group, uids in sorted(groups.items(), key=lambda kv: int(kv[0])):
        a = ctx.sc.arrivals[uids[0]]
        (die,) = ctx.roll(1, "arrival", ["arrival die"], "17.4", units=uids)
        done.append(group)
        on = ", ".join(str(n) for n in sorted(a.roll))
        if die in a.roll:
            ctx.emit("arrival", f"17.4: arrival die {die} (arrive on {on}): {ctx.names(uids)} arrive this turn",
                     units=uids, die=die, arrives=True, turn=ctx.st.turn, rule="17.4")
            continue
        later = ctx.st.turn + 1 if a.repeat else a.else_turn
        assert later is not None
        if a.repeat:
            done.remove(group)  # rolls again next turn
        for u in uids:
            ctx.st.units[u].entry_turn = later
        more = "roll again" if a.repeat else "arrive"
        ctx.emit("arrival", f"17.4: arrival die {die} (arrive on {on}): {ctx.names(uids)} {more} on turn {later}",
                 units=uids, die=die, arrives=False, turn=later, rule="17.4")


__all__ = ["after_entry", "entry_listed", "listed_hexes", "roll_arrivals"]
