"""The whole battle of the tutorial under Quick Play 2013 (issue 41) through the page, as test_whole_battle.py plays
every shipped battle: the edition picked in the lobby card's Rules select, then every command by clicks alone, the 2013
edition's own among them (11.1(2)'s roll of a disrupted unit's allowance, 7.5's retreat-or-disrupt and the owner's
option on Ax/Dx, 7.2's counterattacks, 9.3's squares, 9.2's charges). A file of its own so that `make test`'s two
workers (--dist loadfile) play it beside the other battles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_whole_battle import play_whole_battle

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.whole_battle]

# Salem Church under 2013 played through the page too when this was written (241 commands, its record verified), in
# 4.5 more minutes; `make test` plays the tutorial alone to stay within its 20-minute budget
RUNS = ["tutorial@quickplay-2013"]


@pytest.mark.timeout(1500)
@pytest.mark.parametrize("run_id", RUNS)
def test_whole_battle_under_quickplay_2013_through_the_page(run_id: str, open_page: Any, live_server: Any,
                                                            artifacts: Path) -> None:
    play_whole_battle(run_id, open_page, live_server, artifacts)
