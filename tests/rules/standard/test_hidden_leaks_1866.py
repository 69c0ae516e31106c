"""19.8 A and 17.2 on the shipped battle `standard-1866` (issue 37): a hundred random games, and nothing the Prussian
player or a spectator may read tells what Austria's box A holds, which of its two markers is real, or where Austria
placed a unit before it ended its set-up.

Every command is checked in every channel the rules core gives a non-owner: the views (`Game.view`), the events it
may read (`filter_events`: what the server's answers, patches, history and mails carry), the undo answers, the history
(`Game.replay_to` at sampled versions), the scenario file (`scenario_json_for`) and the bots' belief game
(`belief_state_json`, what the Prussian bot plays on). Two differential checks besides the text scan:

* a twin game whose real marker is the other one, played with the same commands until the first reveal: everything
  Prussia and a spectator read is the same in both (nothing depends on which marker is real);
* during Austria's set-up (17.2, secret until it ends it), Prussia's view stays what it was when the set-up began,
  but for Austria's right to take a placement back and the flag that says a unit's placement is hidden.

The figures (games, commands, reveals, deployments, messages checked) are printed with `-s`
(docs/scenarios.md, "The Swiepwald, 3 July 1866").
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from server.bots.belief import belief_state_json
from server.rules import (
    Game,
    IllegalCommand,
    ScenarioError,
    filter_events,
    parse_scenario,
    scenario_json_for,
)
from server.rules.kernel.randomplayer import RandomPlayer
from server.rules.kernel.state import PHASE_SETUP, STATUS_HIDDEN

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[3]
PATH = ROOT / "scenarios" / "standard" / "standard-1866.json"
GAMES = int(__import__("os").environ.get("LEAK_GAMES", "100"))
MAX_COMMANDS = 400
HISTORY_SAMPLES = 2  # versions per game replayed from the log (`replay_to`)
READERS = ("prussia", "spectator")
OWNER = "austria"


def scenario_data(real: int = 1) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PATH.read_text("utf-8"))
    data["hidden_movement"]["boxes"][0]["real"] = real
    return data


DATA = scenario_data()
BOXED = tuple(DATA["hidden_movement"]["boxes"][0]["units"])
NAMES = {u["id"]: u["name"] for u in DATA["units"] if u["id"] in BOXED}
_NAME_RE = {uid: re.compile(rf"(?<![\w-]){re.escape(uid)}(?![\w-])|\b{re.escape(name)}\b")
            for uid, name in NAMES.items()}


def _secret(game: Game) -> set[str]:
    return {u for u in BOXED if game.state.units[u].status == STATUS_HIDDEN}


def _placed_secretly(game: Game) -> dict[str, str]:
    """Austria's units placed in its set-up and not yet revealed (17.2): unit -> hex."""
    return {u: str(s.hex) for u, s in game.state.units.items()
            if s.provisional and game.scenario.units[u].side == OWNER}


def _leaks(what: Any, secret: set[str], placed: dict[str, str]) -> list[str]:
    text = json.dumps(what)
    out = [f"names boxed {u}" for u in secret if (u in text or NAMES[u] in text) and _NAME_RE[u].search(text)]
    if '"real"' in text:
        out.append("carries a real flag")
    if '"provisional": true' in text:
        out.append("carries a provisional placement")
    return out


def _placement_leaks(events: list[dict[str, Any]], placed: dict[str, str]) -> list[str]:
    """An event the reader may read that names a unit placed in secret together with its hex."""
    out = []
    for e in events:
        text = json.dumps(e)
        out += [f"event tells {u} at {h}: {e.get('text')}" for u, h in placed.items()
                if (u in text or e.get("unit") == u) and h in text]
    return out


def _markers_alike(view: dict[str, Any]) -> list[str]:
    by_box: dict[str, list[dict[str, Any]]] = {}
    for m in view.get("hidden", {}).get("markers", []):
        by_box.setdefault(m["box"], []).append({k: v for k, v in m.items() if k not in ("id", "hex", "moved")})
    return [f"box {b}'s markers differ" for b, ms in by_box.items() if any(m != ms[0] for m in ms)]


def _setup_view(view: dict[str, Any]) -> dict[str, Any]:
    """A view during the set-up, leaving out what may change with the owner's secret placements: its undo right
    and the flag saying a unit's placement is hidden (not where)."""
    out = {k: v for k, v in view.items() if k not in ("can_undo", "units")}
    out["units"] = {u: {k: v for k, v in d.items() if k != "placement_hidden"} for u, d in view["units"].items()}
    return out


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.problems: list[str] = []

    def check(self, where: str, problems: list[str]) -> None:
        self.counts["messages"] += 1
        self.problems += [f"{where}: {p}" for p in problems]


def _check_channels(game: Game, events: list[dict[str, Any]], tally: Tally, where: str) -> list[dict[str, Any]]:
    """Check what each reader reads now; returns their views."""
    secret, placed = _secret(game), _placed_secretly(game)
    views = game.views(list(READERS))
    for reader, view in zip(READERS, views, strict=True):
        tally.check(f"{where} {reader} view", _leaks(view, secret, placed) + _markers_alike(view))
        for uid, hex_ in placed.items():
            shown = view["units"].get(uid, {})
            if shown.get("hex") == hex_ or "facing" in shown:
                tally.check(f"{where} {reader} view", [f"shows {uid} placed at {hex_}"])
        readable = filter_events(events, reader)
        tally.counts["events"] += len(readable)
        tally.check(f"{where} {reader} events", _leaks(readable, secret, placed) + _placement_leaks(readable, placed))
    belief, _ = belief_state_json(game, "prussia")
    red = belief["extra"].get("hidden", {})
    problems = _leaks({k: v for k, v in belief.items() if k != "extra"}, secret, placed)
    problems += [f"belief box {b} holds {us}" for b, us in red.get("boxes", {}).items() if us]
    problems += [f"belief real marker {m}" for b, m in red.get("real", {}).items() if not m.endswith("1")]
    problems += [f"belief shows {u} at {h}" for u, h in placed.items() if belief["units"].get(u, {}).get("hex") == h]
    tally.check(f"{where} prussia's bot belief", problems)
    return views


