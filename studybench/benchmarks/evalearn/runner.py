"""Solving EvaLearn sequences: one chain per (sequence, seed), every chain concurrently.

Within a chain the problems are asked in order (the feedback paradigm needs each answer
judged before the next problem is asked); chains are independent and share the engine.
Turns are stored as they finish in the part's ``generations.sqlite`` (the platform's
append-only generation store), keyed by the exact request: a re-run reuses every stored
turn whose conversation is unchanged and regenerates the rest, so a killed run resumes and a
changed prompt never reuses old text. A request that fails after the engine's retries is
stored as an error; the chain goes on with an empty answer and the next run retries it.

Judging writes ``verdicts-seed<N>.jsonl`` in the part folder (atomically, after the whole
seed is judged), with the stage, the outcome and the feedback of every answer.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.benchmarks.evalearn.judge import (
    JUDGE_VERSION,
    RubricJudge,
    RubricVerdict,
    visible,
)
from studybench.benchmarks.evalearn.prompts import Paradigm, build_messages, draw_examples
from studybench.benchmarks.evalearn.records import (
    EvaLearnProblem,
    EvaLearnRelease,
    RubricLanguage,
)
from studybench.data.records import SlotKey
from studybench.engines.base import Engine, SamplingParams
from studybench.fileio import write_atomic
from studybench.rollout.runner import Progress, ask_turn
from studybench.rollout.store import GenerationStore, TurnRecord, context_hash

SOURCE = "evalearn"
STORE_FILE = "generations.sqlite"


def verdict_file(part_dir: Path, seed: int) -> Path:
    return part_dir / f"verdicts-seed{seed}.jsonl"


def slot_key(paradigm: str, sequence_id: str, question_id: str) -> SlotKey:
    return SlotKey(SOURCE, paradigm, sequence_id, question_id)


def request_seed(seed: int, paradigm: str, sequence_id: str, position: int) -> int:
    digest = hashlib.sha256(f"evalearn|{seed}|{paradigm}|{sequence_id}|{position}".encode())
    return int.from_bytes(digest.digest()[:4], "big") & 0x7FFFFFFF


class StoredVerdict(BaseModel):
    """One judged answer (a line of ``verdicts-seed<N>.jsonl``)."""

    sequence_id: str
    type: str
    position: int  # 1-based
    question_id: str
    seed: int
    correct: bool
    outcome: str
    stage: str
    flagged: bool
    feedback: str
    reply: str
    answer_sha: str
    judge_version: str = JUDGE_VERSION


class PartSummary(BaseModel):
    paradigm: str
    chains: int
    turns: int
    generated: int
    reused: int
    errors: int
    completion_tokens: int


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class SequenceRunner:
    """Generations of one paradigm over a release, stored in ``part_dir``."""

    def __init__(
        self,
        release: EvaLearnRelease,
        paradigm: Paradigm,
        part_dir: Path,
        *,
        run_key: str,
        sampling: SamplingParams,
        seeds: Sequence[int],
        few_shot: int,
        few_shot_seed: int,
        concurrency: int,
        language: RubricLanguage = "zh",
    ) -> None:
        self.release = release
        self.paradigm = paradigm
        self.part_dir = part_dir
        self.run_key = run_key
        self.sampling = sampling
        self.seeds = tuple(seeds)
        self.few_shot = few_shot
        self.few_shot_seed = few_shot_seed
        self.concurrency = concurrency
        self.language = language
        # drawn once per run, as the reference: the same examples for every sequence
        self.examples: dict[str, list[EvaLearnProblem]] = (
            draw_examples(release, few_shot, few_shot_seed) if paradigm == "few_shot" else {}
        )

    async def run(
        self,
        engine: Engine,
        judge: RubricJudge,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> PartSummary:
        store = GenerationStore(self.part_dir / STORE_FILE)
        try:
            return await self._run(store, engine, judge, on_progress)
        finally:
            store.close()

    async def _run(
        self,
        store: GenerationStore,
        engine: Engine,
        judge: RubricJudge,
        on_progress: Callable[[Progress], None] | None,
    ) -> PartSummary:
        reusable = store.latest(self.run_key)
        chains = [(s, seed) for s in self.release.sequences for seed in self.seeds]
        progress = Progress(
            chains_total=len(chains),
            turns_total=sum(len(s.question_ids) for s, _ in chains),
        )
        limit = asyncio.Semaphore(self.concurrency)

        async def run_chain(sequence: Any, seed: int) -> None:
            problems = self.release.problems_of(sequence)
            answers: list[str] = []
            assessments: list[str] = []
            for position, problem in enumerate(problems):
                messages = build_messages(
                    self.paradigm,
                    problems,
                    position,
                    language=self.language,
                    answers=answers,
                    assessments=assessments,
                    examples=self.examples,
                )
                sampling = self.sampling.model_copy(
                    update={
                        "seed": request_seed(seed, self.paradigm, sequence.sequence_id, position),
                        "n": 1,
                    }
                )
                key = slot_key(self.paradigm, sequence.sequence_id, problem.id)
                digest = context_hash(messages, sampling)
                cached = reusable.get((key, seed, 0, position, digest))
                if cached is not None:
                    text = cached.completion
                    progress.turns_reused += 1
                else:
                    record = await ask_turn(
                        engine,
                        store,
                        limit,
                        progress,
                        TurnRecord(
                            run_key=self.run_key,
                            key=key,
                            seed=seed,
                            attempt=0,
                            turn=position,
                            context_hash=digest,
                            status="ok",
                            completion="",
                            request_seed=sampling.seed,
                            messages=[m.model_dump() for m in messages],
                        ),
                        messages,
                        sampling,
                    )
                    text = record.completion
                    if on_progress is not None:
                        on_progress(progress)
                answers.append(visible(text))
                if self.paradigm == "feedback" and position + 1 < len(problems):
                    verdict = await judge.judge(problem, text)
                    assessments.append(verdict.feedback)
            progress.chains_done += 1
            if on_progress is not None:
                on_progress(progress)

        await asyncio.gather(*(run_chain(s, seed) for s, seed in chains))
        return PartSummary(
            paradigm=self.paradigm,
            chains=len(chains),
            turns=progress.turns_total,
            generated=progress.turns_generated,
            reused=progress.turns_reused,
            errors=progress.errors,
            completion_tokens=progress.completion_tokens,
        )


def stored_answers(part_dir: Path, run_key: str) -> dict[tuple[str, str, int, int], TurnRecord]:
    """The newest stored turn per (sequence, question, seed, position), whatever its request
    hash: the answers the judge grades (errors included, as empty answers); none when
    nothing was generated in ``part_dir``."""
    if not (part_dir / STORE_FILE).exists():
        return {}
    store = GenerationStore(part_dir / STORE_FILE)
    try:
        latest: dict[tuple[str, str, int, int], TurnRecord] = {}
        for record in store.records(run_key):
            latest[
                (record.key.source_problem_id, record.key.problem_id, record.seed, record.turn)
            ] = record
        return latest
    finally:
        store.close()


async def judge_seed(
    release: EvaLearnRelease, part_dir: Path, run_key: str, seed: int, judge: RubricJudge
) -> dict[str, Any]:
    """Judge every answer of one seed; writes the seed's verdict file. Answers not generated
    yet are a :class:`ValueError` (judge after generating)."""
    answers = stored_answers(part_dir, run_key)
    jobs: list[tuple[Any, int, EvaLearnProblem, str]] = []
    missing = []
    for sequence in release.sequences:
        for position, problem in enumerate(release.problems_of(sequence)):
            record = answers.get((sequence.sequence_id, problem.id, seed, position))
            if record is None:
                missing.append(f"{sequence.sequence_id}#{position + 1}")
                continue
            jobs.append((sequence, position, problem, record.completion))
    if missing:
        raise ValueError(
            f"{part_dir}: seed {seed}: {len(missing)} answer(s) not generated yet "
            f"({', '.join(missing[:5])}{', ...' if len(missing) > 5 else ''})"
        )
    verdicts: list[RubricVerdict] = list(
        await asyncio.gather(*(judge.judge(problem, text) for _, _, problem, text in jobs))
    )
    rows = [
        StoredVerdict(
            sequence_id=sequence.sequence_id,
            type=sequence.type,
            position=position + 1,
            question_id=problem.id,
            seed=seed,
            correct=verdict.correct,
            outcome=verdict.outcome,
            stage=verdict.stage,
            flagged=verdict.flagged,
            feedback=verdict.feedback,
            reply=verdict.reply,
            answer_sha=_sha(text),
        )
        for (sequence, position, problem, text), verdict in zip(jobs, verdicts, strict=True)
    ]
    write_atomic(
        verdict_file(part_dir, seed),
        "".join(json.dumps(r.model_dump(), ensure_ascii=False) + "\n" for r in rows),
    )
    return {
        "items": len(rows),
        "correct": sum(r.correct for r in rows),
        "rule_correct": sum(r.stage == "rule" for r in rows),
        "llm_calls": judge.calls,
        "cached": sum(v.cached for v in verdicts),
        "flagged": sum(r.flagged for r in rows),
    }


def load_verdicts(part_dir: Path, seed: int) -> list[StoredVerdict]:
    path = verdict_file(part_dir, seed)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise ValueError(f"{path}: not judged yet") from None
    return [StoredVerdict.model_validate_json(line) for line in lines if line.strip()]
