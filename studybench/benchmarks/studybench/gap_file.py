"""``RUN/guidance_gap.json``: the Guidance Gap of a run folder, written by ``studybench
guidance gap`` and read by the report and the logging of the run (its own module so the
report and the gap computation do not import each other)."""

from __future__ import annotations

from pathlib import Path

from studybench.errors import DataError
from studybench.fileio import write_atomic
from studybench.metrics.guidance_gap import GuidanceGap

GAP_FILE = "guidance_gap.json"


def save_gap(run_dir: Path, gap: GuidanceGap) -> Path:
    path = run_dir / GAP_FILE
    write_atomic(path, gap.model_dump_json(indent=1) + "\n")
    return path


def saved_gap(run_dir: Path) -> GuidanceGap | None:
    path = run_dir / GAP_FILE
    if not path.exists():
        return None
    try:
        return GuidanceGap.model_validate_json(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise DataError(f"{path}: not a guidance gap record: {exc}") from None
