"""Regression checks between evaluation runs, against a real MLflow store (issue 26).

Pins :mod:`studybench.tracking.compare` on the ``mlflow_store`` fixture (sqlite tracking and
registry store, local artefacts; a copy of a migrated template, so it is cheap enough for a
pytest session per mutant): which earlier run each lineage compares with (checkpoints by the
highest lower step, nightly runs night by night, the target tag before the model tag; only
finished runs with another evaluation key), the best checkpoint so far, the seed-noise
heuristic (margin max(threshold, 2 sqrt(std_a^2 + std_b^2)), strict), paired comparisons from
item tables, what a comparison logs on the candidate run, and when the registry's ``best``
alias moves. Every expectation is written from the docstrings and the README ("Regression
check", "Registry", "The nightly regression run"), never read back from the code.
"""

from __future__ import annotations

import math
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest

from studybench.errors import StudyBenchError
from studybench.metrics.comparison import CompareSettings, MetricResult, PairedComparison
from studybench.metrics.items import ItemRow, write_items
from studybench.metrics.paired import ComparisonRefusedError, EvaluationInfo
from studybench.tracking.compare import (
    Comparison,
    MetricComparison,
    best_so_far,
    compare_metrics,
    compare_pair,
    compare_runs,
    log_comparison,
    paired_metrics,
    previous_evaluation,
    register_checkpoint,
    resolve_run,
    run_info,
    run_items,
)
from tests.tracking.conftest import MlflowStore

EVAL = "studybench.eval_key"
HEAD = "application/par_at_2_mean"
FAST = CompareSettings(min_effect=0.02, n_resamples=199)
PARENTS = 12


def items(correct: bool, split: str = "application") -> list[ItemRow]:
    """12 parents x 1 slot x 2 seeds x 2 attempts, every attempt ``correct`` (k = 2)."""
    return [
        ItemRow(split=split, parent=f"p{p}", slot="0", seed=s, attempt=a, correct=correct)
        for p in range(PARENTS)
        for s in range(2)
        for a in range(2)
    ]


class Runs:
    """Makes runs in one fresh experiment of the store."""

    def __init__(self, store: MlflowStore, name: str) -> None:
        self.store, self.client = store, store.client
        self.experiment = store.experiment(name)
        self.folder = store.root / name
        self.count = 0

    def make(
        self,
        tags: dict[str, str],
        metrics: dict[str, float] | None = None,
        *,
        start: int | None = None,
        status: str = "FINISHED",
        tables: dict[str, list[ItemRow]] | None = None,
    ) -> str:
        self.count += 1
        run = self.client.create_run(
            self.experiment, start_time=start, tags=tags, run_name=f"r{self.count}"
        )
        run_id = str(run.info.run_id)
        for key, value in (metrics or {}).items():
            self.client.log_metric(run_id, key, value)
        for name, rows in (tables or {}).items():
            path = self.folder / str(self.count) / name
            write_items(path, rows)
            self.client.log_artifact(run_id, str(path), artifact_path="items")
        if status != "RUNNING":
            self.client.set_terminated(run_id, status)
        return run_id


@pytest.fixture
def runs(mlflow_store: MlflowStore, request: pytest.FixtureRequest) -> Runs:
    return Runs(mlflow_store, request.node.name.replace("[", "-").replace("]", ""))


def evaluated(key: str, **tags: str) -> dict[str, str]:
    return {EVAL: key, **tags}


def ckpt(key: str, step: int | str, training_run: str = "tr", **tags: str) -> dict[str, str]:
    return {EVAL: key, "training_run": training_run, "checkpoint.step": str(step), **tags}


# --- resolve_run -------------------------------------------------------------------------


def test_resolve_run_passes_a_run_id_through(runs: Runs) -> None:
    assert resolve_run(runs.client, "0123abcd") == "0123abcd"
    assert resolve_run(runs.client, "0123abcd", relative_to="ffff") == "0123abcd"


def test_resolve_run_reads_the_alias_of_a_registered_model(runs: Runs) -> None:
    client = runs.client
    first = runs.make(evaluated("a"))
    second = runs.make(evaluated("b"))
    client.create_registered_model("resolve-m")
    client.create_model_version("resolve-m", f"runs:/{first}/", run_id=first)
    client.create_model_version("resolve-m", f"runs:/{second}/", run_id=second)
    client.set_registered_model_alias("resolve-m", "best", "1")  # the older version
    client.set_registered_model_alias("resolve-m", "latest-good", "2")
    assert resolve_run(client, "models:/resolve-m@best") == first
    assert resolve_run(client, "models:/resolve-m@latest-good") == second


@pytest.mark.parametrize("spec", ["models:/resolve-m", "models:/resolve-m@"])
def test_resolve_run_needs_an_alias(runs: Runs, spec: str) -> None:
    with pytest.raises(StudyBenchError) as error:
        resolve_run(runs.client, spec)
    assert str(error.value) == f"{spec}: give a registered model alias, models:/NAME@ALIAS"


def test_previous_needs_the_candidate(runs: Runs) -> None:
    with pytest.raises(StudyBenchError) as error:
        resolve_run(runs.client, "previous")
    assert str(error.value) == "'previous' needs the candidate run"


def test_previous_is_the_same_models_latest_earlier_evaluation(runs: Runs) -> None:
    m = {"studybench.model": "m"}
    runs.make(evaluated("k1", **m), start=1000)
    expected = runs.make(evaluated("k2", **m), start=2000)
    runs.make(dict(m), start=2500)  # not an evaluation (no eval key)
    runs.make(evaluated("k3", **{"studybench.model": "other"}), start=2800)
    candidate = runs.make(evaluated("k4", **m), start=3000)
    runs.make(evaluated("k5", **m), start=3000)  # same time: not earlier
    runs.make(evaluated("k6", **m), start=4000)  # later
    assert resolve_run(runs.client, "previous", relative_to=candidate) == expected


