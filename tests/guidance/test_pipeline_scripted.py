"""The guidance stages end to end on the sample Transfer split against a scripted teacher
behind a real loopback OpenAI-compatible server: retried JSON, demoted quotes, a leaking
draft regenerated, a guidance file the runner accepts, and a re-run without teacher calls."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks.studybench.prompts import PROMPTS
from studybench.data import load_guidance, load_parents
from studybench.guidance import workflow
from studybench.guidance.records import Match, SlotDecomposition, SlotGuidance, read_lines
from studybench.rollout.artefacts import load_artefacts
from studybench.rollout.conversation import build_messages
from tests.engines.fake_openai import fake_openai
from tests.guidance.conftest import TRANSFER, guidance_settings
from tests.guidance.scripted_teacher import LEAKY_SUB, NOT_JSON_SUB, ScriptedTeacher


def run_all(settings: Any, embedder: Any) -> list[workflow.StageSummary]:
    return [
        workflow.run_decompose(settings),
        workflow.run_canonicalise(settings, embedder=embedder),
        workflow.run_retrieve(settings, embedder=embedder),
        workflow.run_verify(settings),
        workflow.run_guide(settings),
    ]


@pytest.fixture(scope="module")
def scripted_run(
    tmp_path_factory: pytest.TempPathFactory, fragments_file: Path, embedder: Any
) -> tuple[Any, ScriptedTeacher, list[workflow.StageSummary], list[workflow.StageSummary]]:
    tmp = tmp_path_factory.mktemp("scripted")
    shutil.copy(fragments_file, tmp / "fragments.jsonl")
    teacher = ScriptedTeacher(TRANSFER)
    with fake_openai(teacher) as (url, _):
        settings = guidance_settings(tmp, teacher={"base_url": url, "model": "scripted"})
        first = run_all(settings, embedder)
        calls = dict(teacher.calls)
        shutil.rmtree(settings.guidance.out_dir)  # as DVC does before re-running a stage
        second = run_all(settings, embedder)
        assert teacher.calls == calls, "the re-run asked the teacher again"
    return settings, teacher, first, second


def test_every_stage_produces_its_records(scripted_run: Any) -> None:
    settings, _, first, _ = scripted_run
    out = settings.guidance.out_dir
    raw = read_lines(out / workflow.RAW, SlotDecomposition)
    assert len(raw) == 40 and all(r.knowledge_points for r in raw)
    review = (out / workflow.REVIEW).read_text()
    assert "## Merges" in review and "## Canonical points" in review
    candidates = [json.loads(line) for line in (out / workflow.CANDIDATES).read_text().splitlines()]
    assert candidates and all(c["rank"] <= settings.guidance.top_n for c in candidates)
    assert first[3].teacher_calls == len(candidates)  # one verify call per candidate


def test_invalid_json_is_retried_and_recovered(scripted_run: Any) -> None:
    settings, _, first, _ = scripted_run
    raw = read_lines(settings.guidance.out_dir / workflow.RAW, SlotDecomposition)
    assert first[0].failures == 0
    assert first[0].teacher_calls == 41  # 40 slots + one retry of the non-JSON reply
    assert any(r.knowledge_points for r in raw)
    assert NOT_JSON_SUB  # the planted reply is in the script


def test_a_quote_not_in_the_passage_is_demoted(scripted_run: Any) -> None:
    settings, _, _, _ = scripted_run
    matches = read_lines(settings.guidance.out_dir / workflow.MATCHES, Match)
    demoted = [m for m in matches if m.teacher_score == 3 and not m.quote_found]
    assert demoted and all(m.score == 0 and not m.covered for m in demoted)
    good = [m for m in matches if m.quote_found]
    assert good and all(m.covered for m in good)


def test_a_leaking_draft_is_regenerated(scripted_run: Any) -> None:
    settings, _, _, _ = scripted_run
    results = read_lines(settings.guidance.out_dir / workflow.SLOT_GUIDANCE, SlotGuidance)
    by_key = {r.key: r for r in results}
    parents = load_parents(TRANSFER)
    leaky = next(
        str(p.slot_key(s.problem_id))
        for p in parents
        for s in p.sub_problems
        if s.problem.startswith(LEAKY_SUB)
    )
    record = by_key[leaky]
    assert record.path == "regenerated"
    history = record.guidance_check["history"]
    assert isinstance(history, list) and "boxed" in " ".join(history[0]["rule_hits"])
    assert "\\boxed" not in record.guidance
    passed = [r for r in results if r.path in ("passed", "regenerated")]
    assert len(passed) >= 30


def test_the_guidance_file_is_what_the_runner_loads(scripted_run: Any) -> None:
    settings, _, _, _ = scripted_run
    path = settings.guidance.out_dir / workflow.GUIDANCE
    index = load_guidance(path)  # validates as a split file in the release schema
    assert len(index) >= 30
    payload = json.loads(path.read_text())
    sub = payload[0]["sub_problems"][0]
    assert {"knowledge_points", "guidance", "guidance_check"} <= set(sub)
    assert {"pass", "fallback_sanitized", "residual_leak", "attempts", "kp_used", "history"} <= set(
        sub["guidance_check"]
    )
    artefacts = load_artefacts("system", guidance=path)
    parent = load_parents(path)[0]
    slots = parent.slots()
    messages = build_messages(slots, 0, [], artefacts, PROMPTS)
    assert "## Solving Guidance" in messages[-1].content
    assert index[slots[0].key] in messages[-1].content
    report = json.loads((settings.guidance.out_dir / workflow.REPORT).read_text())
    assert report["slots"] == 40 and report["decompose_failures"] == 0


def test_the_rerun_costs_no_teacher_calls(scripted_run: Any) -> None:
    _, _, first, second = scripted_run
    assert sum(s.teacher_calls for s in first) > 0
    assert sum(s.teacher_calls for s in second) == 0
    assert [s.items for s in first] == [s.items for s in second]
