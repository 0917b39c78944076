"""The teacher model: JSON replies validated with pydantic, retried, cached.

Every stage talks to the teacher through :meth:`Teacher.ask`: the reply's JSON object (a
fenced block or the first balanced ``{...}``, after any ``<think>`` block) is validated
against the stage's schema; an invalid reply is asked again with another sampling seed (and
at least temperature 0.7, since a greedy teacher would repeat itself), up to
``json_retries`` times, and then recorded as a :class:`~studybench.guidance.records.Failure`
with every raw reply, so the run goes on and the failure is auditable.

Replies are cached in the platform's one LLM reply cache (:mod:`studybench.judge.cache`)
keyed by (model, messages, sampling, attempt), so a re-run of
any stage replays every decision without a single teacher call, including the decision to
give up on noise. Engine errors (after the engine's own retries) are not cached: they are
infrastructure, and the next run asks again.

Where the teacher's endpoint honours structured output (``guidance.teacher.structured_output``)
every reply is constrained to one JSON object of the stage's schema
(:func:`studybench.engines.structured.json_regex`, its bounds scaled to ``max_tokens``), so
even a babbling model answers in the schema; the constraint is part of the cache key, so
turning it on never replays a free reply.

With an empty ``guidance.teacher.base_url`` the teacher is an in-process transformers model
(``guidance.teacher.model_path``; empty = the tiny offline demo model, built on first use):
the pipeline then runs offline end to end, and its noise is retried and recorded.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from studybench.engines.base import Engine, EngineError, Message, SamplingParams
from studybench.engines.structured import OutputFormat, honours_format, json_regex
from studybench.guidance.records import Failure
from studybench.judge.cache import ReplyCache
from studybench.verify.extract import strip_think

__all__ = ["Answer", "ReplyCache", "Teacher", "extract_json", "open_teacher"]

if TYPE_CHECKING:
    from studybench.config import Settings

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.DOTALL)


def extract_json(text: str) -> object:
    """The JSON object in a reply; raises ``ValueError`` with a short reason (also when the
    reply's thinking never finished: an unterminated ``<think>`` means no answer)."""
    visible, unterminated = strip_think(text)
    if unterminated:
        raise ValueError("unterminated <think>: the reply has no answer")
    visible = visible.strip()
    fenced = _FENCE.search(visible)
    candidates = [fenced.group(1)] if fenced else []
    start = visible.find("{")
    while start != -1:
        depth, in_string, escaped = 0, False, False
        for index in range(start, len(visible)):
            char = visible[index]
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    candidates.append(visible[start : index + 1])
                    break
        start = visible.find("{", start + 1) if not candidates else -1
    if not candidates:
        raise ValueError("no JSON object in the reply")
    try:
        return json.loads(candidates[0])
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {exc.msg} at char {exc.pos}") from None


@dataclass
class Answer(Generic[T]):
    """A validated reply, or the failure after every attempt."""

    value: T | None
    failure: Failure | None
    attempts: int
    calls: int  # teacher calls made (cache misses)


@dataclass
class Teacher:
    """A chat engine used as teacher: JSON in the stage's schema, retried and cached."""

    engine: Engine
    model: str
    cache: ReplyCache
    temperature: float = 0.0
    max_tokens: int = 1024
    json_retries: int = 2
    calls: int = 0
    cached: int = 0
    failures: int = 0

    def _key(self, stage: str, messages: Sequence[Message], sampling: SamplingParams) -> str:
        payload = {
            "model": self.model,
            "stage": stage,
            "messages": [m.model_dump() for m in messages],
            "sampling": sampling.model_dump(),
        }
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()

    async def reply(
        self,
        stage: str,
        messages: Sequence[Message],
        attempt: int,
        output_format: OutputFormat | None = None,
    ) -> str:
        """One raw reply (cached); attempt ``n`` samples with its own seed."""
        sampling = SamplingParams(
            temperature=self.temperature if attempt == 0 else max(self.temperature, 0.7),
            top_p=1.0,
            max_tokens=self.max_tokens,
            seed=attempt,
            thinking=False,
            output_format=output_format,
        )
        key = self._key(stage, messages, sampling)
        hit = self.cache.get(key)
        if hit is not None:
            self.cached += 1
            return hit.reply
        (completion,) = (await self.engine.complete(messages, sampling))[:1]
        self.calls += 1
        return self.cache.put(key, stage, completion.text)

    async def ask(self, stage: str, messages: Sequence[Message], schema: type[T]) -> Answer[T]:
        """The reply validated against ``schema``; retried, then a recorded failure."""
        replies: list[str] = []
        errors: list[str] = []
        calls_before = self.calls
        output = json_regex(schema, self.max_tokens) if honours_format(self.engine) else None
        for attempt in range(self.json_retries + 1):
            try:
                text = await self.reply(stage, messages, attempt, output)
            except EngineError as exc:
                errors.append(f"engine error: {exc}")
                break
            replies.append(text)
            try:
                return Answer(
                    schema.model_validate(extract_json(text)),
                    None,
                    attempt + 1,
                    self.calls - calls_before,
                )
            except ValueError as exc:  # ValidationError is a ValueError
                errors.append(_short_error(exc))
        self.failures += 1
        failure = Failure(
            stage=stage,
            attempts=len(replies),
            error="; ".join(errors)[:2000],
            replies=[r[:2000] for r in replies],
        )
        return Answer(None, failure, len(replies), self.calls - calls_before)

    async def aclose(self) -> None:
        await self.engine.aclose()


def _short_error(exc: ValueError) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(reply)"
        return f"schema: {where}: {first['msg']}"
    return str(exc)


def demo_teacher_path(settings: Settings) -> Path:
    """The offline teacher: the tiny demo model, built once under the cache folder."""
    from studybench.engines.demo_model import build_demo_model

    path = settings.paths.cache_dir / "guidance" / "demo-teacher"
    if not (path / "config.json").exists():
        build_demo_model(path, settings.release.root)
    return path


def open_teacher(settings: Settings) -> Teacher:
    """The teacher of ``settings.guidance.teacher``: an endpoint, or the in-process model."""
    ts = settings.guidance.teacher
    engine: Engine
    if ts.base_url:
        from studybench.engines.openai_compat import OpenAICompatEngine

        engine = OpenAICompatEngine(
            ts.base_url,
            ts.model,
            api_key=os.environ.get(ts.api_key_env),
            concurrency=ts.concurrency,
            max_retries=ts.max_retries,
            timeout_s=ts.request_timeout_s,
            structured_output=ts.structured_output,
        )
        model = ts.model
    else:
        from studybench.engines.local_hf import LocalHFEngine

        path = Path(ts.model_path) if ts.model_path else demo_teacher_path(settings)
        engine = LocalHFEngine(path, threads=settings.engine.hf_threads)
        model = f"hf:{path.resolve()}"
    return Teacher(
        engine=engine,
        model=model,
        cache=ReplyCache(settings.paths.cache_dir / "guidance" / "teacher_replies.sqlite"),
        temperature=ts.temperature,
        max_tokens=ts.max_tokens if ts.base_url else min(ts.max_tokens, ts.local_max_tokens),
        json_retries=ts.json_retries,
    )