def test_previous_without_an_earlier_evaluation_is_an_error(runs: Runs) -> None:
    runs.make({"studybench.model": "m"}, start=1000)  # no eval key
    runs.make(evaluated("k0", **{"studybench.model": "n"}), start=1500)
    candidate = runs.make(evaluated("k1", **{"studybench.model": "m"}), start=2000)
    runs.make(evaluated("k2", **{"studybench.model": "m"}), start=3000)
    with pytest.raises(StudyBenchError) as error:
        resolve_run(runs.client, "previous", relative_to=candidate)
    assert str(error.value) == "no earlier evaluation of m to compare with"


def test_previous_of_a_run_without_model_is_no_named_model(runs: Runs) -> None:
    # a run without a model tag has no model: not the same model as one called "None"
    for name in ("None", "XXXX", "m"):
        runs.make(evaluated(f"k-{name}", **{"studybench.model": name}), start=1000)
    candidate = runs.make(evaluated("c"), start=2000)
    with pytest.raises(StudyBenchError) as error:
        resolve_run(runs.client, "previous", relative_to=candidate)
    assert str(error.value) == "no earlier evaluation of  to compare with"


# --- previous_evaluation ------------------------------------------------------------------


def test_a_checkpoint_is_compared_with_the_highest_lower_evaluated_step(runs: Runs) -> None:
    runs.make(ckpt("k100", 100), start=9000)  # lower step, but the latest start
    expected = runs.make(ckpt("k200", 200), start=2000)
    runs.make(ckpt("k150", 150), start=1500)
    runs.make(ckpt("k250", 250), start=2500, status="FAILED")
    runs.make(ckpt("k255", 255), start=2550, status="RUNNING")
    runs.make({"training_run": "tr", "checkpoint.step": "260"}, start=2600)  # no eval key
    runs.make(ckpt("k300", 280), start=2800)  # the candidate's own evaluation key
    runs.make(ckpt("k290", 290, training_run="tr2"), start=2900)  # other training run
    runs.make(ckpt("kfinal", "final"), start=2950)  # no numeric step
    runs.make(ckpt("k300b", 300), start=2990)  # the same step: not lower
    runs.make({"training_run": "tr"}, start=2995)  # the lineage run
    runs.make({EVAL: "knostep", "training_run": "tr"}, start=2996)  # an evaluation, no step
    candidate = runs.make(ckpt("k300", 300), start=3000)
    runs.make(ckpt("k400", 400), start=1000)  # higher step, earlier start
    assert previous_evaluation(runs.client, candidate) == expected


def test_the_first_checkpoint_has_no_previous_evaluation(runs: Runs) -> None:
    runs.make(ckpt("k200", 200), start=1000)
    runs.make(ckpt("k50", 50, training_run="tr2"), start=1000)
    runs.make(ckpt("k50f", 50), start=1000, status="FAILED")
    runs.make({"studybench.model": "m", EVAL: "old"}, start=500)  # same model, no lineage
    candidate = runs.make(ckpt("k100", 100, **{"studybench.model": "m"}), start=2000)
    assert previous_evaluation(runs.client, candidate) is None


def test_a_nightly_run_is_compared_with_the_previous_night(runs: Runs) -> None:
    night = {"studybench.target": "sft-latest", "studybench.model": "sft"}
    runs.make(ckpt("n1", 500, **night, **{"studybench.run_tag": "nightly-1"}), start=1000)
    expected = runs.make(
        ckpt("n2", 100, **night, **{"studybench.run_tag": "nightly-2"}), start=2000
    )
    runs.make(ckpt("n25", 550, **night), start=2500, status="FAILED")
    runs.make(ckpt("n3", 560, **night), start=2600)  # the candidate's own key
    runs.make({"studybench.target": "sft-latest"}, start=2700)  # no eval key
    runs.make(ckpt("o1", 570, **{"studybench.target": "other"}), start=2800)
    candidate = runs.make(
        ckpt("n3", 600, **night, **{"studybench.run_tag": "nightly-3"}), start=3000
    )
    runs.make(ckpt("n4", 700, **night), start=4000)
    # the checkpoint lineage would pick step 560 or 500; the night before is step 100
    assert previous_evaluation(runs.client, candidate) == expected


def test_the_target_tag_comes_before_the_model_tag(runs: Runs) -> None:
    expected = runs.make(
        evaluated("a", **{"studybench.target": "T", "studybench.model": "x"}), start=1000
    )
    runs.make(evaluated("b", **{"studybench.target": "U", "studybench.model": "m"}), start=2000)
    runs.make(evaluated("c", **{"studybench.model": "m"}), start=2100)
    candidate = runs.make(
        evaluated("d", **{"studybench.target": "T", "studybench.model": "m"}), start=3000
    )
    assert previous_evaluation(runs.client, candidate) == expected


def test_a_model_without_training_run_uses_its_latest_earlier_run(runs: Runs) -> None:
    m = {"studybench.model": "m"}
    runs.make(evaluated("a", **m), start=1000)
    expected = runs.make(evaluated("b", **m), start=2000)
    runs.make(evaluated("f", **m), start=2500, status="FAILED")
    runs.make(evaluated("e", **m), start=2600)  # the candidate's own key
    runs.make(dict(m), start=2700)
    runs.make(evaluated("t", **{"studybench.model": "m2"}), start=2800)
    # a training run without a step is not a checkpoint lineage either
    candidate = runs.make(evaluated("e", training_run="tr", **m), start=3000)
    runs.make(evaluated("g", **m), start=4000)
    assert previous_evaluation(runs.client, candidate) == expected


def test_no_earlier_run_of_the_target(runs: Runs) -> None:
    runs.make(evaluated("b", **{"studybench.target": "T"}), start=5000)
    runs.make(evaluated("c", **{"studybench.target": "U"}), start=1000)
    candidate = runs.make(evaluated("a", **{"studybench.target": "T"}), start=3000)
    assert previous_evaluation(runs.client, candidate) is None


