"""19.8 D (S77): a decision the reveal of a box set aside (hidden.reveal_box: the owner's deployment comes first)
comes back judged anew, since the deployed units may have closed some of its choices: a retreat's paths are found
again from the group's hex (7.9, retreating.task_retreat); an advance keeps only the hexes the unit may still enter
(7.12, advancing.advance_options), and lapses when none is left.  Any other decision comes back as it was: its
choices do not hang on who stands where (a tactic, a fortune of war's pick, a deployment)."""

from __future__ import annotations

from typing import Any

from .advancing import advance_options
from .context import StdCtx
from .retreating import task_retreat


def task_resume(ctx: StdCtx, task: dict[str, Any]) -> None:
    d = task["decision"]
    if d["kind"] == "retreat":
        task_retreat(ctx, d["task"])
        return
    if d["kind"] == "advance":
        t = d["task"]
        uid = t["unit"]
        if not ctx.on_map(uid):
            return
        still = set(advance_options(ctx, uid, t.get("vacated_hexes") or t["vacated"], t["rout"]))
        options = [o for o in d["options"] if o.get("hex") is None or o["hex"] in still]
        hexes = [o["hex"] for o in options if o.get("hex") is not None]
        if not hexes:
            ctx.emit("advance", f"19.8 D (S77): {ctx.name(uid)} has no hex left to advance into", unit=uid,
                     rule="19.8 D")
            return
        ctx.st.decision = {**d, "options": options, "hexes": hexes}
        return
    ctx.st.decision = d


__all__ = ["task_resume"]
