"""One typed settings tree, read from ``params.yaml`` plus environment overrides.

``params.yaml`` is the single source of protocol and pipeline parameters: DVC stages, Airflow
DAGs and the CLI all read it through :func:`load_settings`. An environment variable
``STUDYBENCH__SECTION__KEY`` (nested keys joined by ``__``) overrides one value; its text is
parsed as YAML, so ``STUDYBENCH__PROTOCOL__SEEDS='[0, 1]'`` gives a list.

The override merge is written here rather than taken from pydantic-settings because every
error must name its origin: an unknown key names the file (or the environment variable) that
introduced it, which pydantic-settings' merged sources cannot report.

Secrets are never stored in settings: sections hold the *name* of the environment variable
that carries an API key (``api_key_env``), so a dump of the settings is safe to log.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from studybench.errors import ConfigError

ENV_PREFIX = "STUDYBENCH__"
PARAMS_ENV = "STUDYBENCH_PARAMS"
PROFILE_ENV = "STUDYBENCH_PROFILE"
PROFILES_KEY = "profiles"
DEFAULT_PARAMS_FILE = "params.yaml"

DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant that solves physics problems."


class _Section(BaseModel):
    """Base for every settings section: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# One vocabulary of engine kinds, for ``engine.kind``, ``--engine``, the guidance admission,
# the build's filter model and the engine factory. ``hf``: in-process transformers (CPU).
EngineKind = Literal["openai", "vllm", "hf", "anthropic", "agent"]
# The kinds that serve a model named by a folder or an endpoint (not a driver of its own).
ModelEngineKind = Literal["hf", "openai", "vllm"]

# The field types every endpoint and sampling section shares: the constraints live here once,
# a section only states its own default.
KeyEnv = Annotated[str, Field(description="env var holding the key (never the key itself)")]
Concurrency = Annotated[int, Field(ge=1, description="requests in flight at most")]
Retries = Annotated[int, Field(ge=0, description="retries of a failed request (with backoff)")]
Timeout = Annotated[float, Field(gt=0.0, description="seconds one request may take")]
Temperature = Annotated[float, Field(ge=0.0)]
TopP = Annotated[float, Field(gt=0.0, le=1.0)]
NewTokens = Annotated[int | None, Field(ge=1, description="cap on one completion")]


class EndpointSettings(_Section):
    """Where a model is reached and how patiently: the one endpoint shape of the engine, the
    judge, the guidance teacher and admission, and the training recipes' chat models. Each of
    those sections only changes defaults."""

    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "model"
    api_key_env: KeyEnv = "STUDYBENCH_ENGINE_API_KEY"
    concurrency: Concurrency = 8
    max_retries: Retries = 6
    request_timeout_s: Timeout = 600.0
    structured_output: bool = Field(
        False,
        description=(
            "the endpoint honours vLLM's structured-output request fields: the LLM stages "
            "then constrain every reply to the format they parse"
        ),
    )


class SamplingSettings(_Section):
    """How a completion is sampled: the one sampling shape (the protocol's, and every section
    that samples differently from it states its own defaults with these fields)."""

    temperature: Temperature = 1.0
    top_p: TopP = 0.95
    top_k: int = Field(20, description="-1 disables top-k")
    min_p: float = Field(0.0, ge=0.0, le=1.0)
    presence_penalty: float = 1.5
    repetition_penalty: float = Field(1.0, gt=0.0)
    max_new_tokens: NewTokens = Field(
        None, description="cap on one completion; empty: the rest of the budget"
    )
    thinking: bool = Field(True, description="Qwen3-style thinking mode on")


class ProtocolSettings(SamplingSettings):
    """The sampling protocol of one evaluation (its sampling is :class:`SamplingSettings`'s
    defaults). Its hash keys every stored result."""

    k: int = Field(8, ge=1, description="samples (attempts) per parent and seed")
    seeds: tuple[int, ...] = Field((0, 1, 2), min_length=1)
    max_tokens: int = Field(32768, ge=1, description="total context budget per request")
    strip_think_before_judging: bool = True
    language: Literal["EN", "ZH"] = "EN"
    system_prompt: str = DEFAULT_SYSTEM_PROMPT

    @field_validator("seeds")
    @classmethod
    def _distinct_seeds(cls, seeds: tuple[int, ...]) -> tuple[int, ...]:
        if len(set(seeds)) != len(seeds):
            raise ValueError(f"seeds must be distinct, got {list(seeds)}")
        return seeds


