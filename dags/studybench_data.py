"""studybench_data: rebuild the versioned data (DVC pipeline) and announce its versions.

Runs ``dvc repro`` nightly or on demand (a no-op when nothing changed) and updates one Airflow
Asset per data artefact with the content hash from ``dvc.lock``, so evaluation DAGs can be
scheduled on data changes and record exactly which data version they used. All logic lives in
``studybench.data.versions``; this file only wires it.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pendulum
from airflow.sdk import DAG, Asset, Metadata, task
from studybench_airflow import parse_time

REPO = Path(parse_time.REPO)

RELEASE = Asset(uri="studybench://data/release", name="studybench_release")
CORPUS = Asset(uri="studybench://data/corpus/redacted", name="studybench_redacted_corpus")
FRAGMENTS = Asset(uri="studybench://data/corpus/fragments", name="studybench_fragments")
ASSET_OUTPUTS = {
    RELEASE: "data/release",
    CORPUS: "data/corpus/redacted",
    FRAGMENTS: "data/corpus/fragments.jsonl",
}

with DAG(
    dag_id="studybench_data",
    description="Rebuild the DVC-versioned StudyBench data and publish its versions",
    schedule="@daily",
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    catchup=False,
    max_active_runs=1,
    default_args={"owner": "studybench", "retries": 2, "retry_delay": timedelta(minutes=1)},
    tags=["studybench", "data"],
    doc_md=__doc__,
):

    @task(outlets=list(ASSET_OUTPUTS))
    def reproduce_data():  # type: ignore[no-untyped-def]
        from studybench.data.versions import reproduce

        versions = reproduce(REPO)
        for asset, output in ASSET_OUTPUTS.items():
            version = versions[output]
            yield Metadata(asset, {"md5": version.md5, "stage": version.stage, "out": output})

    reproduce_data()
