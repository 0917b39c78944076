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

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

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


class ProtocolSettings(_Section):
    """The sampling protocol of one evaluation. Its hash keys every stored result."""

    k: int = Field(8, ge=1, description="samples (attempts) per parent and seed")
    seeds: tuple[int, ...] = Field((0, 1, 2), min_length=1)
    temperature: float = Field(1.0, ge=0.0)
    top_p: float = Field(0.95, gt=0.0, le=1.0)
    top_k: int = Field(20, description="-1 disables top-k")
    min_p: float = Field(0.0, ge=0.0, le=1.0)
    presence_penalty: float = 1.5
    repetition_penalty: float = Field(1.0, gt=0.0)
    max_tokens: int = Field(32768, ge=1, description="total context budget per request")
    max_new_tokens: int | None = Field(
        None, ge=1, description="cap on one completion; empty: the rest of the budget"
    )
    thinking: bool = Field(True, description="Qwen3-style thinking mode on")
    strip_think_before_judging: bool = True
    language: Literal["EN", "ZH"] = "EN"
    system_prompt: str = DEFAULT_SYSTEM_PROMPT

    @field_validator("seeds")
    @classmethod
    def _distinct_seeds(cls, seeds: tuple[int, ...]) -> tuple[int, ...]:
        if len(set(seeds)) != len(seeds):
            raise ValueError(f"seeds must be distinct, got {list(seeds)}")
        return seeds

    def protocol_hash(self) -> str:
        """A short stable hash of every field: two runs compare only if their hashes agree."""
        canonical = json.dumps(self.model_dump(mode="json"), sort_keys=True)
        return hashlib.sha256(canonical.encode()).hexdigest()[:12]


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


class JudgeSettings(_Section):
    """Both stages of the judge: the rule verifier, then the LLM judge for what it rejected."""

    tolerance: float = Field(1e-2, gt=0.0, description="relative tolerance of numeric answers")
    rule_timeout_s: float = Field(5.0, gt=0.0, description="hard limit per verifier pair")
    llm_enabled: bool = True
    model: str = "judge-model"
    base_url: str = "http://127.0.0.1:8001/v1"
    api_key_env: str = Field("STUDYBENCH_JUDGE_API_KEY", description="env var holding the key")
    temperature: float = Field(0.0, ge=0.0)
    max_tokens: int = Field(1024, ge=1)
    concurrency: int = Field(8, ge=1)
    max_retries: int = Field(6, ge=0)
    request_timeout_s: float = Field(600.0, gt=0.0)


class EngineSettings(_Section):
    """How generations are produced: an OpenAI-compatible endpoint, a managed vLLM server, or
    in-process transformers (CPU tests)."""

    kind: Literal["openai", "vllm", "transformers"] = "openai"
    model: str = "model"
    base_url: str = "http://127.0.0.1:8000/v1"
    api_key_env: str = Field("STUDYBENCH_ENGINE_API_KEY", description="env var holding the key")
    concurrency: int = Field(64, ge=1)
    max_retries: int = Field(6, ge=0)
    request_timeout_s: float = Field(1800.0, gt=0.0)
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


class NightlyModel(_Section):
    """One model of the nightly regression run: exactly one of ``path``, ``root`` and
    ``base_url``."""

    name: str = Field(min_length=1)
    path: str = Field("", description="a checkpoint or model folder")
    root: str = Field("", description="a checkpoint root: its latest ready checkpoint")
    base_url: str = Field("", description="an OpenAI-compatible endpoint serving ``model``")
    model: str = Field("", description="the served model name at ``base_url``")
    api_key_env: str = Field("", description="env var holding the endpoint's key")

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

    Sampling and seeds come from ``protocol``; the rubric judge uses the ``judge`` section's
    endpoint and model."""

    problems: Path = Path("data/sample/evalearn/evalearn_problems.json")
    sequences: Path = Path("data/sample/evalearn/evalearn_sequences.json")
    paradigms: tuple[EvaLearnParadigm, ...] = Field(
        ("zero_shot", "few_shot", "demonstration", "feedback"), min_length=1
    )
    few_shot_examples: int = Field(2, ge=1, description="solved examples per type (few-shot)")
    few_shot_seed: int = Field(0, description="which examples are drawn, per type")
    rubric_language: Literal["en", "zh"] = Field("en", description="rubric_en or rubric_zh")
    warmup: int = Field(3, ge=0, description="positions left out of post-warm-up accuracy")
    max_new_tokens: int | None = Field(
        None, ge=1, description="cap on one answer; empty: the protocol's"
    )
    judge_max_tokens: int = Field(512, ge=1)

    @field_validator("paradigms")
    @classmethod
    def _distinct_paradigms(
        cls, paradigms: tuple[EvaLearnParadigm, ...]
    ) -> tuple[EvaLearnParadigm, ...]:
        if len(set(paradigms)) != len(paradigms):
            raise ValueError(f"paradigms must be distinct, got {list(paradigms)}")
        return paradigms


class LLMEndpointSettings(_Section):
    """An OpenAI-compatible chat endpoint a training recipe calls (generator, reflector)."""

    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "model"
    api_key_env: str = Field("STUDYBENCH_ENGINE_API_KEY", description="env var holding the key")
    temperature: float = Field(0.7, ge=0.0)
    max_tokens: int = Field(2048, ge=1)
    max_retries: int = Field(6, ge=0)
    request_timeout_s: float = Field(600.0, gt=0.0)


class RLTrainingSettings(_Section):
    """GRPO / TTRL hyper-parameters (TRL ``GRPOTrainer``); see studybench/training/grpo.py."""

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
    concurrency: int = Field(8, ge=1)


class SFTTrainingSettings(_Section):
    """SFT on the synthesised pairs (TRL ``SFTTrainer``)."""

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

    The package's names come from ``name_seed``; ``functions`` empty means the built-in
    list (``studybench/benchmarks/sebench/functions.py``). Parts are ``<condition>-<split>``."""

    tasks: Path = Path("data/sample/sebench/tasks.json")
    package_name: str = Field("zwc", pattern=r"^[a-z][a-z0-9_]*$")
    name_seed: int = Field(0, description="seed of the obfuscated names")
    functions: tuple[str, ...] = Field((), description="NumPy paths wrapped; empty: built-in")
    doc_max_chars: int = Field(1500, ge=200, description="documentation length per function")
    conditions: tuple[SEBenchCondition, ...] = Field(("closed_book", "open_book"), min_length=1)
    splits: tuple[str, ...] = Field(("single", "multi"), min_length=1)
    seeds: tuple[int, ...] = Field((0,), min_length=1)
    k: int = Field(1, ge=1, description="attempts per task and seed")
    temperature: float = Field(0.0, ge=0.0)
    top_p: float = Field(1.0, gt=0.0, le=1.0)
    max_new_tokens: int = Field(1024, ge=1)
    thinking: bool = False
    cpu_s: int = Field(5, ge=1, description="sandbox: CPU seconds per process")
    wall_s: float = Field(15.0, gt=0.0, description="sandbox: wall clock per solution")
    memory_mb: int = Field(1024, ge=64, description="sandbox: address space per process")
    output_kb: int = Field(1024, ge=1, description="sandbox: largest output / file")
    workers: int = Field(2, ge=1, description="sandboxes run at once")
    rel_tolerance: float = Field(1e-6, ge=0.0)
    abs_tolerance: float = Field(1e-9, ge=0.0)
    training_only_correct: bool = Field(
        True, description="training data keeps only responses judged correct"
    )


