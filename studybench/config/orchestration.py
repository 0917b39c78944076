"""What runs when: checkpoint discovery and its DAG, the nightly DAG and the models it
evaluates (with their method artefacts), the local Airflow, and which benchmarks run."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from studybench.config.fields import Section


class CheckpointSettings(Section):
    """Checkpoint discovery and the event-driven evaluation DAG (``studybench_checkpoint_eval``)."""

    roots: tuple[str, ...] = Field(
        ("work/checkpoints",), description="watched folders (local paths or fsspec URLs)"
    )
    depth: int = Field(2, ge=0, description="folder levels searched below a root")
    quiet_period_s: float = Field(
        60.0, ge=0.0, description="without a ready marker: no file change for this long"
    )
    poll_interval_s: float = Field(10.0, gt=0.0)
    allow_pickle: bool = Field(False, description="evaluate pickle-only (.bin) checkpoints")
    evaluate_existing: bool = Field(
        True, description="evaluate checkpoints already present when the watcher first starts"
    )
    splits: tuple[str, ...] = Field(
        ("application", "transfer"),
        min_length=1,
        description="application | transfer | memorisation | a split file",
    )
    baseline: str = Field("", description="run id or models:/NAME@ALIAS to compare against")
    fail_on_regression: bool = Field(
        False, description="fail the DAG run when a checkpoint regresses (nightly always does)"
    )


class MethodArtefactSpec(Section):
    """The method artefacts an evaluation target names (paths; resolved when planning): at
    most one of ACE, GEPA (with iteration or rollout selection) and EvoSkill, plus guidance.
    They are part of what is evaluated: they enter the evaluation key and MLflow."""

    guidance: str = Field("", description="guidance JSON appended to user turns")
    ace: str = Field("", description="ACE playbook")
    gepa: str = Field("", description="GEPA prompt history (JSONL) or prompt text")
    gepa_iteration: int | None = Field(None, description="GEPA row: iteration <= N")
    gepa_rollouts: int | None = Field(None, description="GEPA row: rollouts <= N")
    evoskill: str = Field("", description="EvoSkill skills file")

    def given(self) -> bool:
        return bool(self.guidance or self.ace or self.gepa or self.evoskill)


class NightlyModel(Section):
    """One model of the nightly regression run: exactly one of ``path``, ``root`` and
    ``base_url``; ``artefacts`` names method artefacts evaluated with it."""

    name: str = Field(min_length=1)
    path: str = Field("", description="a checkpoint or model folder")
    root: str = Field("", description="a checkpoint root: its latest ready checkpoint")
    base_url: str = Field("", description="an OpenAI-compatible endpoint serving ``model``")
    model: str = Field("", description="the served model name at ``base_url``")
    api_key_env: str = Field("", description="env var holding the endpoint's key")
    engine: Literal["openai", "anthropic", "agent"] = Field(
        "openai", description="how ``base_url`` is spoken to: OpenAI chat, Messages, an agent"
    )
    artefacts: MethodArtefactSpec = MethodArtefactSpec()

    @model_validator(mode="after")
    def _one_location(self) -> NightlyModel:
        given = [f for f in ("path", "root", "base_url") if getattr(self, f)]
        if len(given) != 1:
            raise ValueError(
                f"nightly model {self.name!r}: give exactly one of path, root, base_url "
                f"(got {', '.join(given) or 'none'})"
            )
        if self.base_url and not self.model:
            raise ValueError(f"nightly model {self.name!r}: base_url needs model")
        if self.engine != "openai" and not self.base_url:
            raise ValueError(
                f"nightly model {self.name!r}: engine {self.engine!r} serves an API model: "
                "give base_url and model"
            )
        return self


class NightlySettings(Section):
    """The nightly regression DAG (``studybench_nightly``)."""

    schedule: str = Field("0 2 * * *", description="cron, in UTC")
    models: tuple[NightlyModel, ...] = ()
    splits: tuple[str, ...] = Field(("application", "transfer"), min_length=1)
    baseline: str = Field("", description="pinned baseline: run id or models:/NAME@ALIAS")
    report_experiment: str = Field(
        "",
        description="refresh this experiment's paper report (studybench report paper) after "
        "each night's evaluations; empty: off",
    )


class AirflowSettings(Section):
    """The local Airflow (``make airflow``) and the REST endpoint ``studybench trigger`` uses."""

    url: str = Field("http://127.0.0.1:8080", description="Airflow API server")
    username: str = "admin"
    password_env: str = Field(
        "STUDYBENCH_AIRFLOW_PASSWORD",
        description="env var with the password (else the local instance's generated one)",
    )
    home: Path = Field(Path("work/airflow"), description="AIRFLOW_HOME of the local instance")
    port: int = Field(8080, ge=1, le=65535, description="API port of the local instance")
    parallelism: int = Field(4, ge=1)
    gpu_slots: int = Field(1, ge=1, description="size of the gpu pool: concurrent engines")


class BenchmarkSelection(Section):
    """Which registered benchmarks the checkpoint and nightly DAGs (and ``studybench eval``)
    run; every benchmark of a model is served by one engine (one model load)."""

    run: tuple[str, ...] = Field(("studybench",), min_length=1)

    @field_validator("run")
    @classmethod
    def _distinct(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(names)) != len(names):
            raise ValueError(f"benchmarks must be distinct, got {list(names)}")
        return names
