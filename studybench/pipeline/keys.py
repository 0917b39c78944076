"""THE evaluation key: the identity of one evaluation, fixed when planning. The same key
means the same run folder and the same MLflow run; a key already logged with every metric
is skipped. Every path (CLI, checkpoint DAG, nightly DAG, ``studybench track``) uses this one
recipe."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from studybench.benchmarks.base import BenchmarkPlan

STUDYBENCH = "studybench"


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


def evaluation_key(
    subject_: str,
    plans: Mapping[str, BenchmarkPlan],
    data: Mapping[str, str],
    run_tag: str = "",
    folder: str = "",
) -> str:
    """Subject, every benchmark's protocol hash (which covers the method artefacts), the data
    versions, StudyBench's splits, the run tag (a night) and, for a hand-chosen run folder,
    the folder. StudyBench's fields are the ones the platform always hashed, and the other
    benchmarks enter only when there are any, so StudyBench-only keys did not change."""
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


def key_for_splits(
    subject_: str, protocol: str, data: Mapping[str, str], splits: Sequence[str], run_tag: str = ""
) -> str:
    """The key of StudyBench split folders logged by hand (``studybench track``): the same
    recipe, from what the folders' ``run.json`` say."""
    return _key(subject_, protocol, data, splits, run_tag, {}, "")
