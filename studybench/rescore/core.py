"""Re-scoring one logged evaluation: its stored generations judged again by the installed
verifier and judge, recorded as a new version of its results. No engine is ever started:
the generations come from the run's artefacts, the gold from the data file it was
evaluated on.

Steps, each resumable: (1) nothing to do when a version of the run's generations was judged
by this instrument already (a re-run is a no-op); (2) every StudyBench split folder is
rebuilt under ``<work_dir>/rescore/<run>-<key>/`` from the artefacts (kept once complete);
(3) judging stores every verdict as it is made (``verdicts.sqlite``), and LLM replies are
replayed from the one reply cache, so a killed re-score continues where it stopped and a
rule-only change asks the judge only what the rules newly reject; (4) the new run is logged
under the evaluation key of (generations, instrument), which a retried log reopens; (5) the
older versions are tagged superseded by it.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from studybench.config import Settings
from studybench.rescore.flips import FlipReport, flip_report
from studybench.rescore.rebuild import RescoreRefusedError, read_jsonl_gz, rebuild_split
from studybench.tracking.rescore import (
    GENERATION_KEY,
    GENERATION_RUN,
    RESCORE_OF,
    Instrument,
    generation_run_of,
    judged_by,
    mark_superseded,
    open_version,
)

Progress = Callable[[str, int, int], None]  # (what, done, total)


class RescoreOutcome(BaseModel):
    """What one re-score did: ``status`` ``rescored`` (``run_id`` is the new run) or
    ``current`` (``run_id`` is the version already judged by this instrument)."""

    original: str
    run_id: str
    status: str
    instrument: Instrument
    previous: Instrument | None = None
    llm_calls: int = 0
    llm_cached: int = 0
    verdicts: int = 0
    flips: FlipReport = Field(default_factory=FlipReport)
    notes: list[str] = Field(default_factory=list)


def installed(settings: Settings, verifier: Any = None) -> Instrument:
    """The installed instrument (``verifier``: a plug-in that names its own version)."""
    from studybench.judge.pipeline import verifier_version
    from studybench.pipeline.keys import installed_instrument

    found = installed_instrument(settings)
    if verifier is None:
        return found
    return found.model_copy(update={"verifier_version": verifier_version(verifier)})


def _splits(client: Any, run_id: str) -> list[str]:
    """The StudyBench split folders of a run's artefacts (those with generation records)."""
    names = []
    for entry in client.list_artifacts(run_id):
        if entry.is_dir:
            inside = {Path(f.path).name for f in client.list_artifacts(run_id, entry.path)}
            if "generations.jsonl.gz" in inside:
                names.append(entry.path)
    return sorted(names)


def _gold_file(split: str, tags: dict[str, str], settings: Settings, run_id: str) -> Path:
    from studybench.benchmarks.studybench.splits import NAMED_SPLITS, split_file
    from studybench.tracking.provenance import data_version_tags

    if split not in NAMED_SPLITS:
        raise RescoreRefusedError(
            f"run {run_id}: split {split!r} was a split file, not a named split; its gold "
            "cannot be found again (re-score the run folder with studybench judge)"
        )
    from studybench.pipeline.results import _relative  # the path as dvc.lock names it

    path = _relative(split_file(split, settings).resolve())
    (tag, now), *_ = data_version_tags([path]).items() or [("", "")]
    was = tags.get(tag)
    if not now or was is None:
        raise RescoreRefusedError(
            f"run {run_id}: split {split!r}: no data version of {path} recorded"
        )
    if was != now:
        raise RescoreRefusedError(
            f"run {run_id}: split {split!r} was evaluated on {tag}={was}, the installed data "
            f"file {path} is {now}: other gold would be another evaluation, not a re-score"
        )
    return path


