"""Musket & Pike (seed 004, the Musket & Pike Battle Series' player aid card, with R17's designed frame), ruleset
`musket-and-pike`: the edition object in ruleset.py over modules in layers, each importing only from those below:

* the charts and the scenario (tables.py: every chart of the card; scenario.py), the context every procedure runs
  in (context.py, `MPCtx`: R17.15's unit state, facing arcs R17.16, LOS R17.19);
* the pieces: Casualty Points, Formation Hits, morale, leaders' casualties and replacements (losses.py: R17.15,
  R17.42, R17.65, R17.72, 5.3, 5.3.3, R17.36-R17.38), movement with the Orders Restriction Chart's notes
  (movement.py: 6.3, TEC, 5.6, R17.31-R17.33, R17.40-R17.44), fire (fire.py: 10.0-10.8, R17.60-R17.67), close
  combat (combat.py: 11.0-11.7.2, R17.80-R17.89);
* the procedures: the turn, orders, activations, preemption and continuation, collapse and victory (command.py:
  4.3, 4.4, 5.7, R17.20-R17.29, R17.92-R17.94), reactions (reactions.py: 9.3, R17.50-R17.51), the active wing's
  commands (actions.py: R17.95);
* what reads them: legal commands (legal.py), the view and the page's options (options.py), invariants
  (invariants.py), and the edition object (ruleset.py).

Every die is a d10 read 0-9 (R17.1, `Edition.die_faces`). Importing the package registers the edition."""

from .ruleset import MusketAndPike

__all__ = ["MusketAndPike"]
