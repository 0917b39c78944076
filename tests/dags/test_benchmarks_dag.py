"""The checkpoint DAG evaluating checkpoints on registered benchmarks other than StudyBench
alone, through ``dag.test()`` in one Airflow home: StudyBench and EvaLearn with one model
load, and SE-Bench (real sandbox) on the tiny model, which honestly scores 0, and a reference
solution fed through the same store and judge, which scores 1."""

from __future__ import annotations

import json
from pathlib import Path

from studybench.benchmarks.base import BenchmarkPlan
from studybench.benchmarks.sebench.benchmark import (
    SEBench,
    load_verdicts,
    plan_metrics,
    verdict_path,
)
from studybench.benchmarks.sebench.solutions import to_package
from studybench.rollout.store import GenerationStore
from studybench.tracking.ui_links import run_id_of
from tests.benchmarks.sebench.conftest import SAMPLE_TASKS, fenced
from tests.dags.test_dags import run_dag_each, run_dags, write_params


def test_one_checkpoint_on_two_benchmarks_with_one_model_load(
    airflow_env: dict[str, str], trained_checkpoints: Path, tmp_path: Path
) -> None:
    from studybench.config import load_settings
    from studybench.tracking.mlflow_log import client_for

    params = write_params(
        tmp_path,
        protocol={"k": 1, "seeds": [0], "max_new_tokens": 24},
        checkpoints={"splits": ["memorisation"]},
        benchmarks={"run": ["studybench", "evalearn"]},
        evalearn={"paradigms": ["zero_shot", "demonstration"], "max_new_tokens": 8},
        tracking={"experiment": "dag-benchmarks"},
    )
    checkpoint = trained_checkpoints / "checkpoint-160"
    # the same checkpoint twice, one helper process: the second run finds it evaluated
    summary, again = run_dag_each(
        airflow_env,
        "studybench_checkpoint_eval",
        [{"checkpoint": str(checkpoint)}] * 2,
        STUDYBENCH_PARAMS=str(params),
    )
    assert summary["state"] == "success", summary["tasks"]
    tasks = summary["tasks"]
    assert [k for k in tasks if k.startswith("generate[")] == ["generate[0]"]  # one engine
    assert sorted(k for k in tasks if k.startswith("judge[")) == [f"judge[{i}]" for i in range(3)]
    assert set(tasks.values()) == {"success"}

    settings = load_settings(params, environ={})
    (root,) = [p for p in settings.paths.runs_dir.iterdir() if p.is_dir()]
    generated = json.loads((root / "generated.json").read_text())
    assert set(generated) == {"memorisation", "evalearn"}
    assert set(generated["evalearn"]) == {"zero_shot", "demonstration"}
    assert generated["evalearn"]["zero_shot"]["generated"] == 35
    judged = sorted(p.name for p in (root / "judged").iterdir())
    assert judged == [
        "evalearn-demonstration-seed0.json",
        "evalearn-zero_shot-seed0.json",
        "memorisation-seed0.json",
    ]

    client = client_for(settings)
    url = summary["xcom"]["log_to_mlflow[0]"]["mlflow_run_url"]
    run = client.get_run(run_id_of(url))
    metrics = run.data.metrics
    # the trained checkpoint, not the untrained one (which scores 0): one sample per parent at
    # temperature 1 of a 160-step tiny model; how many of the 12 parents it gets right depends on
    # the CPU's float kernels (6 of 12 on one machine, more on another, same weights' recipe)
    assert metrics["memorisation/par_at_1_mean"] >= 0.25
    for paradigm in ("zero_shot", "demonstration"):
        assert 0.0 <= metrics[f"evalearn/{paradigm}/acc_mean"] <= 1.0
        assert metrics[f"evalearn/{paradigm}/acc_std"] == 0.0  # one seed
    assert run.data.tags["studybench.benchmarks"] == "studybench,evalearn"
    lineage = client.search_runs(
        [run.info.experiment_id], filter_string="tags.`studybench.lineage` = 'sft-test'"
    )
    (curve,) = lineage
    history = client.get_metric_history(curve.info.run_id, "evalearn/zero_shot/acc_mean")
    assert [m.step for m in history] == [160]

    assert again["state"] == "success"
    # nothing new to evaluate: every mapped task is skipped, nothing is generated or judged
    mapped = {"prepare_engine", "generate", "stop_engine", "judge", "log_to_mlflow"}
    again_mapped = {k: v for k, v in again["tasks"].items() if k.split("[")[0] in mapped}
    assert again_mapped == {f"{name}[-1]": "skipped" for name in mapped}, again["tasks"]
    assert again["tasks"]["judge_units[-1]"] == "success"  # all_done: runs, finds no unit


