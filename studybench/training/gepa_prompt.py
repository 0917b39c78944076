"""A GEPA-evolved system prompt (the ``gepa`` package), written as the JSONL history that the
runner's ``--gepa`` option reads (format doc, section 11).

GEPA evolves one text component, ``system_prompt``: the task model answers the
Instructions-with-Answer items (the benchmark's own user turns; multi-turn items with their
gold prefixes) with the candidate as system message; the rule verifier scores each answer
(the metric, never an LLM judge); the reflector reads the failures, each with the verifier's
reason and the reference answer, and proposes a new prompt.

History rows (one per GEPA iteration, after the seed's row 0): ``system_prompt`` (the best
prompt by development-set score at that point), ``iteration``, ``rollouts`` (task-model
evaluations so far: GEPA's metric calls), ``score``, ``best_idx``, ``time_iso``, and the LLM
budget so far (``llm_calls``, ``prompt_tokens``, ``completion_tokens``, split by task and
reflector). ``--gepa-iteration N`` / ``--gepa-rollouts N`` pick the prompt GEPA had at that
budget, which is what a score-against-compute curve needs. GEPA's own state goes to
``<history>.gepa/`` so an interrupted run resumes there. Where the reflector's endpoint
honours structured output, its reply is constrained to the one fenced block GEPA reads the
new prompt from (:func:`instruction_format`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.engines.structured import OutputFormat, free_text, literal, text_budget
from studybench.fileio import write_atomic
from studybench.training.items import TrainItem
from studybench.training.llm import MeteredChat

COMPONENT = "system_prompt"


def instruction_format(max_tokens: int) -> OutputFormat:
    """GEPA's reflection reply: the new instruction alone in one fenced block (no backtick
    inside, so the block ends where GEPA looks for its end; not blank), within budget."""
    fence = "```\n"
    chars = text_budget(max_tokens, fence * 2)
    body = free_text(chars, "`", min_chars=1)
    return OutputFormat(regex=f"{literal(fence)}{body}{literal(chr(10) + '```')}")


class Rollout(BaseModel):
    item_id: str
    question: str
    reply: str
    gold: str
    correct: bool
    reason: str


class VerifierAdapter:
    """GEPA adapter: the task model with a candidate system prompt, scored by the verifier."""

    propose_new_texts = None  # GEPA's own reflective proposer (with our reflector) proposes

    def __init__(self, task: MeteredChat, verifier: Any) -> None:
        self.task = task
        self.verifier = verifier

    def evaluate(
        self, batch: list[TrainItem], candidate: dict[str, str], capture_traces: bool = False
    ) -> Any:
        from gepa.core.adapter import EvaluationBatch

        rollouts = []
        for item in batch:
            messages = [{"role": "system", "content": candidate[COMPONENT]}]
            messages += [m for m in item.prompt if m["role"] != "system"]
            reply = self.task.chat(messages)
            verdict = self.verifier.verify(reply, item.answer, item.answer_type, item.type_sequence)
            rollouts.append(
                Rollout(
                    item_id=item.item_id,
                    question=item.prompt[-1]["content"],
                    reply=reply,
                    gold=item.answer,
                    correct=verdict.correct,
                    reason=verdict.reason,
                )
            )
        return EvaluationBatch(
            outputs=[r.reply for r in rollouts],
            scores=[1.0 if r.correct else 0.0 for r in rollouts],
            trajectories=rollouts if capture_traces else None,
        )

    def make_reflective_dataset(
        self, candidate: dict[str, str], eval_batch: Any, components_to_update: list[str]
    ) -> Mapping[str, Sequence[Mapping[str, Any]]]:
        records = []
        for rollout in eval_batch.trajectories or []:
            feedback = (
                "Correct: the verifier accepted the final answer."
                if rollout.correct
                else f"Incorrect ({rollout.reason}): the reference final answer is "
                f"{rollout.gold}. The answer must end with `Final Answer: \\boxed{{...}}`."
            )
            records.append(
                {
                    "Inputs": rollout.question,
                    "Generated Outputs": rollout.reply,
                    "Feedback": feedback,
                }
            )
        return {name: records for name in components_to_update}


class HistoryWriter:
    """GEPA callback: one history row per iteration (and the seed's), appended and flushed."""

    def __init__(self, path: Path, task: MeteredChat, reflector: MeteredChat) -> None:
        self.path = path
        self.task = task
        self.reflector = reflector
        self.rows: list[dict[str, Any]] = []

    def _row(self, iteration: int, state: Any) -> dict[str, Any]:
        scores = list(state.program_full_scores_val_set)
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))
        task, reflector = self.task.budget(), self.reflector.budget()
        total = task.plus(reflector)
        return {
            "system_prompt": state.program_candidates[best][COMPONENT],
            "iteration": iteration,
            "rollouts": int(state.total_num_evals),
            "score": scores[best],
            "best_idx": best,
            "candidates": len(scores),
            "time_iso": datetime.now(UTC).isoformat(timespec="seconds"),
            "llm_calls": total.llm_calls,
            "prompt_tokens": total.prompt_tokens,
            "completion_tokens": total.completion_tokens,
            "task_llm_calls": task.llm_calls,
            "reflector_llm_calls": reflector.llm_calls,
        }

    def _append(self, row: dict[str, Any]) -> None:
        self.rows.append(row)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")

    def on_iteration_start(self, event: Mapping[str, Any]) -> None:
        if not self.rows and event["iteration"] <= 1:
            self._append(self._row(0, event["state"]))  # the seed, evaluated on the dev set

    def on_iteration_end(self, event: Mapping[str, Any]) -> None:
        self._append(self._row(int(event["iteration"]), event["state"]))


