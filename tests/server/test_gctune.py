"""server/gctune.py: the serving process trades automatic full collections for paced ones, and gives
the interpreter its own collector back when the app stops."""

from __future__ import annotations

import asyncio
import gc

from server.gctune import GcPacer


def test_a_running_pacer_freezes_startup_objects_and_stops_automatic_full_collections() -> None:
    before = gc.get_threshold()

    async def scenario() -> tuple[tuple[int, int, int], int]:
        pacer = GcPacer(interval=60)
        pacer.start()
        try:
            return gc.get_threshold(), gc.get_freeze_count()
        finally:
            await pacer.stop()

    during, frozen = asyncio.run(scenario())
    assert during[:2] == before[:2]
    assert during[2] >= 1_000_000
    assert frozen > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_the_pacer_collects_on_its_interval() -> None:
    async def scenario() -> int:
        pacer = GcPacer(interval=0.02)
        pacer.start()
        try:
            await asyncio.sleep(0.3)
            return pacer.collections
        finally:
            await pacer.stop()

    assert asyncio.run(scenario()) >= 3


def test_the_collector_is_restored_only_when_the_last_of_several_apps_stops() -> None:
    before = gc.get_threshold()

    async def scenario() -> list[tuple[int, int, int]]:
        first, second = GcPacer(interval=60), GcPacer(interval=60)
        first.start()
        second.start()
        await first.stop()
        seen = [gc.get_threshold()]
        await second.stop()
        seen.append(gc.get_threshold())
        return seen

    while_second_runs, after_both = asyncio.run(scenario())
    assert while_second_runs[2] >= 1_000_000
    assert after_both == before


def test_interval_zero_leaves_the_collector_alone() -> None:
    before = gc.get_threshold()

    async def scenario() -> tuple[tuple[int, int, int], bool]:
        pacer = GcPacer(interval=0)
        pacer.start()
        try:
            return gc.get_threshold(), pacer.active
        finally:
            await pacer.stop()

    assert asyncio.run(scenario()) == (before, False)


def test_the_middle_generation_threshold_is_set_while_the_pacer_runs_and_restored_after() -> None:
    before = gc.get_threshold()

    async def scenario() -> tuple[int, int, int]:
        pacer = GcPacer(interval=60, middle=2)
        pacer.start()
        try:
            return gc.get_threshold()
        finally:
            await pacer.stop()

    during = asyncio.run(scenario())
    assert during[0] == before[0] and during[1] == 2 and during[2] >= 1_000_000
    assert gc.get_threshold() == before


def test_the_young_generation_threshold_is_set_while_the_pacer_runs_and_restored_after() -> None:
    before = gc.get_threshold()

    async def scenario() -> tuple[int, int, int]:
        pacer = GcPacer(interval=60, middle=3, young=100)
        pacer.start()
        try:
            return gc.get_threshold()
        finally:
            await pacer.stop()

    assert asyncio.run(scenario())[:2] == (100, 3)
    assert gc.get_threshold() == before


def test_the_service_collects_young_objects_more_often_than_cpython_by_default() -> None:
    from server.config import Settings

    settings = Settings()
    assert (settings.gc_young_threshold, settings.gc_middle_threshold) == (100, 3)
