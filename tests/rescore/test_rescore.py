"""Re-scoring stored evaluations after a verifier change, in a real MLflow store: the
generations are judged again from the artefacts alone (the generation engine fails on any
call and is never reached), the flip report names exactly the class the plug-in changed,
the metrics equal a fresh judging of the same generations, the learning curve holds one
instrument, the regression check compares like with like, and a re-run does nothing."""

from __future__ import annotations

from typing import Any

import pytest

from studybench.benchmarks.studybench.judging import judge_dir
from studybench.benchmarks.studybench.report import build_report
from studybench.config import Settings
from studybench.pipeline.evaluate import evaluate, plan_target
from studybench.pipeline.target import CheckpointMeta
from studybench.rescore import Selection, installed, plan_batches, rescore_batch, rescore_run
from studybench.rescore.flips import TO_CORRECT, TO_INCORRECT
from studybench.tracking.mlflow_log import client_for
from studybench.tracking.rescore import (
    LINEAGE_KEY,
    RESCORE_OF,
    SUPERSEDED_BY,
    VERIFIER_TAG,
    Instrument,
)
from studybench.verify import VERIFIER_VERSION
from tests.rescore.conftest import SPLIT, evaluate_with_plugin, right, student_server
from tests.rescore.plugin import FLIP_REASON, FLIPPED_TYPE

HEADLINE = f"{SPLIT}/par_at_1_mean"


def _engine_never_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a re-score started the generation engine")

    monkeypatch.setattr("studybench.engines.factory.run_on_engine", refuse)


