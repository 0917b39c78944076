"""Judging a run folder: rule verifier, then the LLM judge for what it rejected.

Reads ``RUN/generations.json`` (the reference harness's layout, so reference outputs can be
judged too) and keeps one verdict per (slot, seed, attempt) in ``RUN/verdicts.sqlite``. A
stored verdict is reused when its completion, verifier version and judge version are
unchanged and it is not flagged; flagged verdicts (judge reply unparseable, judge call failed)
count as incorrect and are judged again on the next run. Final verdict: rule correct ->
correct (stage ``rule``); rule incorrect -> the judge decides (stage ``judge``); judge off ->
rule verdicts only (stage ``rule_only``).

Verdicts are committed as they are produced: the rule verdicts that need no judge call at
once, every judge verdict as its reply arrives. A crash or SIGKILL mid-run loses at most the
judge calls in flight; the next run judges only what is missing (and the reply cache answers
what had been asked already). Judge replies are scrubbed of secrets before they are stored.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.data.records import SlotKey
from studybench.errors import DataError
from studybench.judge.llm import LLMJudge
from studybench.judge.prompt import JUDGE_VERSION, build_prompt
from studybench.secrets import scrub_optional
from studybench.verify import VERIFIER_VERSION, Verifier
from studybench.verify.extract import strip_think


class JudgeItem(BaseModel):
    """One completion to judge, with the gold and context it is judged against."""

    parent: str  # "source/year/source_problem_id"
    slot: str  # problem_id
    seed: int
    attempt: int
    turn: int
    source: str
    problem_type: str
    answer_type: str
    type_sequence: str
    stem: str
    question: str
    solution: str
    answer: str
    completion: str

    @property
    def completion_hash(self) -> str:
        return hashlib.sha256(self.completion.encode()).hexdigest()[:16]


class SlotVerdict(BaseModel):
    parent: str
    slot: str
    seed: int
    attempt: int
    turn: int
    completion_hash: str
    rule_correct: bool
    rule_reason: str
    extracted: list[str]
    judge_verdict: str | None = None
    judge_reply: str | None = None
    final_correct: bool
    stage: str  # rule | judge | rule_only
    flagged: bool = False
    rule_ms: float = 0.0
    judge_ms: float = 0.0
    verifier_version: str = VERIFIER_VERSION
    judge_version: str | None = None
    judge_model: str | None = None


class JudgeSummary(BaseModel):
    items: int
    reused: int
    rule_judged: int
    llm_calls: int
    llm_cached: int
    flagged: int
    wall_s: float


def load_items(run_dir: Path) -> list[JudgeItem]:
    """The completions of ``RUN/generations.json``."""
    path = run_dir / "generations.json"
    try:
        parents = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{path}: no generations (run studybench generate first)") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
    items: list[JudgeItem] = []
    for index, parent in enumerate(parents):
        key = SlotKey(
            str(parent.get("source", "")),
            str(parent.get("year", "")),
            str(parent.get("source_problem_id", "")),
            "",
        )
        parent_id = f"{key.source}/{key.year or '-'}/{key.source_problem_id}"
        multi = bool(parent.get("sub_problems") or parent.get("problems"))
        per_seed: dict[int, int] = {}
        for attempt in parent.get("attempts", []):
            seed = int(attempt.get("seed", 0))
            number = per_seed.get(seed, 0) if "seed" in attempt else int(attempt["attempt_id"])
            per_seed[seed] = per_seed.get(seed, 0) + 1
            for turn, slot in enumerate(attempt.get("completions", [])):
                try:
                    items.append(
                        JudgeItem(
                            parent=parent_id,
                            slot=str(slot.get("problem_id", key.source_problem_id)),
                            seed=seed,
                            attempt=number,
                            turn=turn,
                            source=key.source,
                            problem_type=str(parent.get("problem_type", "")),
                            answer_type=str(slot.get("answer_type", "")),
                            type_sequence=str(slot.get("type_sequence", "")),
                            stem=str(parent.get("problem", "")) if multi else "",
                            question=str(slot.get("problem", "")),
                            solution=str(slot.get("solution", "")),
                            answer=str(slot.get("answer", "")),
                            completion=str(slot.get("completion", "")),
                        )
                    )
                except ValueError as exc:
                    raise DataError(f"{path}: parent {index}, turn {turn}: {exc}") from None
    return items


class VerdictStore:
    """``RUN/verdicts.sqlite``: the current verdict of every (slot, seed, attempt)."""

    def __init__(self, path: Path) -> None:
        # Judge tasks of one run (one per seed) may write at the same time: wait for the lock.
        self._db = sqlite3.connect(path, isolation_level=None, timeout=60)
        self._db.execute("PRAGMA busy_timeout=60000")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS verdicts (parent TEXT, slot TEXT, seed INTEGER, "
            "attempt INTEGER, body TEXT NOT NULL, PRIMARY KEY (parent, slot, seed, attempt))"
        )

    def all(self) -> dict[tuple[str, str, int, int], SlotVerdict]:
        rows = self._db.execute("SELECT body FROM verdicts").fetchall()
        verdicts = (SlotVerdict.model_validate_json(body) for (body,) in rows)
        return {(v.parent, v.slot, v.seed, v.attempt): v for v in verdicts}

    def put_many(self, verdicts: list[SlotVerdict]) -> None:
        """Commit ``verdicts`` in one transaction (judge replies scrubbed of secrets)."""
        if not verdicts:
            return
        rows = []
        for v in verdicts:
            body = v.model_copy(update={"judge_reply": scrub_optional(v.judge_reply)})
            rows.append((v.parent, v.slot, v.seed, v.attempt, body.model_dump_json()))
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany("INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?, ?, ?)", rows)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def put(self, verdict: SlotVerdict) -> None:
        self.put_many([verdict])

    def close(self) -> None:
        self._db.close()


def verifier_version(verifier: object) -> str:
    """The version of the rules ``verifier`` applies (a plug-in names its own)."""
    return str(getattr(verifier, "version", VERIFIER_VERSION))


def _current(
    stored: SlotVerdict | None,
    item: JudgeItem,
    judge_model: str | None,
    rule_only: bool,
    rules_version: str = VERIFIER_VERSION,
) -> bool:
    if stored is None or stored.flagged:
        return False
    if stored.completion_hash != item.completion_hash:
        return False
    if stored.verifier_version != rules_version:
        return False
    if stored.stage == "judge" and (
        stored.judge_version != JUDGE_VERSION or stored.judge_model != judge_model
    ):
        return False
    # a rule-only verdict is upgraded once a judge is available
    return not (stored.stage == "rule_only" and not rule_only)


def judge_run(
    run_dir: Path,
    verifier: Verifier,
    judge: LLMJudge | None,
    *,
    rejudge_errors_only: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
    seeds: Collection[int] | None = None,
) -> JudgeSummary:
    """Bring every verdict of the run (or of ``seeds`` only) up to date; idempotent."""
    start = time.monotonic()
    items = [i for i in load_items(run_dir) if seeds is None or i.seed in seeds]
    store = VerdictStore(run_dir / "verdicts.sqlite")
    try:
        stored = store.all()
        judge_model = judge.model if judge else None
        rules_version = verifier_version(verifier)

        def wanted(item: JudgeItem) -> bool:
            current = stored.get((item.parent, item.slot, item.seed, item.attempt))
            if rejudge_errors_only:
                return current is not None and current.flagged
            return not _current(current, item, judge_model, judge is None, rules_version)

        todo = [item for item in items if wanted(item)]
        rules = verifier.verify_many(
            [
                {
                    "pred": item.completion,
                    "gold": item.answer,
                    "answer_type": item.answer_type,
                    "type_sequence": item.type_sequence,
                    # names the unit of a unitless gold ("in days"); the sub's text first
                    "question": "\n\n".join(p for p in (item.question, item.stem) if p.strip()),
                }
                for item in todo
            ]
        )
        verdicts: list[SlotVerdict] = []
        to_llm: list[tuple[int, str]] = []
        for item, rule in zip(todo, rules, strict=True):
            verdicts.append(
                SlotVerdict(
                    parent=item.parent,
                    slot=item.slot,
                    seed=item.seed,
                    attempt=item.attempt,
                    turn=item.turn,
                    completion_hash=item.completion_hash,
                    rule_correct=rule.correct,
                    rule_reason=rule.reason,
                    extracted=list(rule.extracted),
                    final_correct=rule.correct,
                    stage="rule" if rule.correct or judge else "rule_only",
                    rule_ms=rule.elapsed_ms,
                    verifier_version=rules_version,
                )
            )
            # an unterminated <think> means no answer: nothing for the LLM judge to rescue
            if not rule.correct and judge is not None and rule.reason != "think_unterminated":
                problem = "\n\n".join(p for p in (item.stem.strip(), item.question.strip()) if p)
                prompt = build_prompt(
                    problem=problem,
                    solution=item.solution,
                    reference=item.answer,
                    student=strip_think(item.completion)[0],
                    extracted=rule.extracted,
                )
                to_llm.append((len(verdicts) - 1, prompt))
        waiting = {index for index, _ in to_llm}
        store.put_many([v for i, v in enumerate(verdicts) if i not in waiting])
        cached = 0
        if judge is not None and to_llm:
            done = 0

            async def one(index: int, prompt: str) -> None:
                nonlocal done, cached
                result = await judge.judge(prompt)
                cached += result.cached
                verdict = verdicts[index]
                verdict.stage = "judge"
                verdict.judge_verdict = result.verdict
                verdict.judge_reply = result.reply
                verdict.judge_ms = result.latency_ms
                verdict.judge_version = JUDGE_VERSION
                verdict.judge_model = judge.model
                verdict.final_correct = result.verdict == "true"
                verdict.flagged = result.verdict in ("unparseable", "judge_error")
                store.put(verdict)
                done += 1
                if on_progress is not None:
                    on_progress(done, len(to_llm))

            async def run_all() -> None:
                try:
                    await asyncio.gather(*(one(i, p) for i, p in to_llm))
                finally:
                    await judge.engine.aclose()

            asyncio.run(run_all())
        return JudgeSummary(
            items=len(items),
            reused=len(items) - len(todo),
            rule_judged=len(todo),
            llm_calls=len(to_llm) - cached,
            llm_cached=cached,
            flagged=sum(v.flagged for v in verdicts),
            wall_s=time.monotonic() - start,
        )
    finally:
        store.close()


def iter_verdicts(run_dir: Path) -> Iterator[SlotVerdict]:
    store = VerdictStore(run_dir / "verdicts.sqlite")
    try:
        yield from store.all().values()
    finally:
        store.close()


def manifest(run_dir: Path) -> dict[str, Any]:
    try:
        loaded: dict[str, Any] = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
    return loaded
