"""Standing orders: answers a player sets in advance, submitted on their behalf while they are away.

The service's normal command path submits the proposed `choose` (so it is logged,
broadcast and replayable), with a `standing_order` note as the first event of its
log entry. "Away" means no open player websocket for that seat (see presence.py).
The command id is the same for every settler of one game version (so two racing settlers are
harmless: one applies, the other finds the version moved on) but unpredictable without the
secret key (`standing_order_id`): nobody can guess it, and ids are each seat's own anyway.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from typing import Any

from ..errors import ApiError
from .compose import STANDING_ORDER_EVENT
from .context import NotifyContext
from .hooks import seat_user
from .models import StandingOrders

log = logging.getLogger(__name__)

MAX_CHAIN = 30
ORDER_NOUNS = {"retreat": "retreats", "advance": "advances", "counterattack": "counterattacks",
               "defenders": "defending units", "loss": "step losses"}


def standing_order_id(secret_key: str, game_id: str, version: int) -> str:
    """The id of the standing-order command for a game at `version`: an HMAC, so settlers in
    every process agree on it and nobody without the key can predict it."""
    digest = hmac.new(secret_key.encode(), f"standing-order:{game_id}:{version}".encode(), hashlib.sha256)
    return f"standing-order-{digest.hexdigest()[:32]}"


def note_event(side_name: str, name: str, decision: dict[str, Any], option: dict[str, Any], side: str) -> dict[str, Any]:
    rule = decision.get("rule", "")
    label = option.get("label") or option.get("id")
    noun = ORDER_NOUNS.get(name, name)
    return {
        "type": STANDING_ORDER_EVENT,
        "text": f"{rule}: {side_name}'s standing order for {noun} decides: {label}".lstrip(": "),
        "side": side, "order": name, "rule": rule,
    }


async def settle(rt: NotifyContext, game_id: str) -> int:
    """Answer, one by one, every pending decision the away side's standing orders cover. Returns how many."""
    done = 0
    async with rt.game_lock(game_id):
        for _ in range(MAX_CHAIN):
            step = await _settle_one(rt, game_id)
            if step is None:
                break
            done += 1
            if rt.hub is not None:
                await rt.hub.publish(game_id, step)
    return done


async def _settle_one(rt: NotifyContext, game_id: str) -> int | None:
    commands = rt.commands
    async with rt.sessionmaker() as session:
        try:
            # The process's live game (no read when it holds it: a player leaving a game it serves).
            meta, engine_game, _ = await commands.live_game(session, game_id)
        except ApiError:
            return None
        if meta.status != "active":
            return None
        side = engine_game.awaiting
        decision = engine_game.state.decision
        if side is None or decision is None:
            return None
        orders = await session.get(StandingOrders, (game_id, side), populate_existing=True)
        if orders is None:
            return None
        pick = rt.standing_order_choice(engine_game, orders.orders)
        if pick is None:
            return None
        if await rt.presence.is_online(session, game_id, side):
            return None
        user = await seat_user(session, game_id, side)
        if user is None:
            return None
        option_id, name = pick
        option = next((o for o in decision["options"] if o["id"] == option_id), {"id": option_id})
        side_name = engine_game.scenario.sides[side].name
        note = note_event(side_name, name, decision, option, side)
        version = meta.version
        try:
            answer, applied = await commands.submit(
                session, game_id, user, {"type": "choose", "option": option_id}, version,
                standing_order_id(rt.settings.secret_key, game_id, version), note_events=[note],
            )
        except ApiError as exc:
            log.warning("standing order for %s in %s not applied: %s", side, game_id, exc.message)
            return None
        if not applied:
            return None
        log.info("standing order %s decided %r for %s in game %s", name, option_id, side, game_id)
        return int(answer["version"])
