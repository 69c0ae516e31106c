"""Horse and Musket's invariants, checked by the simulator after every command besides the kernel's
(kernel/invariants.py): one unit to a hex (R16.3), facings and formations (R16.4, R16.5), hits within 0-5 (R16.15),
generals never among enemies (R16.3), deployed guns never moving, engaged pairs adjacent (R16.13), the decks whole
and hands within the limit (R16.10), every drawn card private to its owner (R16.19), the army break obeyed
(R16.18)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..kernel import cards as kcards
from ..kernel.facing import Direction
from ..kernel.state import PHASE_OVER, STATUS_MAP
from .context import HMCtx
from .tables import DECK, FORMATIONS, HAND_LIMIT, Kind
from .victory import broken

if TYPE_CHECKING:
    from ..kernel.game import Game


def check(game: Game, events: list[dict[str, Any]]) -> list[str]:
    ctx = HMCtx.of(game)
    st = game.state
    out: list[str] = []
    held: dict[str, str] = {}
    for uid, s in st.units.items():
        if s.status != STATUS_MAP:
            continue
        d = ctx.d(uid)
        assert s.hex is not None
        if d.kind is Kind.GENERAL:
            if ctx.enemy_unit_at(s.hex, d.side):
                out.append(f"{uid}: a general in a hex with an enemy unit (R16.3)")
            continue
        if s.hex in held:
            out.append(f"{s.hex}: two units, {held[s.hex]} and {uid} (R16.3)")
        held[s.hex] = uid
        if s.facing not in Direction.__members__:
            out.append(f"{uid}: facing {s.facing!r} is not a hexside (R16.4)")
        info = st.extra["units"].get(uid, {})
        if info.get("formation") not in FORMATIONS[d.kind]:
            out.append(f"{uid}: formation {info.get('formation')!r} is not one of its type's (R16.5)")
        if not 0 <= int(info.get("hits", -1)) <= 5:
            out.append(f"{uid}: {info.get('hits')} hits (R16.15: 0-5, then staggered or routed)")
    for c in st.extra.get("contacts", []):
        a, b = c["charger"], c["target"]
        if not (ctx.on_map(a) and ctx.on_map(b)) or not ctx.sc.grid.is_adjacent(ctx.hex_of(a), ctx.hex_of(b)):
            out.append(f"engaged {a} and {b} are not in contact (R16.13)")
    want = Counter(DECK)
    for side in ctx.sc.side_order:
        piles = [kcards.pile(st.extra, side, k) for k in ("hand", "deck", "discard")]
        if Counter(c for p in piles for c in p) != want:
            out.append(f"{side}'s cards are not its whole deck (R16.10)")
        if len(piles[0]) > HAND_LIMIT:
            out.append(f"{side} holds {len(piles[0])} cards (R16.10: at most {HAND_LIMIT})")
    for e in events:
        if e.get("type") == "card_drawn" and e.get("visible_to") != e.get("side"):
            out.append(f"a drawn card is not private to its owner: {e}")
        if e.get("type") == "dice" and e.get("purpose") == "card drawn" and e.get("visible_to") != e.get("side"):
            out.append("a card draw's dice are not private to its owner (R16.19)")
    if st.phase != PHASE_OVER and broken(ctx) and st.extra.get("step") in ("rally", "command"):
        out.append("an army broken at the end of a player turn plays on (R16.18: no loss comes before the charges)")
    return out
