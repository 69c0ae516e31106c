"""The whole battle of `standard-1866` through the page (issue 37), as test_whole_battle.py plays every shipped battle:
its historical set-up and its free set-up (17.3), by clicks alone. A file of its own so that `make test`'s two
workers (--dist loadfile) play it beside the other battles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_whole_battle import ELSEWHERE, play_whole_battle

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.whole_battle]


@pytest.mark.timeout(1500)
@pytest.mark.parametrize("run_id", ELSEWHERE)
def test_whole_battle_of_standard_1866_through_the_page(run_id: str, open_page: Any, live_server: Any,
                                                         artifacts: Path) -> None:
    play_whole_battle(run_id, open_page, live_server, artifacts)