def test_a_run_without_target_or_model_matches_no_named_one(runs: Runs) -> None:
    for name in ("None", "XXXX"):
        runs.make(evaluated(f"k-{name}", **{"studybench.model": name}), start=1000)
        runs.make(evaluated(f"t-{name}", **{"studybench.target": name}), start=1000)
    candidate = runs.make(evaluated("c"), start=2000)
    assert previous_evaluation(runs.client, candidate) is None


def test_a_run_without_eval_key_skips_earlier_runs_without_one(runs: Runs) -> None:
    m = {"studybench.model": "m"}
    runs.make(evaluated("k1", **m), start=1000)
    expected = runs.make(evaluated("XXXX", **m), start=1200)
    runs.make(evaluated("", **m), start=1500)  # the same (empty) evaluation key
    candidate = runs.make(dict(m), start=2000)
    assert previous_evaluation(runs.client, candidate) == expected


# --- best_so_far --------------------------------------------------------------------------


def _best_setup(runs: Runs) -> tuple[str, str]:
    def head(value: float, other: float = 0.0) -> dict[str, float]:
        return {HEAD: value, "zzz/par_at_2_mean": other}

    best = runs.make(ckpt("s100", 100), head(0.7, 0.1))
    runs.make(ckpt("s200", 200), head(0.7, 0.1))  # a tie: the earlier step wins
    runs.make(ckpt("s300", 300), head(0.6, 0.99))  # best on a later-sorted metric
    runs.make(ckpt("s350", 350), head(0.9), status="FAILED")
    runs.make({"training_run": "tr", "checkpoint.step": "360"}, head(0.95))  # no eval key
    runs.make(ckpt("s370", 370, training_run="tr2"), head(1.0))
    runs.make(ckpt("sfin", "final"), head(1.0))
    runs.make(ckpt("s450", 450), {"zzz/par_at_2_mean": 1.0})  # no headline metric
    runs.make({EVAL: "nostep", "training_run": "tr"}, head(1.0))  # an evaluation, no step
    runs.make(ckpt("s500b", 500), head(0.99))  # the same step: not earlier
    runs.make(ckpt("s600", 600), head(0.99))  # later
    candidate = runs.make(
        ckpt("s500", 500),
        {
            "aaa/par_at_2_std": 0.1,  # not a mean
            "aaa/sub_at_2_mean": 0.1,  # not Par@k
            "aaa_par_at_2_mean": 0.1,  # not a split's metric
            HEAD: 0.5,
            "zzz/par_at_2_mean": 0.5,
        },
    )
    return candidate, best


def test_best_so_far_is_the_highest_headline_of_an_earlier_step(runs: Runs) -> None:
    candidate, best = _best_setup(runs)
    assert best_so_far(runs.client, candidate) == best
    assert best_so_far(runs.client, candidate, exclude=("somewhere-else",)) == best
    # the best one was already compared (the previous checkpoint): nothing more to compare
    assert best_so_far(runs.client, candidate, exclude=("x", best)) is None


def test_best_so_far_breaks_a_tie_towards_the_earlier_step(runs: Runs) -> None:
    later = runs.make(ckpt("s300", 300), {HEAD: 0.8})
    earlier = runs.make(ckpt("s200", 200), {HEAD: 0.8})
    runs.make(ckpt("s100", 100), {HEAD: 0.79})
    candidate = runs.make(ckpt("s400", 400), {HEAD: 0.1})
    assert best_so_far(runs.client, candidate) == earlier != later


@pytest.mark.parametrize(
    ("tags", "metrics", "note"),
    [
        ({EVAL: "c", "checkpoint.step": "500"}, {HEAD: 0.5}, "no training run"),
        (ckpt("c", "final"), {HEAD: 0.5}, "no numeric step"),
        ({EVAL: "c", "training_run": "tr"}, {HEAD: 0.5}, "no step"),
        (ckpt("c", 500), {"application/sub_at_2_mean": 0.5}, "no headline metric"),
        (ckpt("c", 50), {HEAD: 0.5}, "nothing earlier"),
    ],
)
def test_best_so_far_is_none(
    runs: Runs, tags: dict[str, str], metrics: dict[str, float], note: str
) -> None:
    runs.make(ckpt("s100", 100), {HEAD: 0.9, "application/sub_at_2_mean": 0.9})
    candidate = runs.make(tags, metrics)
    assert best_so_far(runs.client, candidate) is None, note


# --- compare_metrics (the seed-noise heuristic) and describe -------------------------------

# stds 3/64 and 4/64 combine to 5/64; twice that, 0.15625, is the margin (all exact floats)
A, B = 0.046875, 0.0625


@pytest.mark.parametrize(
    ("candidate", "threshold", "margin", "regression", "improvement", "note"),
    [
        (0.34375, 0.02, 0.15625, False, False, "a drop of exactly the margin is noise"),
        (0.3125, 0.02, 0.15625, True, False, "a drop beyond the margin regresses"),
        (0.65625, 0.02, 0.15625, False, False, "a gain of exactly the margin is noise"),
        (0.6875, 0.02, 0.15625, False, True, "a gain beyond the margin improves"),
        (0.5, 0.02, 0.15625, False, False, "unchanged"),
        (0.375, 0.125, 0.15625, False, False, "the stds win over a smaller threshold"),
        (0.3125, 0.25, 0.25, False, False, "a larger threshold wins over the stds"),
        (0.25, 0.25, 0.25, False, False, "a drop of exactly the threshold is noise"),
        (0.25, 0.1875, 0.1875, True, False, "beyond the threshold"),
        (0.75, 0.1875, 0.1875, False, True, "a gain beyond the threshold"),
    ],
)
def test_the_seed_noise_margin(
    candidate: float,
    threshold: float,
    margin: float,
    regression: bool,
    improvement: bool,
    note: str,
) -> None:
    [m] = compare_metrics(
        {HEAD: 0.5, "application/par_at_2_std": A},
        {HEAD: candidate, "application/par_at_2_std": B},
        threshold,
    )
    assert m.metric == HEAD, note
    assert (m.baseline, m.candidate, m.diff) == (0.5, candidate, candidate - 0.5), note
    assert m.combined_std == 0.078125, note
    assert (m.margin, m.regression, m.improvement) == (margin, regression, improvement), note
    assert m.decision == "" and math.isnan(m.ci_low) and math.isnan(m.p_value), note


