"""Standing orders (issue 6): answers a player sets in advance for small decisions.

The engine only *proposes* the answer; the service submits it as an ordinary
logged `choose` command on the absent player's behalf, so a game record replays
exactly without knowing which orders were in force.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel.core import Ctx

if TYPE_CHECKING:
    from ..kernel.game import Game

# order name -> the decision kind it answers, and the values it accepts ("ask" = never answer for me)
STANDING_ORDERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "retreat": ("retreat", ("ask", "longest_safe", "shortest_safe")),
    "advance": ("advance", ("ask", "never", "always_primary", "always")),
    "counterattack": ("counterattack", ("ask", "never")),
    "defenders": ("defenders", ("ask", "strongest")),
    "loss": ("loss", ("ask", "weakest")),
}
DEFAULT_ORDERS = {name: "ask" for name in STANDING_ORDERS}


def validate_orders(orders: Any) -> dict[str, str]:
    """Check a player's standing orders; raises ValueError naming the bad entry."""
    if not isinstance(orders, dict):  # ValueError, as for every other bad entry: the route answers each with a 422
        raise ValueError("standing orders must be an object of order name to choice")  # noqa: TRY004
    out = dict(DEFAULT_ORDERS)
    for name, value in orders.items():
        if name not in STANDING_ORDERS:
            raise ValueError(f"unknown standing order '{name}' (known: {', '.join(STANDING_ORDERS)})")
        allowed = STANDING_ORDERS[name][1]
        if value not in allowed:
            raise ValueError(f"standing order '{name}' may be one of {', '.join(allowed)}, not '{value}'")
        out[name] = value
    return out


def standing_order_choice(game: Game, orders: dict[str, str]) -> tuple[str, str] | None:
    """(option id, order name) that the side's standing orders pick for the pending decision, or None to ask."""
    d = game.state.decision
    if d is None:
        return None
    kind = d["kind"]
    name = next((n for n, (k, _) in STANDING_ORDERS.items() if k == kind), None)
    if name is None:
        return None
    value = orders.get(name, "ask")
    options = d["options"]
    if value == "ask" or not options:
        return None
    pick: dict[str, Any] | None = None
    if name == "retreat":
        safe = [o for o in options if o.get("safe")]
        pool = safe or options
        entry = game.scenario.all_entry_hexes[d["side"]]
        grid = game.scenario.grid

        def closeness(o: dict[str, Any]) -> tuple[int, int, str]:
            last = o["path"][-1]
            return (min(grid.distance(last, e) for e in entry), 0, o["id"])

        if value == "longest_safe":
            pick = max(pool, key=lambda o: (len(o["path"]), -closeness(o)[0], o["id"]))
        else:
            pick = min(pool, key=lambda o: (len(o["path"]), closeness(o)[0], o["id"]))
    elif name == "advance":
        stay = next((o for o in options if o.get("hex") is None), None)
        if value == "never":
            pick = stay
        else:
            combat = game.state.combat or {}
            unit = d.get("units", [None])[0]
            if value == "always_primary" and unit != combat.get("primary"):
                pick = stay
            else:
                target = combat.get("target")
                pick = next((o for o in options if o.get("hex") == target), None) or next(
                    (o for o in options if o.get("hex")), stay)
    elif name == "counterattack":
        pick = next((o for o in options if o.get("decline_all")), None)
    elif name == "defenders":
        pick = max(options, key=lambda o: (o.get("leader") is not None, len(o["units"]), o["id"]))
    elif name == "loss":
        ctx = Ctx.of(game)
        pick = min(options, key=lambda o: (ctx.factors(o["unit"]).attack + ctx.factors(o["unit"]).defense, o["id"]))
    if pick is None:
        return None
    return pick["id"], name
