"""Build the suite's cached fixtures ahead of pytest: ``python -m tests.prebuild``.

``make test`` runs this in the background while ruff, mypy and the docs build run (they use
one core for a minute or two on a fresh machine): the migrated Airflow and MLflow databases,
the tiny model and its training run (``trained_checkpoints``, the one fixture that costs
tens of seconds) are then on disk when pytest starts. Without it, the first pytest-xdist
worker to need the training run trains it while the other worker, needing it too, waits on
the build lock. Each build is the conftest's own, under its own content key and file lock
(``cached_build``), so a build this script did not finish is done by pytest, and nothing
is ever built twice or read half-made.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OWN_CODE = ("studybench", "dags", "plugins", "tests")


def compile_own_code() -> Path:
    """Bytecode for the project's own modules, written once. Where PYTHONDONTWRITEBYTECODE
    is set (it is on these machines), nothing else writes it, so each of the suite's
    ~700 processes (verifier workers, DAG runs, Airflow tasks, CLI calls) compiled the
    ~100 modules it imports again: 0.2-0.3 s of CPU each. Imports still read bytecode that
    exists, and recompile any file changed since."""
    import compileall

    for folder in OWN_CODE:
        if not compileall.compile_dir(ROOT / folder, quiet=1, workers=1):
            raise RuntimeError(f"{folder}: a module does not compile")
    return ROOT


def builds() -> list[tuple[str, Callable[[], Path]]]:
    """What to build, cheapest first (so a slow machine still gets the databases)."""
    from tests.conftest import (
        cached_tiny_model,
        cached_trained_checkpoints,
        migrated_airflow_db,
        migrated_mlflow_template,
    )

    return [
        ("bytecode of the project's modules", compile_own_code),
        ("migrated MLflow store", migrated_mlflow_template),
        ("migrated Airflow database", migrated_airflow_db),
        ("tiny model", cached_tiny_model),
        ("trained checkpoints", cached_trained_checkpoints),
    ]


def main() -> int:
    failed = 0
    for name, build in builds():
        started = time.perf_counter()
        try:
            path = build()
        except Exception as exc:  # pytest builds it again and reports the failure there
            failed += 1
            print(f"prebuild: {name}: failed ({exc}); pytest will build it", flush=True)
            continue
        print(f"prebuild: {name}: {path} ({time.perf_counter() - started:.1f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
