"""Stored evaluations judged by the flip plug-in, in a real MLflow store (one per module).

Generations come from the real pipeline (plan, generate through the OpenAI-compatible
client, judge, log) against a scripted student on loopback that answers some sub-problems
right and the others wrong; the judging is done by :class:`tests.rescore.plugin.FlipVerifier`
and the run is then tagged as an installation whose verifier was the plug-in would have
tagged it (its instrument and its evaluation key), the state a verifier bump leaves behind.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from studybench.config import Settings, load_settings
from studybench.pipeline.evaluate import generate, log_results, plan_target
from studybench.pipeline.keys import judged_key
from studybench.pipeline.target import CheckpointMeta, Target
from studybench.tracking.rescore import EVAL_KEY, LINEAGE_KEY, Instrument
from tests.dags.test_dags import write_params
from tests.engines.fake_openai import fake_openai
from tests.rescore.plugin import FlipVerifier
from tests.tracking.conftest import MlflowStore
from tests.tracking.conftest import mlflow_store as mlflow_store  # the module's real store

SPLIT = "application"


def right(question: str) -> bool:
    """The student's policy: right on three sub-problems in four (by a hash of their text)."""
    return hashlib.sha256(question.encode()).digest()[0] % 4 != 0


@dataclass
class Student:
    """A scripted student model; ``fail`` makes every request an error (an engine that
    must not be called)."""

    answers: dict[str, tuple[str, str]]  # question text -> (gold, answer type)
    fail: bool = False
    calls: list[dict[str, Any]] = field(default_factory=list)

    def reply(self, body: dict[str, Any]) -> tuple[int, str, float]:
        if self.fail:
            return 500, "the generation engine was called", 0
        asked = body["messages"][-1]["content"]
        question = max((q for q in self.answers if q in asked), key=len, default="")
        gold, _ = self.answers.get(question, ("", ""))
        if question and right(question):
            return 200, f"Reasoning.\nFinal Answer: {gold}", 0
        return 200, f"Final Answer: \\boxed{{123456}} (request seed {body.get('seed')})", 0


@contextmanager
def student_server(settings: Settings) -> Iterator[tuple[str, Student]]:
    from studybench.benchmarks.studybench.splits import split_file
    from studybench.data.loaders import load_parents

    answers = {
        slot.question: (slot.answer, slot.answer_type.value)
        for parent in load_parents(split_file(SPLIT, settings))
        for slot in parent.slots()
    }
    student = Student(answers)
    with fake_openai(student.reply) as (url, received):
        student.calls = received
        yield url, student


def settings_in(tmp_path: Path, store: MlflowStore, **sections: dict[str, Any]) -> Path:
    """A params file: the sample's application split, two seeds, k 1, the rule stage, the
    module's MLflow store and an experiment of its own."""
    return write_params(
        tmp_path,
        protocol={"k": 1, "seeds": [0, 1], "max_new_tokens": 64},
        checkpoints={"splits": [SPLIT]},
        tracking={"uri": store.uri, "experiment": f"rescore-{tmp_path.name}"},
        **sections,
    )


def flip_instrument(settings: Settings) -> Instrument:
    from studybench.rescore import installed

    return installed(settings).model_copy(update={"verifier_version": FlipVerifier.version})


def evaluate_with_plugin(
    settings: Settings,
    url: str,
    name: str,
    *,
    training_run: str | None = None,
    step: int | None = None,
) -> tuple[Target, str]:
    """Plan, generate, judge with the plug-in, log; tagged as the plug-in's install would."""
    from studybench.benchmarks.studybench.judging import judge_dir
    from studybench.tracking.mlflow_log import client_for

    target = plan_target(
        name,
        "student",
        "openai",
        settings,
        splits=(SPLIT,),
        base_url=url,
        checkpoint=CheckpointMeta(identity=f"id-{name}", step=step, training_run=training_run),
        check_done=False,
    )
    generate(target, settings)
    with FlipVerifier(workers=1) as plugin:
        for split in target.splits:
            judge_dir(target.run_dir(split), settings, verifier=plugin)
    run_id = log_results(target, settings)
    client = client_for(settings)
    old = flip_instrument(settings)
    for key, value in {**old.tags(), "verifier_version": old.verifier_version}.items():
        client.set_tag(run_id, key, value)
    client.set_tag(run_id, EVAL_KEY, judged_key(target.generation_key, old))
    if training_run:
        experiment = client.get_run(run_id).info.experiment_id
        (lineage,) = client.search_runs(
            [experiment], filter_string=f"tags.`{LINEAGE_KEY}` = '{training_run}'"
        )
        for key, value in old.tags().items():
            client.set_tag(lineage.info.run_id, key, value)
    return target, run_id


@pytest.fixture
def params(tmp_path: Path, mlflow_store: MlflowStore) -> Path:
    return settings_in(tmp_path, mlflow_store)


@pytest.fixture
def settings(params: Path) -> Settings:
    return load_settings(params, environ={})
