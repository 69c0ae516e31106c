"""The whole battle of Königgrätz through the page (issue 40), as test_whole_battle.py plays every shipped battle:
the Austrian set-up of 17.2 with its hidden-movement boxes, the Prussian arrivals of 17.4, ten turns to the end, by
clicks alone. A file of its own so that `make test`'s two workers (--dist loadfile) play it beside the other battles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_whole_battle import KONIGGRATZ, play_whole_battle

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.whole_battle]


@pytest.mark.timeout(1500)
@pytest.mark.parametrize("run_id", KONIGGRATZ)
def test_whole_battle_of_koniggratz_through_the_page(run_id: str, open_page: Any, live_server: Any,
                                                      artifacts: Path) -> None:
    play_whole_battle(run_id, open_page, live_server, artifacts)
