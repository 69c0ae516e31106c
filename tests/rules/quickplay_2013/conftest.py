"""Positions under the 2013 edition (seed 001): the builder and helpers are in play.py."""

from __future__ import annotations

import pytest

from .play import Position2013


@pytest.fixture
def pos() -> Position2013:
    """A blank 10x8 clear map with the test TEC under quickplay-2013, blue from the west (0104), red from the east."""
    return Position2013()
