"""The turn (3.3): five phases, the first player's movement and combat, the second player's, the turn marker; no
recovery phase (recovery ends the movement phase, 11.1)."""

from __future__ import annotations

from .conftest import Position2013
from .play import end_phase


def test_3_3_five_phases_and_no_recovery_phase(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0204")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    seen = []
    for _ in range(4):
        end_phase(game)
        seen.append((game.state.turn, game.state.active, game.state.phase))
    assert seen == [(1, "blue", "combat"), (1, "red", "movement"), (1, "red", "combat"), (2, "blue", "movement")]
    assert game.ruleset.phase_prompt("movement")[0] == "3.3"
