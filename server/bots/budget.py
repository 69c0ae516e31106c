"""What a search may spend on one decision: wall clock, or a deterministic count of nodes.

Both searches spend it: the search bot's own planners (search.py) and the rollouts it hands any other
edition to (rollout.py), so it sits below both.
"""

from __future__ import annotations

import time


class Budget:
    """Wall clock, or a deterministic count of nodes (then the clock is never read for decisions)."""

    def __init__(self, seconds: float, nodes: int | None) -> None:
        self.nodes = nodes
        self.used = 0
        self.span = max(seconds, 0.001)
        self.start = time.perf_counter()

    def spend(self, n: int = 1) -> None:
        self.used += n

    def left(self) -> bool:
        return self.fraction_left(1.0)

    def room_for(self, seconds: float) -> bool:
        """On the clock: True while a step expected to take `seconds` would still end within the budget."""
        return self.nodes is not None or time.perf_counter() - self.start + seconds < self.span

    def fraction_left(self, share: float) -> bool:
        """True while less than `share` of the budget is spent."""
        if self.nodes is not None:
            return self.used < self.nodes * share
        return time.perf_counter() - self.start < self.span * share
