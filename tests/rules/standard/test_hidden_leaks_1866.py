"""19.8 A and 17.2 on the shipped battle `standard-1866` (issue 37): seeded random games (30 in `make test`, LEAK_GAMES=100 for the full run), and nothing the Prussian
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
from pathlib import Path
from typing import Any

import pytest

from server.rules import Game, ScenarioError, parse_scenario, scenario_json_for
from server.rules.kernel.state import PHASE_SETUP, STATUS_HIDDEN

from .leakcheck import OWNER, READERS, Tally, leaks, play_and_tally, setup_view

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[3]
PATH = ROOT / "scenarios" / "standard" / "standard-1866.json"
GAMES = int(__import__("os").environ.get("LEAK_GAMES", "30"))  # `make test`; LEAK_GAMES=100 for the full report
MAX_COMMANDS = 400
HISTORY_SAMPLES = 2  # versions per game replayed from the log (`replay_to`)


def scenario_data(real: int = 1) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PATH.read_text("utf-8"))
    data["hidden_movement"]["boxes"][0]["real"] = real
    return data


DATA = scenario_data()
BOXED = tuple(DATA["hidden_movement"]["boxes"][0]["units"])
NAMES = {u["id"]: u["name"] for u in DATA["units"] if u["id"] in BOXED}


def _secret(game: Game) -> set[str]:
    return {u for u in BOXED if game.state.units[u].status == STATUS_HIDDEN}


def play_and_check(seed: int, tally: Tally) -> None:
    real = 1 + seed % 2
    sc, twin_sc = parse_scenario(scenario_data(real), "1866"), parse_scenario(scenario_data(3 - real), "1866")
    game_seed = f"leak-1866-seed-{seed:08d}"
    game, twin = Game.new(sc, game_seed), Game.new(twin_sc, game_seed)
    rng = random.Random(seed)
    for reader in READERS:
        tally.check("scenario file", leaks(scenario_json_for(sc, reader), set(BOXED), NAMES))
    start_view = setup_view(game.view("prussia")) if game.state.phase == PHASE_SETUP else None
    history = sorted(rng.sample(range(1, 120), HISTORY_SAMPLES))
    play_and_tally(game, twin, rng, tally, f"game {seed}", secret=_secret, names=NAMES, start_view=start_view,
                   history=history, limit=MAX_COMMANDS)


def test_19_8_A_17_2_seeded_random_games_of_standard_1866_leak_nothing() -> None:
    tally = Tally()
    for seed in range(GAMES):
        play_and_check(seed, tally)
    print(f"\nstandard-1866 leak check: {dict(tally.counts)}; leaks: {len(tally.problems)}")
    assert tally.counts["reveals"] and tally.counts["deployments"], "the games should reveal box A (19.8 D-E)"
    assert tally.problems == [], "\n".join(tally.problems[:20])


def test_19_8_A_the_scenario_file_names_no_boxed_unit_to_prussia_or_a_spectator() -> None:
    sc = parse_scenario(copy.deepcopy(DATA), "1866")
    for reader in READERS:
        assert leaks(scenario_json_for(sc, reader), set(BOXED), NAMES) == []
    assert leaks(scenario_json_for(sc, OWNER), set(BOXED), NAMES) != []


def test_19_8_A_a_briefing_naming_a_boxed_unit_is_refused() -> None:
    data = copy.deepcopy(DATA)
    data["briefing"]["austria"] += " Fleischhacker waits behind the heights."
    with pytest.raises(ScenarioError, match=r"briefing\.austria.*Fleischhacker.*19\.8 A"):
        parse_scenario(data, "1866")
    data = copy.deepcopy(DATA)
    data["designer_notes"] = "Box A holds a-ir61."
    with pytest.raises(ScenarioError, match=r"designer_notes.*a-ir61"):
        parse_scenario(data, "1866")
