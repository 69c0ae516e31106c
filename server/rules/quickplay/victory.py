"""Objective control and victory (3.4, and the scenario's victory rules, which the seed calls 14.0): the kernel's
mechanism (kernel/victory.py), which Quick Play scores with a returning unit counted as eliminated (V24)."""

from __future__ import annotations

from ..kernel.victory import final_result, points, sudden_death, update_control

__all__ = ["final_result", "points", "sudden_death", "update_control"]
