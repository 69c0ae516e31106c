"""Makes tests/support importable from every test directory (the test directories are not packages)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))
