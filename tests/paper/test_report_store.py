"""``studybench report paper`` on a real MLflow store filled by the demo's code path: the tiny
model trained for real (checkpoint-0 untrained, checkpoint-160 trained), each checkpoint
planned, generated, judged and logged by the pipeline the checkpoint DAG runs. The tables
must equal the runs' metrics, re-running must write the same bytes, the report must come
back as a run that its sources link to, and the HTML page must open in the real Chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from studybench.config import Settings
from studybench.paper.compose import build_paper_report as build
from studybench.pipeline import evaluate as ev
from studybench.pipeline.orchestration import mlflow_ui_base
from studybench.tracking.mlflow_log import client_for
from studybench.tracking.ui_links import VIEW
from tests.cli.entry import run as cli
from tests.conftest import ROOT
from tests.pipeline.conftest import eval_settings
from tests.tracking.conftest import MlflowStore, mlflow_store  # noqa: F401 (the fixture)
from tests.tracking.test_mlflow_ui import CHROMIUM_FLAGS

SCREENSHOT = ROOT / "work" / "test-artifacts" / "paper-report.png"
DOCS_IMAGE = ROOT / "docs" / "img" / "paper-report.png"


@pytest.fixture(scope="module")
def store(
    mlflow_store: MlflowStore,  # noqa: F811
    trained_checkpoints: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Settings, dict[int, str]]:
    """Both checkpoints evaluated and logged (k=1, three seeds, the memorisation split)."""
    settings = eval_settings(tmp_path_factory.mktemp("paper-store"), mlflow_store.uri)
    runs = {}
    for step in (0, 160):
        target = ev.plan_checkpoint(str(trained_checkpoints / f"checkpoint-{step}"), settings)
        ev.generate(target, settings)
        for unit in target.units():
            ev.judge(target, unit["split"], unit["seed"], settings)
        runs[step] = ev.log_results(target, settings)
    return settings, runs


def build_paper_report(settings: Settings, **options: Any) -> Any:
    """The report as the command builds it (links to the UI the settings name)."""
    return build(settings, ui_base=mlflow_ui_base(settings), **options)


def cells(folder: Path) -> list[dict[str, Any]]:
    table = json.loads((folder / "report.json").read_text())["table"]
    return [
        {"method": row["method"], "key": key, **cell}
        for block in table["blocks"]
        for row in block["rows"]
        for key, cell in row["cells"].items()
    ]


def test_tables_equal_the_runs_metrics_and_come_back_as_a_run(
    store: tuple[Settings, dict[int, str]], tmp_path: Path
) -> None:
    settings, runs = store
    client = client_for(settings)
    first = build_paper_report(settings, out_dir=tmp_path / "first")
    found = cells(tmp_path / "first")
    assert {(c["method"], c["key"]) for c in found} == {
        (m, f"memorisation/{level}_at_1") for m in ("base", "sft-test") for level in ("par", "sub")
    }
    expected_run = {"base": runs[0], "sft-test": runs[160]}
    for cell in found:
        assert cell["state"] == "ok" and cell["runs"] == [expected_run[cell["method"]]]
        metrics = client.get_run(cell["runs"][0]).data.metrics
        assert cell["mean"] == metrics[f"{cell['key']}_mean"]
        assert cell["std"] == metrics[f"{cell['key']}_std"]
        assert cell["seeds"] == [0, 1, 2]
        shown = f"{100 * cell['mean']:.1f} ± {100 * cell['std']:.1f}"
        assert shown in first.markdown
    trained = [c for c in found if c["method"] == "sft-test"]
    # the trained checkpoint reproduces its training answers: the paired comparison says so
    assert all(c["verdict"]["decision"] == "improved" and c["marker"] == "↑" for c in trained)
    assert all(c["verdict"]["method"] == "paired" for c in trained)
    # the footnote names the test that decided, as the comparison ran it (not a fixed phrase)
    for c in trained:
        v = c["verdict"]
        assert (v["unit"], v["multiplicity"], v["target"]) == (
            "pooled",
            "westfall-young",
            "this_benchmark",
        )
    assert "(pooled over every attempt of every seed)" in first.markdown
    assert "sign-flip permutation over parents, Westfall-Young-adjusted" in first.markdown

    # the report run: one per name, its artefacts the folder, linked from every run it used
    report = client.get_run(first.report_run)
    assert report.info.run_name == "report/paper" and report.info.status == "FINISHED"
    listed = {f.path for f in client.list_artifacts(first.report_run, "report")}
    assert {"report/paper.md", "report/paper.tex", "report/paper.html", "report/figures"} <= listed
    for run_id in runs.values():
        assert client.get_run(run_id).data.tags["studybench.report.paper"] == first.report_run

    # a refresh on the same store: the same run, the same bytes (tables and figures)
    again = build_paper_report(settings, out_dir=tmp_path / "again")
    assert again.report_run == first.report_run
    names = sorted(p.relative_to(tmp_path / "first") for p in (tmp_path / "first").rglob("*.*"))
    assert len(names) == 8
    for name in names:
        assert (tmp_path / "first" / name).read_bytes() == (
            tmp_path / "again" / name
        ).read_bytes(), name


def test_a_lost_seed_run_marks_the_cell_instead_of_hiding_it(
    store: tuple[Settings, dict[int, str]], tmp_path: Path
) -> None:
    settings, runs = store
    client = client_for(settings)
    experiment = client.get_run(runs[160]).info.experiment_id
    (child,) = client.search_runs(
        [experiment],
        filter_string=f"tags.`mlflow.parentRunId` = '{runs[160]}' and params.seed = '2'",
    )
    client.delete_run(child.info.run_id)
    try:
        report = build_paper_report(settings, out_dir=tmp_path / "r", log=False)
    finally:
        client.restore_run(child.info.run_id)
    trained = [c for c in cells(tmp_path / "r") if c["method"] == "sft-test"]
    assert all(c["state"] == "incomplete" and c["seeds"] == [0, 1] for c in trained)
    assert all(c["note"] == "2 of 3 seeds (missing seed 2)" for c in trained)
    assert "‡" in report.markdown and "2 of 3 seeds (missing seed 2)" in report.markdown
    assert report.report_run == ""


def test_the_command_prints_the_table_and_names_a_wrong_experiment(
    store: tuple[Settings, dict[int, str]], tmp_path: Path
) -> None:
    settings, _ = store
    env = {"STUDYBENCH__TRACKING__URI": settings.tracking.uri}
    done = cli("report", "paper", "--experiment", settings.tracking.experiment,
               "--out", tmp_path / "cli", "--no-log", env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert re.search(r"^\|  \| sft-test \| \d+\.\d ± \d+\.\d ↑\[1\] \|", done.stdout, re.M)
    assert "report written to" in done.stderr
    # MLflow's per-artefact download bars stay off: the command's own lines are readable
    assert "Downloading artifacts" not in done.stderr + done.stdout
    wrong = cli("report", "paper", "--experiment", "no-such-experiment", env=env)
    assert wrong.returncode == 2
    assert (
        wrong.stderr.strip().splitlines() == [wrong.stderr.strip().splitlines()[-1]]
        and "no MLflow experiment named 'no-such-experiment'" in wrong.stderr
    )


def chromium(page: Path, profile: Path, *extra: str) -> tuple[str, list[str]]:
    """The DOM after scripts ran, and every console line the page produced."""
    binary = shutil.which("chromium")
    assert binary, "Debian's chromium is missing: run make browser (make test does)"
    result = subprocess.run(
        [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr",
         "--v=0", *extra, page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout, [line for line in result.stderr.splitlines() if ":CONSOLE" in line]


def test_the_html_page_opens_in_chromium_with_its_figures(
    store: tuple[Settings, dict[int, str]], tmp_path: Path
) -> None:
    settings, runs = store
    report = build_paper_report(settings, out_dir=tmp_path / "r", log=False)
    page = Path(report.folder) / "paper.html"
    control = tmp_path / "control.html"  # the console check can fail: a page that errs
    control.write_text("<!DOCTYPE html><script>console.error('planted')</script>")
    _, planted = chromium(control, tmp_path / "profile", "--dump-dom")
    assert any("planted" in line for line in planted)

    dom, console = chromium(page, tmp_path / "profile", "--dump-dom")
    assert console == []
    assert 'data-figures-loaded="2/2"' in dom  # both figures decoded, none broken
    experiment = client_for(settings).get_run(runs[0]).info.experiment_id
    for run_id in runs.values():
        link = f"http://127.0.0.1:5000/#/experiments/{experiment}/runs/{run_id}?{VIEW}"
        assert f'href="{link}"' in dom and run_id in dom
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    chromium(page, tmp_path / "profile", f"--screenshot={SCREENSHOT}", "--window-size=1200,1500")
    assert SCREENSHOT.stat().st_size > 10_000
    if os.environ.get("STUDYBENCH_DOCS_SCREENSHOTS") == "1":  # the docs' picture (see
        shutil.copyfile(SCREENSHOT, DOCS_IMAGE)  # tests/docs/test_screenshots.py)
