"""Who may read what: the ONE rule deciding who may read an event (`event_visible`), the secrets a side may
keep (`audience`, `hidden_from_opponent`) and the tag every event gets as it is emitted (`tag_event`).

Every event passes this rule: the rules core tags each event as it is emitted (`tag_event`, called by
`Context.emit`, dice included), and `filter_events` applies it for every channel (views, patches,
history, answers, mail digests).  What a viewer sees of the state is built over it in views.py.

It reads only the scenario interface and the state, so the context the rules work in (core.py) and the
views (views.py) both stand on it without standing on each other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .model import ScenarioModel
from .state import STATUS_DEAD, STATUS_HIDDEN, STATUS_OFFBOARD, STATUS_RETURNING, GameState

SPECTATOR = "spectator"
ADMIN = "admin"

# Secrets a side may keep from its opponent (`audience`).
SECRET_SETUP = "setup"  # a 'w/1' placement before the side finishes its set-up (3.2, V23)
SECRET_REINFORCEMENTS = "reinforcements"  # off-map units and their schedule, 11.4 outcomes
SECRET_HIDDEN = "hidden"  # hidden movement: a box's units and which of its two markers is real (kernel/hidden.py)

_OFF_MAP_HIDDEN = (STATUS_OFFBOARD, STATUS_RETURNING)
_UNIT_FIELDS = ("unit", "units", "attackers", "defenders", "support", "artillery")


def sees_everything(viewer: str) -> bool:
    """The admin reads every event and every unit."""
    return viewer == ADMIN


# --- the one visibility rule -----------------------------------------------------------------
def event_visible(event: Mapping[str, Any], viewer: str) -> bool:
    """THE rule: an event tagged `visible_to` a side is for that side (and the admin) only."""
    only = event.get("visible_to")
    return only is None or viewer == only or sees_everything(viewer)


def audience(sc: ScenarioModel, side: str, secret: str) -> str | None:
    """Who may read events about `side`'s `secret`: the side alone, or None (everybody)."""
    if secret == SECRET_SETUP:
        return side
    if secret == SECRET_REINFORCEMENTS:
        return side if sc.hide_enemy_reinforcements else None
    if secret == SECRET_HIDDEN:
        return side  # always: the opponent may not examine the markers or the boxes until revealed
    raise ValueError(f"unknown secret {secret!r}")


def hidden_from_opponent(sc: ScenarioModel, st: GameState, uid: str) -> bool:
    """Whether the state of unit `uid` is its owner's secret now (in a hidden movement box; off the map
    and hidden, or the outcome of its step recovery)."""
    if uid not in st.units:
        return False
    status = st.units[uid].status
    if status == STATUS_HIDDEN:
        return True
    if not sc.hide_enemy_reinforcements:
        return False
    if status in _OFF_MAP_HIDDEN:
        return True
    return status == STATUS_DEAD and sc.units[uid].kind.is_combat


def _named_units(event: Mapping[str, Any]) -> Iterable[str]:
    for key in _UNIT_FIELDS:
        value = event.get(key)
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, str))


def tag_event(sc: ScenarioModel, st: GameState, event: dict[str, Any]) -> dict[str, Any]:
    """Give an event its audience (called for every event the rules core emits): an event that
    names a unit whose state is its owner's secret (a unit in a hidden movement box, too) is for the owner
    only."""
    if "visible_to" in event or not (sc.hide_enemy_reinforcements or sc.hidden_movement is not None):
        return event
    owners = {sc.units[u].side for u in _named_units(event) if u in sc.units and hidden_from_opponent(sc, st, u)}
    if len(owners) == 1:
        event["visible_to"] = owners.pop()
    elif owners:
        event["visible_to"] = ADMIN
    return event


def filter_events(events: list[dict[str, Any]], viewer: str) -> list[dict[str, Any]]:
    """The log entries a viewer may read (every channel: views, patches, history, answers, mails)."""
    return [e for e in events if event_visible(e, viewer)]
