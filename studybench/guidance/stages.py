"""The teacher-driven guidance stages (decompose, verify, guide) over a split's slots.

Every stage works per slot (or per knowledge point / candidate) and asks the teacher through
its reply cache, so a killed stage resumes where it stopped and a re-run makes no teacher
calls. Solo parents are skipped: the release's guidance injection cannot reach them (format
doc, section 10), so guidance for them would never be used.

With structured output the verify stage's quote is one of the fragment's own sentences
(:func:`verbatim_reply`): the teacher can still misjudge coverage, but it cannot invent or
paraphrase its evidence.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from pydantic import Field, create_model

from studybench.data.records import ParentProblem, Slot
from studybench.engines.structured import BYTES_PER_CHAR, honours_format
from studybench.guidance import prompts
from studybench.guidance.canonical import normalise_name
from studybench.guidance.leakage import Gold, LeakHit, check, sanitize
from studybench.guidance.records import (
    Candidate,
    CanonicalPoint,
    DecomposeReply,
    Failure,
    GuideReply,
    Match,
    ReviewReply,
    SlotDecomposition,
    SlotGuidance,
    VerifyReply,
)
from studybench.guidance.teacher import Teacher
from studybench.guidance.textnorm import compact, quote_in_text, sentences

Progress = Callable[[int, int], None]
R = TypeVar("R")
COVERED = 2  # rubric: 2 = applied / worked example, 3 = direct exposition


def guided_slots(parents: Sequence[ParentProblem]) -> list[Slot]:
    """The slots that can receive guidance: every sub-problem of a multi-sub parent."""
    return [slot for parent in parents if not parent.is_solo for slot in parent.slots()]


async def _gather(jobs: Sequence[Awaitable[R]], on_progress: Progress | None) -> list[R]:
    done = 0
    total = len(jobs)

    async def one(job: Awaitable[R]) -> R:
        nonlocal done
        result = await job
        done += 1
        if on_progress is not None:
            on_progress(done, total)
        return result

    return list(await asyncio.gather(*(one(job) for job in jobs)))


# ---------------------------------------------------------------- 1. decompose


async def decompose(
    teacher: Teacher, slots: Sequence[Slot], on_progress: Progress | None = None
) -> list[SlotDecomposition]:
    async def one(slot: Slot) -> SlotDecomposition:
        text = prompts.DECOMPOSE.format(
            stem=slot.stem or "(none)", question=slot.question, solution=slot.solution or "(none)"
        )
        answer = await teacher.ask("decompose", prompts.messages(text), DecomposeReply)
        return SlotDecomposition(
            key=str(slot.key),
            problem_type=slot.problem_type,
            knowledge_points=answer.value.knowledge_points if answer.value else [],
            failure=answer.failure,
        )

    return await _gather([one(slot) for slot in slots], on_progress)


# ---------------------------------------------------------------- 4. verify

MAX_QUOTES = 64  # sentences a constrained quote chooses from


def verbatim_reply(text: str, max_tokens: int) -> type[VerifyReply]:
    """:class:`VerifyReply` whose quote must be one of ``text``'s sentences that prove
    something (``quote_in_text``'s minimum) and fit a quarter of the budget; the plain schema
    when there is none."""
    room = max_tokens // BYTES_PER_CHAR
    quotes = [
        sentence.strip()
        for sentence in sentences(text)
        if len(compact(sentence)) >= 8 and len(sentence.strip().encode()) <= room
    ]
    chosen = tuple(dict.fromkeys(quotes))[:MAX_QUOTES]
    if not chosen:
        return VerifyReply
    quote = Literal[chosen]  # type: ignore[valid-type]
    return create_model("VerbatimVerifyReply", __base__=VerifyReply, quote=(quote, Field(...)))


async def verify_candidates(
    teacher: Teacher,
    points: Sequence[CanonicalPoint],
    candidates: Sequence[Candidate],
    fragment_text: dict[str, str],
    on_progress: Progress | None = None,
) -> list[Match]:
    by_id = {p.kp_id: p for p in points}

    async def one(candidate: Candidate) -> Match:
        point = by_id[candidate.kp_id]
        text = fragment_text[candidate.fragment_id]
        prompt = prompts.VERIFY.format(
            name=point.name,
            type=point.type,
            description=point.description,
            fragment_id=candidate.fragment_id,
            text=text,
        )
        schema = (
            verbatim_reply(text, teacher.max_tokens)
            if honours_format(teacher.engine)
            else VerifyReply
        )
        answer = await teacher.ask("verify", prompts.messages(prompt), schema)
        if answer.value is None:
            return Match(
                kp_id=candidate.kp_id,
                fragment_id=candidate.fragment_id,
                teacher_score=None,
                score=0,
                quote="",
                quote_found=False,
                covered=False,
                failure=answer.failure,
            )
        reply = answer.value
        found = quote_in_text(reply.quote, text)
        score = reply.score if found else 0
        return Match(
            kp_id=candidate.kp_id,
            fragment_id=candidate.fragment_id,
            teacher_score=reply.score,
            score=score,
            quote=reply.quote,
            quote_found=found,
            covered=score >= COVERED,
            reason=reply.reason[:500],
        )

    return await _gather([one(c) for c in candidates], on_progress)


# ---------------------------------------------------------------- 5. guide


@dataclass(frozen=True)
class GuideConfig:
    retries: int = 2  # regenerations after a leaking draft
    tolerance: float = 1e-2
    passages_per_point: int = 2


def alias_index(points: Sequence[CanonicalPoint]) -> dict[str, str]:
    """Normalised name or alias -> canonical id."""
    index: dict[str, str] = {}
    for point in points:
        for name in (point.name, *point.aliases):
            index[normalise_name(name)] = point.kp_id
    return index


def _passages(
    decomposition: SlotDecomposition,
    points: dict[str, CanonicalPoint],
    aliases: dict[str, str],
    matches: dict[str, list[Match]],
    per_point: int,
) -> tuple[list[tuple[str, str, list[tuple[str, str]]]], list[str]]:
    items: list[tuple[str, str, list[tuple[str, str]]]] = []
    covered_names: list[str] = []
    for draft in decomposition.knowledge_points:
        identifier = aliases.get(normalise_name(draft.name))
        if identifier is None:
            continue
        good = sorted(
            (m for m in matches.get(identifier, []) if m.covered),
            key=lambda m: (-m.score, m.fragment_id),
        )[:per_point]
        if not good:
            continue
        point = points[identifier]
        covered_names.append(point.name)
        items.append((point.name, point.description, [(m.fragment_id, m.quote) for m in good]))
    return items, covered_names


def _check(slot: Slot, gold: Gold, text: str, config: GuideConfig) -> list[LeakHit]:
    problem = "\n".join((slot.stem, slot.question))
    return check(text, gold, problem, tolerance=config.tolerance)


async def guide(
    teacher: Teacher | None,
    slots: Sequence[Slot],
    decompositions: dict[str, SlotDecomposition],
    points: Sequence[CanonicalPoint],
    matches: Sequence[Match],
    config: GuideConfig,
    on_progress: Progress | None = None,
) -> list[SlotGuidance]:
    by_id = {p.kp_id: p for p in points}
    aliases = alias_index(points)
    by_point: dict[str, list[Match]] = {}
    for match in matches:
        by_point.setdefault(match.kp_id, []).append(match)

    async def review(
        teacher: Teacher, slot: Slot, text: str
    ) -> tuple[bool | None, str, Failure | None]:
        prompt = prompts.REVIEW.format(question=slot.question, answer=slot.answer, guidance=text)
        answer = await teacher.ask("review", prompts.messages(prompt), ReviewReply)
        if answer.value is None:
            return None, "review reply unusable", answer.failure
        return not answer.value.leak, answer.value.reason[:500], None

    async def one(slot: Slot) -> SlotGuidance:
        key = str(slot.key)
        decomposition = decompositions.get(key)
        passages, covered = (
            _passages(decomposition, by_id, aliases, by_point, config.passages_per_point)
            if decomposition
            else ([], [])
        )
        if not passages:
            return SlotGuidance(
                key=key,
                guidance="",
                path="no_coverage",
                guidance_check=_check_record(False, False, [], 0, [], [], "no_coverage"),
            )
        if teacher is None:
            raise ValueError(f"slot {key} has verified passages but no teacher was given")
        gold = Gold.of(slot.answer, slot.answer_type, slot.type_sequence)
        history: list[dict[str, Any]] = []
        feedback = ""
        last_text = ""
        last_used: list[str] = covered
        last_failure: Failure | None = None
        for attempt in range(config.retries + 1):
            prompt = prompts.GUIDE.format(
                feedback=feedback,
                stem=slot.stem or "(none)",
                question=slot.question,
                solution=slot.solution or "(none)",
                answer=slot.answer,
                passages=prompts.passages_text(passages),
            )
            answer = await teacher.ask(f"guide-{attempt}", prompts.messages(prompt), GuideReply)
            if answer.value is None:
                last_failure = answer.failure
                history.append(
                    {
                        "stage": f"draft_{attempt + 1}",
                        "rule_hits": [],
                        "llm_pass": None,
                        "llm_reason": "no usable draft",
                    }
                )
                continue
            text = answer.value.guidance.strip()
            last_text = text
            last_used = [n for n in answer.value.kp_used if n.strip()] or covered
            hits = await asyncio.to_thread(_check, slot, gold, text, config)
            llm_pass: bool | None = None
            reason = "rule hits"
            if not hits:
                llm_pass, reason, review_failure = await review(teacher, slot, text)
                last_failure = review_failure or last_failure
            history.append(
                {
                    "stage": f"draft_{attempt + 1}",
                    "rule_hits": [h.describe() for h in hits],
                    "llm_pass": llm_pass,
                    "llm_reason": reason,
                }
            )
            if not hits and llm_pass:
                path = "passed" if attempt == 0 else "regenerated"
                return SlotGuidance(
                    key=key,
                    guidance=text,
                    path=path,
                    guidance_check=_check_record(
                        True, False, [], attempt + 1, last_used, history, path
                    ),
                )
            reasons = ", ".join(h.rule for h in hits) or f"reviewer: {reason}"
            feedback = prompts.FEEDBACK.format(reasons=reasons)
        attempts = config.retries + 1
        if not last_text:
            return SlotGuidance(
                key=key,
                guidance="",
                path="failed",
                guidance_check=_check_record(False, False, [], attempts, [], history, "failed"),
                failure=last_failure,
            )
        last_hits = await asyncio.to_thread(_check, slot, gold, last_text, config)
        cleaned = sanitize(last_text, last_hits)
        residual = await asyncio.to_thread(_check, slot, gold, cleaned, config) if cleaned else []
        history.append(
            {
                "stage": "rule_sanitize",
                "rule_hits": [h.describe() for h in residual],
                "llm_pass": None,
                "llm_reason": "fallback",
            }
        )
        if not cleaned or residual:
            return SlotGuidance(
                key=key,
                guidance="",
                path="failed",
                guidance_check=_check_record(
                    False, True, [h.describe() for h in residual], attempts, [], history, "failed"
                ),
                failure=last_failure,
            )
        return SlotGuidance(
            key=key,
            guidance=cleaned,
            path="sanitized",
            guidance_check=_check_record(
                False, True, [], attempts, last_used, history, "sanitized"
            ),
        )

    return await _gather([one(slot) for slot in slots], on_progress)


def _check_record(
    passed: bool,
    sanitized: bool,
    residual: list[str],
    attempts: int,
    kp_used: list[str],
    history: list[dict[str, Any]],
    path: str,
) -> dict[str, object]:
    """``guidance_check`` as in the release schema, plus ``path`` (which way it went)."""
    return {
        "pass": passed,
        "fallback_sanitized": sanitized,
        "residual_leak": residual,
        "attempts": attempts,
        "kp_used": kp_used,
        "history": history,
        "path": path,
    }
