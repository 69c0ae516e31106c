"""The kernel every edition shares: hex geometry and line of sight (R1, R2), the scenario model and its
loading, the game state, dice (R11), the context rule functions work in (occupancy, zones of control,
factors), the engine (commands, tasks, decisions, undo, records), views, invariants, the simulator, and
the `Edition` interface with the registry of ruleset ids.  The kernel imports no edition.
"""