class DataSettings(_Section):
    """Where the benchmark's input files are. Relative paths resolve against the project root."""

    application_split: Path = Path("data/sample/application_problems.json")
    transfer_split: Path = Path("data/sample/transfer_problems.json")
    instructions_with_answer: Path = Path("data/sample/verifiable_instr.json")
    instructions_with_answer_multi: Path = Path("data/sample/verifiable_instr_multi_subs.json")
    instructions_without_answer: Path = Path("data/sample/unverifiable_instr.json")
    guidance: Path = Path("data/sample/guidance.json")
    books_root: Path = Path("data/sample/books")


class ReleaseSettings(_Section):
    """The StudyBench release the data pipeline imports (``dvc repro``): a local checkout.

    File names are relative to ``root``; the defaults describe the committed sample, whose
    layout mirrors a release.
    """

    root: Path = Path("data/sample")
    application_split: str = "application_problems.json"
    transfer_split: str = "transfer_problems.json"
    instructions_with_answer: str = "verifiable_instr.json"
    instructions_with_answer_multi: str = "verifiable_instr_multi_subs.json"
    instructions_without_answer: str = "unverifiable_instr.json"
    guidance: str = "guidance.json"
    books: str = "books"
    out_dir: Path = Field(Path("data/release"), description="validated, normalised copies")


class CorpusSettings(_Section):
    """Redaction, audit and fragmenting of the textbook corpus (DVC stages)."""

    out_dir: Path = Path("data/corpus")
    ngram: int = Field(13, ge=4)
    coverage: float = Field(0.6, gt=0.0, le=1.0)
    max_gap: int = Field(2, ge=0)
    near_window_tokens: int = Field(400, ge=0)
    audit_ngrams: tuple[int, ...] = Field((13,), min_length=1)
    audit_min_answer_tokens: int = Field(4, ge=1)
    audit_solution_min_tokens: int = Field(26, ge=1)
    fragment_max_words: int = Field(400, ge=20)


class JudgeSettings(EndpointSettings):
    """Both stages of the judge: the rule verifier, then the LLM judge (an endpoint) for what
    it rejected."""

    tolerance: float = Field(1e-2, gt=0.0, description="relative tolerance of numeric answers")
    rule_timeout_s: float = Field(5.0, gt=0.0, description="hard limit per verifier pair")
    llm_enabled: bool = True
    model: str = "judge-model"
    base_url: str = "http://127.0.0.1:8001/v1"
    api_key_env: KeyEnv = "STUDYBENCH_JUDGE_API_KEY"
    temperature: Temperature = 0.0
    max_tokens: int = Field(1024, ge=1)


class EngineSettings(EndpointSettings):
    """How generations are produced: an OpenAI-compatible endpoint, a managed vLLM server, or
    in-process transformers (``hf``, CPU tests)."""

    kind: EngineKind = "openai"
    concurrency: Concurrency = 64
    request_timeout_s: Timeout = 1800.0
    vllm_command: tuple[str, ...] = ("vllm", "serve")
    vllm_extra_args: tuple[str, ...] = ()
    vllm_env: dict[str, str] = Field(default_factory=dict)
    trust_remote_code: bool = False
    hf_threads: int = Field(1, ge=1, description="torch threads of the in-process engine")
    max_model_len: int = Field(40960, ge=1)
    gpu_memory_utilization: float = Field(0.9, gt=0.0, le=1.0)
    tensor_parallel_size: int = Field(1, ge=1)
    data_parallel_size: int = Field(1, ge=1)
    startup_timeout_s: float = Field(900.0, gt=0.0)
    max_failed_turn_share: float = Field(
        0.1, ge=0.0, le=1.0, description="generate fails when more turns than this failed"
    )


class TrackingSettings(_Section):
    """MLflow. An empty URI means the embedded SQLite store under ``paths.work_dir``."""

    enabled: bool = True
    uri: str = ""
    experiment: str = "studybench"
    regression_threshold: float = Field(
        0.02, ge=0.0, description="absolute drop that counts as a regression (beyond noise)"
    )
    registered_model: str = Field("", description="register evaluated checkpoints under this name")
    ui_url: str = Field(
        "", description="MLflow UI for links (empty: the tracking URI if http, else :5000)"
    )


class CheckpointSettings(_Section):
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


class MethodArtefactSpec(_Section):
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


