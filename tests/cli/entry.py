"""The installed ``studybench`` entry point, run in a subprocess as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

STUDYBENCH = str(Path(sys.executable).with_name("studybench"))


def run(
    *args: str | Path, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "COLUMNS": "200", **(env or {})}
    return subprocess.run(
        [STUDYBENCH, *map(str, args)],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=cwd,
        timeout=120,
    )
