"""Musket & Saber Quick Play, 2013 edition (seed 001; ruleset id `quickplay-2013`).

Its modules cite the seed's rule numbers and are layered, each importing only those above it in this list:

1. `crt` (7.5 with R14's table, 2.3 morale, 7.4 halving), `status` (2.3, 8.1(2), 9.1(1), 11.1, 11.3: disruption
   and ineffectiveness), `stacking` (5.0), `triggers` (7.2: who may counterattack), `leaders` (10.0 casualties);
2. `movement` (4.1-4.6, 6.2, 10.0, 11.1(2)), `retreat` (7.6, 7.8, 7.9);
3. `results` (7.5 applied), `squares` (9.3), `recovery` (11.1-11.3), `victory` (3.4);
4. `artillery` (8.2-8.4), then `combat` (7.1-7.4), then `cavalry` (9.1, 9.2) and `counterattack` (7.2);
5. `phases` (3.3), `commands`, `legal`, `options`, `invariants`, and `ruleset` (the `Edition`).

What both Quick Play seeds word alike is the kernel's (kernel/lone_leaders.py, kernel/setup.py,
kernel/aftercombat.py); no module here imports the revised edition.  The readings the seed leaves open are
docs/rulings.md's T1, T2, ...  Importing the package registers the edition (kernel/edition.py).
"""

from .ruleset import QuickPlay2013

__all__ = ["QuickPlay2013"]
