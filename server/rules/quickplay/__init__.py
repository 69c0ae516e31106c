"""Musket & Saber Quick Play, revised (seed 000; ruleset id `quickplay`, the default).

Every module here cites the seed's rule numbers: movement (4.x) in movement.py, stacking (5.0) and the
turn, recovery and counterattack (3.3, 7.3, 11.x) in phases.py (the loss of a counterattack, R8, in
counterattack.py, below every kind of combat), ZOC (6.x) with movement, combat and the CRT (7.x) in
combat.py and ruleset.py, retreat, rout and advance (7.6-7.9) in retreat.py, artillery (8.x) in
artillery.py, cavalry and squares (9.x) in cavalry.py, leaders (10.0) in leaders.py, victory (3.4, 14.0)
in victory.py.  Importing the package registers the edition (kernel/edition.py).
"""

from .ruleset import QuickPlay

__all__ = ["QuickPlay"]
