"""19.4 Rain (seed 002) as a mechanism a Standard scenario may use: the weather states, the Rain Table the seed
refers to ("the Rain Table on the map") but does not print, designed in S50 (docs/rulings.md), the scenario's
optional `weather` block, and what each state does.

* States: `clear` (no effect on play), `light` (Light Rain), `heavy` (Heavy Rain).
* 3.2, 19.4: in the Game Turn marker phase the next turn's weather is determined: the scenario's fixed weather for
  that turn (`forced`), else one die read on the Rain Table's row for the current weather (phases.py rolls it).
* Light Rain: the line of sight reaches 6 hexes, one more for artillery firing from a hill (8.7) and two more for
  fieldworks (19.6).  The fieldworks are not scenario data yet, so their bonus is a hook in the weather block
  (`fieldworks`: the side, optionally the army, and the hexes whose artillery gains it when bombarding; never in
  support, 19.6); 19.6's range and attack bonus and its protected hexsides are not modelled here.
* Heavy Rain: the line of sight reaches at most 4 hexes whatever the bonus, and no unit moves more than 4 MP.

Pure rule functions over plain values: bombard.py limits the line of sight, moving.py caps the MP, phases.py rolls,
ruleset.py puts the weather in the view.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from ..kernel.hexes import HexGrid
from ..kernel.scenario import unknown_fields

CLEAR = "clear"
LIGHT = "light"
HEAVY = "heavy"
STATES = (CLEAR, LIGHT, HEAVY)
NAMES = {CLEAR: "Clear", LIGHT: "Light Rain", HEAVY: "Heavy Rain"}

LIGHT_RAIN_LOS = 6  # 19.4
HILL_LOS = 1  # 19.4 with 8.7
FIELDWORKS_LOS = 2  # 19.4 with 19.6
HEAVY_RAIN_LOS = 4  # 19.4: an absolute maximum
HEAVY_RAIN_MP = 4  # 19.4: no unit may move more than four MP

# S50: the Rain Table, current weather -> the next turn's weather for a die of 1..6.  Rain all day, from downpour to
# drizzle: rain follows rain, a clear spell is short, a downpour slackens to drizzle before it clears.
DEFAULT_TABLE: Mapping[str, tuple[str, ...]] = {
    CLEAR: (CLEAR, CLEAR, LIGHT, LIGHT, LIGHT, HEAVY),
    LIGHT: (CLEAR, LIGHT, LIGHT, LIGHT, HEAVY, HEAVY),
    HEAVY: (LIGHT, LIGHT, LIGHT, HEAVY, HEAVY, HEAVY),
}

FIELDS = ("start", "table", "forced", "fieldworks")
FIELDWORKS_FIELDS = ("side", "army", "hexes")


@dataclass(frozen=True, slots=True)
class Fieldworks:
    """19.6 as far as 19.4 needs it: the artillery of `side` (of `army`, when named) bombarding from one of `hexes`."""

    side: str
    army: str | None
    hexes: frozenset[str]


@dataclass(frozen=True, slots=True)
class WeatherRules:
    """A scenario's weather (19.4, S50): turn 1's weather, the Rain Table, the turns whose weather is fixed."""

    start: str
    table: Mapping[str, tuple[str, ...]]
    forced: Mapping[int, str]
    fieldworks: Fieldworks | None = None

    def next_weather(self, now: str, die: int) -> str:
        """19.4: the Rain Table's result for the current weather and a die of 1..6."""
        return self.table[now][die - 1]

    def fixed(self, turn: int) -> str | None:
        """The scenario's weather for `turn` when fixed (turn 1's is `start`), else None (rolled)."""
        return self.start if turn == 1 else self.forced.get(turn)


# --- what each state does -----------------------------------------------------------------------------------------
def los_limit(weather: str, *, hill: bool = False, fieldworks: bool = False) -> int | None:
    """19.4: the longest line of sight the weather allows (None: no limit of its own).  Light Rain: 6, +1 from a hill
    (8.7), +2 from fieldworks (19.6); Heavy Rain: 4 whatever the bonus."""
    if weather == LIGHT:
        return LIGHT_RAIN_LOS + (HILL_LOS if hill else 0) + (FIELDWORKS_LOS if fieldworks else 0)
    if weather == HEAVY:
        return HEAVY_RAIN_LOS
    return None


