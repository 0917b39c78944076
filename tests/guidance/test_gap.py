"""The Guidance Gap: the pure computation (table), from three judged run folders (CLI, the
report), and in MLflow (a real embedded store): configured run ids, the latest runs of the
base model with and without guidance, and the saved gap of the run folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from studybench.benchmarks.studybench.guidance_gap import gap_from_run_dirs
from studybench.cli import app
from studybench.data import load_parents
from studybench.judge.pipeline import judge_run
from studybench.metrics.guidance_gap import gap_closed, guidance_gap
from studybench.verify import Verifier
from tests.conftest import SAMPLE
from tests.tracking.conftest import settings_for


@pytest.mark.parametrize(
    ("method", "base", "guided", "closed"),
    [
        (0.5, 0.0, 1.0, 0.5),
        (0.2, 0.2, 0.6, 0.0),
        (0.6, 0.2, 0.6, 1.0),
        (0.8, 0.2, 0.6, 1.5),  # beyond the ceiling
        (0.1, 0.2, 0.6, -0.25),  # worse than the base
        (0.3, 0.4, 0.4, None),  # guidance gains nothing: undefined
    ],
)
def test_gap_closed(method: float, base: float, guided: float, closed: float | None) -> None:
    value = gap_closed(method, base, guided)
    assert value == (None if closed is None else pytest.approx(closed))


def test_metrics_keys_leave_out_undefined_levels() -> None:
    gap = guidance_gap("transfer", 8, method=(0.3, 0.5), base=(0.2, 0.5), guided=(0.6, 0.5))
    assert gap.metrics() == {
        "transfer/guidance_gap_par_at_8": pytest.approx(0.25),
        "transfer/guidance_gap_par_at_8_base": 0.2,
        "transfer/guidance_gap_par_at_8_guided": 0.6,
        "transfer/guidance_gap_sub_at_8_base": 0.5,
        "transfer/guidance_gap_sub_at_8_guided": 0.5,
    }
    assert "undefined" in gap.lines()[0]


def judged(run_dir: Path, right: int, *, model: str, guided: bool = False) -> Path:
    """Three solo Application parents, one attempt and seed; the first ``right`` answered
    correctly."""
    parents = [p for p in load_parents(SAMPLE / "application_problems.json") if p.is_solo][:3]
    out = []
    for index, parent in enumerate(parents):
        record = parent.model_dump(mode="json", by_alias=True)
        (slot,) = parent.slots()
        text = f"Final Answer: {slot.answer}" if index < right else "Final Answer: \\boxed{123456}"
        record["attempts"] = [
            {
                "attempt_id": 0,
                "seed": 0,
                "completions": [
                    {
                        "problem_id": slot.key.problem_id,
                        "problem": slot.question,
                        "answer": slot.answer,
                        "answer_type": slot.answer_type.value,
                        "completion": text,
                        "type_sequence": ",".join(t.value for t in slot.type_sequence),
                    }
                ],
            }
        ]
        out.append(record)
    run_dir.mkdir(parents=True)
    (run_dir / "generations.json").write_text(json.dumps(out))
    manifest = {
        "model": model,
        "split": "application",
        "engine": "hf",
        "protocol_hash": f"{model}-{guided}",
        "config": {"k": 1, "seeds": [0]},
        "artefacts": {"kind": "default", "guidance": "g.json" if guided else ""},
    }
    (run_dir / "run.json").write_text(json.dumps(manifest))
    with Verifier(workers=1) as rules:
        judge_run(run_dir, rules, None)
    return run_dir


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("gap_runs")
    return {
        "base": judged(root / "base", 0, model="base"),
        "guided": judged(root / "guided", 3, model="base", guided=True),
        "method": judged(root / "method", 1, model="base-sft"),
    }


def test_gap_from_run_folders_in_the_report(runs: dict[str, Path]) -> None:
    gap = gap_from_run_dirs(runs["method"], runs["base"], runs["guided"])
    assert gap.parent.closed == pytest.approx(1 / 3) and gap.slot.closed == pytest.approx(1 / 3)
    result = CliRunner().invoke(
        app,
        [
            "guidance",
            "gap",
            str(runs["method"]),
            "--base",
            str(runs["base"]),
            "--guided",
            str(runs["guided"]),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["parent"]["closed"] == pytest.approx(1 / 3)
    report = CliRunner().invoke(app, ["report", str(runs["method"]), "--markdown"])
    assert "Guidance Gap on application (k=1): Par 33.3% closed" in report.stdout
    (runs["method"] / "guidance_gap.json").unlink()


def test_gap_in_mlflow(runs: dict[str, Path], tmp_path: Path) -> None:
    from studybench.pipeline.results import log_split_dirs as log_evaluation
    from studybench.tracking.mlflow_log import client_for

    settings = settings_for(tmp_path)
    base_id = log_evaluation([runs["base"]], settings)
    guided_id = log_evaluation([runs["guided"]], settings)
    client = client_for(settings)
    assert client.get_run(base_id).data.tags["studybench.guided"] == "false"
    assert client.get_run(guided_id).data.tags["studybench.guided"] == "true"
    plain_id = log_evaluation([runs["method"]], settings)  # no references configured
    assert not any("guidance_gap" in m for m in client.get_run(plain_id).data.metrics)

    by_model = settings.model_copy(
        update={
            "guidance": settings.guidance.model_copy(
                update={"gap": settings.guidance.gap.model_copy(update={"base_model": "base"})}
            )
        }
    )
    method_id = log_evaluation([runs["method"]], by_model)
    metrics = client.get_run(method_id).data.metrics
    assert metrics["application/guidance_gap_par_at_1"] == pytest.approx(1 / 3)
    assert metrics["application/guidance_gap_sub_at_1"] == pytest.approx(1 / 3)
    refs = json.loads(client.get_run(method_id).data.tags["guidance_gap.application.refs"])
    assert refs == {"base": base_id, "guided": guided_id}

    swapped = settings.model_copy(
        update={
            "guidance": settings.guidance.model_copy(
                update={
                    "gap": settings.guidance.gap.model_copy(
                        update={"base_run": guided_id, "guided_run": base_id}
                    )
                }
            )
        }
    )
    log_evaluation([runs["method"]], swapped)  # configured ids win over the lookup, and a
    # swapped pair is refused: no gap rather than a plausible wrong one (2/3)
    assert "guidance_gap.refused" in client.get_run(method_id).data.tags
