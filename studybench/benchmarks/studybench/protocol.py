"""StudyBench's protocol: the rollout configuration the settings describe, the method
artefacts of a target, and THE protocol hash (the one that keys stored results: the run
folder's ``run.json``, the generation store's run key, the evaluation key and MLflow's
``protocol_hash`` tag all carry it; ``studybench config show`` prints it)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studybench.benchmarks.base import protocol_sampling
from studybench.config import MethodArtefactSpec, Settings


def rollout_config(
    model: str,
    settings: Settings,
    *,
    k: int | None = None,
    seeds: Sequence[int] | None = None,
    max_new_tokens: int | None = None,
    concurrency: int = 256,
) -> Any:
    """The StudyBench rollout configuration of ``model`` under the settings' protocol, with
    StudyBench's prompt texts (so the protocol hash covers them)."""
    from studybench.benchmarks.studybench.prompts import PROMPTS
    from studybench.rollout.runner import RolloutConfig

    protocol = settings.protocol
    return RolloutConfig(
        model=model,
        prompts=PROMPTS,
        k=k or protocol.k,
        seeds=tuple(seeds) if seeds else protocol.seeds,
        sampling=protocol_sampling(settings, max_new_tokens),
        language=protocol.language,
        concurrency=concurrency,
    )


def default_artefacts(settings: Settings) -> Any:
    """The method artefacts of a plain evaluation: the protocol's system prompt only."""
    from studybench.rollout.artefacts import MethodArtefacts

    return MethodArtefacts(system_prompt=settings.protocol.system_prompt)


def resolve_artefacts(spec: MethodArtefactSpec | None, settings: Settings) -> Any:
    """The method artefacts a target names, resolved to prompt text (bad files fail here,
    before any engine starts, naming the file)."""
    if spec is None or not spec.given():
        return default_artefacts(settings)
    from studybench.benchmarks.studybench.prompts import PROMPTS
    from studybench.rollout.artefacts import load_artefacts

    def path(text: str) -> Path | None:
        return Path(text) if text else None

    return load_artefacts(
        settings.protocol.system_prompt,
        ace_instruction=PROMPTS.ace_instruction,
        ace=path(spec.ace),
        gepa=path(spec.gepa),
        gepa_iteration=spec.gepa_iteration,
        gepa_rollouts=spec.gepa_rollouts,
        evoskill=path(spec.evoskill),
        guidance=path(spec.guidance),
    )


def protocol_hash(
    settings: Settings,
    spec: MethodArtefactSpec | None = None,
    *,
    k: int | None = None,
    seeds: Sequence[int] | None = None,
    max_new_tokens: int | None = None,
) -> str:
    """THE protocol hash of StudyBench results: prompts, sampling, k, seeds and the method
    artefacts (the model is not part of it; the evaluation key adds the subject)."""
    config = rollout_config("", settings, k=k, seeds=seeds, max_new_tokens=max_new_tokens)
    return str(config.protocol_hash(resolve_artefacts(spec, settings)))


def artefact_record(spec: MethodArtefactSpec | None, artefacts: Any) -> dict[str, str]:
    """What tracking records about the artefacts (params ``method.*``): the kind, the files
    and the fingerprint of what reached the prompt; never the prompt text itself."""
    record = {"method.artefact": str(artefacts.kind)}
    if spec is not None:
        for field in ("guidance", "ace", "gepa", "evoskill"):
            value = getattr(spec, field)
            if value:
                record[f"method.{field}"] = str(Path(value).resolve())
        for field in ("gepa_iteration", "gepa_rollouts"):
            value = getattr(spec, field)
            if value is not None:
                record[f"method.{field}"] = str(value)
    record["method.fingerprint"] = str(artefacts.fingerprint())
    return record
