"""The training material, re-derived for the new splits: three layers, the test items out.

* **Corpus**: the chapters OCR-cleaned (:mod:`studybench.corpus.ocr_fix`), the Application
  parents redacted (:mod:`studybench.corpus.redact`, whose floor is the audit's rule) and the
  result audited (:mod:`studybench.corpus.audit`); residue is an error, so a corpus with a
  leaked test problem is never written as done.
* **Instructions with answer**: every textbook parent of the training material (solved by the
  filter, or failed but not selected) as a release instruction record: a solo parent as one
  user turn with its gold (``verifiable_instr.json``), a multi-sub parent as one user turn per
  sub-problem with the gold solutions as the assistant turns in between and one gold per user
  turn (``verifiable_instr_multi_subs.json``).
* **Instructions without answer**: the extracted answerless layer, less every record that is
  about an Application parent (its metadata names one) or that contains residue of one.

A with-answer record that holds residue of an Application parent (a textbook restating a test
problem as another exercise) is dropped too, and every drop is reported.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.benchmarks.studybench.prompts import INSTRUCTION
from studybench.build.pools import parent_id
from studybench.config import Settings
from studybench.corpus.audit import audit_corpus
from studybench.corpus.ngrams import test_fields
from studybench.corpus.ocr_fix import fix_books
from studybench.corpus.redact import RedactionSettings, redact_corpus
from studybench.corpus.residue import ResidueScanner
from studybench.data.loaders import load_instruction_layer
from studybench.data.records import InstructionRecord, ParentProblem
from studybench.errors import DataError
from studybench.fileio import write_atomic

LAYERS = {
    "single": "verifiable_instr.json",
    "multi": "verifiable_instr_multi_subs.json",
    "without": "unverifiable_instr.json",
}


class TrainingReport(BaseModel):
    corpus_files: int
    redacted_spans: int
    redaction_by_method: dict[str, int]
    audit_hits: int
    instructions_with_answer: int
    instructions_with_answer_multi: int
    instructions_without_answer: int
    dropped: list[dict[str, str]]


def _final(solution: str, answer: str) -> str:
    text = solution.strip()
    return f"{text}\n\nFinal Answer: {answer.strip()}" if text else f"Final Answer: {answer}"


def instruction_records(
    parent: ParentProblem, system_prompt: str, language: str = "EN"
) -> dict[str, Any]:
    """One release instruction record (JSON) for a training parent."""
    instruction = INSTRUCTION["ZH" if language == "ZH" else "EN"]
    metadata: dict[str, Any] = {
        "source": parent.source,
        "source_problem_id": parent.source_problem_id,
        "problem_type": parent.problem_type,
        "layer": "instructions_with_answer",
    }
    system = {"role": "system", "content": system_prompt}
    if parent.is_solo:
        user = "\n\n".join(part for part in (instruction, parent.problem.strip()) if part)
        return {
            "messages": [system, {"role": "user", "content": user}],
            "answer": parent.answer,
            "answer_type": str(parent.answer_type),
            "type_sequence": ",".join(parent.type_sequence),
            "metadata": metadata,
        }
    messages: list[dict[str, str]] = [system]
    for index, sub in enumerate(parent.sub_problems):
        if index:
            previous = parent.sub_problems[index - 1]
            messages.append(
                {"role": "assistant", "content": _final(previous.solution, previous.answer)}
            )
        parts = [instruction, parent.problem.strip()] if index == 0 else []
        content = "\n\n".join(p for p in (*parts, sub.problem.strip()) if p)
        messages.append({"role": "user", "content": content})
    metadata["problem_ids"] = [sub.problem_id for sub in parent.sub_problems]
    return {
        "messages": messages,
        "answer": [sub.answer for sub in parent.sub_problems],
        "answer_type": [str(sub.answer_type) for sub in parent.sub_problems],
        "type_sequence": [",".join(sub.type_sequence) for sub in parent.sub_problems],
        "metadata": metadata,
    }


def _record_text(record: InstructionRecord | dict[str, Any]) -> str:
    if isinstance(record, InstructionRecord):
        return "\n\n".join(m.content for m in record.messages)
    return "\n\n".join(str(m["content"]) for m in record["messages"])


def derive_training(
    settings: Settings,
    application: Sequence[ParentProblem],
    training_parents: Sequence[ParentProblem],
    out_dir: Path,
) -> TrainingReport:
    """Write the three layers under ``out_dir``; raise when the audited corpus has residue."""
    build = settings.build
    corpus_settings = RedactionSettings.from_corpus(settings.corpus)
    ocrfix = out_dir / "ocrfix"
    redacted = out_dir / "corpus"
    fix_books(build.books, input_name=build.books_name, out_root=ocrfix)
    redaction = redact_corpus(application, ocrfix, out_root=redacted, settings=corpus_settings)
    write_atomic(out_dir / "redaction_report.json", redaction.model_dump_json(indent=1) + "\n")
    audit = audit_corpus(
        application,
        redacted,
        ngram_sizes=corpus_settings.audit_ngrams,
        min_answer_tokens=corpus_settings.audit_min_answer_tokens,
        solution_min_tokens=corpus_settings.audit_solution_min_tokens,
    )
    write_atomic(out_dir / "audit_report.json", audit.model_dump_json(indent=1) + "\n")
    if not audit.clean:
        first = audit.hits[0]
        raise DataError(
            f"{redacted / first.file}:{first.line}: {len(audit.hits)} residue hit(s) after "
            f"redaction ({first.kind} of {first.item} {first.field}); see "
            f"{out_dir / 'audit_report.json'}"
        )

    scanner = ResidueScanner(
        test_fields(application, min(corpus_settings.audit_ngrams)),
        corpus_settings.residue_rule(),
    )
    test_ids = {(p.source, p.source_problem_id) for p in application}
    dropped: list[dict[str, str]] = []
    layers: dict[str, list[Any]] = {"single": [], "multi": [], "without": []}
    for parent in training_parents:
        record = instruction_records(
            parent, settings.protocol.system_prompt, settings.protocol.language
        )
        residue = scanner.scan(_record_text(record))
        if residue:
            dropped.append(
                {"record": parent_id(parent), "reason": f"residue of {residue[0].field.item}"}
            )
            continue
        layers["single" if parent.is_solo else "multi"].append(record)
    for number, item in enumerate(load_instruction_layer(build.instructions_without_answer,
                                                          with_answers=False)):  # fmt: skip
        meta = item.metadata
        name = f"{build.instructions_without_answer}: record {number}"
        about = (str(meta.get("source", "")), str(meta.get("source_problem_id", "")))
        if about in test_ids:
            dropped.append({"record": name, "reason": f"about {about[0]}/{about[1]}"})
            continue
        residue = scanner.scan(_record_text(item))
        if residue:
            dropped.append({"record": name, "reason": f"residue of {residue[0].field.item}"})
            continue
        layers["without"].append(item.model_dump(mode="json", by_alias=True))
    for layer, name in LAYERS.items():
        text = json.dumps(layers[layer], ensure_ascii=False, indent=1) + "\n"
        write_atomic(out_dir / name, text)
    return TrainingReport(
        corpus_files=redaction.files,
        redacted_spans=redaction.redacted_spans,
        redaction_by_method=redaction.by_method,
        audit_hits=len(audit.hits),
        instructions_with_answer=len(layers["single"]),
        instructions_with_answer_multi=len(layers["multi"]),
        instructions_without_answer=len(layers["without"]),
        dropped=dropped,
    )