def play_and_check(seed: int, tally: Tally) -> None:
    real = 1 + seed % 2
    sc, twin_sc = parse_scenario(scenario_data(real), "1866"), parse_scenario(scenario_data(3 - real), "1866")
    game_seed = f"leak-1866-seed-{seed:08d}"
    game, twin = Game.new(sc, game_seed), Game.new(twin_sc, game_seed)
    rng = random.Random(seed)
    player = RandomPlayer(rng)
    for reader in READERS:
        tally.check("scenario file", _leaks(scenario_json_for(sc, reader), set(BOXED), {}))
    setup_view = _setup_view(game.view("prussia")) if game.state.phase == PHASE_SETUP else None
    history = sorted(rng.sample(range(1, 120), HISTORY_SAMPLES))
    mirrored = True
    for _ in range(MAX_COMMANDS):
        if game.is_over:
            break
        side = game.awaiting
        assert side is not None
        cmd = player.choose(game, side)
        if rng.random() < 0.1 and game.can_undo(side):
            cmd = {"type": "undo"}
            tally.counts["undos"] += 1
        try:
            events = game.submit(side, cmd)
        except IllegalCommand as e:
            raise AssertionError(f"the random player's {cmd} was refused: {e}") from e
        tally.counts["commands"] += 1
        tally.counts["deployments"] += sum(e["type"] == "hm_deploy" for e in events)
        tally.counts["reveals"] += sum(e["type"] == "hm_reveal" for e in events)
        tally.counts["marker moves"] += sum(e["type"] == "hm_move" for e in events)
        if game.is_over:  # everybody may know everything now
            break
        views = _check_channels(game, events, tally, f"game {seed} v{game.version}")
        if setup_view is not None and game.state.phase == PHASE_SETUP:
            tally.check(f"game {seed} v{game.version} set-up", [] if _setup_view(views[0]) == setup_view
                        else ["Prussia's view changed with Austria's secret placements"])
        if mirrored:
            mirrored = _mirror(game, twin, views, side, cmd, events, tally, seed)
        if game.version in history:
            past = game.replay_to(game.version)
            tally.counts["history replays"] += 1
            _check_channels(past, [], tally, f"game {seed} history at v{game.version}")
    tally.counts["games"] += 1
    tally.counts["games with a reveal"] += bool(game.state.extra["hidden"]["revealed"])


def _mirror(game: Game, twin: Game, views: list[dict[str, Any]], side: str, cmd: dict[str, Any], events: list[dict[str, Any]], tally: Tally,
            seed: int) -> bool:
    """The same command on the twin whose other marker is real: what Prussia and a spectator read is the same, until
    a box is revealed (then the real marker's hex is public). False once the twins part."""
    try:
        twin_events = twin.submit(side, cmd)
    except IllegalCommand as e:
        tally.check(f"game {seed} twin", [f"{cmd} was legal with one marker real and not the other: {e}"])
        return False
    if game.state.extra["hidden"]["revealed"] or twin.state.extra["hidden"]["revealed"]:
        return False
    tally.counts["twin commands"] += 1
    for reader, view, twin_view in zip(READERS, views, twin.views(list(READERS)), strict=True):
        problems = [] if view == twin_view else ["views differ with the other marker real"]
        if filter_events(events, reader) != filter_events(twin_events, reader):
            problems.append("events differ with the other marker real")
        tally.check(f"game {seed} v{game.version} twin {reader}", problems)
    return True


def test_19_8_A_17_2_a_hundred_random_games_of_standard_1866_leak_nothing() -> None:
    tally = Tally()
    for seed in range(GAMES):
        play_and_check(seed, tally)
    print(f"\nstandard-1866 leak check: {dict(tally.counts)}; leaks: {len(tally.problems)}")
    assert tally.counts["reveals"] and tally.counts["deployments"], "the games should reveal box A (19.8 D-E)"
    assert tally.problems == [], "\n".join(tally.problems[:20])


def test_19_8_A_the_scenario_file_names_no_boxed_unit_to_prussia_or_a_spectator() -> None:
    sc = parse_scenario(copy.deepcopy(DATA), "1866")
    for reader in READERS:
        assert _leaks(scenario_json_for(sc, reader), set(BOXED), {}) == []
    assert _leaks(scenario_json_for(sc, OWNER), set(BOXED), {}) != []


def test_19_8_A_a_briefing_naming_a_boxed_unit_is_refused() -> None:
    data = copy.deepcopy(DATA)
    data["briefing"]["austria"] += " Fleischhacker waits behind the heights."
    with pytest.raises(ScenarioError, match=r"briefing\.austria.*Fleischhacker.*19\.8 A"):
        parse_scenario(data, "1866")
    data = copy.deepcopy(DATA)
    data["designer_notes"] = "Box A holds a-ir61."
    with pytest.raises(ScenarioError, match=r"designer_notes.*a-ir61"):
        parse_scenario(data, "1866")
