"""Horse and Musket (seed 003, adapted to hexes by R16), ruleset `horse-and-musket`: the edition object in ruleset.py
over modules in layers, each importing only from the layers below it:

* the tables and the scenario (tables.py: every table of the seed in hexes; scenario.py), the facing geometry over
  the kernel's (geometry.py, R16.4) and the context every procedure runs in (context.py, `HMCtx`);
* the pieces: hits, routs, generals (losses.py, R16.15, R16.3), the cards drawn and played (deck.py, R16.10 over
  kernel/cards.py), movement judged (movement.py, R16.11-R16.12), firing (firing.py, R16.14), retreats
  (retreat.py, R16.17);
* the procedures: rally (rally.py, R16.8), the command step (command.py, R16.9), step-two moves (moves.py),
  charges and the defender's decision (charges.py, R16.13), hand-to-hand (melee.py, R16.16), victory (victory.py,
  R16.18);
* the round (turn.py, R16.6-R16.7);
* what reads them: legal commands (legal.py), the view and the page's options (options.py), invariants
  (invariants.py), and the edition object (ruleset.py).

Importing the package registers the edition (kernel/edition.py)."""

from .ruleset import HorseAndMusket

__all__ = ["HorseAndMusket"]
