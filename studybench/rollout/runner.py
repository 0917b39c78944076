"""The concurrent rollout runner: every (parent, seed, attempt) chain at once.

A chain is one attempt at a parent: its sub-problems are asked in order, each turn seeing the
model's own earlier answers (so turns within a chain are sequential by nature). Chains are
independent, so all of them run concurrently and a global limit keeps the engine's batch
full; the reference harness ran attempts and sub-problems of a parent one after another.

Seeds are real sampling seeds: request (seed s, attempt a, slot, turn) carries a seed derived
from all four, so samples are reproducible under any scheduling and seeds are independent
runs, not consecutive blocks of one run. A request that still fails after the engine's retries
is stored as an error; its chain continues with the protocol's placeholder and the failure is
counted. A later run regenerates that turn and, because their conversation changes, the turns
after it (see :mod:`studybench.rollout.store`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, model_validator

from studybench.data.records import ParentProblem, Slot, SlotKey
from studybench.engines.base import Engine, EngineError, Message, SamplingParams
from studybench.errors import StudyBenchError
from studybench.fileio import write_atomic
from studybench.rollout.artefacts import MethodArtefacts
from studybench.rollout.conversation import build_messages
from studybench.rollout.prompts import Language, PromptTexts
from studybench.rollout.store import GenerationStore, TurnRecord, context_hash
from studybench.secrets import scrub_secrets

MAX_ERROR_CHARS = 2000


class RolloutConfig(BaseModel):
    """Everything that decides what is asked and how it is sampled; ``prompts`` are the
    benchmark's texts (the runner has none of its own)."""

    model: str
    prompts: PromptTexts
    k: int = 8
    seeds: tuple[int, ...] = (0, 1, 2)
    sampling: SamplingParams = SamplingParams()
    language: Language = "EN"
    concurrency: int = 256

    @model_validator(mode="after")
    def _texts_for_the_language(self) -> RolloutConfig:
        missing = self.prompts.missing(self.language)
        if missing:
            raise ValueError(f"prompt texts have no {self.language} {', '.join(missing)}")
        return self

    def protocol_hash(self, artefacts: MethodArtefacts) -> str:
        """Prompts, sampling, k, seeds and artefacts, hashed: results of different protocols
        never mix."""
        payload = {
            "k": self.k,
            "seeds": list(self.seeds),
            "sampling": self.sampling.model_dump(exclude={"seed"}),
            "language": self.language,
            "prompts": self.prompts.hashed(self.language),
            "artefacts": artefacts.fingerprint(),
        }
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def run_key(self, artefacts: MethodArtefacts) -> str:
        return f"{self.model}@{self.protocol_hash(artefacts)}"


