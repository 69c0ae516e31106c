"""Cavalry charges (9.2). Interface used by the game; the full sequence is being built."""

from __future__ import annotations

from typing import Any, Callable

from .core import Ctx
from .errors import IllegalCommand

TASKS: dict[str, Callable[[Ctx, dict[str, Any]], None]] = {}
DECISIONS: dict[str, Callable[[Ctx, dict[str, Any], dict[str, Any]], None]] = {}


def parse_charge_move(ctx: Ctx, side: str, uids: list[str], path: list[str], target: str) -> None:
    raise IllegalCommand("9.2", "cavalry charges are not available yet")


def apply_charge_move(ctx: Ctx, uids: list[str], target: str) -> None:
    raise IllegalCommand("9.2", "cavalry charges are not available yet")


def parse_charge(ctx: Ctx, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
    raise IllegalCommand("9.2", "cavalry charges are not available yet")


def start_charge(ctx: Ctx, spec: dict[str, Any]) -> None:
    raise IllegalCommand("9.2", "cavalry charges are not available yet")


def unresolved(ctx: Ctx, side: str) -> list[str]:
    return []


def end_of_combat_phase(ctx: Ctx) -> None:
    for u in ctx.st.units.values():
        u.charging = None


def legal_charge_moves(ctx: Ctx, side: str) -> list[dict[str, Any]]:
    return []


def legal_charges(ctx: Ctx, side: str) -> list[dict[str, Any]]:
    return []
