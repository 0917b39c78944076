"""Redaction and audit agree on noisy copies: planted multi-part items, bounded OCR noise.

Each noise class of ``noise_cases.json`` is planted over many seeds into a synthetic book
(stem, every sub-question and every solution copied with the class's noise, far apart, amid
filler). After redaction the audit must find nothing, whatever the noise; the report must name
what the audit's rule removed; and the coverage pass alone must already leave nothing the
audit flags (the pass and the audit read the same aligned copies; when the pass counted
13-gram coverage, every noisy class left copies that only the audit's rule caught).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from studybench.corpus.audit import audit_corpus
from studybench.corpus.ngrams import test_fields as fields_of
from studybench.corpus.redact import RedactionSettings, redact_corpus, redact_text
from studybench.corpus.residue import ResidueScanner
from studybench.data import ParentProblem

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).with_name("noise_cases.json")).read_text()
)["cases"]
SEEDS = range(12)
SYLLABLES = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "ve", "du", "ga", "fe", "zo", "bi"]


def word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))


def sentence(rng: random.Random, n: int) -> str:
    """``n`` words of an invented language, two of them numbers with decimals."""
    words = [word(rng) for _ in range(n)]
    words[n // 3] = f"{rng.randint(2, 9)}.{rng.randint(10, 99)}"
    words[2 * n // 3] = f"{rng.randint(11, 99)}.{rng.randint(1, 9)}"
    return " ".join(words)


def item(rng: random.Random) -> ParentProblem:
    subs = [
        {
            "problem_id": letter,
            "problem": sentence(rng, 40),
            "solution": sentence(rng, 40),
            "answer": f"\\boxed{{{rng.randint(100, 999)}.{rng.randint(1, 9)}}}",
            "answer_type": "NV",
        }
        for letter in "abc"
    ]
    return ParentProblem.model_validate(
        {
            "source": "NoisyBook",
            "source_problem_id": "P7.3",
            "problem_type": "Classical Mechanics",
            "problem": sentence(rng, 40),
            "sub_problems": subs,
        }
    )


def noisy(text: str, case: dict[str, Any], rng: random.Random) -> str:
    words = text.split()
    for _ in range(case["substitutions"]):
        at = rng.randrange(len(words))
        words[at] = "q" + words[at][::-1]  # misread: no longer the same token
    for _ in range(case["drops"]):
        words.pop(rng.randrange(len(words)))
    if case["split_digits"]:
        words = [w.replace(".", ". ", 1) if w[:1].isdigit() else w for w in words]
    return "  ".join(words)


def plant(root: Path, parent: ParentProblem, case: dict[str, Any], rng: random.Random) -> None:
    texts = [parent.problem] + [t for s in parent.sub_problems for t in (s.problem, s.solution)]
    parts = ["# Chapter 7"]
    for text in texts:
        parts += [sentence(rng, 120), noisy(text, case, rng)]
    parts.append(sentence(rng, 60))
    chapter = root / "NoisyBook" / "ch07"
    chapter.mkdir(parents=True, exist_ok=True)
    (chapter / "ocrfix.md").write_text("\n\n".join(parts))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_redacted_noisy_copies_pass_the_audit(case: dict[str, Any], tmp_path: Path) -> None:
    settings = RedactionSettings()
    for seed in SEEDS:
        rng = random.Random(f"{case['name']}-{seed}")
        parent = item(rng)
        books = tmp_path / str(seed)
        plant(books, parent, case, rng)
        report = redact_corpus([parent], books, settings=settings)
        audit = audit_corpus([parent], books)
        assert audit.hits == [], (seed, audit.hits[:3])
        removed = [r for i in report.items for r in i.redactions]
        assert {r.method for r in removed} <= {"ngram", "near", "answer_key", "audit_rule"}
        assert all(r.chars > 0 and r.line_start >= 1 for r in removed)
        floor = [r for r in removed if r.method == "audit_rule"]
        assert all(r.kind.endswith("-gram") or r.kind == "answer" for r in floor)
        assert report.by_method.get("audit_rule", 0) == len(floor)

        # the same file through the coverage pass alone (no floor), audited by the rule
        fields = fields_of([parent], settings.ngram)
        text = (books / "NoisyBook/ch07/ocrfix.md").read_text()
        scanner = ResidueScanner(fields, settings.residue_rule())
        short = [f for f in fields if f.short]
        alone, _ = redact_text(text, "ch07", scanner, "NoisyBook", short, settings, floor=False)
        assert scanner.scan(alone) == [], (seed, "the coverage pass alone left residue")
        copies = [r for r in removed if r.method == "ngram"]
        assert len(copies) == 7, (seed, "stem, three statements, three solutions")


def test_an_audit_that_reads_nothing_fails(tmp_path: Path) -> None:
    from studybench.errors import DataError

    (tmp_path / "Book" / "ch1").mkdir(parents=True)
    (tmp_path / "Book" / "ch1" / "ocrfix.md").write_text("text")
    with pytest.raises(DataError, match="read nothing"):
        audit_corpus([], tmp_path, name="ocrfix.redacted.md")  # no file of that name
