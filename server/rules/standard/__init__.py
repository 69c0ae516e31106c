"""Musket & Saber Standard rules (seed 002), ruleset `standard`: the edition object in ruleset.py over modules in
layers, each importing only from the layers below it:

* the tested rule modules (scenario, crt, morale, results, stacking, turn, zoc, movement, retreat, advance, army,
  combat, recovery, strength, tactics, weather (19.4, S50), special (19.2, 19.5, 19.9, 19.10, S51, S52)) and the
  context every procedure runs in (context.py, `StdCtx`);
* the unit primitives: recovery (recovering.py, 11.x), squares (squares.py, 9.5), open order (open_order.py, 19.10,
  S52), the movement phase's commands and the move search (moving.py, 4.x, 10.1, 11.x, 12.x, 13.x);
* the combat phase's pieces: charges declared (charges.py, 7.13(3), 9.3(1)), retreat and rout (retreating.py,
  7.9-7.10), results carried out (combat_results.py, 7.8, 7.11), leaders (leaders.py, 10.1, 10.3), advance
  (advancing.py, 7.12), artillery fire (bombard.py, 8.x), the close-combat sequence (close_combat.py, 7.1-7.8,
  9.3-9.4), the fortune of war (fortune.py, 12.4, 7.2), the attack command (attacks.py);
* the turn (phases.py, 3.2);
* what reads them: legal commands (legal.py), the page's options (options.py), invariants (invariants.py).

Importing the package registers the edition (kernel/edition.py)."""

from .ruleset import Standard

__all__ = ["Standard"]
