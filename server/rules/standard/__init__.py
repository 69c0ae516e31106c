"""Musket & Saber Standard rules (seed 002), ruleset `standard`: the edition object in ruleset.py, its procedures
(phases.py 3.2, moving.py 4.x/11.x/12.x/13.x, fighting.py 7.x) over the tested rule modules (scenario, crt, turn,
zoc, movement, stacking, retreat, strength, advance, army, combat, results, morale, recovery).  Importing the
package registers the edition (kernel/edition.py)."""

from .ruleset import Standard

__all__ = ["Standard"]
