"""The plugins folder is importable in these tests, as Airflow makes it for DAGs (the one
migrated Airflow home of a session, ``airflow_env``, is in tests/conftest.py)."""

from __future__ import annotations

import sys

from tests.conftest import ROOT

if str(ROOT / "plugins") not in sys.path:
    sys.path.insert(0, str(ROOT / "plugins"))
