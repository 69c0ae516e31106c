"""19.8 A and 17.2 on the whole battle `koniggratz` (issue 40): random games in which Austria hides I, VI and VIII
Corps and the reserve cavalry with the artillery reserve in the four boxes at its set-up (19.8 B, S76, S86), and
nothing the Prussian player or a spectator may read tells what a box holds, which marker is real, or where Austria
placed a unit before it ended its set-up.

Every command is checked in every channel the rules core gives a non-owner (leakcheck.py): the views, the events
they may read, the undo answers, the history (`Game.replay_to` at sampled versions), the scenario file
(`scenario_json_for`) and the Prussian bot's belief game; and a twin game, fed the same commands with every box's
other marker real, gives Prussia and a spectator the same views and events until the first reveal.  The figures are
printed with `-s` (docs/scenarios.md, "Königgrätz, 3 July 1866").
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from server.rules import Game, parse_scenario, scenario_json_for
from server.rules.kernel.state import PHASE_SETUP, STATUS_MAP

from .leakcheck import OWNER, READERS, Tally, boxed, leaks, play_and_tally, setup_view

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[3]
PATH = ROOT / "scenarios" / "standard" / "koniggratz.json"
GAMES = int(__import__("os").environ.get("LEAK_GAMES", "8"))  # `make test`; LEAK_GAMES=50 for issue 40's report
MAX_COMMANDS = 300
HISTORY_SAMPLES = 2
DATA: dict[str, Any] = json.loads(PATH.read_text("utf-8"))
NAMES = {u["id"]: u["name"] for u in DATA["units"] if u["side"] == OWNER}
# 19.8 B: the historical set-up's hideable formations, one box each (C and R share D), by their 17.2 places
BOXES = {"A": (("I",), "2420"), "B": (("VI",), "2824"), "C": (("VIII",), "1614"), "D": (("C", "R"), "2721")}
# 17.3's free set-up (odd games): the markers stand forward, a few hexes east of the Bistritz before First Army's
# and the Elbe Army's entry hexes, so that random Prussian moves come in sight of them and reveal them (19.8 D)
FORWARD = {"A": "4206", "B": "3207", "C": "1207", "D": "2707"}


def _secret(game: Game) -> set[str]:
    """The boxed units whose names nobody else may read.  During Austria's set-up a unit it boxed looks to the
    others exactly as a unit it placed does, not yet placed (S78): the set-up view check covers it there."""
    return boxed(game) if game.state.phase != PHASE_SETUP else set()


def _twin_command(cmd: dict[str, Any]) -> dict[str, Any]:
    """The twin's command: the same, but a box's markers with the other one real."""
    return {**cmd, "real": 3 - cmd["real"]} if cmd.get("type") == "hm_markers" else cmd


def _fill_boxes(game: Game, twin: Game, real: int, tally: Tally, free: bool) -> None:
    """Austria's set-up begins with every box filled and its markers placed by the formation's 17.2 place (under
    the free set-up, forward)."""
    sc = game.scenario
    for g in (game, twin):
        g.submit(OWNER, {"type": "place_printed"})
    for box, (forms, place) in BOXES.items():
        near = FORWARD[box] if free else place
        units = sorted(u for u, d in sc.units.items() if d.side == OWNER and d.formation in forms)
        for g in (game, twin):
            g.submit(OWNER, {"type": "hm_box", "box": box, "units": units})
        taken = {s.hex for s in game.state.units.values() if s.status == STATUS_MAP}
        taken |= {h for m in game.view(OWNER)["hidden"]["setup"]["markers"].values() for h in m["hexes"]}
        markers = [h for h in sorted(sc.grid.all_hexes(), key=lambda h: (sc.grid.distance(near, h), h))
                   if h not in taken and sc.grid.distance(near, h) <= 2][:2]
        for g, r in ((game, real), (twin, 3 - real)):
            g.submit(OWNER, {"type": "hm_markers", "box": box, "hexes": markers, "real": r})
        tally.counts["boxes filled"] += 1


def play_and_check(seed: int, tally: Tally) -> None:
    sc = parse_scenario(DATA, "koniggratz")
    game_seed = f"leak-koniggratz-seed-{seed:08d}"
    free = seed % 2 == 1
    options = {"free_setup": True} if free else None
    game, twin = Game.new(sc, game_seed, options=options), Game.new(sc, game_seed, options=options)
    rng = random.Random(seed)
    for reader in READERS:
        tally.check("scenario file", leaks(scenario_json_for(sc, reader), set(), NAMES))  # no box filled yet
    start_view = setup_view(game.view("prussia"))
    _fill_boxes(game, twin, 1 + seed // 2 % 2, tally, free)
    tally.check(f"game {seed} boxes filled", [] if setup_view(game.view("prussia")) == start_view
                else ["Prussia's view changed with Austria's secret boxes"])
    history = sorted(rng.sample(range(20, 200), HISTORY_SAMPLES))
    play_and_tally(game, twin, rng, tally, f"game {seed}", secret=_secret, names=NAMES, start_view=start_view,
                   history=history, limit=MAX_COMMANDS, twin_command=_twin_command)
    tally.counts["free set-ups"] += free


TALLY = Tally()


@pytest.mark.parametrize("seed", range(GAMES))
def test_19_8_A_17_2_a_random_game_of_koniggratz_leaks_nothing(seed: int) -> None:
    """One game a test (each well inside the suite's time limit); the figures add up in TALLY."""
    before = len(TALLY.problems)
    play_and_check(seed, TALLY)
    assert TALLY.problems[before:] == [], "\n".join(TALLY.problems[before:before + 20])


def test_19_8_D_E_the_games_revealed_boxes_and_the_totals() -> None:
    """Run after the games (pytest keeps a file's order): every box filled, some revealed and deployed."""
    print(f"\nkoniggratz leak check: {dict(TALLY.counts)}; leaks: {len(TALLY.problems)}")
    assert TALLY.counts["games"] == GAMES and TALLY.counts["boxes filled"] == 4 * GAMES
    assert TALLY.counts["reveals"] and TALLY.counts["deployments"], "the games should reveal boxes (19.8 D-E)"
    assert TALLY.problems == []


def test_19_8_A_the_scenario_file_names_no_austrian_unit_as_boxed() -> None:
    """The boxes start empty (S86): the file every reader gets lists no box contents and no real marker."""
    sc = parse_scenario(DATA, "koniggratz")
    for reader in (*READERS, OWNER):
        block = scenario_json_for(sc, reader)["hidden_movement"]
        assert all(not b.get("units") and "real" not in b for b in block["boxes"]), reader
