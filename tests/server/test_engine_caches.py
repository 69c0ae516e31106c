"""server/services/engine.py: the per-process caches, in particular RecentCache, which lets the hub push
a change its own process committed without reading it back."""

from __future__ import annotations

from dataclasses import dataclass

from server.services.engine import EngineCache, RecentCache
from server.services.views import GameMeta


@dataclass
class Entry:
    seq: int


def meta(version: int, game_id: str = "g1") -> GameMeta:
    return GameMeta(id=game_id, version=version, status="active", visibility="private",
                    awaiting_since=None, result=None, ruleset="quickplay", seat_names=(("blue", "ann"), ("red", "bob")))


def test_recent_cache_serves_the_rows_a_viewer_lacks() -> None:
    cache = RecentCache()
    for version in (5, 6, 7):
        cache.put(meta(version), Entry(version))
    found = cache.lookup("g1", at_least=7, after=5)
    assert found is not None
    state, rows = found
    assert state.version == 7
    assert [r.seq for r in rows] == [6, 7]


def test_recent_cache_declines_when_a_row_in_between_was_written_elsewhere() -> None:
    cache = RecentCache()
    cache.put(meta(5), Entry(5))
    cache.put(meta(7), Entry(7))  # version 6 came from another process
    assert cache.lookup("g1", at_least=7, after=5) is None
    assert cache.lookup("g1", at_least=7, after=6) is not None


def test_recent_cache_declines_a_version_newer_than_it_holds() -> None:
    cache = RecentCache()
    cache.put(meta(5), Entry(5))
    assert cache.lookup("g1", at_least=6, after=4) is None


def test_recent_cache_never_replaces_a_newer_state_with_an_older_one() -> None:
    cache = RecentCache()
    cache.put(meta(8), Entry(8))
    cache.put(meta(7), Entry(7))
    found = cache.lookup("g1", at_least=7, after=7)
    assert found is not None and found[0].version == 8


def test_recent_cache_keeps_a_bounded_tail_of_rows() -> None:
    cache = RecentCache(entries=4)
    for version in range(1, 11):
        cache.put(meta(version), Entry(version))
    assert cache.lookup("g1", at_least=10, after=5) is None  # row 6 has been dropped
    found = cache.lookup("g1", at_least=10, after=6)
    assert found is not None and [r.seq for r in found[1]] == [7, 8, 9, 10]


def test_recent_cache_forgets_on_drop_and_beyond_capacity() -> None:
    cache = RecentCache(capacity=2)
    cache.put(meta(1, "a"), Entry(1))
    cache.put(meta(1, "b"), Entry(1))
    cache.put(meta(1, "c"), Entry(1))
    assert cache.lookup("a", at_least=1, after=0) is None
    cache.drop("b")
    assert cache.lookup("b", at_least=1, after=0) is None
    assert cache.lookup("c", at_least=1, after=0) is not None


def test_engine_cache_take_removes_so_a_failed_command_cannot_leave_a_half_changed_engine() -> None:
    cache = EngineCache()
    engine = object()
    cache.put("g1", 3, engine)
    assert cache.get("g1", 4) is None
    assert cache.take("g1", 3) is engine
    assert cache.get("g1", 3) is None


def test_a_seat_of_a_live_game_is_known_without_a_read_and_nobody_else_is() -> None:
    """`CommandService.live_seat` (the websocket handshake's shortcut): a player of a game this process serves
    live is that side's seat; a stranger, an admin without a seat, a game not held here and an anonymous
    caller all get None, so the handshake asks the row (`access.resolve_viewer`)."""
    from server.models import User
    from server.services.access import Viewer
    from server.services.wiring import GameServices

    service = GameServices.build(scenario_registry=None).commands
    service.store.recent.seed(GameMeta(id="g1", version=3, status="active", visibility="private", awaiting_since=None,
                                       result=None, ruleset="quickplay", seat_names=(("blue", "ann"), ("red", "bob")),
                                       seat_ids=(("blue", 1), ("red", 2))))
    bob = User(id=2, username="bob", is_admin=False)
    assert service.live_seat("g1", bob) == Viewer("seat", "red", 2)
    assert service.live_seat("g1", User(id=3, username="eve", is_admin=False)) is None
    assert service.live_seat("g1", User(id=4, username="root", is_admin=True)) is None
    assert service.live_seat("g2", bob) is None
    assert service.live_seat("g1", None) is None