def test_a_missing_std_counts_as_zero() -> None:
    [only_base] = compare_metrics({HEAD: 0.5, "application/par_at_2_std": A}, {HEAD: 0.5}, 0.02)
    assert (only_base.combined_std, only_base.margin) == (A, 2 * A)
    [only_cand] = compare_metrics({HEAD: 0.5}, {HEAD: 0.5, "application/par_at_2_std": B}, 0.02)
    assert (only_cand.combined_std, only_cand.margin) == (B, 2 * B)
    [neither] = compare_metrics({HEAD: 0.5}, {HEAD: 0.25}, 0.125)
    assert (neither.combined_std, neither.margin, neither.regression) == (0.0, 0.125, True)


def test_compare_metrics_compares_the_shared_means_in_order() -> None:
    baseline = {
        "transfer/par_at_1_mean": 0.5,
        "application/sub_at_2_mean": 0.25,
        "application/par_at_2_std": 0.01,
        "gpu_hours": 3.0,
        "only_baseline/par_at_1_mean": 0.5,
    }
    candidate = {
        "transfer/par_at_1_mean": 0.75,
        "application/sub_at_2_mean": 0.25,
        "application/par_at_2_std": 0.01,
        "gpu_hours": 1.0,
        "only_candidate/par_at_1_mean": 0.5,
    }
    out = compare_metrics(baseline, candidate, 0.02)
    assert [m.metric for m in out] == ["application/sub_at_2_mean", "transfer/par_at_1_mean"]
    assert [m.diff for m in out] == [0.0, 0.25]
    assert compare_metrics({}, candidate, 0.02) == []


def test_describe_the_heuristic_and_the_paired_decision() -> None:
    def heuristic(regression: bool, improvement: bool) -> str:
        return MetricComparison(
            metric=HEAD,
            baseline=0.5,
            candidate=0.25,
            diff=-0.25,
            margin=0.1,
            regression=regression,
            improvement=improvement,
        ).describe()

    line = f"{HEAD}: 0.5000 -> 0.2500 (-0.2500, noise margin 0.1000) "
    assert heuristic(True, False) == line + "REGRESSION"
    assert heuristic(False, True) == line + "improved"
    assert heuristic(False, False) == line + "same"
    paired = MetricComparison(
        metric=HEAD,
        baseline=0.5,
        candidate=0.75,
        diff=0.25,
        margin=0.02,
        regression=False,
        improvement=True,
        ci_low=0.125,
        ci_high=0.375,
        p_value=0.00123,
        p_adjusted=0.0049,
        decision="improved",
    )
    assert paired.describe() == (
        f"{HEAD}: 0.5000 -> 0.7500 (+0.2500, 95% CI +0.1250 to +0.3750, p=0.00123, "
        "adjusted 0.0049) improved"
    )


def test_a_comparison_regresses_when_any_metric_does() -> None:
    def metric(regression: bool) -> MetricComparison:
        return MetricComparison(
            metric=HEAD,
            baseline=0.5,
            candidate=0.5,
            diff=0.0,
            margin=0.0,
            regression=regression,
            improvement=False,
        )

    def comparison(*flags: bool) -> Comparison:
        return Comparison(baseline_run="a", candidate_run="b", metrics=[metric(f) for f in flags])

    assert comparison(False, True).regression
    assert comparison(True).regression
    assert not comparison(False, False).regression
    assert not comparison().regression
    assert comparison().method == "seed-noise heuristic"
    assert comparison().notes == [] and comparison().paired is None


# --- item tables, run info, paired comparisons ---------------------------------------------


def test_run_items_reads_every_item_table_of_the_run(runs: Runs) -> None:
    first, second = items(True), items(False, split="transfer")
    run = runs.make(
        evaluated("a"),
        tables={"b.jsonl": second, "a.jsonl.gz": first, "notes.txt": items(True, "x")},
    )
    # a folder under items/ and a table outside items/ are not item tables of the run
    nested = runs.folder / "nested" / "sub" / "c.jsonl.gz"
    write_items(nested, items(True, "nested"))
    runs.client.log_artifact(run, str(nested), artifact_path="items/sub")
    runs.client.log_artifact(run, str(nested), artifact_path="")
    assert run_items(runs.client, run) == first + second  # in name order


