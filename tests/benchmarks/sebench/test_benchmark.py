"""SE-Bench end to end through its registry entry, on the tiny local model (in-process
transformers engine): plan, generate (resumable), judge (idempotent), metrics, artefacts,
and the Open/Closed training sets built from the judged open-book run."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks import get_benchmark
from studybench.benchmarks.base import BenchmarkPlan
from studybench.benchmarks.sebench.benchmark import SEBench, verdict_path
from studybench.benchmarks.sebench.prompts import DOCS_HEADING
from studybench.benchmarks.sebench.training_data import run_responses, training_examples
from studybench.config import Settings, load_settings
from studybench.engines.local_hf import LocalHFEngine
from studybench.errors import ConfigError, DataError
from studybench.rollout.store import GenerationStore
from tests.conftest import ROOT

from .conftest import SAMPLE_TASKS

SUBSET = ("row-means", "vector-length", "standardise", "trace-of-product")


def settings_for(tmp_path: Path, **overrides: str) -> Settings:
    tasks = [t for t in json.loads(SAMPLE_TASKS.read_text()) if t["id"] in SUBSET]
    subset = tmp_path / "tasks.json"
    subset.write_text(json.dumps(tasks))
    environ = {
        "STUDYBENCH__SEBENCH__TASKS": str(subset),
        "STUDYBENCH__SEBENCH__MAX_NEW_TOKENS": "24",
        "STUDYBENCH__SEBENCH__SEEDS": "[0, 1]",
        "STUDYBENCH__PATHS__WORK_DIR": str(tmp_path / "work"),
        **{f"STUDYBENCH__SEBENCH__{k.upper()}": v for k, v in overrides.items()},
    }
    return load_settings(ROOT / "params.yaml", environ=environ)


@pytest.fixture(scope="module")
def evaluated(
    tiny_model: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[SEBench, BenchmarkPlan, Settings, list[dict[str, Any]]]:
    tmp = tmp_path_factory.mktemp("sebench-e2e")
    settings = settings_for(tmp)
    bench = get_benchmark("sebench")
    assert isinstance(bench, SEBench)
    plan = bench.plan(bench.default_parts(settings), "tiny", settings, tmp / "run" / "sebench")
    engine = LocalHFEngine(tiny_model, max_new_tokens=24)
    summaries = [asyncio.run(bench.generate(plan, engine, settings)) for _ in range(2)]
    return bench, plan, settings, summaries


def test_plan_parts_and_protocol(evaluated: Any, tmp_path: Path) -> None:
    bench, plan, settings, _ = evaluated
    assert plan.parts == (
        "closed_book-single", "closed_book-multi", "open_book-single", "open_book-multi"
    )  # fmt: skip
    assert plan.seeds == (0, 1) and plan.k == 1 and Path(plan.files["tasks"]).is_file()
    with pytest.raises(ConfigError, match="unknown part 'blind-single'"):
        bench.plan(["blind-single"], "tiny", settings, tmp_path)
    with pytest.raises(DataError, match="no task of split 'hard'"):
        bench.plan(["open_book-hard"], "tiny", settings, tmp_path)
    reseeded = settings_for(tmp_path, name_seed="1")
    with pytest.raises(ConfigError, match="plan again"):
        bench.judge(plan, plan.parts[0], 0, reseeded)


def test_generation_is_stored_and_resumes(evaluated: Any) -> None:
    _, plan, _, (first, second) = evaluated
    for part in plan.parts:
        tasks = 2  # two single and two multi tasks in the subset
        assert first[part]["turns_generated"] == tasks * 2 and first[part]["errors"] == 0
        assert second[part]["turns_generated"] == 0 and second[part]["turns_reused"] == tasks * 2
    store = GenerationStore(plan.part_dir("open_book-multi") / "generations.sqlite")
    closed = GenerationStore(plan.part_dir("closed_book-multi") / "generations.sqlite")
    try:
        open_messages = next(iter(store.records())).messages
        closed_messages = next(iter(closed.records())).messages
        open_prompt, closed_prompt = open_messages[0]["content"], closed_messages[0]["content"]
    finally:
        store.close()
        closed.close()
    assert [m["role"] for m in open_messages] == ["user"]  # one user message, as the reference
    assert DOCS_HEADING.format(package="zwc") in open_prompt
    assert "zwc." in open_prompt and "numpy" not in open_prompt.lower()
    assert DOCS_HEADING.format(package="zwc") not in closed_prompt
    assert "numpy" not in closed_prompt.lower()


def test_judging_metrics_and_artefacts(evaluated: Any, tmp_path: Path) -> None:
    bench, plan, settings, _ = evaluated
    assert bench.check(plan).startswith("sebench: not judged")
    summaries = [bench.judge(plan, part, seed, settings) for part, seed in plan.units()]
    assert all(s["judged"] == s["total"] == 2 for s in summaries)
    again = bench.judge(plan, plan.parts[0], 0, settings)
    assert again["judged"] == 0 and again["reused"] == 2
    assert bench.check(plan) == ""
    metrics = bench.metrics(plan, settings)
    assert sorted(metrics) == sorted(bench.expected_metrics(plan))
    for part in plan.parts:
        condition, split = part.split("-")
        prefix = f"sebench/{condition}/{split}"
        fails = sum(metrics[k] for k in metrics if k.startswith(f"{prefix}/fail_"))
        assert metrics[f"{prefix}/accuracy"] + fails == pytest.approx(1.0)
    # the tiny model knows nothing of the package: it scores 0, honestly
    assert metrics["sebench/closed_book/all/accuracy"] == 0.0
    verdicts = json.loads(verdict_path(plan, "closed_book-single", 0).read_text())
    assert {v["reason"] for v in verdicts} <= {"no_code", "ast_violation", "runtime_error"}
    bench.write_artefacts(plan, tmp_path, settings)
    rows = json.loads((tmp_path / "sebench" / "verdicts.json").read_text())
    assert len(rows) == 4 * 2 * 2
    assert json.loads((tmp_path / "sebench" / "metrics.json").read_text()) == metrics
    assert "numpy" not in (tmp_path / "sebench" / "api_docs.json").read_text().lower()
    # The per-item table (what the paired comparison reads): one row per stored verdict,
    # the task as parent, and the accuracy of each part and seed recomputed from it.
    items = bench.items(plan, settings)
    assert len(items) == len(rows)
    assert {(i.split, i.seed, i.parent, i.attempt) for i in items} == {
        (r["part"], r["seed"], r["task_id"], r["attempt"]) for r in rows
    }
    assert all(i.benchmark == "sebench" and i.slot == "0" for i in items)
    for part in plan.parts:
        condition, split = part.split("-")
        of_part = [i for i in items if i.split == part]
        share = sum(i.correct for i in of_part) / len(of_part)
        assert share == pytest.approx(metrics[f"sebench/{condition}/{split}/accuracy"])
    no_code = {(r["part"], r["seed"], r["task_id"]) for r in rows if r["reason"] == "no_code"}
    assert {(i.split, i.seed, i.parent) for i in items if i.stage == "none"} == no_code


def test_training_sets_from_the_open_book_run(evaluated: Any) -> None:
    bench, plan, settings, _ = evaluated
    for part, seed in plan.units():
        bench.judge(plan, part, seed, settings)
    tasks, responses = run_responses(plan, settings, only_correct=False)
    assert {t.id for t in tasks} == set(SUBSET) and all(len(r) == 2 for r in responses.values())
    assert run_responses(plan, settings, only_correct=True)[1] == {}  # nothing was correct
    package = bench.package(plan, settings)
    header = DOCS_HEADING.format(package="zwc")
    open_set = training_examples(tasks, package, responses, "open", "run")
    closed_set = training_examples(tasks, package, responses, "closed", "run")
    assert len(open_set) == len(closed_set) == 8
    for o, c in zip(open_set, closed_set, strict=True):
        assert header in o.messages[0]["content"] and header not in c.messages[0]["content"]
        assert o.messages[1] == c.messages[1] and o.messages[1]["role"] == "assistant"