def _manifest(run: Any, split: str) -> dict[str, Any]:
    params, tags = run.data.params, run.data.tags
    seeds = [int(s) for s in params.get("seeds", "0").split(",") if s.strip()]
    return {
        "model": tags.get("studybench.model", ""),
        "split": split,
        "engine": params.get("engine.kind", ""),
        "protocol_hash": tags.get("protocol_hash", ""),
        "config": {"k": int(params.get("k", "1")), "seeds": seeds},
        "artefacts": {"kind": params.get("method.artefact", "default")},
        "rescore_of": run.info.run_id,
    }


def rescore_run(
    settings: Settings,
    run_id: str,
    *,
    verifier: Any = None,
    on_progress: Progress | None = None,
) -> RescoreOutcome:
    """Judge the stored generations of ``run_id`` again with the installed verifier and
    judge (``verifier``: an open plug-in instead) and log them as a new version of its
    results; a no-op when a version judged by this instrument exists."""
    from studybench.tracking.mlflow_log import client_for

    client = client_for(settings)
    instrument = installed(settings, verifier)
    root_id = generation_run_of(client.get_run(run_id))
    root = client.get_run(root_id)
    previous = Instrument.of_run(root)
    done = judged_by(client, root_id, instrument)
    if done is not None:
        return RescoreOutcome(
            original=root_id,
            run_id=done,
            status="current",
            instrument=instrument,
            previous=previous,
        )
    benchmarks = [
        b
        for b in root.data.tags.get("studybench.benchmarks", "studybench").split(",")
        if b and b != "engine"
    ]
    if benchmarks != ["studybench"]:
        raise RescoreRefusedError(
            f"run {root_id} holds {', '.join(benchmarks)}: a re-score covers StudyBench's "
            "verifier and judge only; evaluate the other benchmarks again"
        )
    return _rescore(settings, client, root, instrument, previous, verifier, on_progress)


def _rescore(
    settings: Settings,
    client: Any,
    root: Any,
    instrument: Instrument,
    previous: Instrument,
    verifier: Any,
    on_progress: Progress | None,
) -> RescoreOutcome:
    from studybench.benchmarks.studybench.items import join
    from studybench.benchmarks.studybench.judging import judge_dir
    from studybench.pipeline.keys import judged_key

    root_id = str(root.info.run_id)
    tags = root.data.tags
    generation = tags.get(GENERATION_KEY) or tags.get("studybench.eval_key", "")
    key = judged_key(generation, instrument)
    splits = _splits(client, root_id)
    if not splits:
        raise RescoreRefusedError(f"run {root_id}: no stored generations (no <split>/ artefacts)")
    work = settings.paths.work_dir / "rescore" / f"{root_id}-{key[:10]}"
    manifest = _manifest(root, "")
    seeds, k = manifest["config"]["seeds"], manifest["config"]["k"]
    folders: dict[str, Path] = {}
    old: dict[str, dict[tuple[str, str, int, int], dict[str, Any]]] = {}
    for split in splits:
        data = _gold_file(split, tags, settings, root_id)
        source = work / "_stored" / split
        for name in ("generations.jsonl.gz", "verdicts.jsonl.gz"):
            if not (source / name).is_file():
                source.mkdir(parents=True, exist_ok=True)
                client.download_artifacts(root_id, f"{split}/{name}", str(source))
        folders[split] = rebuild_split(
            work / split,
            source / "generations.jsonl.gz",
            data,
            {**manifest, "split": split},
            seeds,
            k,
        )
        old[split] = {
            (str(v["parent"]), str(v["slot"]), int(v["seed"]), int(v["attempt"])): v
            for v in read_jsonl_gz(source / "verdicts.jsonl.gz")
        }
    outcome = RescoreOutcome(
        original=root_id, run_id="", status="rescored", instrument=instrument, previous=previous
    )
    for split, folder in folders.items():

        def progress(done: int, total: int, split: str = split) -> None:
            if on_progress is not None:
                on_progress(f"{split}: LLM judge", done, total)

        summary = judge_dir(folder, settings, on_progress=progress, verifier=verifier)
        outcome.llm_calls += summary.llm_calls
        outcome.llm_cached += summary.llm_cached
        joined = join(folder)
        outcome.verdicts += sum(1 for j in joined if j.verdict is not None)
        flip_report(
            split,
            old[split],
            [j.verdict for j in joined if j.verdict is not None],
            {(j.item.parent, j.item.slot, j.item.seed, j.item.attempt): j.item for j in joined},
            examples=settings.rescore.examples,
            into=outcome.flips,
        )
        if on_progress is not None:
            on_progress(f"{split}: judged", 1, 1)
    outcome.run_id = _log(settings, client, root, key, generation, instrument, folders, outcome)
    marked = mark_superseded(client, root_id, outcome.run_id)
    outcome.notes.append(f"superseded: {', '.join(marked) or 'nothing'}")
    return outcome


