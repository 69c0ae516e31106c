"""Build scenarios/hougoumont.json, scenarios/salem-church.json, scenarios/standard/standard-1866.json and
scenarios/standard/koniggratz.json and scenarios/horse-and-musket/hm-hochdorf.json.

    .venv/bin/python scenarios/tools/build_scenarios.py          # write every file
    .venv/bin/python scenarios/tools/build_scenarios.py --check  # fail if a file is stale

The battles were designed for Vedette from the historical record (see
docs/scenarios.md).  The ground is sketched here in metres on the real
battlefield and laid onto the hex grid by ``mapkit.MapBuilder``; the orders of
battle are derived from approximate strengths by the rules in each battle's
designer notes.  The output is deterministic.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import hm_hochdorf
import hougoumont
import koniggratz
import salem_church
import standard_1866

OUTPUTS = {
    "hougoumont.json": hougoumont.build,
    "salem-church.json": salem_church.build,
    "standard/standard-1866.json": standard_1866.build,
    "standard/koniggratz.json": koniggratz.build,
    "horse-and-musket/hm-hochdorf.json": hm_hochdorf.build,
}


def dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name, build in OUTPUTS.items():
        text = dump(build())
        path = ROOT / "scenarios" / name
        if check:
            if not path.exists() or path.read_text("utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, "utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print("stale (re-run build_scenarios.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
