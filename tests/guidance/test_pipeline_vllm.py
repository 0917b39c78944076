"""The guidance stages against a real OpenAI-compatible server: vLLM's CPU build serving
the tiny model. Its output is noise, so every decompose reply is retried and then recorded
as a failure; the run never crashes, later stages see no knowledge points, the guidance file
is still valid, and the filter model (the same server) is run by the admission stage.

With structured output on (``guidance.teacher.structured_output``) the same babble is forced
into each stage's schema: every decompose, verify, guide and review reply parses on the first
attempt, every verify quote is a sentence of its fragment, and the guidance it leads to goes
through admission. The server is the session's one (tests/conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path

from studybench.config import Settings
from studybench.data.validate import validate_file
from studybench.guidance import workflow
from studybench.guidance.admit import run_admit
from studybench.guidance.records import (
    Match,
    SlotDecomposition,
    SlotGuidance,
    read_lines,
    write_lines,
)
from studybench.guidance.textnorm import quote_in_text
from tests.conftest import SAMPLE
from tests.guidance.conftest import guidance_settings


def two_parents(tmp_path: Path) -> Path:
    split = tmp_path / "two_parents.json"
    split.write_text(json.dumps(json.loads((SAMPLE / "transfer_problems.json").read_text())[:2]))
    return split


def with_filter(settings: Settings, url: str) -> Settings:
    """``settings`` whose admission filter model is the tiny model on ``url``."""
    admit = settings.guidance.admit.model_copy(
        update={"engine": "openai", "model": "tiny", "base_url": url, "k": 1,
                "max_new_tokens": 16}
    )  # fmt: skip
    return settings.model_copy(
        update={"guidance": settings.guidance.model_copy(update={"admit": admit})}
    )


def test_noise_is_retried_recorded_and_never_crashes(
    vllm_tiny: str, tmp_path: Path, fragments_file: Path
) -> None:
    settings = guidance_settings(
        tmp_path,
        split=two_parents(tmp_path),
        fragments=fragments_file,
        teacher={
            "base_url": vllm_tiny,
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

    report = run_admit(
        with_filter(settings, vllm_tiny),
        SAMPLE / "guidance.json",
        tmp_path / "admission.json",
        run_dir=tmp_path / "r",
    )
    assert report["slots_evaluated"] == 40 and report["turns"] == 40
    assert report["generation_errors"] == 0


def test_structured_teacher_replies_parse_in_every_stage(
    vllm_tiny: str, tmp_path: Path, fragments_file: Path
) -> None:
    settings = guidance_settings(
        tmp_path,
        split=two_parents(tmp_path),
        fragments=fragments_file,
        teacher={
            "base_url": vllm_tiny,
            "model": "tiny",
            "max_tokens": 384,
            "json_retries": 0,  # no second chance: the first reply must parse
            "temperature": 1.0,
            "structured_output": True,
        },
    )
    decompose = workflow.run_decompose(settings)
    out = settings.guidance.out_dir
    raw = read_lines(out / workflow.RAW, SlotDecomposition)
    assert len(raw) == 9 and decompose.failures == 0 and decompose.teacher_calls == 9
    assert all(r.failure is None and r.knowledge_points for r in raw)
    workflow.run_canonicalise(settings)
    workflow.run_retrieve(settings)
    verify = workflow.run_verify(settings)
    matches = read_lines(out / workflow.MATCHES, Match)
    fragments = {
        row["fragment_id"]: row["text"]
        for row in map(json.loads, fragments_file.read_text().splitlines())
    }
    assert matches and verify.failures == 0 and verify.teacher_calls == len(matches)
    for match in matches:
        assert match.failure is None and match.teacher_score in (0, 1, 2, 3)
        assert match.quote_found and quote_in_text(match.quote, fragments[match.fragment_id])
        assert match.score == match.teacher_score  # a verbatim quote is never demoted
    # A babbler's coverage scores are luck: the guide stage's success path needs covered
    # points, so every verified match is marked covered (as a score of 3 would have).
    covered = [m.model_copy(update={"score": 3, "covered": True}) for m in matches]
    write_lines(out / workflow.MATCHES, covered)
    guide = workflow.run_guide(settings)
    guided = read_lines(out / workflow.SLOT_GUIDANCE, SlotGuidance)
    assert len(guided) == 9 and guide.failures == 0 and guide.teacher_calls >= 2
    written = [g for g in guided if g.path != "no_coverage"]
    assert written and {g.path for g in written} <= {"passed", "regenerated", "sanitized"}
    assert all(g.guidance.strip() for g in written)  # guide replies parsed, reviews too
    assert validate_file(out / workflow.GUIDANCE).ok

    admission = tmp_path / "admission.json"
    report = run_admit(
        with_filter(settings, vllm_tiny), out / workflow.GUIDANCE, admission,
        run_dir=tmp_path / "r",
    )  # fmt: skip
    assert json.loads(admission.read_text()) == report
    assert report["slots_with_guidance"] >= 1 and report["turns"] >= 1
    assert report["generation_errors"] == 0