def _log(
    settings: Settings,
    client: Any,
    root: Any,
    key: str,
    generation: str,
    instrument: Instrument,
    folders: dict[str, Path],
    outcome: RescoreOutcome,
) -> str:
    from studybench.benchmarks.studybench.results import studybench_result
    from studybench.tracking.guidance_gap import GUIDED_TAG
    from studybench.tracking.mlflow_log import log_evaluation
    from studybench.tracking.records import Checkpoint

    root_id = str(root.info.run_id)
    tags, params = root.data.tags, root.data.params
    copied = (
        "studybench.target",
        "studybench.run_tag",
        "studybench.benchmarks",
        "checkpoint.path",
        "checkpoint.hash",
        GUIDED_TAG,
    )
    extra = {k: tags[k] for k in copied if tags.get(k)}
    extra.update(instrument.tags())
    extra.update(
        {
            "verifier_version": instrument.verifier_version,
            "judge_version": instrument.judge_version,
            GENERATION_KEY: generation,
            GENERATION_RUN: root_id,
            RESCORE_OF: root_id,
        }
    )
    previous = outcome.previous.describe() if outcome.previous else "an earlier instrument"
    note = (
        f"Re-score of run {root_id} ({previous}) with {instrument.describe()}: the same "
        f"generations, judged again; {outcome.flips.flips} verdict(s) flipped "
        f"(table tables/rescore_flips.json). The superseded values stay on run {root_id}."
    )
    step = tags.get("checkpoint.step", "")
    path = tags.get("checkpoint.path")
    checkpoint = Checkpoint(
        path=path if path and Path(path).is_dir() else None,
        step=int(step) if step.isdigit() else None,
        training_run=tags.get("training_run"),
        base_model=tags.get("base_model"),
    )
    data_files = [Path(p) for p in (_gold_file(s, tags, settings, root_id) for s in folders)]
    name = f"{root.info.run_name} (rescored: verifier {instrument.verifier_version})"
    open_version(client, root, key, name, {**extra, "mlflow.note.content": note})
    with tempfile.TemporaryDirectory(prefix="studybench-rescore-") as tmp:
        result = studybench_result(list(folders.values()), settings, Path(tmp) / "studybench")
        own = {k: v for k, v in params.items() if k not in ("judge.model", "judge.enabled")}
        result = result.model_copy(
            update={
                "run_params": {**result.run_params, **own},
                "run_tags": {
                    **result.run_tags,
                    "protocol_hash": tags.get("protocol_hash", ""),
                    "judge_version": instrument.judge_version,
                },
                "metrics": {**result.metrics, **outcome.flips.metrics()},
                "tables": {**result.tables, **outcome.flips.tables()},
            }
        )
        logged = log_evaluation(
            [result],
            settings,
            eval_key=key,
            model=tags.get("studybench.model", ""),
            checkpoint=checkpoint,
            data_files=data_files,
            extra_tags=extra,
            keep_note=str(next(iter(folders.values())).parent),
        )
    client.set_tag(logged, "mlflow.note.content", note)
    summary = outcome.flips.model_dump_json(indent=1)
    client.log_text(logged, summary, "rescore/flip_report.json")
    described = json.dumps(instrument.model_dump(), indent=1)
    client.log_text(logged, described, "rescore/instrument.json")
    return str(logged)
