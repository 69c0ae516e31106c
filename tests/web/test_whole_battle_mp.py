"""The whole battle of `mp-lindau` (Musket & Pike, issue 43) through the page, as test_whole_battle.py plays every
shipped battle: every command the engine offers (moves with their facing, faces, leaders' rides, fire and Salvo,
Reform, modes, Rally, close combats, End segment) and every decision (orders changes, activations, preemption,
continuation, interception, reactions, pistols, retreats, advances, facings, leaders' placements) given by clicks
alone, to the battle's end; the downloaded record verifies with `vedette replay`, its d10s included. A file of its
own so that `make test`'s two workers (--dist loadfile) play it beside the other battles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_whole_battle import MP, play_whole_battle

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.whole_battle]


@pytest.mark.timeout(1200)
@pytest.mark.parametrize("run_id", MP)
def test_whole_musket_and_pike_battle_through_the_page(run_id: str, open_page: Any, live_server: Any,
                                                        artifacts: Path) -> None:
    play_whole_battle(run_id, open_page, live_server, artifacts)
