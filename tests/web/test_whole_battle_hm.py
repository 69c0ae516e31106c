"""The whole battle of `hm-hochdorf` (Horse and Musket, issue 42) through the page, as test_whole_battle.py plays every
shipped battle: every command the engine offers (rallies, cards, charges and the defender's reaction, moves, generals'
rides, fire, End step) given by clicks alone, to the battle's end. A file of its own so that `make test`'s two workers
(--dist loadfile) play it beside the other battles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_whole_battle import HM, play_whole_battle

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.whole_battle]


@pytest.mark.timeout(2400)
@pytest.mark.parametrize("run_id", HM)
def test_whole_horse_and_musket_battle_through_the_page(run_id: str, open_page: Any, live_server: Any,
                                                         artifacts: Path) -> None:
    play_whole_battle(run_id, open_page, live_server, artifacts)
