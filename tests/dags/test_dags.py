"""DAG integrity and real ``dag.test()`` runs, in an isolated Airflow home."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from studybench.tracking.ui_links import run_id_of
from tests.conftest import ROOT, build_dvc_repo, migrated_mlflow_template
from tests.dags.zygote import Zygote

RUNNER = Path(__file__).with_name("dag_runner.py")
EVAL_DAGS = ("studybench_checkpoint_eval", "studybench_nightly")
_zygotes: list[Zygote] = []


def runner_zygote(env: dict[str, str]) -> Zygote | None:
    """This pytest process's pre-imported parent of the DAG runner processes
    (tests/dags/zygote.py: about 5 s of imports per DAG process saved), started on first
    use with ``env`` and ended at exit; None with ``STUDYBENCH_DAG_ZYGOTE=0`` (every run
    in a fresh interpreter, as the zygote's runs must behave)."""
    if os.environ.get("STUDYBENCH_DAG_ZYGOTE") == "0":
        return None
    if not _zygotes:
        _zygotes.append(Zygote(RUNNER, env))
        atexit.register(_zygotes[0].close)
    return _zygotes[0]


def run_dags(
    env: dict[str, str],
    dag_id: str | None = None,
    conf: dict[str, Any] | list[dict[str, Any]] | None = None,
    **extra: str,
) -> dict[str, Any]:
    """The DAG folder parsed and, with ``dag_id``, one ``dag.test()`` run per conf (a list:
    one run each, in order) in one subprocess with ``env`` (tests/dags/dag_runner.py)."""
    args = [sys.executable, str(RUNNER), str(ROOT / "dags")]
    args += [dag_id] if dag_id else []
    args += [json.dumps(conf)] if conf else []
    bin_dir = str(Path(sys.executable).parent)
    base_env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    full_env = {**base_env, **env, **extra}
    zygote = runner_zygote(base_env)
    if zygote is not None and zygote.serves(full_env):
        done = zygote.run(args, ROOT, full_env, timeout=900)
    else:
        done = subprocess.run(
            args, cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=900, check=False
        )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-5000:]
    line = next(line for line in done.stdout.splitlines() if line.startswith("JSON:"))
    result: dict[str, Any] = json.loads(line[5:])
    result["output"] = output
    return result


def run_dag_each(
    env: dict[str, str], dag_id: str, confs: list[dict[str, Any]], **extra: str
) -> list[dict[str, Any]]:
    """One ``dag.test()`` run of ``dag_id`` per conf, in order, in one subprocess (its start
    costs seconds): each run's state, task states and XComs."""
    runs: list[dict[str, Any]] = run_dags(env, dag_id, confs, **extra)["runs"]
    assert len(runs) == len(confs)
    return runs


def write_params(tmp_path: Path, **sections: dict[str, Any]) -> Path:
    """A params file for in-process evaluation of the tiny model under ``tmp_path``. Its
    embedded MLflow store (``work/mlflow/mlflow.db``) starts as a copy of the migrated
    template: migrating a new one costs each DAG process 1.5 s (the store's own creation is
    tested in tests/tracking/test_store_creation.py)."""
    project = yaml.safe_load((ROOT / "params.yaml").read_text())
    work = tmp_path / "work"
    store = work / "mlflow" / "mlflow.db"
    if not store.exists():
        store.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(migrated_mlflow_template(), store)
    params: dict[str, Any] = {
        # the trained answers take about 21 tokens (tests/training/test_e2e_grpo.py)
        "protocol": {"k": 1, "seeds": [0, 1, 2], "max_new_tokens": 32},
        "data": {k: str(ROOT / v) for k, v in project["data"].items()},
        "judge": {"llm_enabled": False},
        "engine": {"kind": "hf"},
        "tracking": {"experiment": "dag-test"},
        "paths": {
            "work_dir": str(work),
            "runs_dir": str(work / "runs"),
            "cache_dir": str(work / "cache"),
        },
    }
    for name, values in sections.items():
        params[name] = {**params.get(name, {}), **values}
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params))
    return path


