"""Bonito-style SFT data: a generator model turns redacted-corpus fragments into
question/answer pairs, filtered for format, as a resumable, cached DVC stage.

Why the fragments of the *redacted* corpus: test problems were removed from it, so the pairs
cannot leak the benchmark. Why a strict format filter: a pair only teaches the benchmark's
answer format if its final answer is one ``\\boxed{}`` of a known atomic answer type that
the verifier itself can read (the pair's answer must verify against itself), and the
question must not give the answer away.

Resumable and idempotent: every generator reply is appended to a cache (JSONL, one line per
fragment, keyed by fragment text, generator model and :data:`PROMPT_VERSION`) as soon as it
arrives; a rerun skips cached keys, so a killed stage loses at most the calls in flight and
a finished one makes no calls. The output is rewritten atomically from the cache. The LLM
budget (calls, tokens, summed over the cache, so it includes earlier runs) is written beside
the output as ``<out>.compute.json``.

Where the generator's endpoint honours structured output, its reply is constrained to the
four fields (:func:`pair_format`), each answer type with a box of its shape (a number for
NV, one ``=`` for EQ, a letter for MC, True/False for TF); the verifier's own checks still
decide. Such replies are cached under their own key, so turning it on never replays a free
reply.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from studybench.config import SynthSettings
from studybench.engines.structured import OutputFormat, free_text, literal, text_budget
from studybench.errors import DataError
from studybench.fileio import write_atomic
from studybench.training.llm import Budget, MeteredChat

PROMPT_VERSION = "synth-1"
ATOMIC_TYPES = ("NV", "EX", "EQ", "IN", "MC", "TF", "QL")

GENERATOR_PROMPT = """You write physics exercises from textbook passages.

Read the passage and write ONE self-contained exercise that can be solved with what the \
passage teaches, with a single final answer. Reply in exactly this format and nothing else:

Question: <the exercise, with every number it needs>
Answer type: <one of NV (numeric value), EX (expression), EQ (equation), IN (interval), \
MC (multiple choice letter), TF (true/false), QL (short phrase)>
Solution: <a step-by-step solution>
Final Answer: \\boxed{<the answer, without units inside the box>}

Passage:
{passage}"""

_FIELD = re.compile(
    r"Question:\s*(?P<question>.+?)\s*Answer type:\s*(?P<type>[A-Za-z]+)\s*"
    r"Solution:\s*(?P<solution>.+?)\s*Final Answer:\s*(?P<final>.+?)\s*$",
    re.DOTALL,
)


class SynthPair(BaseModel):
    """One accepted question/answer pair (a line of the output)."""

    fragment_id: str
    book: str
    question: str
    solution: str
    answer: str  # \boxed{...}
    answer_type: str


class CacheLine(BaseModel):
    key: str
    fragment_id: str
    reply: str
    pair: SynthPair | None = None
    rejected: str = ""
    usage: Budget = Budget()


def cache_key(fragment_text: str, model: str, *, structured: bool = False) -> str:
    text = f"{PROMPT_VERSION}\0{model}\0{fragment_text}" + ("\0structured" if structured else "")
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def pair_format(max_tokens: int) -> OutputFormat:
    """The generator's reply: question (no backslash, so no box), answer type, solution and
    one box whose content has the type's shape, bounded so the reply fits ``max_tokens``."""
    fixed = "Question: \nAnswer type: NV\nSolution: \nFinal Answer: \\boxed{}"
    chars = text_budget(max_tokens, fixed, fields=3)
    free = free_text(chars, "{}\n=", min_chars=1)
    boxes = {
        "NV": "-?[0-9]{1,12}(?:\\.[0-9]{1,6})?",
        "EX": free,
        "EQ": f"{free}={free}",
        "IN": free,
        "MC": "[A-E]",
        "TF": "(?:True|False)",
        "QL": free,
    }
    question = free_text(chars, "\\", min_chars=1)
    solution = free_text(chars, "", min_chars=1)
    branches = "|".join(
        f"{kind}\\n{literal('Solution: ')}{solution}\\n{literal('Final Answer: ')}"
        f"\\\\boxed\\{{{box}\\}}"
        for kind, box in boxes.items()
    )
    return OutputFormat(regex=f"{literal('Question: ')}{question}\\nAnswer type: (?:{branches})")