class PathSettings(_Section):
    """Where the platform writes. Everything it produces lives under ``work_dir``."""

    work_dir: Path = Path("work")
    runs_dir: Path = Path("work/runs")
    cache_dir: Path = Path("work/cache")


class GuidanceTeacherSettings(_Section):
    """The teacher of the guidance pipeline: any OpenAI-compatible endpoint, or (empty
    ``base_url``) an in-process transformers model, by default the tiny offline demo model,
    so the stages run offline (its noise is retried and recorded as failures)."""

    base_url: str = Field("", description="empty: in-process model (model_path)")
    model: str = "teacher-model"
    api_key_env: str = Field("STUDYBENCH_TEACHER_API_KEY", description="env var holding the key")
    model_path: str = Field("", description="in-process teacher; empty: the tiny demo model")
    temperature: float = Field(0.0, ge=0.0)
    max_tokens: int = Field(1024, ge=1)
    local_max_tokens: int = Field(128, ge=1, description="cap for the in-process teacher")
    json_retries: int = Field(2, ge=0, description="invalid replies asked again this often")
    concurrency: int = Field(8, ge=1)
    max_retries: int = Field(6, ge=0)
    request_timeout_s: float = Field(600.0, gt=0.0)


class GuidanceAdmitSettings(_Section):
    """Stage 6: the filter model is asked with the guidance; solved at least once = admitted."""

    engine: Literal["hf", "openai", "vllm"] = "hf"
    model: str = Field("", description="checkpoint or served name; empty: the demo teacher")
    base_url: str = Field("", description="endpoint for engine openai (empty: engine.base_url)")
    api_key_env: str = "STUDYBENCH_ENGINE_API_KEY"
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


class Settings(_Section):
    """The whole settings tree (one section per layer)."""

    protocol: ProtocolSettings = ProtocolSettings()
    data: DataSettings = DataSettings()
    release: ReleaseSettings = ReleaseSettings()
    corpus: CorpusSettings = CorpusSettings()
    judge: JudgeSettings = JudgeSettings()
    engine: EngineSettings = EngineSettings()
    tracking: TrackingSettings = TrackingSettings()
    checkpoints: CheckpointSettings = CheckpointSettings()
    nightly: NightlySettings = NightlySettings()
    airflow: AirflowSettings = AirflowSettings()
    paths: PathSettings = PathSettings()
    training: TrainingSettings = TrainingSettings()
    benchmarks: BenchmarkSelection = BenchmarkSelection()
    evalearn: EvaLearnSettings = EvaLearnSettings()
    guidance: GuidanceSettings = GuidanceSettings()
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
    elif require_file or path is not None:
        raise ConfigError(f"{params_path}: settings file not found")
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


def _read_yaml_mapping(path: Path) -> dict[str, Any]:
    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
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


def _describe_validation_error(
    exc: ValidationError, origins: Mapping[tuple[str, ...], str], params_path: Path
) -> str:
    lines = []
    for error in exc.errors():
        loc = tuple(str(part) for part in error["loc"])
        origin = _origin_of(loc, origins) or str(params_path)
        dotted = ".".join(loc)
        if error["type"] == "extra_forbidden":
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
