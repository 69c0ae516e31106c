"""Recovery in the Standard rules (seed 002 11.1-11.3), made inside the owner's movement phase (4.1).

11.1 disruption: not while in an EZOC; automatic for a unit eligible for march movement throughout the
turn (4.7); otherwise a morale check at the end of its move, without the -2 of disruption (R13); at night
(14.2) a unit that is not attacking recovers automatically, EZOC or not.
11.3 effectiveness: artillery, cavalry, battalions, squadrons and leaders recover under the same terms (a leader's
check is made against his own morale rating, S14).
11.2 steps: a replacement step restores an eliminated one-step unit, or one step of an eliminated or
reduced two-step unit; a step marked with a red dot cannot be replaced with a replacement step (only by a
leader-assisted morale check).

The edition's procedures (recovering.py, phases.py, moving.py) play these rules in a game.
"""

from __future__ import annotations

from ..kernel.state import STATUS_ELIMINATED, STATUS_HIDDEN, STATUS_MAP, UnitState
from .movement import printed_side
from .scenario import Kind, StandardScenario

AUTOMATIC = "automatic"
CHECK = "check"


def recovery_mode(sc: StandardScenario, s: UnitState, *, in_ezoc: bool, march_eligible: bool, night: bool,
                  attacking: bool) -> str | None:
    """11.1, 11.3, 14.2: how a disrupted or ineffective unit recovers this movement phase: 'automatic',
    'check' (a morale check at the end of its move), or None (it may not, or has nothing to recover)."""
    if not (s.disrupted or s.ineffective) or s.status not in (STATUS_MAP, STATUS_HIDDEN):  # 19.8 C: hidden too
        return None
    if night and not attacking:
        return AUTOMATIC  # 14.2(1), 11.1: regardless of EZOC
    if in_ezoc:
        return None
    if march_eligible:
        return AUTOMATIC
    return CHECK


def recovery_rating(sc: StandardScenario, s: UnitState) -> int:
    """11.1 (R13): the MR the recovery check is made against — the side now showing, without the -2 that
    disruption otherwise applies (2.8(5)); 11.3 (S14): a leader's is his own morale rating (10.3) on the side
    now showing."""
    d = sc.units[s.id]
    if d.kind is Kind.LEADER:
        lf = d.leader_ineffective if s.ineffective else d.leader
        return lf.morale if lf is not None else 0
    return printed_side(sc, s).mr


def step_replaceable(sc: StandardScenario, s: UnitState) -> str | None:
    """11.2: why a replacement step cannot restore this unit's next step (None: it can).  An eliminated unit
    comes back on its reduced side if it has one (the step restored is that one); a reduced unit on the map
    regains its full step."""
    d = sc.units[s.id]
    if s.status == STATUS_ELIMINATED:
        step = d.reduced if d.steps == 2 else d.full
    elif s.status in (STATUS_MAP, STATUS_HIDDEN) and s.reduced:  # 19.8 C: hidden units receive replacements
        step = d.full
    else:
        return "11.2: only an eliminated unit or a reduced two-step unit on the map recovers a step"
    assert step is not None
    if step.red_dot:
        return "11.2: that step has a red dot: only a leader-assisted morale check replaces it"
    return None


def extra_replacement_allowed(sc: StandardScenario, s: UnitState, *, leader_assisted: bool) -> str | None:
    """11.2: why an eliminated unit off the map may not make its morale check for an extra replacement (None:
    it may, once each friendly movement phase).  A red-dotted step comes back only through a leader-assisted
    check (a leader stacked with an active HQ, active trains or the LOC hex, 10.3).  Pass: the unit returns as
    though replaced; fail: it is destroyed for good."""
    d = sc.units[s.id]
    if s.status != STATUS_ELIMINATED:
        return "11.2: only an eliminated unit off the map makes this check (not a reduced unit on the map)"
    step = d.reduced if d.steps == 2 else d.full
    assert step is not None
    if step.red_dot and not leader_assisted:
        return "11.2: a red-dotted step returns only through a leader-assisted morale check (10.3)"
    return None