def _fits(box: str, kind: str) -> bool:
    """A cheap shape check per type (identical strings always verify, so self-verification
    alone cannot catch a mislabelled type)."""
    from studybench.training.rewards import infer_answer_type

    text = box.strip()
    if kind == "NV":
        return infer_answer_type(text) == "NV"
    if kind == "EQ":
        return text.count("=") == 1
    if kind == "TF":
        return text.upper() in ("TRUE", "FALSE", "T", "F", "YES", "NO")
    if kind == "MC":
        return re.fullmatch(r"\(?[A-Za-z]\)?", text) is not None
    return True


def parse_reply(reply: str, fragment: dict[str, Any]) -> tuple[SynthPair | None, str]:
    """The pair in a generator reply, or None and the reason it was rejected."""
    from studybench.verify.extract import boxed_answers
    from studybench.verify.verifier import judge_inline

    match = _FIELD.search(reply.strip())
    if match is None:
        return None, "format: missing Question/Answer type/Solution/Final Answer"
    kind = match["type"].strip().upper()
    if kind not in ATOMIC_TYPES:
        return None, f"answer type {kind!r} is not one of {', '.join(ATOMIC_TYPES)}"
    boxes = boxed_answers(match["final"], strip_thinking=False).answers
    if len(boxes) != 1:
        return None, f"final answer needs exactly one \\boxed{{}}, found {len(boxes)}"
    # the answer is stored on one line: a line break inside a box is a space to LaTeX, and
    # an engine that loses the grammar (or a teacher without one) may still write one
    box = " ".join(part.strip() for part in boxes[0].splitlines() if part.strip())
    answer = f"\\boxed{{{box}}}"
    question = match["question"].strip()
    if "\\boxed" in question or "final answer" in question.lower():
        return None, "the question gives the answer away"
    if not _fits(box, kind):
        return None, f"the answer {answer!r} does not look like {kind}"
    if not judge_inline(answer, answer, kind).correct:
        return None, f"the verifier cannot read the answer {answer!r} as {kind}"
    return (
        SynthPair(
            fragment_id=str(fragment["fragment_id"]),
            book=str(fragment.get("book", "")),
            question=question,
            solution=match["solution"].strip(),
            answer=answer,
            answer_type=kind,
        ),
        "",
    )


def read_fragments(path: Path, min_words: int, limit: int | None) -> list[dict[str, Any]]:
    """Fragments worth a question (exposition and worked examples long enough to teach)."""
    if not path.exists():
        raise DataError(f"{path}: no fragments (run `dvc repro` for the corpus stages first)")
    fragments: list[dict[str, Any]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}: line {number}: not JSON ({exc.msg})") from None
        for field in ("fragment_id", "text"):
            if not isinstance(row.get(field), str):
                raise DataError(f"{path}: line {number}: field {field!r} missing or not text")
        if row.get("fragment_type") == "exercises":
            continue  # exercise lists may restate problems: never synthesise from them
        if len(row["text"].split()) < min_words:
            continue
        fragments.append(row)
    return fragments[:limit] if limit else fragments


def _read_cache(path: Path) -> dict[str, CacheLine]:
    cached: dict[str, CacheLine] = {}
    if not path.exists():
        return cached
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):  # a line cut off by a kill: drop it, ask again
        text = text[: text.rfind("\n") + 1]
        write_atomic(path, text)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = CacheLine.model_validate_json(line)
        except ValidationError:
            raise DataError(f"{path}: line {number}: not a cache line") from None
        cached[entry.key] = entry
    return cached


class SynthResult(BaseModel):
    pairs: int
    rejected: int
    fragments: int
    new_calls: int
    budget: Budget