def los_refusal(weather: str, distance: int, *, hill: bool = False, fieldworks: bool = False) -> str | None:
    """19.4: why a target `distance` hexes away is out of sight in this weather ("19.4: ..."), None when it is not."""
    limit = los_limit(weather, hill=hill, fieldworks=fieldworks)
    if limit is None or distance <= limit:
        return None
    if weather == HEAVY:
        return (f"19.4: in Heavy Rain the line of sight reaches at most {limit} hexes whatever the bonus, and the "
                f"target is {distance} hexes away")
    bonus = [b for b, on in (("one for a hill, 8.7", hill), ("two for fieldworks, 19.6", fieldworks)) if on]
    extra = f" ({LIGHT_RAIN_LOS} and {' and '.join(bonus)})" if bonus else ""
    return f"19.4: in Light Rain the line of sight reaches {limit} hexes{extra}, and the target is {distance} hexes away"


def mp_cap(weather: str) -> int | None:
    """19.4: the most MP any unit may move in this weather (None: no cap)."""
    return HEAVY_RAIN_MP if weather == HEAVY else None


def mp_refusal(spent_mp: float) -> str:
    return (f"in Heavy Rain no unit may move more than {HEAVY_RAIN_MP} MP, and this move costs {spent_mp:g} MP")


def effects(weather: str) -> str:
    """19.4 in words, for the view and the page."""
    if weather == LIGHT:
        return (f"line of sight at most {LIGHT_RAIN_LOS} hexes (+{HILL_LOS} from a hill, 8.7; +{FIELDWORKS_LOS} "
                "from fieldworks, 19.6)")
    if weather == HEAVY:
        return (f"line of sight at most {HEAVY_RAIN_LOS} hexes whatever the bonus; no unit moves more than "
                f"{HEAVY_RAIN_MP} MP")
    return "no effect on play"


def view(rules: WeatherRules, now: str, turn: int, turns: int) -> dict[str, Any]:
    """Standard's view of the weather (visible to all): now, its effects, and the next turn's when fixed."""
    nxt = rules.fixed(turn + 1) if turn < turns else None
    return {"now": now, "name": NAMES[now], "effects": effects(now), "rule": "19.4",
            "los": los_limit(now), "mp": mp_cap(now), "next": nxt, "next_name": NAMES[nxt] if nxt else None}


# --- the scenario's `weather` block -------------------------------------------------------------------------------
def field_problems(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A field of the weather block the format does not know (a misspelt `forced` would leave the turns unfixed)."""
    w = data.get("weather")
    if not isinstance(w, Mapping):
        return []
    out = unknown_fields(w, FIELDS, "weather", "a weather field")
    if isinstance(w.get("fieldworks"), Mapping):
        out += unknown_fields(w["fieldworks"], FIELDWORKS_FIELDS, "weather.fieldworks", "a weather field")
    return out


def parse_weather(raw: Mapping[str, Any] | None, turns: int, sides: Collection[str], armies: Collection[str],
                  grid: HexGrid, bad: Callable[[str, str], None]) -> WeatherRules | None:
    """The schema-valid `weather` block (None: the scenario has no weather, 19.4 does not apply)."""
    if raw is None:
        return None
    forced: dict[int, str] = {}
    for key, state in raw.get("forced", {}).items():
        turn = int(key)
        if turn == 1:
            bad(f"weather.forced.{key}", "turn 1's weather is the block's 'start'")
        elif not 2 <= turn <= turns:
            bad(f"weather.forced.{key}", f"turn {turn} is not a turn of the game (1-{turns})")
        else:
            forced[turn] = state
    works = None
    fw = raw.get("fieldworks")
    if fw is not None:
        if fw["side"] not in sides:
            bad("weather.fieldworks.side", f"side '{fw['side']}' is not one of {list(sides)}")
        if fw.get("army") is not None and fw["army"] not in armies:
            bad("weather.fieldworks.army", f"army '{fw['army']}' is not an army of the scenario")
        for i, h in enumerate(fw["hexes"]):
            if h not in grid:
                bad(f"weather.fieldworks.hexes[{i}]", f"hex {h} is not on the {grid.columns}x{grid.rows} map")
        works = Fieldworks(fw["side"], fw.get("army"), frozenset(fw["hexes"]))
    table = {s: tuple(r) for s, r in raw["table"].items()} if "table" in raw else DEFAULT_TABLE
    return WeatherRules(raw["start"], table, forced, works)
