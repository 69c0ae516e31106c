"""The computer opponent on the shipped battle `standard-1866` (issue 37) plays without reading what its side may not
see: the Prussian bot chooses the same whichever of box A's two markers is real and whatever the box's units are
(reduced, disrupted: 19.8 A), and it cannot see where the Austrian bot placed its units before Austria ends its
set-up (17.2)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from server.bots import GreedyBot, belief_game
from server.bots.belief import belief_state_json
from server.rules import Game, parse_scenario
from server.rules.kernel.state import PHASE_SETUP

ROOT = Path(__file__).resolve().parents[2]
PATH = ROOT / "scenarios" / "standard" / "standard-1866.json"
SEED = "bot-1866-real-seed-0123456789abcdef"
BUDGET = 60.0  # seconds: greedy always completes its scan, so its choice depends on what it reads only
PRUSSIAN_PICKS = 6  # Prussian decisions whose greedy choice is compared across the variants (beliefs: every one)


def _game(real: int, weaken: bool = False) -> Game:
    data: dict[str, Any] = json.loads(PATH.read_text("utf-8"))
    data["hidden_movement"]["boxes"][0]["real"] = real
    game = Game.new(parse_scenario(data, str(PATH)), SEED)
    if weaken:  # what the box holds: reduced and disrupted units (their owner's secret while boxed)
        units = game.state.units
        units["a-ir6"].reduced = True
        units["a-ir61"].disrupted = True
        units["a-fj13"].reduced = units["a-fj13"].disrupted = True
    return game


def _belief(game: Game) -> str:
    return json.dumps(belief_state_json(game, "prussia")[0], sort_keys=True)


def _pick(game: Game, side: str) -> dict[str, Any]:
    return GreedyBot().choose(belief_game(game, side, random.Random(5)), side, random.Random(5), BUDGET)


def test_19_8_A_the_prussian_bot_chooses_the_same_whichever_marker_is_real_and_whatever_the_box_holds() -> None:
    variants = [_game(1), _game(2), _game(1, weaken=True), _game(2, weaken=True)]
    lead = variants[0]
    picks = beliefs = 0
    while not lead.is_over and not any(g.state.extra["hidden"]["revealed"] for g in variants):
        side = lead.awaiting
        assert side is not None
        if side == "prussia":
            assert len({_belief(g) for g in variants}) == 1, f"Prussia's belief differs at v{lead.version}"
            beliefs += 1
            if picks < PRUSSIAN_PICKS:
                chosen = [_pick(g, side) for g in variants]
                assert all(c == chosen[0] for c in chosen), chosen
                picks += 1
        cmd = _pick(lead, side)
        for g in variants:
            g.submit(side, cmd)
    assert picks == PRUSSIAN_PICKS and beliefs >= PRUSSIAN_PICKS


def test_17_2_the_prussian_bot_cannot_see_the_austrian_bots_placements_before_austria_ends_its_set_up() -> None:
    by_bot, printed = _game(1), _game(1)
    assert by_bot.state.phase == PHASE_SETUP and by_bot.awaiting == "austria"
    start = _belief(by_bot)
    printed.submit("austria", {"type": "place_printed"})
    placed = 0
    while by_bot.state.phase == PHASE_SETUP:
        cmd = _pick(by_bot, "austria")
        if cmd["type"] == "end_phase":
            break
        by_bot.submit("austria", cmd)
        placed += cmd["type"] in ("place", "place_printed")
        # the Prussian bot's game is the same as before Austria placed anything, and as if it had placed
        # every unit on its printed hex instead
        assert _belief(by_bot) == start == _belief(printed)
        hexes = {u: s.hex for u, s in by_bot.state.units.items() if s.provisional}
        seen = belief_state_json(by_bot, "prussia")[0]["units"]
        assert all(seen[u]["hex"] is None for u in hexes), hexes
    assert placed
    by_bot.submit("austria", {"type": "end_phase"})
    assert by_bot.state.phase != PHASE_SETUP
    assert _belief(by_bot) != start  # now the placements are public (17.2)


def test_19_8_b_a_unit_boxed_at_the_set_up_is_off_the_map_in_the_opponents_belief() -> None:
    """S78: a unit Austria boxes in its set-up is listed in the scenario Prussia reads but in no view after the set-up;
    the Prussian bot's game holds it as hidden (off the map, in some box) and plays on (it raised KeyError)."""
    game = Game.new(parse_scenario(json.loads(PATH.read_text())), "belief-1866-setup-boxing-0001")
    box_a = [u for u in game.scenario.hidden_movement.boxes[0].units]
    game.submit("austria", {"type": "hm_box", "box": "A", "units": [*box_a, "a-hu7"]})
    game.submit("austria", {"type": "place_printed"})
    game.submit("austria", {"type": "end_phase"})
    assert game.state.units["a-hu7"].status == "hidden"
    assert "a-hu7" not in game.view("prussia")["units"]
    belief = belief_game(game, "prussia", random.Random(1))
    assert belief.state.units["a-hu7"].status == "hidden" and belief.state.units["a-hu7"].hex is None
    assert list(belief.legal_commands("prussia", random.Random(1), 50))
    assert GreedyBot().choose(belief, "prussia", random.Random(1), 0.2)["type"]
