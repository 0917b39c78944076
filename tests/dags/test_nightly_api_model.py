"""The checkpoint-free nightly run evaluates an API model: a ``nightly.models`` entry with an
engine kind (the Anthropic Messages API here, scripted on loopback), through a real
``dag.test()`` of ``studybench_nightly``."""

from __future__ import annotations

from pathlib import Path

from tests.dags.test_dags import run_dags, write_params
from tests.engines.fake_anthropic import Reply, fake_anthropic


def test_nightly_evaluates_an_api_model_with_no_checkpoint(
    airflow_env: dict[str, str], tmp_path: Path
) -> None:
    from studybench.config import load_settings
    from studybench.tracking.mlflow_log import client_for

    with fake_anthropic(lambda body: Reply(text="The result is \\boxed{1}.")) as (url, received):
        params = write_params(
            tmp_path,
            protocol={"k": 1, "seeds": [0], "max_new_tokens": 64},
            nightly={
                "splits": ["transfer"],
                "models": [
                    {
                        "name": "api-model",
                        "engine": "anthropic",
                        "base_url": url,
                        "model": "claude-test",
                        "api_key_env": "TEST_NIGHTLY_MESSAGES_KEY",
                    }
                ],
            },
        )
        summary = run_dags(
            airflow_env,
            "studybench_nightly",
            STUDYBENCH_PARAMS=str(params),
            TEST_NIGHTLY_MESSAGES_KEY="sk-ant-nightly-key",
        )
    assert summary["state"] == "success", summary["output"][-3000:]
    assert received, "the nightly run never called the Messages endpoint"
    assert all(r.path.startswith("/v1/messages") and "system" in r.body for r in received)
    settings = load_settings(params, environ={})
    client = client_for(settings)
    runs = client.search_runs(
        [client.get_experiment_by_name("dag-test").experiment_id],
        filter_string="tags.`studybench.target` = 'api-model'",
    )
    assert len(runs) == 1
    metrics = runs[0].data.metrics
    assert "transfer/par_at_1_mean" in metrics and "transfer/sub_at_1_mean" in metrics
    assert runs[0].data.tags["studybench.run_tag"].startswith("nightly-")
    assert "sk-ant-nightly-key" not in summary["output"]