def test_a_verifier_bump_is_rescored_from_stored_generations_without_generating(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = client_for(settings)
    with student_server(settings) as (url, student):
        stored = [
            evaluate_with_plugin(settings, url, "ck10", training_run="tr", step=10),
            evaluate_with_plugin(settings, url, "ck20", training_run="tr", step=20),
        ]
        # planning the same checkpoint again: a re-score, not a generation
        again = plan_target(
            "ck10", "student", "openai", settings, splits=(SPLIT,), base_url=url,
            checkpoint=CheckpointMeta(identity="id-ck10", step=10, training_run="tr"),
        )  # fmt: skip
        assert again.skip_reason.startswith("generated already"), again.skip_reason
        assert stored[0][1] in again.skip_reason and again.run_root == stored[0][0].run_root

        student.fail = True  # the generation endpoint now fails any call ...
        asked = len(student.calls)
        _engine_never_starts(monkeypatch)  # ... and no engine may even start
        before = {run_id: client.get_run(run_id).data.metrics for _, run_id in stored}
        batches = plan_batches(settings, Selection())
        assert [b.label for b in batches] == ["lineage tr"]
        assert batches[0].run_ids == [stored[0][1], stored[1][1]]  # step order
        outcomes = [
            o for b in batches for o in rescore_batch(settings, b.label, b.run_ids).outcomes
        ]
        assert len(student.calls) == asked

    flipped_slots = sum(
        1 for q, (_, kind) in student.answers.items() if kind == FLIPPED_TYPE
    )  # every NV verdict of both seeds flips back, nothing else
    for (target, original), outcome in zip(stored, outcomes, strict=True):
        report = outcome.flips
        assert outcome.status == "rescored" and outcome.original == original
        assert report.flips == 2 * flipped_slots and report.compared == 2 * len(student.answers)
        assert set(report.by_answer_type) == {TO_CORRECT, TO_INCORRECT}
        assert all(set(t) == {FLIPPED_TYPE} for t in report.by_answer_type.values())
        assert all(c.startswith(f"{FLIP_REASON} -> ") for d in report.by_class.values() for c in d)
        wrong_nv = sum(
            1 for q, (_, kind) in student.answers.items() if kind == FLIPPED_TYPE and not right(q)
        )
        assert report.by_direction[TO_INCORRECT] == 2 * wrong_nv  # the plug-in accepted these
        assert outcome.llm_calls == 0 and len(report.examples) <= 2 * settings.rescore.examples

        new = client.get_run(outcome.run_id)
        assert new.data.tags[VERIFIER_TAG] == VERIFIER_VERSION
        assert new.data.tags[RESCORE_OF] == original
        assert Instrument.of_run(new) == installed(settings)
        assert client.get_run(original).data.tags[SUPERSEDED_BY] == outcome.run_id
        assert client.get_run(original).data.metrics == before[original]  # kept, not rewritten
        assert new.info.start_time == client.get_run(original).info.start_time + 1
        tables = {f.path for f in client.list_artifacts(outcome.run_id, "tables")}
        assert "tables/rescore_flips.json" in tables
        # the same numbers as judging the same generations afresh with the installed verifier
        judge_dir(target.run_dir(SPLIT), settings)
        fresh = build_report(target.run_dir(SPLIT)).scores
        assert new.data.metrics[HEADLINE] == pytest.approx(fresh.par_mean)
        assert new.data.metrics[f"{SPLIT}/sub_at_1_mean"] == pytest.approx(fresh.sub_mean)
        assert new.data.metrics["rescore/flips"] == report.flips

    # the learning curve: one instrument, one point per checkpoint, the re-scored values
    experiment = client.get_experiment_by_name(settings.tracking.experiment).experiment_id
    (lineage,) = client.search_runs([experiment], filter_string=f"tags.`{LINEAGE_KEY}` = 'tr'")
    assert Instrument.of_run(lineage) == installed(settings)
    history = sorted(client.get_metric_history(lineage.info.run_id, HEADLINE), key=lambda m: m.step)
    assert [(m.step, m.value) for m in history] == [
        (10, client.get_run(outcomes[0].run_id).data.metrics[HEADLINE]),
        (20, client.get_run(outcomes[1].run_id).data.metrics[HEADLINE]),
    ]
    retired = client.search_runs(
        [experiment], filter_string=f"tags.`{LINEAGE_KEY}` LIKE 'tr@superseded-%'"
    )  # the plug-in's series, kept and findable
    assert lineage.info.run_id in {r.data.tags.get(SUPERSEDED_BY) for r in retired}
    assert all("superseded" in r.info.run_name for r in retired)

    # idempotent: nothing is stale, a re-run names the existing version
    assert plan_batches(settings, Selection()) == []
    again_outcome = rescore_run(settings, stored[0][1])
    assert again_outcome.status == "current" and again_outcome.run_id == outcomes[0].run_id
    done = plan_target(
        "ck10", "student", "openai", settings, splits=(SPLIT,), base_url="http://127.0.0.1:9",
        checkpoint=CheckpointMeta(identity="id-ck10", step=10, training_run="tr"),
    )  # fmt: skip
    assert done.skip_reason.startswith("already evaluated"), done.skip_reason


def test_the_regression_check_compares_like_with_like(settings: Settings) -> None:
    client = client_for(settings)
    with student_server(settings) as (url, _student):
        _, old = evaluate_with_plugin(settings, url, "ck10", training_run="tr", step=10)
        _, unmatched = evaluate_with_plugin(settings, url, "elsewhere")
        # the gold of this one changed since: it cannot be re-scored, only reported
        client.set_tag(unmatched, "data.application_problems.json", "sha256:0123456789abcdef")
        target = plan_target(
            "ck20", "student", "openai", settings, splits=(SPLIT,), base_url=url,
            checkpoint=CheckpointMeta(identity="id-ck20", step=20, training_run="tr"),
            check_done=False,
        )  # fmt: skip
        outcome = evaluate(target, settings, baseline=unmatched, log=True)
    check = outcome.check
    assert check is not None
    rescored = rescore_run(settings, old)  # the check re-scored the previous checkpoint first
    assert rescored.status == "current"
    assert check.compared == {"previous checkpoint": rescored.run_id}
    assert any("re-scored first" in n and old in n for n in check.notes), check.notes
    assert any("cannot be re-scored" in n and unmatched in n for n in check.notes), check.notes
    assert check.instrument == installed(settings).describe()
    tags = client.get_run(outcome.run_id).data.tags
    assert tags["studybench.check.instrument"] == installed(settings).describe()
    assert tags["studybench.baseline_run"] == rescored.run_id
