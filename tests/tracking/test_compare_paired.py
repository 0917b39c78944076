"""Paired regression checks between MLflow runs that carry item tables (real MLflow server)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from studybench.metrics.items import ItemRow, write_items
from studybench.metrics.paired import ComparisonRefusedError
from studybench.tracking.compare import compare_runs, register_checkpoint
from studybench.tracking.mlflow_log import EVAL_KEY, client_for
from tests.tracking.conftest import settings_for

RATES = [random.Random(7).random() for _ in range(40)]


def _rows(drop: float, seed: int) -> list[ItemRow]:
    rng = random.Random(seed)
    return [
        ItemRow(
            split="application",
            parent=f"p{p}",
            slot=str(slot),
            seed=s,
            attempt=a,
            correct=rng.random() < max(0.0, RATES[p] - drop),
        )
        for p in range(40)
        for slot in range(1 + p % 3)
        for s in range(3)
        for a in range(2)
    ]


@pytest.fixture(scope="module")
def runs(mlflow_server: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("paired")
    client = client_for(settings_for(tmp, mlflow_server))
    experiment = client.create_experiment("paired-compare")
    made = {}
    instruments = {"verifier_version": "verify-1", "judge_version": "judge-1"}
    rescored = {**instruments, "studybench.verifier_version": "verify-2"}
    for name, drop, seed, data, extra in (
        ("base", 0.0, 1, "dvc:aaa", instruments),
        ("same", 0.0, 2, "dvc:aaa", instruments),
        ("worse", 0.35, 3, "dvc:aaa", instruments),
        ("better", -0.5, 4, "dvc:aaa", instruments),
        ("other-data", 0.0, 5, "dvc:bbb", instruments),
        ("rescored", 0.0, 6, "dvc:aaa", rescored),  # re-scored by a newer verifier
        ("other-judge", 0.0, 7, "dvc:aaa", {**instruments, "judge_version": "judge-2"}),
    ):
        run = client.create_run(
            experiment,
            run_name=name,
            tags={
                EVAL_KEY: name,
                "studybench.model": "m",
                "data.application.json": data,
                "protocol_hash": "p1",
                **extra,
            },
        )
        rows = _rows(drop, seed)
        path = tmp / name / "studybench.jsonl.gz"
        write_items(path, rows)
        client.log_artifact(run.info.run_id, str(path), artifact_path="items")
        mean = sum(r.correct for r in rows) / len(rows)
        client.log_metric(run.info.run_id, "application/par_at_2_mean", mean)
        client.set_terminated(run.info.run_id)
        made[name] = str(run.info.run_id)
    made["uri"] = mlflow_server
    made["tmp"] = str(tmp)
    return made


def test_paired_regression_is_decided_and_logged(runs: dict[str, str]) -> None:
    client = client_for(settings_for(Path(runs["tmp"]), runs["uri"]))
    result = compare_runs(client, runs["base"], runs["worse"], 0.02)
    assert result.method == "paired"
    assert result.regression
    par = next(m for m in result.metrics if m.metric == "application/par_at_2_mean")
    assert par.decision == "regressed"
    assert par.ci_low <= par.diff <= par.ci_high < 0
    logged = client.get_run(runs["worse"]).data
    assert logged.tags["studybench.regression"] == "true"
    assert logged.tags["compare.application/par_at_2.decision"] == "regressed"
    assert logged.tags["studybench.compare_method"] == "paired"
    assert logged.tags["studybench.compare_verifier_version"] == "verify-1"
    assert logged.tags["studybench.compare_judge_version"] == "judge-1"
    assert logged.tags["studybench.compare_target"] == "this_benchmark"
    assert logged.tags["studybench.compare_multiplicity"] == "westfall-young"
    assert "sign-flip" in logged.tags["studybench.compare_test"]
    assert "compare/application/par_at_2_mde" in logged.metrics
    assert "application/par_at_2_mean" in logged.metrics  # the paper's figure, untouched
    for suffix in ("diff", "ci_low", "ci_high", "p_value", "p_adjusted"):
        key = (
            f"compare/application/par_at_2_{suffix}"
            if suffix != "diff"
            else ("compare/application/par_at_2_mean_diff")
        )
        assert key in logged.metrics, key


def test_a_rerun_of_the_same_model_is_unchanged(runs: dict[str, str]) -> None:
    client = client_for(settings_for(Path(runs["tmp"]), runs["uri"]))
    result = compare_runs(client, runs["base"], runs["same"], 0.02, log=False)
    assert result.method == "paired"
    assert not result.regression
    assert {m.decision for m in result.metrics} == {"unchanged"}


def test_other_data_is_refused(runs: dict[str, str]) -> None:
    client = client_for(settings_for(Path(runs["tmp"]), runs["uri"]))
    with pytest.raises(ComparisonRefusedError, match="data version differs"):
        compare_runs(client, runs["base"], runs["other-data"], 0.02)


@pytest.mark.parametrize(
    ("candidate", "words"),
    [
        ("rescored", ["verifier version differs", "verify-1", "verify-2", "studybench rescore"]),
        ("other-judge", ["judge version differs", "judge-1", "judge-2", "studybench rescore"]),
    ],
)
def test_mixed_instruments_are_refused(
    runs: dict[str, str], candidate: str, words: list[str]
) -> None:
    """The re-scoring tag (studybench.verifier_version) wins over the logged provenance tag;
    either way a pair judged by two instruments is refused, in one line naming both."""
    client = client_for(settings_for(Path(runs["tmp"]), runs["uri"]))
    with pytest.raises(ComparisonRefusedError) as caught:
        compare_runs(client, runs["base"], runs[candidate], 0.02, log=False)
    message = str(caught.value)
    assert "\n" not in message
    for word in words:
        assert word in message


def test_best_alias_moves_only_on_a_paired_improvement(runs: dict[str, str]) -> None:
    client = client_for(settings_for(Path(runs["tmp"]), runs["uri"]))
    head = "application/par_at_2_mean"
    _, moved = register_checkpoint(
        client, runs["base"], "paired-m", "/c/1", headline=head, threshold=0.02
    )
    assert moved
    _, moved = register_checkpoint(
        client, runs["same"], "paired-m", "/c/2", headline=head, threshold=0.02
    )
    assert not moved
    _, moved = register_checkpoint(
        client, runs["other-data"], "paired-m", "/c/3", headline=head, threshold=0.02
    )
    assert not moved
    _, moved = register_checkpoint(
        client, runs["better"], "paired-m", "/c/4", headline=head, threshold=0.02
    )
    assert moved