def request_seed(seed: int, attempt: int, key: SlotKey, turn: int) -> int:
    digest = hashlib.sha256(f"{seed}|{attempt}|{key}|{turn}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


@dataclass
class Progress:
    chains_total: int = 0
    chains_done: int = 0
    turns_total: int = 0
    turns_generated: int = 0
    turns_reused: int = 0
    errors: int = 0
    completion_tokens: int = 0
    started: float = field(default_factory=time.monotonic)
    error_kinds: dict[str, int] = field(default_factory=dict)

    def count_error(self, text: str) -> None:
        """Count one failed turn under its cause (the error class an engine error names)."""
        self.errors += 1
        kind = text.split(" after ", 1)[0].split(":", 1)[0].strip()[:80] or "error"
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1

    @property
    def tokens_per_s(self) -> float:
        return self.completion_tokens / max(time.monotonic() - self.started, 1e-9)


class RolloutSummary(BaseModel):
    run_key: str
    chains: int
    turns: int
    generated: int
    reused: int
    errors: int
    completion_tokens: int
    wall_s: float
    error_kinds: dict[str, int] = {}


class TooManyFailedTurnsError(StudyBenchError):
    """The share of turns that failed after every retry passed the configured limit."""


def check_failed_turns(summary: RolloutSummary, max_share: float, *, what: str = "") -> None:
    """Raise :class:`TooManyFailedTurnsError` when more than ``max_share`` of the turns asked
    in this run failed, naming the count, the share and the causes.

    Failed turns are stored and asked again by the next run, so a few are a normal outage;
    a run where most failed (a wrong key, a dead endpoint) must not look like a success.
    """
    asked = summary.generated
    if asked == 0 or summary.errors == 0:
        return
    share = summary.errors / asked
    if share <= max_share:
        return
    causes = ", ".join(
        f"{kind} x{count}"
        for kind, count in sorted(summary.error_kinds.items(), key=lambda kv: -kv[1])
    )
    prefix = f"{what}: " if what else ""
    raise TooManyFailedTurnsError(
        f"{prefix}{summary.errors} of {asked} turn(s) failed ({share:.0%}, limit "
        f"{max_share:.0%}); causes: {causes or 'unknown'}; the failed turns are stored and "
        "asked again by the next run"
    )


async def ask_turn(
    engine: Engine,
    store: GenerationStore,
    limit: asyncio.Semaphore,
    progress: Progress,
    record: TurnRecord,
    messages: Sequence[Message],
    sampling: SamplingParams,
) -> TurnRecord:
    """Send one request (within ``limit``), fill ``record`` with the completion or the
    failure after the engine's retries, store it at once and count it in ``progress``.
    Shared by every runner that keeps turns in a generation store."""
    try:
        async with limit:
            (completion,) = (await engine.complete(messages, sampling))[:1]
        record.completion = completion.text
        record.finish_reason = completion.finish_reason
        record.prompt_tokens = completion.prompt_tokens
        record.completion_tokens = completion.completion_tokens
        progress.completion_tokens += completion.completion_tokens
    except EngineError as exc:
        record.status, record.error = "error", scrub_secrets(str(exc))[:MAX_ERROR_CHARS]
        progress.count_error(record.error)
    store.append(record)
    progress.turns_generated += 1
    return record


@dataclass(frozen=True)
class Chain:
    parent: ParentProblem
    slots: tuple[Slot, ...]
    seed: int
    attempt: int


class Rollout:
    """Generations for a set of parents under one protocol, stored in ``run_dir``."""

    def __init__(
        self,
        parents: Sequence[ParentProblem],
        config: RolloutConfig,
        artefacts: MethodArtefacts,
        run_dir: Path,
        *,
        split: str = "",
    ) -> None:
        self.split = split
        self.parents = list(parents)
        self.config = config
        self.artefacts = artefacts
        self.run_dir = run_dir
        self.run_key = config.run_key(artefacts)
        self.store = GenerationStore(run_dir / "generations.sqlite")
        self.chains = [
            Chain(parent, parent.slots(), seed, attempt)
            for parent in self.parents
            for seed in config.seeds
            for attempt in range(config.k)
        ]

    def request_for(
        self, chain: Chain, turn: int, answers: list[str]
    ) -> tuple[Any, SamplingParams]:
        messages = build_messages(
            chain.slots, turn, answers, self.artefacts, self.config.prompts, self.config.language
        )
        slot = chain.slots[turn]
        seed = request_seed(chain.seed, chain.attempt, slot.key, turn)
        return messages, self.config.sampling.model_copy(update={"seed": seed, "n": 1})

    async def run(
        self, engine: Engine, on_progress: Callable[[Progress], None] | None = None
    ) -> RolloutSummary:
        """Generate every missing turn; a finished run re-run is a no-op."""
        self._write_manifest(engine)
        reusable = self.store.latest(self.run_key)
        progress = Progress(
            chains_total=len(self.chains), turns_total=sum(len(c.slots) for c in self.chains)
        )
        limit = asyncio.Semaphore(self.config.concurrency)

        async def run_chain(chain: Chain) -> None:
            answers: list[str] = []
            for turn, slot in enumerate(chain.slots):
                messages, sampling = self.request_for(chain, turn, answers)
                digest = context_hash(messages, sampling)
                cached = reusable.get((slot.key, chain.seed, chain.attempt, turn, digest))
                if cached is not None:
                    answers.append(cached.completion)
                    progress.turns_reused += 1
                    continue
                record = await ask_turn(
                    engine,
                    self.store,
                    limit,
                    progress,
                    TurnRecord(
                        run_key=self.run_key,
                        key=slot.key,
                        seed=chain.seed,
                        attempt=chain.attempt,
                        turn=turn,
                        context_hash=digest,
                        status="ok",
                        completion="",
                        request_seed=sampling.seed,
                        messages=[m.model_dump() for m in messages],
                    ),
                    messages,
                    sampling,
                )
                answers.append(record.completion)
                if on_progress is not None:
                    on_progress(progress)
            progress.chains_done += 1
            if on_progress is not None:
                on_progress(progress)

        start = time.monotonic()
        await asyncio.gather(*(run_chain(chain) for chain in self.chains))
        return RolloutSummary(
            run_key=self.run_key,
            chains=len(self.chains),
            turns=progress.turns_total,
            generated=progress.turns_generated,
            reused=progress.turns_reused,
            errors=progress.errors,
            completion_tokens=progress.completion_tokens,
            wall_s=time.monotonic() - start,
            error_kinds=dict(progress.error_kinds),
        )

    def _write_manifest(self, engine: Engine) -> None:
        manifest = {
            "run_key": self.run_key,
            "model": self.config.model,
            "engine": engine.name,
            "protocol_hash": self.config.protocol_hash(self.artefacts),
            "config": self.config.model_dump(mode="json"),
            "artefacts": {
                "kind": self.artefacts.kind,
                "source": self.artefacts.source,
                "guidance": self.artefacts.guidance_source,
                "fingerprint": self.artefacts.fingerprint(),
            },
            "parents": len(self.parents),
            "split": self.split,
        }
        write_atomic(self.run_dir / "run.json", json.dumps(manifest, indent=1) + "\n")

    def resolved(self) -> dict[tuple[int, int, int], list[TurnRecord | None]]:
        """The current turns of every chain, following the stored conversations.

        Keys are (parent index, seed, attempt); a ``None`` entry is a turn not generated yet.
        A failed turn resolves to its newest error record.
        """
        ok = self.store.latest(self.run_key)
        errors = self.store.latest(self.run_key, "error")
        index = {id(p): i for i, p in enumerate(self.parents)}
        result: dict[tuple[int, int, int], list[TurnRecord | None]] = {}
        for chain in self.chains:
            answers: list[str] = []
            turns: list[TurnRecord | None] = []
            for turn, slot in enumerate(chain.slots):
                messages, sampling = self.request_for(chain, turn, answers)
                digest = context_hash(messages, sampling)
                lookup = (slot.key, chain.seed, chain.attempt, turn, digest)
                record = ok.get(lookup) or errors.get(lookup)
                if record is None:
                    turns.extend([None] * (len(chain.slots) - turn))
                    break
                turns.append(record)
                answers.append(record.completion)
            result[(index[id(chain.parent)], chain.seed, chain.attempt)] = turns
        return result

    def export_reference(self, path: Path) -> Path:
        """The reference harness's generation dump (format doc, section 8): parents with
        ``attempts[{attempt_id, completions[slot...]}]``; attempt ids run over seeds in blocks
        of k (seed index * k + attempt), the layout its pass@k scripts expect."""
        chains = self.resolved()
        parents_out = []
        for p_index, parent in enumerate(self.parents):
            record: dict[str, Any] = parent.model_dump(mode="json", by_alias=True)
            attempts = []
            for s_index, seed in enumerate(self.config.seeds):
                for attempt in range(self.config.k):
                    turns = chains[(p_index, seed, attempt)]
                    completions = []
                    for slot, turn in zip(parent.slots(), turns, strict=True):
                        completions.append(
                            {
                                "problem_id": slot.key.problem_id,
                                "problem": slot.question,
                                "solution": slot.solution,
                                "answer": slot.answer,
                                "answer_type": slot.answer_type.value,
                                "type_sequence": ",".join(t.value for t in slot.type_sequence),
                                "prompt_messages": turn.messages if turn else [],
                                "completion": turn.completion if turn else "",
                                "raw_response": {
                                    "backend": "studybench",
                                    "model": self.config.model,
                                    "finish_reason": turn.finish_reason if turn else None,
                                    **({"error": turn.error} if turn and turn.error else {}),
                                },
                            }
                        )
                    attempts.append(
                        {
                            "attempt_id": s_index * self.config.k + attempt,
                            "seed": seed,
                            "completions": completions,
                        }
                    )
            record["attempts"] = attempts
            parents_out.append(record)
        write_atomic(path, json.dumps(parents_out, ensure_ascii=False, indent=1) + "\n")
        return path

    def close(self) -> None:
        self.store.close()
