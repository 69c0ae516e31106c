"""Squares (9.3): formed by a hex with an infantry unit in it at the start of its movement phase (or during a cavalry
charge, cavalry.py), disrupted or not (R14.1); removed at the start of a later movement phase; moving one hex, with
a morale check on entering or crossing anything but clear terrain.  What a square does in combat is in combat.py
and artillery.py; a square without infantry goes (kernel/aftercombat.py), one that retreats breaks up (T12)."""

from __future__ import annotations

from ..kernel.core import Ctx
from .crt import morale_passes
from .movement import movement_phase_open
from .status import INFANTRY, disrupt, morale


def formers(ctx: Ctx, hex_: str, side: str) -> list[str]:
    return sorted(u for u in ctx.combat_units_at(hex_, side) if ctx.kind(u) in INFANTRY)


def form_square(ctx: Ctx, side: str, hex_: object, unit: object) -> None:
    movement_phase_open(ctx, side)
    st = ctx.st
    ctx.require(isinstance(hex_, str) and hex_ in ctx.sc.grid, "9.3", f"'{hex_}' is not a hex on the map")
    assert isinstance(hex_, str)
    ctx.require(not st.any_moved, "9.3", "squares are formed at the beginning of the movement phase, before any unit moves")
    ctx.require(hex_ not in st.squares, "9.3", f"{hex_} is already in square")
    infantry = formers(ctx, hex_, side)
    ctx.require(bool(infantry), "9.3", f"no infantry unit of yours is in {hex_}")
    chosen = unit if unit is not None else max(infantry, key=lambda u: (ctx.factors(u).defense, u))
    ctx.require(chosen in infantry, "9.3", f"{chosen} is not an infantry unit of yours in {hex_}")
    assert isinstance(chosen, str)
    st.squares[hex_] = chosen
    ctx.emit("square_formed", f"9.3: {ctx.name(chosen)} forms square at {hex_}", hex=hex_, unit=chosen, rule="9.3")


def remove_square(ctx: Ctx, side: str, hex_: object) -> None:
    movement_phase_open(ctx, side)
    st = ctx.st
    ctx.require(isinstance(hex_, str) and hex_ in st.squares and ctx.side_at(hex_) == side, "9.3",
                f"you have no square at {hex_}")
    assert isinstance(hex_, str)
    ctx.require(not st.any_moved, "9.3", "a square is removed at the beginning of the movement phase, before any unit moves")
    del st.squares[hex_]
    ctx.emit("square_removed", f"9.3: the square at {hex_} is removed", hex=hex_, rule="9.3")


def broken_ground(ctx: Ctx, a: str, b: str) -> bool:
    """9.3: anything but clear terrain entered or crossed (T14: a hill is not clear)."""
    terrain = ctx.sc.terrain_at(b)
    return bool(ctx.sc.features_between(a, b)) or not (terrain.open and not terrain.hill)


def after_square_move(ctx: Ctx, path: list[str]) -> None:
    """9.3: a square entering or crossing other than clear terrain checks morale; failing, its units are disrupted
    (T12: all of them, since all units in the hex are in square)."""
    dest = path[-1]
    former = ctx.st.squares.get(dest)
    if former is None or not broken_ground(ctx, path[0], dest):
        return
    rating = morale(ctx, former)
    (die,) = ctx.roll(1, "square crossing broken ground", ["morale die"], "9.3", unit=former)
    passed = morale_passes(die, rating)
    ctx.emit("morale", f"9.3: the square checks morale on broken ground: die {die} against {rating}: "
             f"{'passes' if passed else 'fails'}", unit=former, die=die, rating=rating, passed=passed, rule="9.3")
    if not passed:
        for u in ctx.combat_units_at(dest, ctx.side_of(former)):
            disrupt(ctx, u, "9.3")