def synthesise(
    settings: SynthSettings,
    *,
    chat: MeteredChat | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SynthResult:
    """Run (or resume) the synthesis; write ``settings.out`` and its compute record."""
    fragments = read_fragments(
        settings.fragments, settings.min_fragment_words, settings.max_fragments
    )
    model = settings.generator.model
    cached = _read_cache(settings.cache)
    chat = chat or MeteredChat(settings.generator, "synthesis generator")
    structured = chat.structured_output
    form = pair_format(chat.max_tokens())  # sent where the endpoint honours it

    def key(fragment: dict[str, Any]) -> str:
        return cache_key(fragment["text"], model, structured=structured)

    todo = [f for f in fragments if key(f) not in cached]
    settings.cache.parent.mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()
    done = [len(fragments) - len(todo)]

    def one(fragment: dict[str, Any]) -> None:
        prompt = GENERATOR_PROMPT.replace("{passage}", fragment["text"])
        reply, usage = chat.chat_with_usage(
            [{"role": "user", "content": prompt}], output_format=form
        )
        pair, reason = parse_reply(reply, fragment)
        entry = CacheLine(
            key=key(fragment),
            fragment_id=str(fragment["fragment_id"]),
            reply=reply,
            pair=pair,
            rejected=reason,
            usage=usage,
        )
        with lock:
            with settings.cache.open("a", encoding="utf-8") as handle:
                handle.write(entry.model_dump_json() + "\n")
            cached[entry.key] = entry
            done[0] += 1
            if progress is not None:
                progress(done[0], len(fragments))

    with ThreadPoolExecutor(max_workers=settings.generator.concurrency) as pool:
        for future in [pool.submit(one, f) for f in todo]:
            future.result()
    entries = [cached[key(f)] for f in fragments]
    pairs = [e.pair for e in entries if e.pair is not None]
    write_atomic(
        settings.out,
        "".join(p.model_dump_json() + "\n" for p in pairs),
    )
    budget = Budget()
    for entry in cached.values():
        budget = budget.plus(entry.usage)
    result = SynthResult(
        pairs=len(pairs),
        rejected=len(entries) - len(pairs),
        fragments=len(fragments),
        new_calls=len(todo),
        budget=budget,
    )
    write_atomic(
        compute_path(settings.out),
        json.dumps(
            {
                "method": "sft-synthesis",
                "generator_model": model,
                "prompt_version": PROMPT_VERSION,
                **result.model_dump(),
            },
            indent=1,
        )
        + "\n",
    )
    return result


def compute_path(out: Path) -> Path:
    return out.with_name(out.name + ".compute.json")


def read_pairs(path: Path) -> list[SynthPair]:
    if not path.exists():
        raise DataError(f"{path}: no synthesised pairs (run `studybench train synth` first)")
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            pairs.append(SynthPair.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(map(str, first["loc"]))
            raise DataError(f"{path}: line {number}: field {field!r}: {first['msg']}") from None
    if not pairs:
        raise DataError(f"{path}: no pairs passed the format filter; nothing to train on")
    return pairs


def sft_chats(
    pairs: Sequence[SynthPair], system_prompt: str, language: str = "EN"
) -> list[list[dict[str, str]]]:
    """Chats in the benchmark's own prompt format, the target being solution + final line."""
    from studybench.benchmarks.studybench.prompts import PROMPTS
    from studybench.data.answer_types import AnswerType
    from studybench.data.records import Slot, SlotKey
    from studybench.rollout.artefacts import MethodArtefacts
    from studybench.rollout.conversation import build_messages

    artefacts = MethodArtefacts(system_prompt=system_prompt)
    chats = []
    for pair in pairs:
        slot = Slot(
            key=SlotKey("synthetic", "", pair.fragment_id, "1"),
            index=0,
            problem_type="synthetic",
            stem="",
            question=pair.question,
            solution=pair.solution,
            answer=pair.answer,
            answer_type=AnswerType(pair.answer_type),
        )
        messages = build_messages([slot], 0, [], artefacts, PROMPTS, language)  # type: ignore[arg-type]
        target = f"{pair.solution}\n\nFinal Answer: {pair.answer}"
        chat = [{"role": m.role, "content": m.content} for m in messages]
        chats.append([*chat, {"role": "assistant", "content": target}])
    return chats
