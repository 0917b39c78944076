"""The guidance stages against a real OpenAI-compatible server: vLLM's CPU build serving
the tiny model. Its output is noise, so every decompose reply is retried and then recorded
as a failure; the run never crashes, later stages see no knowledge points, the guidance file
is still valid, and the filter model (the same server) is run by the admission stage."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from studybench.data.validate import validate_file
from studybench.engines.vllm_server import VLLMServer
from studybench.guidance import workflow
from studybench.guidance.admit import run_admit
from studybench.guidance.records import SlotDecomposition, SlotGuidance, read_lines
from tests.conftest import SAMPLE
from tests.engines.test_vllm_server import server_config
from tests.guidance.conftest import guidance_settings


@pytest.fixture(scope="module")
def server(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[VLLMServer]:
    with VLLMServer(server_config(tiny_model), tmp_path_factory.mktemp("vllm_teacher")) as up:
        yield up


def test_noise_is_retried_recorded_and_never_crashes(
    server: VLLMServer, tmp_path: Path, fragments_file: Path
) -> None:
    split = tmp_path / "two_parents.json"
    split.write_text(json.dumps(json.loads((SAMPLE / "transfer_problems.json").read_text())[:2]))
    settings = guidance_settings(
        tmp_path,
        split=split,
        fragments=fragments_file,
        teacher={
            "base_url": server.base_url,
            "model": "tiny",
            "max_tokens": 48,
            "json_retries": 1,
            "temperature": 1.0,
        },
    )
    summaries = [
        workflow.run_decompose(settings),
        workflow.run_canonicalise(settings),
        workflow.run_retrieve(settings),
        workflow.run_verify(settings),
        workflow.run_guide(settings),
    ]
    out = settings.guidance.out_dir
    raw = read_lines(out / workflow.RAW, SlotDecomposition)
    assert len(raw) == 9  # 4 + 5 sub-problems
    failed = [r for r in raw if r.failure is not None]
    assert summaries[0].failures == len(failed) >= 8
    for record in failed:
        assert record.failure is not None and record.failure.attempts == 2
        assert len(record.failure.replies) == 2 and record.failure.error
    assert summaries[0].teacher_calls == sum(r.failure.attempts for r in failed if r.failure) + (
        len(raw) - len(failed)
    )
    guided = read_lines(out / workflow.SLOT_GUIDANCE, SlotGuidance)
    assert len(guided) == 9 and {g.path for g in guided} <= {
        "no_coverage",
        "failed",
        "passed",
        "regenerated",
        "sanitized",
    }
    assert validate_file(out / workflow.GUIDANCE).ok
    again = workflow.run_decompose(settings)
    assert again.teacher_calls == 0 and again.failures == summaries[0].failures

    admit = settings.guidance.admit.model_copy(
        update={
            "engine": "openai",
            "model": "tiny",
            "base_url": server.base_url,
            "k": 1,
            "max_new_tokens": 16,
        }
    )
    with_filter = settings.model_copy(
        update={"guidance": settings.guidance.model_copy(update={"admit": admit})}
    )
    report = run_admit(
        with_filter, SAMPLE / "guidance.json", tmp_path / "admission.json", run_dir=tmp_path / "r"
    )
    assert report["slots_evaluated"] == 40 and report["turns"] == 40
    assert report["generation_errors"] == 0
