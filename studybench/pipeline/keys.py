"""THE evaluation key: the identity of one evaluation, fixed when planning. Every path (CLI,
checkpoint DAG, nightly DAG, ``studybench track``, ``studybench rescore``) uses this recipe.

It has two layers. The *generation key* (subject, protocol, data, splits, run tag, folder)
names what was generated: the run folder and the generation store, so generations are found
again and never made twice. The *evaluation key* adds the instrument that judged them (the
verifier version, the LLM judge's version and model): the same generations judged by a newer
verifier are a new evaluation, a new MLflow run, found by the DAGs as "needs a re-score",
never as "needs a generation". Runs logged before the instrument entered the key carry the
generation key as their evaluation key, so they are found again as generations."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from studybench.benchmarks.base import BenchmarkPlan
from studybench.tracking.rescore import Instrument

if TYPE_CHECKING:
    from studybench.config import Settings

STUDYBENCH = "studybench"


def installed_instrument(settings: Settings) -> Instrument:
    """The verifier and judge this installation judges with: the verifier's version, the
    judge prompt's version and, when the LLM stage is on, the judge model ("" = rule stage
    only: a rule-only verdict is upgraded once a judge is enabled)."""
    from studybench.judge.prompt import JUDGE_VERSION
    from studybench.verify import VERIFIER_VERSION

    model = settings.judge.model if settings.judge.llm_enabled else ""
    return Instrument(
        verifier_version=VERIFIER_VERSION, judge_version=JUDGE_VERSION, judge_model=model
    )


def judged_key(generation: str, instrument: Instrument) -> str:
    """The evaluation key of the generations ``generation`` judged by ``instrument``."""
    payload = json.dumps({"generation": generation, **instrument.model_dump()}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:20]


def subject(model: str, identity: str | None = None, base_url: str = "") -> str:
    """What is evaluated: the checkpoint's content identity, else the (endpoint, model)."""
    return identity or (f"{base_url}|{model}" if base_url else model)


def _key(
    subject_: str,
    protocol: str,
    data: Mapping[str, str],
    splits: Sequence[str],
    run_tag: str,
    others: Mapping[str, str],
    folder: str,
) -> str:
    fields: dict[str, Any] = {
        "subject": subject_,
        "protocol": protocol,
        "data": dict(data),
        "splits": sorted(splits),
        "tag": run_tag,
    }
    if others:
        fields["benchmarks"] = dict(others)
    if folder:
        fields["folder"] = folder
    payload = json.dumps(fields, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:20]


def generation_key(
    subject_: str,
    plans: Mapping[str, BenchmarkPlan],
    data: Mapping[str, str],
    run_tag: str = "",
    folder: str = "",
) -> str:
    """Subject, every benchmark's protocol hash (which covers the method artefacts), the data
    versions, StudyBench's splits, the run tag (a night) and, for a hand-chosen run folder,
    the folder. StudyBench's fields are the ones the platform always hashed, and the other
    benchmarks enter only when there are any, so StudyBench-only keys did not change (and
    the run folders of earlier evaluations are found again)."""
    study = plans.get(STUDYBENCH)
    others = {n: p.protocol_hash for n, p in plans.items() if n != STUDYBENCH}
    return _key(
        subject_,
        study.protocol_hash if study else "",
        data,
        study.parts if study else (),
        run_tag,
        others,
        folder,
    )


def evaluation_key(
    subject_: str,
    plans: Mapping[str, BenchmarkPlan],
    data: Mapping[str, str],
    run_tag: str = "",
    folder: str = "",
    *,
    instrument: Instrument,
) -> str:
    """The generation key (:func:`generation_key`) judged by ``instrument``."""
    return judged_key(generation_key(subject_, plans, data, run_tag, folder), instrument)


def key_for_splits(
    subject_: str, protocol: str, data: Mapping[str, str], splits: Sequence[str], run_tag: str = ""
) -> str:
    """The generation key of StudyBench split folders logged by hand (``studybench track``):
    the same recipe, from what the folders' ``run.json`` say (:func:`judged_key` adds the
    instrument)."""
    return _key(subject_, protocol, data, splits, run_tag, {}, "")
