"""Horse and Musket's invariants (invariants.py): each check finds its planted violation (R16.3, R16.4, R16.5,
R16.10, R16.13, R16.15, R16.19) and a sound position passes."""

from __future__ import annotations

from server.rules.horse_and_musket import invariants

from .builder import Board, step


def _board() -> Board:
    return Board().unit("b", "blue", "co", "0610").unit("r", "red", "co", step("0610", "N", "N"), facing="S")


def test_a_sound_position_passes() -> None:
    assert invariants.check(_board().game(), []) == []


def test_each_planted_violation_is_found() -> None:
    g = _board().game()
    g.state.units["r"].hex = "0610"
    assert any("two units" in p for p in invariants.check(g, []))
    g = _board().game()
    g.state.extra["units"]["b"]["hits"] = 6
    g.state.extra["units"]["r"]["formation"] = "ranks"
    g.state.units["b"].facing = "NNE"
    found = invariants.check(g, [])
    assert any("hits" in p for p in found) and any("formation" in p for p in found)
    assert any("facing" in p for p in found)
    g = _board().game()
    g.state.extra["cards"]["sides"]["blue"]["deck"].pop()
    g.state.extra["contacts"] = [{"charger": "b", "target": "r", "counter": False, "river": False, "card": False}]
    found = invariants.check(g, [{"type": "card_drawn", "side": "blue", "card": "volley", "text": ""}])
    assert any("whole deck" in p for p in found) and any("not in contact" in p for p in found)
    assert any("not private" in p for p in found)
