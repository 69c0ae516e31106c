"""The leak checks of 19.8 A and 17.2 for a shipped battle's random games (test_hidden_leaks_1866.py,
test_hidden_leaks_koniggratz.py): what a reader other than the owner may read must not name a boxed unit, say which
marker is real, or show a placement the owner made in its secret set-up.

Channels checked for each reader after a command: the view (`Game.view`), the events it may read (`filter_events`:
what the server's answers, patches, history and mails carry) and the reader's bot belief game (`belief_state_json`).
A twin game fed the same commands but with the other marker real must give the readers the same views and events.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

from server.bots.belief import belief_state_json
from server.rules import Game, IllegalCommand, filter_events
from server.rules.kernel.randomplayer import RandomPlayer
from server.rules.kernel.state import PHASE_SETUP, STATUS_HIDDEN

READERS = ("prussia", "spectator")
OWNER = "austria"


@cache
def _name_re(uid: str, name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(uid)}(?![\w-])|\b{re.escape(name)}\b")


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.problems: list[str] = []

    def check(self, where: str, problems: list[str]) -> None:
        self.counts["messages"] += 1
        self.problems += [f"{where}: {p}" for p in problems]


def boxed(game: Game) -> set[str]:
    """The owner's units in a box now (19.8 A: their identity is the owner's secret)."""
    return {u for u, s in game.state.units.items() if s.status == STATUS_HIDDEN}


def placed_secretly(game: Game) -> dict[str, str]:
    """The owner's units placed in its set-up and not yet revealed (17.2): unit -> hex."""
    return {u: str(s.hex) for u, s in game.state.units.items()
            if s.provisional and game.scenario.units[u].side == OWNER}


def leaks(what: Any, secret: set[str], names: Mapping[str, str]) -> list[str]:
    text = json.dumps(what)
    out = [f"names boxed {u}" for u in secret
           if (u in text or names[u] in text) and _name_re(u, names[u]).search(text)]
    if '"real"' in text:
        out.append("carries a real flag")
    if '"provisional": true' in text:
        out.append("carries a provisional placement")
    return out


def placement_leaks(events: list[dict[str, Any]], placed: dict[str, str]) -> list[str]:
    """An event the reader may read that names a unit placed in secret together with its hex."""
    out = []
    for e in events:
        text = json.dumps(e)
        out += [f"event tells {u} at {h}: {e.get('text')}" for u, h in placed.items()
                if (u in text or e.get("unit") == u) and h in text]
    return out


def markers_alike(view: dict[str, Any]) -> list[str]:
    by_box: dict[str, list[dict[str, Any]]] = {}
    for m in view.get("hidden", {}).get("markers", []):
        by_box.setdefault(m["box"], []).append({k: v for k, v in m.items() if k not in ("id", "hex", "moved")})
    return [f"box {b}'s markers differ" for b, ms in by_box.items() if any(m != ms[0] for m in ms)]


def setup_view(view: dict[str, Any]) -> dict[str, Any]:
    """A view during the set-up, leaving out what may change with the owner's secret placements: its undo right
    and the flag saying a unit's placement is hidden (not where)."""
    out = {k: v for k, v in view.items() if k not in ("can_undo", "units")}
    out["units"] = {u: {k: v for k, v in d.items() if k != "placement_hidden"} for u, d in view["units"].items()}
    return out