class NightlyModel(_Section):
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


class NightlySettings(_Section):
    """The nightly regression DAG (``studybench_nightly``)."""

    schedule: str = Field("0 2 * * *", description="cron, in UTC")
    models: tuple[NightlyModel, ...] = ()
    splits: tuple[str, ...] = Field(("application", "transfer"), min_length=1)
    baseline: str = Field("", description="pinned baseline: run id or models:/NAME@ALIAS")


class AirflowSettings(_Section):
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


class BenchmarkSelection(_Section):
    """Which registered benchmarks the checkpoint and nightly DAGs (and ``studybench eval``)
    run; every benchmark of a model is served by one engine (one model load)."""

    run: tuple[str, ...] = Field(("studybench",), min_length=1)

    @field_validator("run")
    @classmethod
    def _distinct(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(names)) != len(names):
            raise ValueError(f"benchmarks must be distinct, got {list(names)}")
        return names


EvaLearnParadigm = Literal["zero_shot", "few_shot", "demonstration", "feedback"]


class EvaLearnSettings(_Section):
    """EvaLearn: sequences of same-type problems solved in order (learning along a sequence).

    Defaults are the reference's (README, EvaLearn parity). Sampling and seeds come from
    ``protocol``; the rubric judge uses the ``judge`` section's endpoint and model."""

    problems: Path = Path("data/sample/evalearn/evalearn_problems.json")
    sequences: Path = Path("data/sample/evalearn/evalearn_sequences.json")
    full_release: bool | None = Field(
        None,
        description="hold the files to the published release's counts (648 problems, 182 "
        "sequences of 7, ...); empty: when the problem file is named EvaLearn_Problem.json",
    )
    paradigms: tuple[EvaLearnParadigm, ...] = Field(
        ("zero_shot", "few_shot", "demonstration", "feedback"), min_length=1
    )
    few_shot_examples: int = Field(3, ge=1, description="examples per type (few-shot)")
    few_shot_seed: int = Field(42, description="seed of the one draw of examples per run")
    rubric_language: Literal["en", "zh"] = Field(
        "zh", description="rubric the judge grades with and the prompts show"
    )
    warmup: int = Field(3, ge=0, description="positions left out of post-warm-up accuracy")
    max_new_tokens: int | None = Field(
        None, ge=1, description="cap on one answer; empty: the protocol's"
    )
    judge_max_tokens: int = Field(2048, ge=1)
    judge_temperature: float = Field(0.2, ge=0.0, le=2.0)
    rule_stage: bool = Field(
        False, description="accept a Final answer equal to canonical_answer without the judge"
    )

    @field_validator("paradigms")
    @classmethod
    def _distinct_paradigms(
        cls, paradigms: tuple[EvaLearnParadigm, ...]
    ) -> tuple[EvaLearnParadigm, ...]:
        if len(set(paradigms)) != len(paradigms):
            raise ValueError(f"paradigms must be distinct, got {list(paradigms)}")
        return paradigms


class LLMEndpointSettings(EndpointSettings):
    """An OpenAI-compatible chat endpoint a training recipe calls (generator, reflector)."""

    temperature: Temperature = 0.7
    max_tokens: int = Field(2048, ge=1)


class RLTrainingSettings(_Section):
    """GRPO / TTRL hyper-parameters (TRL ``GRPOTrainer``): the recipe ``train_rl`` runs is
    this section (``studybench.training.grpo.RLRecipe`` only adds the run's name)."""

    steps: int = Field(200, ge=1)
    learning_rate: float = Field(1e-6, gt=0.0)
    batch_size: int = Field(8, ge=1, description="completions per device and step")
    num_generations: int = Field(8, ge=2, description="group size; divides batch_size")
    max_completion_length: int = Field(1024, ge=1)
    temperature: float = Field(1.0, gt=0.0)
    top_p: float = Field(0.95, gt=0.0, le=1.0)
    beta: float = Field(0.0, ge=0.0, description="KL weight (> 0 loads a reference model)")
    num_iterations: int = Field(1, ge=1)
    loss_type: str = "dapo"
    save_steps: int = Field(25, ge=1)
    seed: int = 0
    threads: int = Field(2, ge=1)
    save_initial: bool = True
    min_votes: int = Field(2, ge=1, description="TTRL: votes a pseudo-label needs")
    use_vllm: bool = Field(False, description="GPU hosts with vllm beside TRL only")
    vllm_mode: Literal["server", "colocate"] = "colocate"
    vllm_server_base_url: str = Field("", description="a `trl vllm-serve` server (server mode)")