def test_every_dag_imports_cleanly_and_follows_the_rules(airflow_env: dict[str, str]) -> None:
    summary = run_dags(airflow_env)
    assert summary["import_errors"] == {}
    dags = summary["dags"]
    assert set(dags) == {"studybench_data", "studybench_rescore", *EVAL_DAGS}
    for dag_id, dag in dags.items():
        assert "studybench" in dag["tags"], dag_id
        assert dag["catchup"] is False, dag_id
        assert dag["owners"] == ["studybench"], dag_id
        assert min(dag["retries"]) >= 2, dag_id
    data = dags["studybench_data"]
    assert data["tasks"] == ["reproduce_data"]
    assert data["outlets"] == [
        "studybench://data/corpus/fragments",
        "studybench://data/corpus/redacted",
        "studybench://data/release",
    ]
    evaluation = [
        "plan",
        "prepare_engine",
        "generate",
        "stop_engine",
        "judge_units",
        "judge",
        "log_to_mlflow",
        "check_regressions",
    ]
    assert dags["studybench_checkpoint_eval"]["tasks"] == [*evaluation, "verdict"]
    assert dags["studybench_nightly"]["tasks"] == [
        "calibrate_judge",
        "plan",
        "run_roots",
        *evaluation[1:],
        "paper_report",
        "problems",
        "verdict",
    ]
    for dag_id in EVAL_DAGS:
        dag = dags[dag_id]
        assert dag["setup"] == ["prepare_engine"] and dag["teardown"] == ["stop_engine"]
        assert dag["pools"] == ["default_pool", "gpu"]  # generate on the GPU, the rest not
    checkpoint = dags["studybench_checkpoint_eval"]
    assert checkpoint["timetable"] == "AssetTriggeredTimetable"
    # Airflow's default of 16 (the DAG sets none): events must never wait behind one run
    assert checkpoint["max_active_runs"] == 16
    assert dags["studybench_nightly"]["max_active_runs"] == 1  # one night at a time
    assert dags["studybench_nightly"]["timetable"] == "CronTriggerTimetable"


@pytest.mark.parametrize("path", sorted((ROOT / "dags").glob("*.py")), ids=lambda p: p.name)
def test_dag_files_are_thin_and_import_fast(path: Path) -> None:
    """DAG files wire tasks; heavy imports happen inside tasks, in studybench."""
    top_level = [
        line for line in path.read_text().splitlines() if line.startswith(("import ", "from "))
    ]
    assert not any("studybench." in line or "import studybench" in line for line in top_level)
    probe = f"""
import sys, time, runpy
sys.path.insert(0, {str(ROOT / "plugins")!r})
import airflow.sdk  # the SDK itself is not the DAG file's cost
before = set(sys.modules)
start = time.perf_counter()
runpy.run_path({str(path)!r})
took = time.perf_counter() - start
heavy = sorted(
    m for m in set(sys.modules) - before
    if m.split(".")[0] in ("torch", "transformers", "trl", "mlflow", "vllm", "pandas")
    or m.startswith(("studybench.pipeline", "studybench.tracking", "studybench.engines"))
)
print(took, heavy)
"""
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    took, heavy = done.stdout.strip().splitlines()[-1].split(" ", 1)
    assert float(took) < 1.0, f"{path.name} took {took} s to import"
    assert heavy == "[]", heavy


def test_data_dag_runs_the_pipeline_and_publishes_versions(
    airflow_env: dict[str, str], tmp_path: Path
) -> None:
    repo = build_dvc_repo(tmp_path / "repo")
    summary = run_dags(airflow_env, "studybench_data", STUDYBENCH_REPO=str(repo))
    assert summary["state"] == "success"
    events = summary["events"]
    assert set(events) == {
        "studybench://data/release",
        "studybench://data/corpus/redacted",
        "studybench://data/corpus/fragments",
    }
    assert events["studybench://data/release"]["stage"] == "import"
    assert events["studybench://data/release"]["md5"].endswith(".dir")
    assert (repo / "data/corpus/fragments.jsonl").exists()


