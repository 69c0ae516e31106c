"""The kernel every edition shares: hex geometry, line of sight and facing (R1, R2), the scenario model and its
loading, the game state, dice (R11), the context rule functions work in (occupancy, zones of control,
factors), the engine (commands, tasks, decisions, undo, records), views, invariants, the simulator, and
the `Edition` interface with the registry of ruleset ids.  The kernel imports no edition.

Its modules are layered: each imports only modules of the layers before it (no import circles).

1. `hexes`, `dice`, `errors`, `crt`, `state`, `cards` (hands of cards, R16.19): nothing of the kernel;
2. `model`: the scenario interface and the victory conditions; `los`: line of sight over the hex geometry;
   `facing`: hexside and apex facings, turning and front/flank/rear arcs;
3. `scenario`: the kernel's own scenario format and the parsers every edition's reader uses;
4. `visibility`: the one rule of who may read an event, and the secrets a side keeps;
5. `edition`: the interface an edition fills in, and the registry of editions;
6. `core` (the context rule functions work in) and `views` (what each viewer sees of a game);
7. `game`: the engine; `setup` (placements, the 'w/N' set-up), `lone_leaders` (10.0's lone leader, both Quick Plays);
8. `loading` (a scenario of any edition), `victory`, `invariants`; what both Quick Play editions share:
   `aftercombat` (step losses, capture, the way off the map, a retreat's safety, the advance's hexes) and
   `procedures` (a game's start and end, a phase's bookkeeping, movable groups, common decisions and totals);
9. `randomplayer`: the random player and the simulator.
"""