class SynthSettings(_Section):
    """Bonito-style SFT data: a generator turns redacted-corpus fragments into Q/A pairs."""

    fragments: Path = Path("data/corpus/fragments.jsonl")
    out: Path = Path("data/training/sft_synth.jsonl")
    cache: Path = Path("data/training/sft_synth.cache.jsonl")
    generator: LLMEndpointSettings = LLMEndpointSettings()
    max_fragments: int | None = Field(None, ge=1, description="empty: every fragment")
    min_fragment_words: int = Field(40, ge=1)


class SFTTrainingSettings(_Section):
    """SFT on the synthesised pairs (TRL ``SFTTrainer``); the recipe ``train_sft`` runs is
    this section (``studybench.training.sft.SFTRecipe`` only adds the run's name). The demo
    profile sets the tiny model's values."""

    steps: int = Field(500, ge=1)
    learning_rate: float = Field(1e-5, gt=0.0)
    batch_size: int = Field(8, ge=1)
    save_steps: int = Field(50, ge=1)
    max_length: int = Field(2048, ge=16)
    seed: int = 0
    threads: int = Field(2, ge=1)


class PromptMethodSettings(_Section):
    """GEPA and ACE: the task model answers the Instructions-with-Answer items with the
    candidate system prompt / playbook; the reflector proposes edits; the verifier scores."""

    task: LLMEndpointSettings = LLMEndpointSettings(temperature=0.0, max_tokens=1024)
    reflector: LLMEndpointSettings = LLMEndpointSettings(temperature=0.7, max_tokens=2048)
    max_metric_calls: int = Field(200, ge=1, description="GEPA: task rollouts budget")
    minibatch_size: int = Field(3, ge=1, description="GEPA: items per reflection")
    epochs: int = Field(1, ge=1, description="ACE: passes over the items")
    max_bullets: int = Field(40, ge=1, description="ACE: playbook size cap")
    seed: int = 0


class TrainingSettings(_Section):
    """Reference self-evolution recipes (``studybench train ...``). Checkpoints go to
    ``out_root/<run>`` (inside the watched ``checkpoints.roots`` by default)."""

    out_root: Path = Path("work/checkpoints")
    grpo: RLTrainingSettings = RLTrainingSettings()
    ttrl: RLTrainingSettings = RLTrainingSettings()
    synth: SynthSettings = SynthSettings()
    sft: SFTTrainingSettings = SFTTrainingSettings()
    prompts: PromptMethodSettings = PromptMethodSettings()
    artefacts_dir: Path = Field(Path("work/artefacts"), description="GEPA histories, ACE playbooks")


SEBenchCondition = Literal["closed_book", "open_book"]


class SEBenchSettings(_Section):
    """SE-Bench: NumPy behind an obfuscated package, tasks judged in a bubblewrap sandbox.

    Defaults are the reference's (README, SE-Bench parity table): the 278 published functions
    under the names of seed 42, temperature 0.6, 8,192 new tokens, absolute tolerance 1e-2,
    the answer's first ``def`` is called. ``functions`` empty means the published list
    (``studybench/benchmarks/sebench/functions.py``). Parts are ``<condition>-<split>``."""

    tasks: Path = Path("data/sample/sebench/tasks.json")
    package_name: str = Field("zwc", pattern=r"^[a-z][a-z0-9_]*$")
    linalg_module: str = Field("rfx", pattern=r"^[a-z][a-z0-9_]*$", description="numpy.linalg")
    name_seed: int = Field(42, description="seed of the obfuscated names (42: the release's)")
    functions: tuple[str, ...] = Field((), description="NumPy paths wrapped; empty: published")
    doc_max_chars: int = Field(4000, ge=200, description="generated documentation per function")
    api_docs: Path | None = Field(
        None, description="the release's api_doc.jsonl: its rewritten docs for the open book"
    )
    conditions: tuple[SEBenchCondition, ...] = Field(("closed_book", "open_book"), min_length=1)
    splits: tuple[str, ...] = Field(("single", "multi"), min_length=1)
    seeds: tuple[int, ...] = Field((0,), min_length=1)
    k: int = Field(1, ge=1, description="attempts per task and seed")
    temperature: float = Field(0.6, ge=0.0)
    top_p: float = Field(1.0, gt=0.0, le=1.0)
    max_new_tokens: int = Field(8192, ge=1)
    thinking: bool = False
    call_rule: Literal["first_def", "stub"] = Field(
        "first_def", description="function called: the answer's first def, or the stub's"
    )
    cpu_s: int = Field(5, ge=1, description="sandbox: CPU seconds per process")
    wall_s: float = Field(15.0, gt=0.0, description="sandbox: wall clock per solution")
    memory_mb: int = Field(1024, ge=64, description="sandbox: address space per process")
    output_kb: int = Field(1024, ge=1, description="sandbox: largest output / file")
    processes: int = Field(32, ge=4, description="sandbox: processes+threads per job")
    total_memory_mb: int = Field(1536, ge=64, description="sandbox: memory per job (cgroup)")
    tmp_mb: int = Field(64, ge=1, description="sandbox: size of the private /tmp")
    cgroups: Literal["auto", "required", "off"] = Field(
        "auto", description="sandbox: job caps by cgroup where available / always / never"
    )
    workers: int = Field(2, ge=1, description="sandboxes run at once")
    rel_tolerance: float = Field(0.0, ge=0.0)
    abs_tolerance: float = Field(1e-2, ge=0.0)
    training_only_correct: bool = Field(
        True, description="training data keeps only responses judged correct"
    )


