"""End to end: GRPO for a few steps writes marked checkpoints; the checkpoint DAG
(``dag.test()``) evaluates each; the lineage run in MLflow holds score against compute; the
plateau is found and logged there."""

from __future__ import annotations

import json
from pathlib import Path

from studybench.checkpoints import READY_MARKER
from studybench.config import load_settings
from studybench.training.grpo import RLRecipe, train_rl
from studybench.training.items import answered_items
from studybench.training.rewards import VerifierReward
from studybench.verify.verifier import Verifier
from tests.conftest import ROOT
from tests.dags.test_dags import run_dags, write_params

METRIC = "memorisation/par_at_1_mean"


def test_grpo_checkpoints_evaluated_by_the_dag_give_score_against_compute(
    airflow_env: dict[str, str], trained_checkpoints: Path, tmp_path: Path
) -> None:
    from studybench.tracking.compute_curve import log_plateau, score_vs_compute
    from studybench.tracking.mlflow_log import client_for

    settings = load_settings(ROOT / "params.yaml", environ={})
    items = answered_items(
        [
            ROOT / settings.data.instructions_with_answer,
            ROOT / settings.data.instructions_with_answer_multi,
        ],
        tmp_path / "split.json",
        settings.protocol.system_prompt,
    )
    base = trained_checkpoints / "checkpoint-160"  # answers its items: rewards are not all 0
    # two prompts x eight samples per step at temperature 1.3 (about 60 % correct): a step
    # updates the weights unless both groups agree throughout (p < 0.001); identical
    # weights would be one checkpoint to the DAG
    recipe = RLRecipe(
        steps=2,
        batch_size=16,
        num_generations=8,
        max_completion_length=40,
        temperature=1.3,
        save_steps=1,
        learning_rate=1e-4,
        training_run="grpo-e2e",
    )
    with Verifier(workers=2) as verifier:
        folders = train_rl(base, tmp_path / "grpo-e2e", items, recipe, VerifierReward(verifier))
    assert [f.name for f in folders] == ["checkpoint-0", "checkpoint-1", "checkpoint-2"]
    logs = json.loads((folders[-1] / "trainer_state.json").read_text())["log_history"]
    assert all(row["grad_norm"] > 0 for row in logs if "grad_norm" in row), logs

    params = write_params(
        tmp_path,
        checkpoints={"splits": ["memorisation"]},
        protocol={"seeds": [0, 1], "max_new_tokens": 32},  # answers take about 21 tokens
    )
    for folder in folders:
        summary = run_dags(
            airflow_env,
            "studybench_checkpoint_eval",
            {"checkpoint": str(folder)},
            STUDYBENCH_PARAMS=str(params),
        )
        assert summary["state"] == "success", summary["tasks"]

    evaluated = load_settings(params, environ={})
    run_id, key, points = score_vs_compute(evaluated, "grpo-e2e", METRIC)
    assert key == "train_flops"  # no GPU here: FLOPs are the compute axis
    markers = [json.loads((f / READY_MARKER).read_text())["compute"] for f in folders]
    assert [(p.step, p.compute) for p in points] == [
        (step, m["total_flos"]) for step, m in enumerate(markers)
    ]
    assert points[0].compute == 0 < points[1].compute < points[2].compute
    assert points[0].mean > 0  # the SFT-trained start answers some of its items
    assert all(0 <= p.mean <= 1 and p.std >= 0 for p in points)

    plateau = log_plateau(evaluated, "grpo-e2e", METRIC)
    assert plateau.points == 3
    assert plateau.plateau_compute in {p.compute for p in points}
    client = client_for(evaluated)
    run = client.get_run(run_id)
    assert run.data.metrics["plateau/compute"] == plateau.plateau_compute
    assert run.data.tags["plateau.compute_key"] == "train_flops"
    history = client.get_metric_history(run_id, "train_flops")
    assert sorted(m.step for m in history) == [0, 1, 2]
    artefacts = {a.path for a in client.list_artifacts(run_id, "plots")}
    assert "plots/score_vs_compute.png" in artefacts
