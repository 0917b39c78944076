"""The whole settings tree: one section per layer.

Every section type is named here, so mypy sees each section's fields. The benchmarks'
sections are declared beside their code (``benchmarks/<name>/settings.py``, modules that
import only pydantic and :mod:`studybench.config.fields`); StudyBench's protocol is the
tree's ``protocol`` section.
"""

from __future__ import annotations

from studybench.benchmarks.evalearn.settings import EvaLearnSettings
from studybench.benchmarks.sebench.settings import SEBenchSettings
from studybench.config.agent import AgentSettings
from studybench.config.build import BuildSettings
from studybench.config.endpoints import ProtocolSettings
from studybench.config.engine import EngineSettings, JudgeSettings
from studybench.config.fields import Section
from studybench.config.guidance import GuidanceSettings
from studybench.config.orchestration import (
    AirflowSettings,
    BenchmarkSelection,
    CheckpointSettings,
    NightlySettings,
)
from studybench.config.paths import CorpusSettings, DataSettings, PathSettings, ReleaseSettings
from studybench.config.rescore import RescoreSettings
from studybench.config.tracking import AlertSettings, TrackingSettings
from studybench.config.training import TrainingSettings


class Settings(Section):
    """The whole settings tree (one section per layer)."""

    protocol: ProtocolSettings = ProtocolSettings()
    data: DataSettings = DataSettings()
    release: ReleaseSettings = ReleaseSettings()
    corpus: CorpusSettings = CorpusSettings()
    judge: JudgeSettings = JudgeSettings()
    engine: EngineSettings = EngineSettings()
    agent: AgentSettings = AgentSettings()
    tracking: TrackingSettings = TrackingSettings()
    rescore: RescoreSettings = RescoreSettings()
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