def test_checkpoint_dag_evaluates_a_checkpoint_given_in_conf(
    airflow_env: dict[str, str], trained_checkpoints: Path, tmp_path: Path
) -> None:
    from studybench.config import load_settings
    from studybench.tracking.mlflow_log import client_for

    # the tiny model never learnt these splits' answers: 16 tokens of each do as well as 32
    params = write_params(
        tmp_path,
        protocol={"max_new_tokens": 16},
        checkpoints={"splits": ["application", "transfer"]},
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
    assert sorted(k for k in tasks if k.startswith("judge[")) == [f"judge[{i}]" for i in range(6)]
    assert set(tasks.values()) == {"success"}
    url = summary["xcom"]["log_to_mlflow[0]"]["mlflow_run_url"]
    run_id = run_id_of(url)
    assert url.startswith("http://127.0.0.1:5000/#/experiments/")

    settings = load_settings(params, environ={})
    client = client_for(settings)
    run = client.get_run(run_id)
    assert run.data.tags["checkpoint.step"] == "160"
    assert run.data.tags["training_run"] == "sft-test"
    children = client.search_runs(
        [run.info.experiment_id], filter_string=f"tags.`mlflow.parentRunId` = '{run_id}'"
    )
    assert sorted((c.data.params["split"], c.data.params["seed"]) for c in children) == [
        (s, str(seed)) for s in ("application", "transfer") for seed in range(3)
    ]
    # the parent's headline is the mean and sample std of its per-seed child runs
    for split in ("application", "transfer"):
        for m in ("par", "sub"):
            seeds = [
                c.data.metrics[f"{split}/{m}_at_1"]
                for c in children
                if c.data.params["split"] == split
            ]
            assert all(0.0 <= v <= 1.0 for v in seeds) and len(seeds) == 3
            mean, std = statistics.fmean(seeds), statistics.stdev(seeds)
            assert run.data.metrics[f"{split}/{m}_at_1_mean"] == pytest.approx(mean)
            assert run.data.metrics[f"{split}/{m}_at_1_std"] == pytest.approx(std)

    assert again["state"] == "success"
    assert again["tasks"]["plan[-1]"] == "success"
    # the same checkpoint again: the plan maps nothing, so every mapped task is skipped (no
    # generation, no judging) and no second run is logged
    mapped = {"prepare_engine", "generate", "stop_engine", "judge", "log_to_mlflow"}
    again_mapped = {k: v for k, v in again["tasks"].items() if k.split("[")[0] in mapped}
    assert again_mapped == {f"{name}[-1]": "skipped" for name in mapped}, again["tasks"]
    assert again["tasks"]["judge_units[-1]"] == "success"  # all_done: runs, finds no unit
    key = run.data.tags["studybench.eval_key"]
    evaluations = client.search_runs(
        [run.info.experiment_id],
        filter_string=f"tags.`studybench.eval_key` = '{key}'",
    )
    assert [r.info.run_id for r in evaluations] == [run_id]


def test_nightly_fails_loudly_after_logging_everything(
    airflow_env: dict[str, str], trained_checkpoints: Path, tmp_path: Path
) -> None:
    from studybench.config import load_settings
    from studybench.pipeline import evaluate as ev
    from studybench.tracking.mlflow_log import client_for

    baseline_params = write_params(tmp_path, checkpoints={"splits": ["memorisation"]})
    settings = load_settings(baseline_params, environ={})
    pinned = ev.plan_checkpoint(str(trained_checkpoints / "checkpoint-160"), settings)
    ev.generate(pinned, settings)
    for split in pinned.splits:
        ev.judge(pinned, split, None, settings)
    baseline_run = ev.log_results(pinned, settings)

    params = write_params(
        tmp_path,
        checkpoints={"splits": ["memorisation"]},
        nightly={
            "splits": ["memorisation"],
            "baseline": baseline_run,
            "models": [
                {"name": "tiny-base", "path": str(trained_checkpoints / "checkpoint-0")},
                {"name": "vanished", "root": str(tmp_path / "no-such-run")},
            ],
            "report_experiment": "dag-test",  # the paper report is refreshed before the verdict
        },
    )
    summary = run_dags(airflow_env, "studybench_nightly", STUDYBENCH_PARAMS=str(params))
    assert summary["state"] == "failed"
    tasks = summary["tasks"]
    assert tasks.pop("verdict[-1]") == "failed"
    assert set(tasks.values()) == {"success"}, tasks  # everything else ran and logged
    client = client_for(settings)
    runs = client.search_runs(
        [client.get_experiment_by_name("dag-test").experiment_id],
        filter_string="tags.`studybench.target` = 'tiny-base'",
    )
    assert len(runs) == 1
    assert runs[0].data.tags["studybench.run_tag"].startswith("nightly-")
    # the untrained model falls below the trained baseline on both Par@1 and Sub@1
    assert runs[0].data.tags["studybench.regressions"] == "2"
    log = summary["output"]
    assert "RegressionError" in log and "memorisation/par_at_1_mean" in log
    assert "against baseline" in log and "vanished" in log
    (report,) = client.search_runs(
        [client.get_experiment_by_name("dag-test").experiment_id],
        filter_string="tags.`studybench.report` = 'paper'",
    )
    assert report.info.run_name == "report/paper" and report.info.status == "FINISHED"
    assert runs[0].data.tags["studybench.report.paper"] == report.info.run_id
    assert "paper report of experiment 'dag-test' refreshed" in log


def test_nightly_with_no_model_to_evaluate_still_says_so(
    airflow_env: dict[str, str], tmp_path: Path
) -> None:
    params = write_params(
        tmp_path, nightly={"models": [{"name": "vanished", "root": str(tmp_path / "gone")}]}
    )
    summary = run_dags(airflow_env, "studybench_nightly", STUDYBENCH_PARAMS=str(params))
    assert summary["state"] == "failed"
    assert summary["tasks"]["verdict[-1]"] == "failed"
    assert "not evaluated:" in summary["output"] and "vanished" in summary["output"]


def test_one_broken_model_does_not_stop_the_others(
    airflow_env: dict[str, str], trained_checkpoints: Path, tmp_path: Path
) -> None:
    from tests.checkpoints.fake import write_checkpoint

    broken = write_checkpoint(tmp_path / "broken" / "checkpoint-1")  # loads in no engine
    params = write_params(
        tmp_path,
        protocol={"k": 1, "seeds": [0], "max_new_tokens": 32},
        nightly={
            "splits": ["memorisation"],
            "models": [
                {"name": "tiny", "path": str(trained_checkpoints / "checkpoint-160")},
                {"name": "broken", "path": str(broken)},
            ],
        },
    )
    summary = run_dags(
        airflow_env,
        "studybench_nightly",
        STUDYBENCH_PARAMS=str(params),
        STUDYBENCH_RETRY_DELAY_S="0",
    )
    tasks = summary["tasks"]
    assert summary["state"] == "failed"
    assert (tasks["generate[0]"], tasks["generate[1]"]) == ("success", "failed")
    assert tasks["stop_engine[1]"] == "success"  # the teardown ran after the failure
    assert (tasks["log_to_mlflow[0]"], tasks["log_to_mlflow[1]"]) == ("success", "skipped")
    assert (tasks["check_regressions[0]"], tasks["check_regressions[1]"]) == (
        "success",
        "skipped",
    )
    assert tasks["verdict[-1]"] == "failed"
    assert "broken: generation, judging or logging failed" in summary["output"]
    assert "mlflow_run_url" in summary["xcom"]["log_to_mlflow[0]"]


def test_dag_runs_evaluate_method_artefacts_and_record_them(
    airflow_env: dict[str, str], trained_checkpoints: Path, tmp_path: Path
) -> None:
    """The checkpoint DAG evaluates "this checkpoint with this GEPA prompt" (conf), the
    nightly DAG "this checkpoint with this guidance" (params); MLflow records which."""
    from studybench.config import load_settings
    from studybench.tracking.mlflow_log import client_for

    checkpoint = trained_checkpoints / "checkpoint-160"
    gepa = tmp_path / "gepa.jsonl"
    gepa.write_text(
        "\n".join(
            json.dumps({"iteration": i, "rollouts": 8 * i, "system_prompt": f"Physics, take {i}."})
            for i in range(3)
        )
        + "\n"
    )
    guidance = ROOT / "data/sample/guidance.json"
    params = write_params(
        tmp_path,
        protocol={"k": 1, "seeds": [0], "max_new_tokens": 24},
        checkpoints={"splits": ["memorisation"]},
        nightly={
            "splits": ["transfer"],
            "models": [
                {
                    "name": "guided",
                    "path": str(checkpoint),
                    "artefacts": {"guidance": str(guidance)},
                }
            ],
        },
    )
    conf = {"checkpoint": str(checkpoint), "gepa": str(gepa), "gepa_iteration": 1}
    by_checkpoint = run_dags(
        airflow_env, "studybench_checkpoint_eval", conf, STUDYBENCH_PARAMS=str(params)
    )
    assert by_checkpoint["state"] == "success", by_checkpoint["tasks"]
    nightly = run_dags(airflow_env, "studybench_nightly", STUDYBENCH_PARAMS=str(params))
    assert nightly["tasks"]["log_to_mlflow[0]"] == "success", nightly["tasks"]

    client = client_for(load_settings(params, environ={}))
    urls = [
        summary["xcom"]["log_to_mlflow[0]"]["mlflow_run_url"]
        for summary in (by_checkpoint, nightly)
    ]
    gepa_run, guided_run = (client.get_run(run_id_of(url)) for url in urls)
    gepa_params = gepa_run.data.params
    assert gepa_params["method.artefact"] == "gepa"
    assert gepa_params["method.gepa"] == str(gepa.resolve())
    assert gepa_params["method.gepa_iteration"] == "1"
    assert gepa_run.data.tags["studybench.guided"] == "false"
    (seed_run,) = client.search_runs(
        [gepa_run.info.experiment_id],
        filter_string=f"tags.`mlflow.parentRunId` = '{gepa_run.info.run_id}'",
    )
    assert seed_run.data.params == {"split": "memorisation", "seed": "0"}
    per_seed = seed_run.data.metrics["memorisation/par_at_1"]
    assert gepa_run.data.metrics["memorisation/par_at_1_mean"] == pytest.approx(per_seed)
    assert gepa_run.data.metrics["memorisation/par_at_1_std"] == 0.0  # one seed
    guided_params = guided_run.data.params
    assert guided_params["method.guidance"] == str(guidance.resolve())
    assert guided_params["guidance.coverage.transfer"] == "40/40"
    assert guided_run.data.tags["studybench.guided"] == "true"
    # the prompt that was evaluated is what the rollout sent
    planned = next(Path(load_settings(params, environ={}).paths.runs_dir).glob("*gepa*"))
    first_turn = json.loads((planned / "memorisation" / "generations.json").read_text())[0]
    messages = first_turn["attempts"][0]["completions"][0]["prompt_messages"]
    assert messages[0] == {"role": "system", "content": "Physics, take 1."}
    items = {a.path for a in client.list_artifacts(guided_run.info.run_id, "items")}
    assert items == {"items/studybench.jsonl.gz"}
