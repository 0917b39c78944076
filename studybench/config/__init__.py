"""One typed settings tree, read from ``params.yaml`` plus environment overrides.

Where things are: the shared field types and the section base in :mod:`.fields` (a leaf any
module may import); the one endpoint and one sampling shape in :mod:`.endpoints`; sections
by area in :mod:`.paths` (data, release, corpus, paths), :mod:`.engine` (engine, judge),
:mod:`.agent`, :mod:`.tracking` (tracking, alerts), :mod:`.orchestration` (checkpoints,
nightly, airflow, benchmark selection), :mod:`.training`, :mod:`.guidance`, :mod:`.build`;
the benchmarks' own sections beside their code (``benchmarks/evalearn/settings.py``,
``benchmarks/sebench/settings.py``); the tree in :mod:`.settings`; reading it (YAML,
profiles, environment overrides, renamed keys) in :mod:`.loading`.

This ``__init__`` imports only its lazy loader at run time: each name loads its module on
first use (:mod:`studybench.lazy`), so a benchmark's settings module can import :mod:`.fields` while
the tree imports that settings module, without an import cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studybench.lazy import lazy_exports

__all__ = [
    "DEFAULT_PARAMS_FILE",
    "DEFAULT_SYSTEM_PROMPT",
    "ENV_PREFIX",
    "PARAMS_ENV",
    "PROFILES_KEY",
    "PROFILE_ENV",
    "RENAMED_KEYS",
    "RENAMED_VALUES",
    "AgentSettings",
    "AirflowSettings",
    "AlertSettings",
    "BenchmarkSelection",
    "BuildSettings",
    "CheckpointSettings",
    "Concurrency",
    "CorpusSettings",
    "DataSettings",
    "EndpointSettings",
    "EngineKind",
    "EngineSettings",
    "EvaLearnParadigm",
    "EvaLearnSettings",
    "GuidanceAdmitSettings",
    "GuidanceGapSettings",
    "GuidanceSettings",
    "GuidanceTeacherSettings",
    "JudgeSettings",
    "KeyEnv",
    "LLMEndpointSettings",
    "MethodArtefactSpec",
    "ModelEngineKind",
    "NewTokens",
    "NightlyModel",
    "NightlySettings",
    "PathSettings",
    "PromptMethodSettings",
    "ProtocolSettings",
    "RLTrainingSettings",
    "ReleaseSettings",
    "Retries",
    "SEBenchCondition",
    "SEBenchSettings",
    "SFTTrainingSettings",
    "SamplingSettings",
    "Section",
    "Settings",
    "SmtpAlertSettings",
    "SynthSettings",
    "Temperature",
    "Timeout",
    "TopP",
    "TrackingSettings",
    "TrainingSettings",
    "WebhookAlertSettings",
    "default_params_path",
    "load_settings",
]

if TYPE_CHECKING:
    from studybench.benchmarks.evalearn.settings import EvaLearnParadigm, EvaLearnSettings
    from studybench.benchmarks.sebench.settings import SEBenchCondition, SEBenchSettings
    from studybench.config.agent import AgentSettings
    from studybench.config.build import BuildSettings
    from studybench.config.endpoints import (
        DEFAULT_SYSTEM_PROMPT,
        EndpointSettings,
        LLMEndpointSettings,
        ProtocolSettings,
        SamplingSettings,
    )
    from studybench.config.engine import EngineSettings, JudgeSettings
    from studybench.config.fields import (
        Concurrency,
        EngineKind,
        KeyEnv,
        ModelEngineKind,
        NewTokens,
        Retries,
        Section,
        Temperature,
        Timeout,
        TopP,
    )
    from studybench.config.guidance import (
        GuidanceAdmitSettings,
        GuidanceGapSettings,
        GuidanceSettings,
        GuidanceTeacherSettings,
    )
    from studybench.config.loading import (
        DEFAULT_PARAMS_FILE,
        ENV_PREFIX,
        PARAMS_ENV,
        PROFILE_ENV,
        PROFILES_KEY,
        RENAMED_KEYS,
        RENAMED_VALUES,
        default_params_path,
        load_settings,
    )
    from studybench.config.orchestration import (
        AirflowSettings,
        BenchmarkSelection,
        CheckpointSettings,
        MethodArtefactSpec,
        NightlyModel,
        NightlySettings,
    )
    from studybench.config.paths import CorpusSettings, DataSettings, PathSettings, ReleaseSettings
    from studybench.config.settings import Settings
    from studybench.config.tracking import (
        AlertSettings,
        SmtpAlertSettings,
        TrackingSettings,
        WebhookAlertSettings,
    )
    from studybench.config.training import (
        PromptMethodSettings,
        RLTrainingSettings,
        SFTTrainingSettings,
        SynthSettings,
        TrainingSettings,
    )
else:
    __getattr__, __dir__ = lazy_exports(__name__, __file__)
