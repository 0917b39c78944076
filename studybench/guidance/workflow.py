"""The guidance stages as file-to-file steps (what the CLI commands and DVC stages run).

Stage files under ``guidance.out_dir`` (all DVC outputs):

* ``knowledge_points_raw.jsonl``: per slot, the teacher's knowledge points or its failure.
* ``knowledge_points.jsonl`` + ``knowledge_points_review.md``: canonical points, merges.
* ``candidates.jsonl``: top-n fused candidates per canonical point.
* ``kp_matches.jsonl``: verified candidates (teacher score, quote, quote check, coverage).
* ``slot_guidance.jsonl`` + ``guidance.json`` + ``guidance_report.json``: the guidance per
  slot with its leakage record, the release-schema guidance file the runner loads, and counts.

The teacher's reply cache (``paths.cache_dir/guidance``) lies outside the DVC outputs, so a
stage that DVC re-runs (its outputs deleted first) still costs no teacher calls.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from studybench.config import Settings
from studybench.data.loaders import load_parents
from studybench.fileio import write_atomic
from studybench.guidance import stages
from studybench.guidance.records import (
    Candidate,
    CanonicalPoint,
    Match,
    SlotDecomposition,
    SlotGuidance,
    by_key,
    read_lines,
    write_lines,
)
from studybench.guidance.teacher import Teacher, open_teacher

Progress = Callable[[int, int], None]
T = TypeVar("T")

RAW = "knowledge_points_raw.jsonl"
POINTS = "knowledge_points.jsonl"
REVIEW = "knowledge_points_review.md"
CANDIDATES = "candidates.jsonl"
MATCHES = "kp_matches.jsonl"
SLOT_GUIDANCE = "slot_guidance.jsonl"
GUIDANCE = "guidance.json"
REPORT = "guidance_report.json"


class StageSummary(BaseModel):
    stage: str
    items: int
    failures: int
    teacher_calls: int
    cached_replies: int
    out: str


def _with_teacher(
    settings: Settings,
    teacher: Teacher | None,
    work: Callable[[Teacher], Coroutine[Any, Any, T]],
) -> tuple[T, Teacher]:
    own = teacher is None
    active = teacher or open_teacher(settings)

    async def go() -> T:
        try:
            return await work(active)
        finally:
            if own:
                await active.aclose()

    try:
        return asyncio.run(go()), active
    finally:
        if own:
            active.cache.close()


def run_decompose(
    settings: Settings,
    *,
    split: Path | None = None,
    out_dir: Path | None = None,
    teacher: Teacher | None = None,
    on_progress: Progress | None = None,
) -> StageSummary:
    out = (out_dir or settings.guidance.out_dir) / RAW
    slots = stages.guided_slots(load_parents(split or settings.guidance.split))
    records, used = _with_teacher(
        settings, teacher, lambda t: stages.decompose(t, slots, on_progress)
    )
    write_lines(out, records)
    return StageSummary(
        stage="decompose",
        items=len(records),
        failures=sum(r.failure is not None for r in records),
        teacher_calls=used.calls,
        cached_replies=used.cached,
        out=str(out),
    )


def run_canonicalise(
    settings: Settings, *, out_dir: Path | None = None, embedder: Any = None
) -> StageSummary:
    from studybench.guidance.canonical import canonicalise, review_markdown
    from studybench.guidance.embeddings import default_embedder

    folder = out_dir or settings.guidance.out_dir
    gs = settings.guidance
    raw = read_lines(folder / RAW, SlotDecomposition)
    if embedder is None and any(r.knowledge_points for r in raw):
        embedder = default_embedder()  # loading the model is the slow part: only when needed
    result = canonicalise(
        raw,
        embedder=embedder,
        fuzzy_threshold=gs.fuzzy_threshold,
        embedding_threshold=gs.embedding_threshold,
    )
    write_lines(folder / POINTS, result.points)
    write_atomic(
        folder / REVIEW, review_markdown(result, gs.fuzzy_threshold, gs.embedding_threshold)
    )
    return StageSummary(
        stage="canonicalise",
        items=len(result.points),
        failures=0,
        teacher_calls=0,
        cached_replies=0,
        out=str(folder / POINTS),
    )


def run_retrieve(
    settings: Settings,
    *,
    out_dir: Path | None = None,
    fragments: Path | None = None,
    embedder: Any = None,
    on_progress: Progress | None = None,
) -> StageSummary:
    from studybench.guidance.embeddings import default_embedder
    from studybench.guidance.retrieve import RetrievalConfig, Retriever, load_fragments

    folder = out_dir or settings.guidance.out_dir
    gs = settings.guidance
    points = read_lines(folder / POINTS, CanonicalPoint)
    candidates: list[Candidate] = []
    if points:
        retriever = Retriever(
            load_fragments(fragments or gs.fragments),
            embedder if embedder is not None else default_embedder(),
            cache_dir=settings.paths.cache_dir / "guidance",
        )
        config = RetrievalConfig(
            top_n=gs.top_n,
            pool=gs.pool,
            rrf_k=gs.rrf_k,
            book_preference=gs.book_preference,
            book_disciplines={k: list(v) for k, v in gs.book_disciplines.items()},
        )
        for index, point in enumerate(points, start=1):
            candidates += retriever.candidates(point, config)
            if on_progress is not None:
                on_progress(index, len(points))
    write_lines(folder / CANDIDATES, candidates)
    return StageSummary(
        stage="retrieve",
        items=len(candidates),
        failures=0,
        teacher_calls=0,
        cached_replies=0,
        out=str(folder / CANDIDATES),
    )


def run_verify(
    settings: Settings,
    *,
    out_dir: Path | None = None,
    fragments: Path | None = None,
    teacher: Teacher | None = None,
    on_progress: Progress | None = None,
) -> StageSummary:
    from studybench.guidance.retrieve import load_fragments

    folder = out_dir or settings.guidance.out_dir
    points = read_lines(folder / POINTS, CanonicalPoint)
    candidates = read_lines(folder / CANDIDATES, Candidate)
    matches: list[Match] = []
    calls = cached = 0
    if candidates:
        texts = {
            f.fragment_id: f.text for f in load_fragments(fragments or settings.guidance.fragments)
        }
        matches, used = _with_teacher(
            settings,
            teacher,
            lambda t: stages.verify_candidates(t, points, candidates, texts, on_progress),
        )
        calls, cached = used.calls, used.cached
    write_lines(folder / MATCHES, matches)
    return StageSummary(
        stage="verify",
        items=len(matches),
        failures=sum(m.failure is not None for m in matches),
        teacher_calls=calls,
        cached_replies=cached,
        out=str(folder / MATCHES),
    )


def run_guide(
    settings: Settings,
    *,
    split: Path | None = None,
    out_dir: Path | None = None,
    teacher: Teacher | None = None,
    on_progress: Progress | None = None,
) -> StageSummary:
    from studybench.guidance.output import guidance_file, report

    folder = out_dir or settings.guidance.out_dir
    gs = settings.guidance
    parents = load_parents(split or gs.split)
    raw = by_key(read_lines(folder / RAW, SlotDecomposition))
    points = read_lines(folder / POINTS, CanonicalPoint)
    matches = read_lines(folder / MATCHES, Match)
    slots = stages.guided_slots(parents)
    config = stages.GuideConfig(retries=gs.guide_retries, tolerance=gs.leak_tolerance)
    calls = cached = 0
    if any(m.covered for m in matches):
        results, used = _with_teacher(
            settings,
            teacher,
            lambda t: stages.guide(t, slots, raw, points, matches, config, on_progress),
        )
        calls, cached = used.calls, used.cached
    else:  # nothing is covered: no slot can be guided, and no teacher is needed to say so
        results = asyncio.run(stages.guide(None, slots, raw, points, matches, config, on_progress))
    write_lines(folder / SLOT_GUIDANCE, results)
    payload = guidance_file(parents, raw, {r.key: r for r in results})
    write_atomic(folder / GUIDANCE, json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
    summary = report(parents, raw, results, matches)
    write_atomic(folder / REPORT, json.dumps(summary, indent=1) + "\n")
    paths = Counter(r.path for r in results)
    return StageSummary(
        stage="guide",
        items=len(results),
        failures=paths.get("failed", 0),
        teacher_calls=calls,
        cached_replies=cached,
        out=str(folder / GUIDANCE),
    )


def load_slot_guidance(folder: Path) -> list[SlotGuidance]:
    return read_lines(folder / SLOT_GUIDANCE, SlotGuidance)
