"""Instructions a command line takes under valgrind's callgrind: the same count for the same code and input,
whatever else the machine is doing (issue 16: this VM's timed runs move by 10-30 % between runs).

Address randomisation off (`setarch -R`) and PYTHONHASHSEED=0, so that dict and set orders, and with
them the work, repeat from run to run."""

from __future__ import annotations

import os
import re
import subprocess


def instructions(argv: list[str]) -> tuple[int, str]:
    """The instructions `argv` (a Python command line) executed, start-up included, and what it printed."""
    command = ["setarch", "-R", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv]
    run = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"},
                         check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{run.stderr[-2000:]}")
    return int(found.group(1)), run.stdout