class PathSettings(_Section):
    """Where the platform writes. Everything it produces lives under ``work_dir``."""

    work_dir: Path = Path("work")
    runs_dir: Path = Path("work/runs")
    cache_dir: Path = Path("work/cache")


class GuidanceTeacherSettings(EndpointSettings):
    """The teacher of the guidance pipeline: any OpenAI-compatible endpoint, or (empty
    ``base_url``) an in-process transformers model, by default the tiny offline demo model,
    so the stages run offline (its noise is retried and recorded as failures)."""

    base_url: str = Field("", description="empty: in-process model (model_path)")
    model: str = "teacher-model"
    api_key_env: KeyEnv = "STUDYBENCH_TEACHER_API_KEY"
    model_path: str = Field("", description="in-process teacher; empty: the tiny demo model")
    temperature: Temperature = 0.0
    max_tokens: int = Field(1024, ge=1)
    local_max_tokens: int = Field(128, ge=1, description="cap for the in-process teacher")
    json_retries: int = Field(2, ge=0, description="invalid replies asked again this often")


class GuidanceAdmitSettings(EndpointSettings):
    """Stage 6: the filter model is asked with the guidance; solved at least once = admitted."""

    engine: ModelEngineKind = "hf"
    model: str = Field("", description="checkpoint or served name; empty: the demo teacher")
    base_url: str = Field("", description="endpoint for engine openai (empty: engine.base_url)")
    concurrency: Concurrency = 64
    request_timeout_s: Timeout = 1800.0
    k: int = Field(8, ge=1)
    seeds: tuple[int, ...] = Field((0,), min_length=1)
    max_new_tokens: int | None = Field(None, ge=1, description="empty: the protocol's")
    llm_judge: bool = Field(True, description="second judge stage (judge section)")


class GuidanceGapSettings(_Section):
    """The Guidance Gap references: configured MLflow run ids, else the latest runs of
    ``base_model`` without and with guidance."""

    base_run: str = Field("", description="MLflow run id of the base model without guidance")
    guided_run: str = Field("", description="MLflow run id of the base model with guidance")
    base_model: str = Field("", description="model name (studybench.model tag) to look up")


class GuidanceSettings(_Section):
    """The textbook-grounded guidance pipeline (DVC stages after ``fragments``)."""

    split: Path = Field(Path("data/release/transfer.json"), description="problems to guide")
    fragments: Path = Path("data/corpus/fragments.jsonl")
    out_dir: Path = Path("data/guidance")
    teacher: GuidanceTeacherSettings = GuidanceTeacherSettings()
    fuzzy_threshold: float = Field(90.0, ge=0.0, le=100.0, description="rapidfuzz merge score")
    embedding_threshold: float = Field(0.9, ge=-1.0, le=1.0, description="cosine merge score")
    top_n: int = Field(3, ge=1, description="candidate fragments per knowledge point")
    pool: int = Field(20, ge=1, description="ranked fragments per channel before fusion")
    rrf_k: int = Field(60, ge=1)
    book_preference: float = Field(1.5, ge=1.0, description="RRF boost, sub-discipline books")
    book_disciplines: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="book -> problem_type labels it serves"
    )
    guide_retries: int = Field(2, ge=0, description="regenerations of a leaking draft")
    leak_tolerance: float = Field(1e-2, gt=0.0, description="numeric leak: relative tolerance")
    admit: GuidanceAdmitSettings = GuidanceAdmitSettings()
    gap: GuidanceGapSettings = GuidanceGapSettings()


