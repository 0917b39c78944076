"""MLflow UI links: one builder, the Model training view in every link, and the run id read
back from one (scripts read it from the Airflow link and the CLI's "logged:" line)."""

from __future__ import annotations

import pytest

from studybench.tracking.ui_links import VIEW, run_id_of, run_url

# (UI base as configured, experiment id, run id, the link)
CASES = [
    ("http://127.0.0.1:5000", "1", "8cc601be10b84cce907d63873912dd77",
     "http://127.0.0.1:5000/#/experiments/1/runs/8cc601be10b84cce907d63873912dd77?" + VIEW),
    ("https://mlflow.lab.example/", "42", "abc",
     "https://mlflow.lab.example/#/experiments/42/runs/abc?" + VIEW),
    ("https://lab.example/mlflow", "7", "a/b",
     "https://lab.example/mlflow/#/experiments/7/runs/a%2Fb?" + VIEW),
]  # fmt: skip


@pytest.mark.parametrize(("base", "experiment", "run", "link"), CASES)
def test_a_run_link_opens_the_model_training_view_and_names_its_run(
    base: str, experiment: str, run: str, link: str
) -> None:
    assert run_url(base, experiment, run) == link
    assert run_id_of(link) == run


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:5000/#/experiments/1/runs", "http://127.0.0.1:5000/", "runs/abc"],
)
def test_a_link_that_is_not_a_run_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="not an MLflow run link"):
        run_id_of(url)
