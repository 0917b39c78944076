"""The memorisation-check split: training items, asked exactly as the benchmark asks.

A model trained on an instruction layer should at least reproduce what it was trained on;
if it cannot, an evaluation that shows no gain on Application or Transfer says nothing.
This split turns the answered items of the instruction layers into benchmark parents (one
sub-problem per user turn), so the rollout asks them with the benchmark's own prompts, and
:func:`sft_examples` renders the same conversations with the gold answers as training
targets. It is labelled ``memorisation`` everywhere (run folders, MLflow keys) and is never
a measure of learning beyond the training data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studybench.data.loaders import load_instruction_layer
from studybench.data.records import InstructionRecord, ParentProblem
from studybench.fileio import write_atomic

SPLIT_NAME = "memorisation"
SOURCE_SUFFIX = "-memorisation"
_BOXED = re.compile(r"\\boxed\s*\{")


def _strip_instruction(text: str) -> str:
    """Drop a leading instruction paragraph (the layer's own wording of the answer format);
    the rollout adds the benchmark's instruction itself."""
    head, sep, rest = text.partition("\n\n")
    if sep and "\\boxed" in head and rest.strip():
        return rest.strip()
    return text.strip()


def _boxed(answer: str) -> str:
    return answer if _BOXED.search(answer) else f"\\boxed{{{answer}}}"


def parent_from_record(record: InstructionRecord, index: int, origin: str) -> dict[str, Any]:
    """One parent (JSON form) from an answered instruction record."""
    answers = record.answers()
    users = [m.content for m in record.messages if m.role == "user"]
    if len(answers) == 1 and len(users) > 1:
        answers = [("", "", "")] * (len(users) - 1) + answers
    meta = record.metadata
    source = str(meta.get("source") or "instructions") + SOURCE_SUFFIX
    pid = str(meta.get("source_problem_id") or f"{origin}-{index}")
    subs = []
    for turn, (question, (answer, answer_type, sequence)) in enumerate(
        zip(users, answers, strict=True)
    ):
        if not answer.strip():
            continue
        sub: dict[str, Any] = {
            "problem_id": f"{pid}.{turn + 1}",
            "problem": _strip_instruction(question) if turn == 0 else question.strip(),
            "answer": _boxed(answer),
            "answer_type": answer_type,
        }
        if sequence:
            sub["type_sequence"] = sequence
        subs.append(sub)
    return {
        "source": source,
        "source_kind": "memorisation-check",
        "year": "",
        "source_problem_id": f"{origin}:{pid}",
        "problem_type": "memorisation",
        "problem": "",
        "sub_problems": subs,
    }


def build_split(layers: Sequence[Path]) -> list[dict[str, Any]]:
    parents = []
    for layer in layers:
        for index, record in enumerate(load_instruction_layer(layer)):
            if not record.answers():
                continue
            parent = parent_from_record(record, index, layer.stem)
            if parent["sub_problems"]:
                parents.append(parent)
    return parents


def write_split(layers: Sequence[Path], out: Path) -> Path:
    """Write the split (deterministic; rewritten only when its content changes)."""
    text = json.dumps(build_split(layers), ensure_ascii=False, indent=1) + "\n"
    if not out.exists() or out.read_text(encoding="utf-8") != text:
        write_atomic(out, text)
    return out


def sft_examples(
    parents: Sequence[ParentProblem], system_prompt: str, language: str = "EN"
) -> list[list[dict[str, str]]]:
    """Chat examples for SFT: for every slot, the exact conversation the rollout sends (with
    the gold answers of earlier sub-problems as the assistant's turns) plus the gold answer
    as ``Final Answer: \\boxed{...}``."""
    from studybench.benchmarks.studybench.prompts import PROMPTS
    from studybench.rollout.artefacts import MethodArtefacts
    from studybench.rollout.conversation import build_messages

    artefacts = MethodArtefacts(system_prompt=system_prompt)
    examples = []
    for parent in parents:
        slots = parent.slots()
        targets = [f"Final Answer: {slot.answer}" for slot in slots]
        for index in range(len(slots)):
            messages = build_messages(
                slots,
                index,
                targets[:index],
                artefacts,
                PROMPTS,
                language,  # type: ignore[arg-type]
            )
            chat = [{"role": m.role, "content": m.content} for m in messages]
            examples.append([*chat, {"role": "assistant", "content": targets[index]}])
    return examples