SUBSET = ("row-means", "vector-length", "standardise", "trace-of-product")


def test_checkpoint_dag_evaluates_sebench(
    airflow_env: dict[str, str], trained_checkpoints: Path, tmp_path: Path
) -> None:
    from studybench.config import load_settings
    from studybench.tracking.mlflow_log import client_for

    tasks = tmp_path / "tasks.json"
    tasks.write_text(
        json.dumps([t for t in json.loads(SAMPLE_TASKS.read_text()) if t["id"] in SUBSET])
    )
    params = write_params(
        tmp_path,
        protocol={"k": 1, "seeds": [0], "max_new_tokens": 24},
        benchmarks={"run": ["sebench"]},
        sebench={"tasks": str(tasks), "max_new_tokens": 24, "seeds": [0]},
        tracking={"experiment": "dag-sebench"},
    )
    checkpoint = trained_checkpoints / "checkpoint-160"
    summary = run_dags(
        airflow_env,
        "studybench_checkpoint_eval",
        {"checkpoint": str(checkpoint)},
        STUDYBENCH_PARAMS=str(params),
    )
    assert summary["state"] == "success", summary["tasks"]
    tasks_run = summary["tasks"]
    assert [k for k in tasks_run if k.startswith("generate[")] == ["generate[0]"]
    assert sorted(k for k in tasks_run if k.startswith("judge[")) == [
        f"judge[{i}]" for i in range(4)
    ]
    assert set(tasks_run.values()) == {"success"}

    settings = load_settings(params, environ={})
    (root,) = [p for p in settings.paths.runs_dir.iterdir() if p.is_dir()]
    generated = json.loads((root / "generated.json").read_text())
    assert set(generated["sebench"]) == {
        "closed_book-single", "closed_book-multi", "open_book-single", "open_book-multi"
    }  # fmt: skip
    assert all(part["turns_generated"] == 2 for part in generated["sebench"].values())
    assert all(part["errors"] == 0 for part in generated["sebench"].values())

    client = client_for(settings)
    url = summary["xcom"]["log_to_mlflow[0]"]["mlflow_run_url"]
    metrics = client.get_run(run_id_of(url)).data.metrics
    plan_file = root / "sebench" / "plan.json"
    plan = BenchmarkPlan.model_validate_json(plan_file.read_text())
    assert set(SEBench().expected_metrics(plan)) <= set(metrics)
    # a tiny model that was never shown the package scores 0, closed and open book
    assert metrics["sebench/closed_book/single/accuracy"] == 0.0
    assert metrics["sebench/closed_book/all/accuracy"] == 0.0
    assert metrics["sebench/open_book/all/accuracy"] == 0.0
    bench = SEBench()
    for part in plan.parts:
        condition, split = part.split("-")
        prefix = f"sebench/{condition}/{split}"
        fails = sum(v for k, v in metrics.items() if k.startswith(f"{prefix}/fail_"))
        assert fails == 1.0
        # one verdict per task of the part, each a failure the judge classified
        verdicts = load_verdicts(verdict_path(plan, part, 0))
        assert [v.task_id for v in verdicts] == [t.id for t in bench.tasks(plan, part, settings)]
        assert all(not v.correct and v.reason != "ok" for v in verdicts)

    # Positive control through the same store, judge and metrics as the DAG's judge task:
    # the reference solution of one task, stored as the model's answer, scores 1 (a scorer
    # stuck at 0 would pass the zeros above)
    part = "closed_book-single"
    part_tasks = bench.tasks(plan, part, settings)
    task = part_tasks[0]
    code = fenced(to_package(task.solution, bench.package(plan, settings)))
    store = GenerationStore(plan.part_dir(part) / "generations.sqlite")
    try:
        record = next(
            r for r in store.records() if r.key.source_problem_id == task.id and r.seed == 0
        )
        store.append(record.model_copy(update={"completion": code, "status": "ok"}))
    finally:
        store.close()
    assert bench.judge(plan, part, 0, settings) == {
        "part": part,
        "seed": 0,
        "judged": 1,
        "reused": len(part_tasks) - 1,
        "correct": 1,
        "total": len(part_tasks),
    }
    rescored = plan_metrics(plan)
    assert rescored["sebench/closed_book/single/accuracy"] == 1 / len(part_tasks)
    assert rescored["sebench/open_book/single/accuracy"] == 0.0