class BuildSettings(_Section):
    """Benchmark construction (``studybench build``, ``data/build/dvc.yaml``): pools, the
    capability filter, Application subsampling, Transfer admission, training material, PDFs.

    ``filter`` is the mid-capability filter model, asked like an evaluation (the protocol's
    sampling, k attempts); ``admit`` is the model of the reachability admission (empty model:
    the filter model)."""

    textbook_pool: Path = Path("data/sample/application_problems.json")
    competition_pool: Path = Path("data/sample/transfer_problems.json")
    guidance: Path = Field(
        Path("data/sample/guidance.json"),
        description="guidance of the competition pool (the guidance pipeline's guidance.json)",
    )
    books: Path = Field(Path("data/sample/books"), description="<source>/<chapter>/ chapters")
    books_name: str = Field("full.md", description="chapter file the training step reads")
    instructions_without_answer: Path = Field(
        Path("data/sample/unverifiable_instr.json"), description="extracted, answerless layer"
    )
    out_dir: Path = Path("data/build/out")
    filter: GuidanceAdmitSettings = GuidanceAdmitSettings(engine="vllm", llm_judge=True)
    admit: GuidanceAdmitSettings = GuidanceAdmitSettings(engine="vllm", llm_judge=True)
    per_type_cap: int | None = Field(None, ge=1, description="Application parents per subject")
    target_mix: dict[str, float] = Field(
        default_factory=dict, description="problem_type -> weight; with target_size"
    )
    target_size: int | None = Field(None, ge=1, description="Application parents in all")
    seed: int = Field(0, description="subsampling seed")
    min_per_type: int = Field(
        1, ge=0, description="below this many 0-of-k parents a subject also takes 1-of-k ones"
    )
    pdf_root: Path = Field(Path("data/build/pdf/in"), description="<source>/<chapter>.pdf")
    pdf_out: Path = Field(Path("data/build/pdf/books"), description="converted chapters")
    pdf_converter: Literal["pymupdf4llm", "mineru"] = "pymupdf4llm"
    mineru_command: tuple[str, ...] = ("mineru",)
    header_min_share: float = Field(
        0.5, gt=0.0, le=1.0, description="a line on this share of pages is a running header"
    )


class AgentSettings(_Section):
    """The agent backend (``engine.kind: agent``): every sub-problem is one agent run in a
    fresh folder seeded with the method's files, confined by bubblewrap. The endpoint, model
    and key variable are the ``engine`` section's (the agent's model API)."""

    driver: Literal["claude-sdk", "command"] = Field(
        "claude-sdk", description="claude-sdk: Claude Code via claude-agent-sdk; command: argv"
    )
    project_dir: str = Field("", description="the method's files: CLAUDE.md, .claude/, ...")
    seed_files: tuple[str, ...] = (".claude", "CLAUDE.md", ".mcp.json", "skills")
    tools: tuple[str, ...] = (
        "Bash",
        "Read",
        "Write",
        "Edit",
        "Glob",
        "Grep",
        "TodoWrite",
        "BashOutput",
    )
    permission_mode: Literal["default", "acceptEdits", "plan", "bypassPermissions"] = (
        "bypassPermissions"
    )
    max_turns: int = Field(50, ge=1, description="agent turns (tool calls) per run")
    tries: int = Field(2, ge=1, description="runs per sub-problem before the turn fails")
    timeout_s: float = Field(1800.0, gt=0.0, description="wall limit of one command run")
    concurrency: int = Field(4, ge=1, description="agent runs at once")
    max_cost_usd: float | None = Field(
        None, ge=0.0, description="stop scheduling new runs once the ledger spent this"
    )
    cli_path: str = Field("", description="Claude Code CLI; default: the SDK's bundled one")
    command: tuple[str, ...] = Field(
        (), description="driver command: argv with {prompt_file} {system_file} {cwd} {model}"
    )
    output: Literal["json", "text"] = "json"
    result_field: str = "result"
    cost_field: str = "total_cost_usd"
    sandbox: bool = Field(True, description="run inside bubblewrap (never off on a shared host)")
    ro_binds: tuple[str, ...] = Field((), description="extra read-only folders the agent needs")
    env_passthrough: tuple[str, ...] = Field(
        (), description="host variables an agent may see (never put secrets here)"
    )