def check_channels(game: Game, events: list[dict[str, Any]], tally: Tally, where: str, secret: set[str],
                   names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Check what each reader reads now; returns their views."""
    placed = placed_secretly(game)
    views = game.views(list(READERS))
    for reader, view in zip(READERS, views, strict=True):
        tally.check(f"{where} {reader} view", leaks(view, secret, names) + markers_alike(view))
        for uid, hex_ in placed.items():
            shown = view["units"].get(uid, {})
            if shown.get("hex") == hex_ or "facing" in shown:
                tally.check(f"{where} {reader} view", [f"shows {uid} placed at {hex_}"])
        readable = filter_events(events, reader)
        tally.counts["events"] += len(readable)
        tally.check(f"{where} {reader} events", leaks(readable, secret, names) + placement_leaks(readable, placed))
    belief, _ = belief_state_json(game, "prussia")
    red = belief["extra"].get("hidden", {})
    problems = leaks({k: v for k, v in belief.items() if k != "extra"}, secret, names)
    problems += [f"belief box {b} holds {us}" for b, us in red.get("boxes", {}).items() if us]
    problems += [f"belief real marker {m}" for b, m in red.get("real", {}).items() if not m.endswith("1")]
    problems += [f"belief shows {u} at {h}" for u, h in placed.items() if belief["units"].get(u, {}).get("hex") == h]
    tally.check(f"{where} prussia's bot belief", problems)
    return views


def mirror(game: Game, twin: Game, views: list[dict[str, Any]], side: str, cmd: dict[str, Any],
           events: list[dict[str, Any]], tally: Tally, where: str,
           twin_command: Callable[[dict[str, Any]], dict[str, Any]] = lambda c: c) -> bool:
    """The same command (as `twin_command` gives it) on the twin whose other marker is real: what Prussia and a
    spectator read is the same, until a box is revealed (then the real marker's hex is public). False once the twins
    part."""
    try:
        twin_events = twin.submit(side, twin_command(cmd))
    except IllegalCommand as e:
        tally.check(f"{where} twin", [f"{cmd} was legal with one marker real and not the other: {e}"])
        return False
    if game.state.extra["hidden"]["revealed"] or twin.state.extra["hidden"]["revealed"]:
        return False
    tally.counts["twin commands"] += 1
    for reader, view, twin_view in zip(READERS, views, twin.views(list(READERS)), strict=True):
        problems = [] if view == twin_view else ["views differ with the other marker real"]
        if filter_events(events, reader) != filter_events(twin_events, reader):
            problems.append("events differ with the other marker real")
        tally.check(f"{where} twin {reader}", problems)
    return True


def random_play(game: Game, rng: random.Random, limit: int) -> Iterator[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    """The random player's commands (one in ten an undo where the side may take one back), each submitted: (side,
    command, events), until the game is over or `limit` commands were made."""
    player = RandomPlayer(rng)
    for _ in range(limit):
        if game.is_over:
            return
        side = game.awaiting
        assert side is not None
        cmd = player.choose(game, side)
        if rng.random() < 0.1 and game.can_undo(side):
            cmd = {"type": "undo"}
        try:
            events = game.submit(side, cmd)
        except IllegalCommand as e:
            raise AssertionError(f"the random player's {cmd} was refused: {e}") from e
        yield side, cmd, events


def play_and_tally(game: Game, twin: Game, rng: random.Random, tally: Tally, label: str, *,
                   secret: Callable[[Game], set[str]], names: Mapping[str, str], start_view: dict[str, Any] | None,
                   history: list[int], limit: int,
                   twin_command: Callable[[dict[str, Any]], dict[str, Any]] = lambda c: c) -> None:
    """A random game checked after every command in every channel (`check_channels`), Prussia's view during the
    owner's set-up against `start_view` (17.2), the twin while no box is revealed (`mirror`) and the history at the
    `history` versions (`Game.replay_to`)."""
    mirrored = True
    for side, cmd, events in random_play(game, rng, limit):
        tally.counts["commands"] += 1
        tally.counts["undos"] += cmd["type"] == "undo"
        tally.counts["deployments"] += sum(e["type"] == "hm_deploy" for e in events)
        tally.counts["reveals"] += sum(e["type"] == "hm_reveal" for e in events)
        tally.counts["marker moves"] += sum(e["type"] == "hm_move" for e in events)
        if game.is_over:  # everybody may know everything now
            break
        where = f"{label} v{game.version}"
        views = check_channels(game, events, tally, where, secret(game), names)
        if start_view is not None and game.state.phase == PHASE_SETUP:
            tally.check(f"{where} set-up", [] if setup_view(views[0]) == start_view
                        else ["Prussia's view changed with Austria's secret placements"])
        if mirrored:
            mirrored = mirror(game, twin, views, side, cmd, events, tally, where, twin_command)
        if game.version in history:
            past = game.replay_to(game.version)
            tally.counts["history replays"] += 1
            check_channels(past, [], tally, f"{label} history at v{game.version}", secret(past), names)
    tally.counts["games"] += 1
    tally.counts["games with a reveal"] += bool(game.state.extra["hidden"]["revealed"])
