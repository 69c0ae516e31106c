"""What each viewer may see. Everything a client receives is built here (the single view filter).

Hidden: the dice seed until the game is over; the opponent's 'w/1' set-up
placements until both sides have set up (3.2); and, where the scenario says
so, the opponent's reinforcements that have not yet entered the map.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import Phase, Status

if TYPE_CHECKING:
    from .game import Game

SPECTATOR = "spectator"
ADMIN = "admin"


def _sees_everything(viewer: str) -> bool:
    return viewer == ADMIN


def unit_visible(game: "Game", viewer: str, uid: str) -> bool:
    sc = game.scenario
    s = game.state.units[uid]
    side = sc.units[uid].side
    if _sees_everything(viewer) or viewer == side:
        return True
    if sc.hide_enemy_reinforcements and s.status in (Status.OFFBOARD.value, Status.RETURNING.value):
        return False
    return True


def unit_view(game: "Game", viewer: str, uid: str) -> dict[str, Any]:
    sc = game.scenario
    s = game.state.units[uid]
    side = sc.units[uid].side
    out: dict[str, Any] = {
        "hex": s.hex, "status": s.status, "reduced": s.reduced, "disrupted": s.disrupted,
        "ineffective": s.ineffective, "moved": s.moved, "charging": s.charging, "attacked": s.attacked,
    }
    if s.status in (Status.OFFBOARD.value, Status.RETURNING.value):
        out["entry_turn"] = s.entry_turn
        out["entry_hex"] = s.entry_hex
    if s.provisional:
        if _sees_everything(viewer) or viewer == side:
            out["provisional"] = True
        else:
            nominal = next(p for p in sc.setup if p.unit == uid)
            out["hex"] = nominal.hex
            out["placement_hidden"] = True
    return out


def build_view(game: "Game", viewer: str) -> dict[str, Any]:
    from .core import Ctx

    sc = game.scenario
    st = game.state
    ctx = Ctx(sc, st, game.ruleset, game._dice)
    prompt: dict[str, Any] | None
    if st.phase == Phase.OVER.value:
        prompt = None
    elif st.decision is not None:
        d = st.decision
        prompt = {"side": d["side"], "kind": d["kind"], "rule": d["rule"], "text": d["text"],
                  "options": d["options"], "hexes": d.get("hexes", [])}
    else:
        rule, verb = game.ruleset.phase_prompt(st.phase)
        prompt = {"side": st.active, "kind": "phase", "rule": rule,
                  "text": f"{sc.sides[st.active].name}: {verb}", "options": []}
    view: dict[str, Any] = {
        "scenario": sc.id, "ruleset": game.ruleset.name, "viewer": viewer,
        "turn": st.turn, "turns": sc.turns, "turn_label": sc.turn_label(st.turn),
        "phase": st.phase, "active": st.active, "awaiting": game.awaiting, "prompt": prompt,
        "units": {uid: unit_view(game, viewer, uid) for uid in st.units if unit_visible(game, viewer, uid)},
        "squares": dict(st.squares), "replacements": dict(st.replacements), "control": dict(st.control),
        "points": game.ruleset.points(ctx), "seed_hash": game.seed_hash, "result": st.result,
        "combat": _combat_view(st.combat), "can_undo": {s: game.can_undo(s) for s in sc.side_order},
        "dice_rolled": st.dice_count,
    }
    if game.is_over:
        view["seed"] = game._seed
    return view


def _combat_view(c: dict[str, Any] | None) -> dict[str, Any] | None:
    if c is None:
        return None
    keys = ("kind", "attacker", "defender", "target", "attackers", "primary", "support", "defenders",
            "def_primary", "artillery", "result", "dice", "differential", "att_total", "def_total")
    return {k: c[k] for k in keys if k in c}


def filter_events(events: list[dict[str, Any]], viewer: str) -> list[dict[str, Any]]:
    """The log entries a viewer may read: entries marked for one side go to that side and the admin only."""
    out = []
    for e in events:
        only = e.get("visible_to")
        if only is not None and viewer != only and not _sees_everything(viewer):
            continue
        out.append(e)
    return out