class SmtpAlertSettings(_Section):
    """E-mail through apache-airflow-providers-smtp (the Airflow connection holds the
    server, port and credentials; never params.yaml)."""

    enabled: bool = False
    conn_id: str = "smtp_default"
    to: tuple[str, ...] = ()
    from_email: str = "studybench@localhost"


class WebhookAlertSettings(_Section):
    """A webhook through apache-airflow-providers-apprise (Slack, Teams, Discord, ...: the
    Airflow connection holds the Apprise URL with its token)."""

    enabled: bool = False
    provider: Literal["apprise"] = "apprise"
    conn_id: str = "apprise_default"
    tag: str = "all"


class AlertSettings(_Section):
    """Where regression alerts go (``alerts:`` in params.yaml)."""

    smtp: SmtpAlertSettings = SmtpAlertSettings()
    webhook: WebhookAlertSettings = WebhookAlertSettings()
    subject_prefix: str = Field("[studybench]", max_length=60)


class Settings(_Section):
    """The whole settings tree (one section per layer)."""

    protocol: ProtocolSettings = ProtocolSettings()
    data: DataSettings = DataSettings()
    release: ReleaseSettings = ReleaseSettings()
    corpus: CorpusSettings = CorpusSettings()
    judge: JudgeSettings = JudgeSettings()
    engine: EngineSettings = EngineSettings()
    agent: AgentSettings = AgentSettings()
    tracking: TrackingSettings = TrackingSettings()
    alerts: AlertSettings = AlertSettings()
    checkpoints: CheckpointSettings = CheckpointSettings()
    nightly: NightlySettings = NightlySettings()
    airflow: AirflowSettings = AirflowSettings()
    paths: PathSettings = PathSettings()
    training: TrainingSettings = TrainingSettings()
    benchmarks: BenchmarkSelection = BenchmarkSelection()
    evalearn: EvaLearnSettings = EvaLearnSettings()
    guidance: GuidanceSettings = GuidanceSettings()
    build: BuildSettings = BuildSettings()
    sebench: SEBenchSettings = SEBenchSettings()


def default_params_path() -> Path:
    """``$STUDYBENCH_PARAMS`` if set, else ``params.yaml`` in the working directory."""
    return Path(os.environ.get(PARAMS_ENV, DEFAULT_PARAMS_FILE))