def test_run_items_leaves_no_downloaded_copy(
    runs: Runs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = runs.make(evaluated("a"), tables={"a.jsonl.gz": items(True)})
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    assert len(run_items(runs.client, run)) == len(items(True))
    assert list(scratch.iterdir()) == []


def test_run_items_is_empty_without_tables(runs: Runs) -> None:
    bare = runs.make(evaluated("a"))
    assert run_items(runs.client, bare) == []
    assert run_items(runs.client, "no-such-run") == []


def test_run_info_is_the_data_versions_and_the_protocol(runs: Runs) -> None:
    run = runs.make(
        {
            "protocol_hash": "p1",
            "data.transfer.json": "dvc:bbb",
            "dataset": "not a data version",
            "data.application.json": "dvc:aaa",
            EVAL: "a",
        }
    )
    assert run_info(runs.client, run) == EvaluationInfo(
        name=f"run {run}",
        data_version="data.application.json=dvc:aaa,data.transfer.json=dvc:bbb",
        protocol="p1",
    )
    bare = runs.make({EVAL: "b"})
    assert run_info(runs.client, bare) == EvaluationInfo(name=f"run {bare}")


@pytest.mark.parametrize(
    ("tags", "verifier", "judge"),
    [
        ({"verifier_version": "1.8.0", "judge_version": "j1"}, "1.8.0", "j1"),
        # a re-score's tag wins over the version the evaluation was logged with
        (
            {"verifier_version": "1.8.0", "studybench.verifier_version": "1.9.0"},
            "1.9.0",
            "",
        ),
        ({"judge_version": "j1", "studybench.judge_version": "j2"}, "", "j2"),
        ({"studybench.verifier_version": "1.9.0"}, "1.9.0", ""),
    ],
)
def test_run_info_names_the_instruments(
    runs: Runs, tags: dict[str, str], verifier: str, judge: str
) -> None:
    run = runs.make({EVAL: "a", **tags})
    info = run_info(runs.client, run)
    assert (info.verifier_version, info.judge_version) == (verifier, judge)


def _result(key: str, decision: str, diff: float) -> MetricResult:
    return MetricResult(
        benchmark="studybench",
        split="application",
        metric="par_at_k",
        key=key,
        k=2,
        baseline=0.5,
        candidate=0.5 + diff,
        diff=diff,
        ci_low=diff - 0.125,
        ci_high=diff + 0.125,
        p_value=0.01,
        p_adjusted=0.03,
        decision=decision,
        parents=12,
        exact=True,
        mde=0.1,
    )


def test_paired_metrics_keep_every_decision_under_the_logged_name() -> None:
    result = PairedComparison(
        settings=CompareSettings(min_effect=0.03),
        metrics=[
            _result("application/par_at_2", "regressed", -0.25),
            _result("application/sub_at_2", "improved", 0.25),
            _result("transfer/par_at_2", "unchanged", 0.0),
        ],
    )
    out = paired_metrics(result)
    assert [m.metric for m in out] == [
        "application/par_at_2_mean",
        "application/sub_at_2_mean",
        "transfer/par_at_2_mean",
    ]
    assert [(m.regression, m.improvement, m.decision) for m in out] == [
        (True, False, "regressed"),
        (False, True, "improved"),
        (False, False, "unchanged"),
    ]
    first = out[0]
    assert (first.baseline, first.candidate, first.diff, first.margin) == (0.5, 0.25, -0.25, 0.03)
    assert (first.ci_low, first.ci_high, first.p_value, first.p_adjusted) == (
        -0.375,
        -0.125,
        0.01,
        0.03,
    )
    assert first.combined_std == 0.0
    assert [m.mde for m in out] == [0.1, 0.1, 0.1]


def _scored(
    runs: Runs,
    correct: bool,
    *,
    value: float | None = None,
    correct_items: bool | None = None,
    tags: dict[str, str] | None = None,
) -> str:
    """An evaluation run with an item table (every answer ``correct``, unless
    ``correct_items`` says otherwise) and its logged headline mean (``value``: another one)."""
    data = {EVAL: f"k{runs.count}", "data.application.json": "dvc:aaa", "protocol_hash": "p1"}
    table = items(correct if correct_items is None else correct_items)
    logged = (1.0 if correct else 0.0) if value is None else value
    return runs.make(
        {**data, **(tags or {})}, {HEAD: logged}, tables={"studybench.jsonl.gz": table}
    )


def test_a_paired_improvement(runs: Runs) -> None:
    low, high = _scored(runs, False), _scored(runs, True)
    result = compare_pair(runs.client, low, high, FAST)
    assert (result.baseline_run, result.candidate_run, result.method) == (low, high, "paired")
    assert result.paired is not None
    assert (result.paired.baseline, result.paired.candidate) == (low, high)
    assert result.notes == result.paired.notes
    par = next(m for m in result.metrics if m.metric == HEAD)
    assert (par.baseline, par.candidate, par.diff, par.margin) == (0.0, 1.0, 1.0, 0.02)
    assert (par.decision, par.improvement, par.regression) == ("improved", True, False)
    assert not result.regression


def test_a_paired_comparison_keeps_the_power_notes(runs: Runs) -> None:
    rng = random.Random(3)

    def noisy(rate: float) -> list[ItemRow]:
        return [
            ItemRow(
                split="application",
                parent=f"p{p}",
                slot="0",
                seed=s,
                attempt=a,
                correct=rng.random() < rate,
            )
            for p in range(PARENTS)
            for s in range(2)
            for a in range(2)
        ]

    base = runs.make({EVAL: "a"}, {HEAD: 0.5}, tables={"s.jsonl.gz": noisy(0.5)})
    cand = runs.make({EVAL: "b"}, {HEAD: 0.5}, tables={"s.jsonl.gz": noisy(0.5)})
    result = compare_pair(runs.client, base, cand, FAST)
    assert result.paired is not None
    # 12 noisy parents cannot detect a 2-point effect: the comparison says so
    assert result.notes and result.notes == result.paired.notes


def test_a_paired_regression(runs: Runs) -> None:
    high, low = _scored(runs, True), _scored(runs, False)
    result = compare_pair(runs.client, high, low, FAST)
    par = next(m for m in result.metrics if m.metric == HEAD)
    assert (par.decision, par.regression, par.diff) == ("regressed", True, -1.0)
    assert result.regression and result.method == "paired"


@pytest.mark.parametrize(
    ("tag", "value", "message"),
    [
        ("data.application.json", "dvc:bbb", "data version differs"),
        ("protocol_hash", "p2", "protocol differs"),
    ],
)
def test_other_data_or_protocol_is_refused(runs: Runs, tag: str, value: str, message: str) -> None:
    base = _scored(runs, False)
    other = _scored(runs, True, tags={tag: value})
    with pytest.raises(ComparisonRefusedError) as error:
        compare_pair(runs.client, base, other, FAST)
    assert message in str(error.value)
    assert f"run {base}" in str(error.value) and f"run {other}" in str(error.value)


@pytest.mark.parametrize("missing", ["baseline", "candidate", "both"])
def test_runs_without_item_tables_fall_back_to_the_heuristic(runs: Runs, missing: str) -> None:
    base = runs.make(
        {EVAL: "a"},
        {HEAD: 0.5, "application/par_at_2_std": A},
        tables=None if missing in ("baseline", "both") else {"s.jsonl.gz": items(False)},
    )
    cand = runs.make(
        {EVAL: "b"},
        {HEAD: 0.3125, "application/par_at_2_std": B},
        tables=None if missing in ("candidate", "both") else {"s.jsonl.gz": items(True)},
    )
    result = compare_pair(runs.client, base, cand, CompareSettings(min_effect=0.02))
    assert result.method == "seed-noise heuristic" and result.paired is None
    named = cand if missing == "candidate" else base
    assert result.notes == [
        f"run {named} has no item table: compared with the seed-noise heuristic (no pairing, no CI)"
    ]
    [par] = result.metrics
    assert (par.metric, par.margin, par.regression) == (HEAD, 0.15625, True)
    assert (result.baseline_run, result.candidate_run) == (base, cand)


# --- logging and compare_runs --------------------------------------------------------------


def _hand_comparison(baseline: str, candidate: str, regression: bool) -> Comparison:
    heuristic = MetricComparison(
        metric=HEAD,
        baseline=0.5,
        candidate=0.25,
        diff=-0.25,
        margin=0.1,
        regression=regression,
        improvement=False,
    )
    paired = MetricComparison(
        metric="transfer/par_at_1_mean",
        baseline=0.5,
        candidate=0.625,
        diff=0.125,
        margin=0.02,
        regression=False,
        improvement=False,
        ci_low=math.nan,  # not finite: not logged
        ci_high=0.375,
        p_value=0.5,
        p_adjusted=0.75,
        decision="unchanged",
    )
    return Comparison(
        baseline_run=baseline, candidate_run=candidate, metrics=[heuristic, paired], method="paired"
    )


@pytest.mark.parametrize(
    ("label", "metric_prefix", "tag_prefix", "regression"),
    [
        ("compare", "compare", "studybench", True),
        ("baseline", "baseline", "studybench.baseline", False),
    ],
)
def test_log_comparison_writes_the_verdict_on_the_candidate(
    runs: Runs, label: str, metric_prefix: str, tag_prefix: str, regression: bool
) -> None:
    base, cand = runs.make({EVAL: "a"}), runs.make({EVAL: "b"})
    log_comparison(runs.client, _hand_comparison(base, cand, regression), label)
    data = runs.client.get_run(cand).data
    assert data.metrics == {
        f"{metric_prefix}/{HEAD}_diff": -0.25,
        f"{metric_prefix}/transfer/par_at_1_mean_diff": 0.125,
        f"{metric_prefix}/transfer/par_at_1_ci_high": 0.375,
        f"{metric_prefix}/transfer/par_at_1_p_value": 0.5,
        f"{metric_prefix}/transfer/par_at_1_p_adjusted": 0.75,
    }
    written = {k: v for k, v in data.tags.items() if not k.startswith("mlflow.") and k != EVAL}
    assert written == {
        f"{metric_prefix}.transfer/par_at_1.decision": "unchanged",
        f"{tag_prefix}.baseline_run": base,
        f"{tag_prefix}.regression": "true" if regression else "false",
        f"{tag_prefix}.compare_method": "paired",
    }
    assert runs.client.get_run(base).data.metrics == {}


def test_log_comparison_logs_every_finite_paired_field(runs: Runs) -> None:
    base, cand = runs.make({EVAL: "a"}), runs.make({EVAL: "b"})
    result = _hand_comparison(base, cand, False)
    result.metrics[1].ci_low = -0.125
    result.metrics = result.metrics[1:]
    result.method = "seed-noise heuristic"
    log_comparison(runs.client, result)
    data = runs.client.get_run(cand).data
    assert data.metrics["compare/transfer/par_at_1_ci_low"] == -0.125
    assert data.tags["studybench.compare_method"] == "seed-noise heuristic"
    assert data.tags["studybench.regression"] == "false"


def test_compare_runs_logs_under_its_label_unless_told_not_to(runs: Runs) -> None:
    base = runs.make({EVAL: "a"}, {HEAD: 0.5})
    cand = runs.make({EVAL: "b"}, {HEAD: 0.25})
    quiet = compare_runs(runs.client, base, cand, 0.125, log=False)
    assert quiet.regression and quiet.metrics[0].margin == 0.125  # the threshold is the margin
    assert set(runs.client.get_run(cand).data.metrics) == {HEAD}
    assert "studybench.regression" not in runs.client.get_run(cand).data.tags
    loud = compare_runs(runs.client, base, cand, 0.125)
    assert loud.regression
    data = runs.client.get_run(cand).data
    assert data.metrics[f"compare/{HEAD}_diff"] == -0.25
    assert data.tags["studybench.regression"] == "true"
    assert data.tags["studybench.baseline_run"] == base
    compare_runs(runs.client, base, cand, 0.5, label="best")
    data = runs.client.get_run(cand).data
    assert data.metrics[f"best/{HEAD}_diff"] == -0.25
    assert data.tags["studybench.best.regression"] == "false"  # within the 0.5 threshold


def test_compare_runs_settings_replace_the_threshold(runs: Runs) -> None:
    base = runs.make({EVAL: "a"}, {HEAD: 0.5})
    cand = runs.make({EVAL: "b"}, {HEAD: 0.25})
    result = compare_runs(
        runs.client, base, cand, 0.01, log=False, settings=CompareSettings(min_effect=0.375)
    )
    assert result.metrics[0].margin == 0.375 and not result.regression
    paired = compare_runs(runs.client, _scored(runs, True), _scored(runs, False), 0.02, log=False)
    assert paired.method == "paired" and paired.regression


@pytest.mark.parametrize(
    ("label", "prefix"), [("compare", "studybench"), ("best", "studybench.best")]
)
def test_a_paired_comparison_logs_its_test_target_and_instruments(
    runs: Runs, label: str, prefix: str
) -> None:
    long_version = "v" * 600  # tag values are cut at 500 characters
    instruments = {"verifier_version": long_version, "judge_version": "j1"}
    base = _scored(runs, True, tags=instruments)
    cand = _scored(runs, False, tags=instruments)
    result = compare_pair(runs.client, base, cand, FAST)
    assert result.paired is not None
    log_comparison(runs.client, result, label)
    tags = runs.client.get_run(cand).data.tags
    assert tags[f"{prefix}.compare_test"] == result.paired.method[:500]
    assert result.paired.method.startswith("pooled unbiased pass@k per parent")
    assert tags[f"{prefix}.compare_multiplicity"] == "westfall-young"
    assert tags[f"{prefix}.compare_target"] == "this_benchmark"
    assert tags[f"{prefix}.compare_verifier_version"] == "v" * 500
    assert tags[f"{prefix}.compare_judge_version"] == "j1"
    assert "studybench.compare_test" not in runs.client.get_run(base).data.tags


def test_compare_runs_answers_the_target_it_is_given(runs: Runs) -> None:
    base, cand = _scored(runs, True), _scored(runs, False)
    for target in ("this_benchmark", "problems_like_these"):
        result = compare_runs(runs.client, base, cand, 0.02, target=target)
        assert result.paired is not None and result.paired.settings.target == target
        assert result.paired.settings.min_effect == 0.02
        assert runs.client.get_run(cand).data.tags["studybench.compare_target"] == target
    default = compare_runs(runs.client, base, cand, 0.02, log=False)
    assert default.paired is not None and default.paired.settings.target == "this_benchmark"


# --- register_checkpoint and the best alias ------------------------------------------------


def _holder(client: Any, name: str, alias: str = "best") -> str:
    return str(client.get_model_version_by_alias(name, alias).version)


def test_the_first_version_takes_the_alias_with_its_scores_as_tags(runs: Runs) -> None:
    client = runs.client
    run = runs.make(
        {EVAL: "a"},
        {HEAD: 0.25, "application/par_at_2_std": 0.125, "gpu_hours": 2.0, "n_mean_x": 1.0},
    )
    version, moved = register_checkpoint(
        client, run, "reg-first", "/ckpt/1", headline=HEAD, threshold=0.02
    )
    assert (version, moved) == ("1", True)
    assert _holder(client, "reg-first") == "1"
    held = client.get_model_version("reg-first", "1")
    assert held.run_id == run
    assert held.tags == {
        HEAD: "0.250000",
        "application/par_at_2_std": "0.125000",
        "checkpoint.path": "/ckpt/1",
    }


def test_the_alias_moves_only_on_a_paired_improvement(runs: Runs) -> None:
    client, name = runs.client, "reg-paired"
    client.create_registered_model(name)  # an existing model is reused
    low = _scored(runs, False)
    assert register_checkpoint(client, low, name, "/c/1", headline=HEAD, threshold=0.02) == (
        "1",
        True,
    )
    same = _scored(runs, False)
    assert register_checkpoint(client, same, name, "/c/2", headline=HEAD, threshold=0.02) == (
        "2",
        False,
    )
    other = _scored(runs, True, tags={"data.application.json": "dvc:zzz"})
    # other data: refused, never "better", though every answer is right
    assert register_checkpoint(client, other, name, "/c/3", headline=HEAD, threshold=0.02) == (
        "3",
        False,
    )
    assert _holder(client, name) == "1"
    high = _scored(runs, True)
    assert register_checkpoint(client, high, name, "/c/4", headline=HEAD, threshold=0.02) == (
        "4",
        True,
    )
    assert _holder(client, name) == "4"
    worse = _scored(runs, False)
    assert register_checkpoint(client, worse, name, "/c/5", headline=HEAD, threshold=0.02) == (
        "5",
        False,
    )
    assert _holder(client, name) == "4"
    assert client.get_model_version(name, "5").tags["checkpoint.path"] == "/c/5"


def test_with_item_tables_the_paired_decision_beats_the_logged_means(runs: Runs) -> None:
    client, name = runs.client, "reg-items-decide"
    low = _scored(runs, False)
    register_checkpoint(client, low, name, "/c/1", headline=HEAD, threshold=0.02)
    # the logged mean says much better, the item tables say the same: stays
    claimed = _scored(runs, False, value=1.0)
    assert register_checkpoint(client, claimed, name, "/c/2", headline=HEAD, threshold=0.02) == (
        "2",
        False,
    )
    # the logged mean says the same, the item tables say every answer is now right: moves
    modest = _scored(runs, False, correct_items=True)
    assert register_checkpoint(client, modest, name, "/c/3", headline=HEAD, threshold=0.02) == (
        "3",
        True,
    )
    assert _holder(client, name) == "3"


@pytest.mark.parametrize(
    ("candidate", "std", "threshold", "moved", "note"),
    [
        (0.65625, B, 0.02, False, "a gain of exactly the noise margin"),
        (0.6875, B, 0.02, True, "a gain beyond the noise margin"),
        (0.6875, B, 0.25, False, "the threshold is larger than the gain"),
        (0.875, B, 0.25, True, "a gain beyond the threshold"),
        (0.625, 0.0, 0.02, True, "the candidate without a std: the margin is 2 x 3/64"),
        (0.59375, 0.0, 0.02, False, "a gain of exactly 2 x 3/64"),
    ],
)
def test_without_item_tables_the_alias_moves_beyond_seed_noise(
    runs: Runs, candidate: float, std: float, threshold: float, moved: bool, note: str
) -> None:
    client, name = runs.client, f"reg-heuristic-{runs.experiment}"
    holder = runs.make({EVAL: "h"}, {HEAD: 0.5, "application/par_at_2_std": A})
    assert register_checkpoint(client, holder, name, "/h", headline=HEAD, threshold=threshold)[1]
    own = {HEAD: candidate, "transfer/par_at_2_mean": 0.0}
    if std:
        own["application/par_at_2_std"] = std
    run = runs.make({EVAL: "c"}, own)
    version, did = register_checkpoint(client, run, name, "/c", headline=HEAD, threshold=threshold)
    assert (version, did) == ("2", moved), note
    assert _holder(client, name) == ("2" if moved else "1"), note


def test_only_the_headline_decides(runs: Runs) -> None:
    client, name = runs.client, "reg-headline"
    holder = runs.make({EVAL: "h"}, {HEAD: 0.5, "transfer/par_at_2_mean": 0.0})
    register_checkpoint(client, holder, name, "/h", headline=HEAD, threshold=0.02)
    # far better elsewhere, the same headline: stays
    same_head = runs.make({EVAL: "c"}, {HEAD: 0.5, "transfer/par_at_2_mean": 1.0})
    assert register_checkpoint(client, same_head, name, "/c", headline=HEAD, threshold=0.02) == (
        "2",
        False,
    )
    # no headline score at all: never better
    headless = runs.make({EVAL: "d"}, {"transfer/par_at_2_mean": 1.0})
    assert register_checkpoint(client, headless, name, "/d", headline=HEAD, threshold=0.02) == (
        "3",
        False,
    )
    assert _holder(client, name) == "1"


def test_a_holder_without_the_headline_is_beaten_by_any_clear_score(runs: Runs) -> None:
    client, name = runs.client, "reg-unscored"
    holder = runs.make({EVAL: "h"}, {"transfer/par_at_2_mean": 0.5})
    register_checkpoint(client, holder, name, "/h", headline=HEAD, threshold=0.02)
    run = runs.make({EVAL: "c"}, {HEAD: 0.5})
    assert register_checkpoint(client, run, name, "/c", headline=HEAD, threshold=0.02) == (
        "2",
        True,
    )


def test_another_alias(runs: Runs) -> None:
    client, name = runs.client, "reg-alias"
    first = runs.make({EVAL: "a"}, {HEAD: 0.25})
    assert register_checkpoint(
        client, first, name, "/a", headline=HEAD, threshold=0.02, alias="champion"
    ) == ("1", True)
    assert _holder(client, name, "champion") == "1"
    with pytest.raises(Exception, match="best"):
        client.get_model_version_by_alias(name, "best")
    second = runs.make({EVAL: "b"}, {HEAD: 0.75})
    assert register_checkpoint(
        client, second, name, "/b", headline=HEAD, threshold=0.02, alias="champion"
    ) == ("2", True)
    assert _holder(client, name, "champion") == "2"


def test_registered_versions_point_at_their_evaluation_runs(runs: Runs, tmp_path: Path) -> None:
    client, name = runs.client, "reg-source"
    run = runs.make({EVAL: "a"}, {HEAD: 0.25})
    register_checkpoint(client, run, name, str(tmp_path), headline=HEAD, threshold=0.02)
    version = client.get_model_version(name, "1")
    assert version.source == f"runs:/{run}/"
    assert version.tags["checkpoint.path"] == str(tmp_path)


# --- searches page on to the end ------------------------------------------------------------
# One search page used to be all a lineage saw (5, 20 or 500 runs): a target's last good night
# behind a page of failed ones was missed. With two runs a page, a handful of runs spans pages.


@pytest.fixture
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    import studybench.tracking.compare as compare

    monkeypatch.setattr(compare, "PAGE", 2)


@pytest.mark.usefixtures("small_pages")
def test_the_last_good_night_behind_pages_of_failed_ones(runs: Runs) -> None:
    night = {"studybench.target": "nightly-target"}
    expected = runs.make(evaluated("good", **night), start=1000)
    for n in range(5):
        runs.make(evaluated(f"failed{n}", **night), start=2000 + n, status="FAILED")
    candidate = runs.make(evaluated("today", **night), start=3000)
    assert previous_evaluation(runs.client, candidate) == expected


@pytest.mark.usefixtures("small_pages")
def test_the_checkpoint_lineage_sees_every_page(runs: Runs) -> None:
    expected = runs.make(ckpt("s90", 90), start=1000)
    for step in (10, 20, 30, 40, 50):
        runs.make(ckpt(f"s{step}", step), start=2000 + step)
    candidate = runs.make(ckpt("s100", 100), start=3000)
    assert previous_evaluation(runs.client, candidate) == expected


@pytest.mark.usefixtures("small_pages")
def test_best_so_far_sees_every_page(runs: Runs) -> None:
    expected = runs.make(ckpt("s5", 5), {HEAD: 0.9}, start=1000)
    for step in (10, 20, 30, 40, 50):
        runs.make(ckpt(f"s{step}", step), {HEAD: 0.1}, start=2000 + step)
    candidate = runs.make(ckpt("s100", 100), {HEAD: 0.2}, start=3000)
    assert best_so_far(runs.client, candidate) == expected


@pytest.mark.usefixtures("small_pages")
def test_previous_finds_an_evaluation_behind_pages_of_other_runs(runs: Runs) -> None:
    expected = runs.make(evaluated("old", **{"studybench.model": "pm"}), start=1000)
    for n in range(5):  # runs of the model without an evaluation key (e.g. a build's)
        runs.make({"studybench.model": "pm"}, start=2000 + n)
    candidate = runs.make(evaluated("new", **{"studybench.model": "pm"}), start=3000)
    assert resolve_run(runs.client, "previous", relative_to=candidate) == expected
