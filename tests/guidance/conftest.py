"""Fixtures of the guidance tests: settings writing under tmp, the sample's fragments, the
offline MiniLM embedder (loaded once per session)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from studybench.config import Settings, load_settings
from tests.conftest import ROOT, SAMPLE

TRANSFER = SAMPLE / "transfer_problems.json"


def guidance_settings(tmp_path: Path, **guidance: Any) -> Settings:
    """The project's params; the sample Transfer split and fragments; output and caches
    under ``tmp_path``; ``guidance`` overrides (``teacher={...}`` merges into the teacher)."""
    base = load_settings(ROOT / "params.yaml", environ={})
    teacher = base.guidance.teacher.model_copy(update=guidance.pop("teacher", {}))
    admit = base.guidance.admit.model_copy(update=guidance.pop("admit", {}))
    work = tmp_path / "work"
    return base.model_copy(
        update={
            "guidance": base.guidance.model_copy(
                update={
                    "split": TRANSFER,
                    "fragments": tmp_path / "fragments.jsonl",
                    "out_dir": tmp_path / "guidance",
                    "teacher": teacher,
                    "admit": admit,
                    **guidance,
                }
            ),
            "judge": base.judge.model_copy(update={"llm_enabled": False}),
            "paths": base.paths.model_copy(
                update={"work_dir": work, "runs_dir": work / "runs", "cache_dir": work / "cache"}
            ),
            "release": base.release.model_copy(update={"root": SAMPLE}),
        }
    )


@pytest.fixture(scope="session")
def fragments_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Fragments of the sample books (the raw chapters: the sample's redaction only removes
    Application items, which guidance never needs)."""
    from studybench.corpus.fragments import build_fragments

    path = tmp_path_factory.mktemp("fragments") / "fragments.jsonl"
    build_fragments(SAMPLE / "books", path, input_name="full.md")
    return path


@pytest.fixture(scope="session")
def embedder() -> Any:
    from studybench.guidance.embeddings import default_embedder

    return default_embedder()