def load_settings(
    path: Path | str | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    require_file: bool = False,
    profile: str | None = None,
) -> Settings:
    """Read settings from ``path`` (default :func:`default_params_path`) and the environment.

    A missing file gives the built-in defaults unless ``require_file`` is set. Any invalid or
    unknown key raises :class:`ConfigError` naming the file or environment variable and the
    dotted key. A profile (``profile``, else ``$STUDYBENCH_PROFILE``) lays the values of
    ``profiles.<name>`` in the file over the file's own; environment overrides still win.
    """
    params_path = Path(path) if path is not None else default_params_path()
    env = os.environ if environ is None else environ

    raw: dict[str, Any] = {}
    if params_path.exists():
        raw = _read_yaml_mapping(params_path)
    elif require_file or path is not None or os.environ.get(PARAMS_ENV):
        # a file named explicitly (argument or $STUDYBENCH_PARAMS) must exist: silently
        # running on the defaults would evaluate with a protocol nobody asked for
        origin = f" (named by ${PARAMS_ENV})" if path is None else ""
        raise ConfigError(f"{params_path}: settings file not found{origin}")
    profiles = raw.pop(PROFILES_KEY, None) or {}

    origins: dict[tuple[str, ...], str] = {}
    for key_path in _leaf_paths(raw):
        origins[key_path] = str(params_path)
    chosen = profile if profile is not None else env.get(PROFILE_ENV, "")
    if chosen:
        overlay = profiles.get(chosen) if isinstance(profiles, dict) else None
        if not isinstance(overlay, dict):
            known = ", ".join(sorted(profiles)) if isinstance(profiles, dict) else ""
            raise ConfigError(
                f"{params_path}: no profile {chosen!r} under '{PROFILES_KEY}' "
                f"(known: {known or 'none'})"
            )
        for key_path in _leaf_paths(overlay):
            node: Any = overlay
            for part in key_path:
                node = node[part]
            if not isinstance(node, Mapping):
                _set_nested(raw, key_path, node, f"{params_path}: profile {chosen}")
            origins[key_path] = f"{params_path} (profile {chosen})"
    for name, text in sorted(env.items()):
        if not name.startswith(ENV_PREFIX):
            continue
        key_path = tuple(part.lower() for part in name[len(ENV_PREFIX) :].split("__"))
        if not all(key_path):
            raise ConfigError(f"environment variable {name}: empty key segment")
        _set_nested(raw, key_path, _parse_env_value(name, text), name)
        origins[key_path] = f"environment variable {name}"

    try:
        return Settings.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_describe_validation_error(exc, origins, params_path)) from None


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key given twice in one mapping (YAML keeps the last one
    silently, so a doubled ``seeds:`` would change the protocol without a word)."""


def _construct_unique_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> Any:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        line = key_node.start_mark.line + 1
        if key in seen:
            first = seen[key]
            message = f"duplicate key {key!r} at line {line} (first at line {first})"
            raise _DuplicateKeyError(message)
        seen[key] = line
    return loader.construct_mapping(node)


class _DuplicateKeyError(yaml.YAMLError):
    pass


_UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping
)


def _read_yaml_mapping(path: Path) -> dict[str, Any]:
    try:
        loaded = yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)
    except _DuplicateKeyError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: invalid YAML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise ConfigError(f"{path}: top level must be a mapping, got {type(loaded).__name__}")
    return loaded


def _parse_env_value(name: str, text: str) -> Any:
    try:
        return yaml.safe_load(text) if text.strip() else text
    except yaml.YAMLError as exc:
        raise ConfigError(f"environment variable {name}: value is not valid YAML: {exc}") from None


def _set_nested(tree: dict[str, Any], key_path: tuple[str, ...], value: Any, origin: str) -> None:
    node = tree
    for depth, part in enumerate(key_path[:-1]):
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            prefix = ".".join(key_path[: depth + 1])
            raise ConfigError(f"{origin}: '{prefix}' is a value, not a section")
        node = child
    node[key_path[-1]] = value


def _leaf_paths(tree: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths: list[tuple[str, ...]] = []
    for key, value in tree.items():
        here = (*prefix, str(key))
        paths.append(here)
        if isinstance(value, Mapping):
            paths.extend(_leaf_paths(value, here))
    return paths


# Keys and values of params.yaml that were renamed: old -> new. A settings file that still
# uses the old one gets an error naming the new one (tests/test_config.py holds the table).
RENAMED_KEYS: dict[str, str] = {
    "training.synth.concurrency": "training.synth.generator.concurrency",
}
RENAMED_VALUES: dict[str, dict[str, str]] = {
    "engine.kind": {"transformers": "hf"},
}


def _renamed(dotted: str, error: Any) -> str | None:
    """The message for a key or value that was renamed, else None."""
    if error["type"] == "extra_forbidden":
        for old, new in RENAMED_KEYS.items():
            if dotted == old or dotted.startswith(old + "."):
                return f"'{old}' was renamed: use '{new}'"
        return None
    values = RENAMED_VALUES.get(dotted, {})
    given = error.get("input")
    if isinstance(given, str) and given in values:
        return f"'{dotted}': {given!r} was renamed: use {values[given]!r}"
    return None


def _describe_validation_error(
    exc: ValidationError, origins: Mapping[tuple[str, ...], str], params_path: Path
) -> str:
    lines = []
    for error in exc.errors():
        loc = tuple(str(part) for part in error["loc"])
        origin = _origin_of(loc, origins) or str(params_path)
        dotted = ".".join(loc)
        renamed = _renamed(dotted, error)
        if renamed is not None:
            lines.append(f"{origin}: {renamed}")
        elif error["type"] == "extra_forbidden":
            lines.append(f"{origin}: unknown key '{dotted}'")
        else:
            lines.append(f"{origin}: '{dotted}': {error['msg']}")
    return "invalid settings:\n  " + "\n  ".join(lines)


def _origin_of(loc: tuple[str, ...], origins: Mapping[tuple[str, ...], str]) -> str | None:
    """The origin of the longest recorded key path that is a prefix of ``loc``."""
    for length in range(len(loc), 0, -1):
        if loc[:length] in origins:
            return origins[loc[:length]]
    return None
