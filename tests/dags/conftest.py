"""The plugins folder is importable in these tests, as Airflow makes it for DAGs."""

from __future__ import annotations

import sys

from tests.conftest import ROOT

if str(ROOT / "plugins") not in sys.path:
    sys.path.insert(0, str(ROOT / "plugins"))