class GEPAResult(BaseModel):
    history: str
    iterations: int
    best_score: float
    seed_score: float
    llm_calls: int
    tokens: int


def run_gepa(
    items: Sequence[TrainItem],
    seed_prompt: str,
    history: Path,
    *,
    task: MeteredChat,
    reflector: MeteredChat,
    verifier: Any,
    max_metric_calls: int,
    minibatch_size: int,
    seed: int = 0,
) -> GEPAResult:
    """Optimise the system prompt; write ``history`` (JSONL) and ``<history>.compute.json``."""
    from gepa.api import optimize

    history.parent.mkdir(parents=True, exist_ok=True)
    state_dir = history.with_name(history.name + ".gepa")
    writer = HistoryWriter(history, task, reflector)
    if state_dir.exists() and history.exists():  # resuming: GEPA continues from its state
        writer.rows = [json.loads(line) for line in history.read_text().splitlines() if line]
    elif history.exists():
        history.unlink()  # a fresh run starts a fresh history
    started = time.monotonic()

    def reflect(prompt: str | list[dict[str, Any]]) -> str:
        messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else prompt
        form = instruction_format(reflector.max_tokens())  # sent where the endpoint honours it
        return reflector.chat(messages, output_format=form)

    result: Any = optimize(
        seed_candidate={COMPONENT: seed_prompt},
        trainset=list(items),
        valset=list(items),
        adapter=VerifierAdapter(task, verifier),  # type: ignore[arg-type]
        reflection_lm=reflect,
        reflection_minibatch_size=min(minibatch_size, len(items)),
        max_metric_calls=max_metric_calls,
        run_dir=str(state_dir),
        callbacks=[writer],  # type: ignore[list-item]
        seed=seed,
        display_progress_bar=True,
        raise_on_exception=True,
    )
    scores = list(result.val_aggregate_scores)
    total = task.budget().plus(reflector.budget())
    if not writer.rows or writer.rows[-1]["best_idx"] != result.best_idx:
        writer._append(  # the final state, when the last iteration added no row
            {
                **(writer.rows[-1] if writer.rows else {}),
                "system_prompt": result.best_candidate[COMPONENT],
                "iteration": len(writer.rows),
                "rollouts": int(result.total_metric_calls or 0),
                "score": scores[result.best_idx],
                "best_idx": result.best_idx,
                "time_iso": datetime.now(UTC).isoformat(timespec="seconds"),
                "llm_calls": total.llm_calls,
                "prompt_tokens": total.prompt_tokens,
                "completion_tokens": total.completion_tokens,
            }
        )
    summary = GEPAResult(
        history=str(history),
        iterations=max(r["iteration"] for r in writer.rows),
        best_score=scores[result.best_idx],
        seed_score=scores[0],
        llm_calls=total.llm_calls,
        tokens=total.tokens,
    )
    write_atomic(
        history.with_name(history.name + ".compute.json"),
        json.dumps(
            {
                "method": "gepa",
                "task_model": task.endpoint.model,
                "reflector_model": reflector.endpoint.model,
                "rollouts": int(result.total_metric_calls or 0),
                "wall_s": round(time.monotonic() - started, 3),
                "task": task.budget().model_dump(),
                "reflector": reflector.budget().model_dump(),
                **summary.model_dump(),
            },
            indent=1,
        )
        + "\n",
    )
    return summary


def history_curve(history: Path) -> list[Any]:
    """A GEPA history as a compute curve for the Compute Plateau: dev-set score against
    task rollouts spent, one point per iteration (``studybench train plateau --history``)."""
    from studybench.errors import DataError
    from studybench.metrics.plateau import CurvePoint

    points = []
    lines = history.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            points.append(
                CurvePoint(compute=row["rollouts"], mean=row["score"], step=row["iteration"])
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise DataError(f"{history}: line {number}: not a GEPA history row: {exc}") from None
    return points
