"""Redaction and audit at the real corpus size.

Builds a synthetic corpus of about 6 million tokens (the StudyBench corpus: 317 chapter files
from 11 textbooks) with about 400 test fields planted in it (problem statements and
solutions of ~200 test items, each planted twice, once with OCR noise), then times
``redact_corpus`` and ``audit_corpus`` and checks that the audit is clean afterwards.

    .venv/bin/python perf/redact_throughput.py [--tokens N] [--items N] [--books N]
"""

from __future__ import annotations

import argparse
import random
import resource
import tempfile
import time
from pathlib import Path

from studybench.corpus.audit import audit_corpus
from studybench.corpus.redact import redact_corpus
from studybench.data import ParentProblem

VOCABULARY = [
    f"{stem}{suffix}"
    for stem in (
        "energy momentum force field charge wave lens heat entropy orbit torque spring "
        "pendulum pressure volume circuit current voltage magnet photon electron nucleus "
        "gravity friction mass velocity acceleration potential capacitor inductor resistor "
        "frequency period amplitude phase refraction diffraction interference gas piston"
    ).split()
    for suffix in ("", "s", "al", "ic", "ed")
]


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(VOCABULARY) for _ in range(n))


def build(root: Path, tokens: int, items: int, books: int, seed: int = 1) -> list[ParentProblem]:
    rng = random.Random(seed)
    chapters_per_book = 29
    files = books * chapters_per_book
    per_file = tokens // files
    parents = []
    plants: dict[int, list[str]] = {}
    for i in range(items):
        book = f"Book{i % books:02d}"
        numbers = [f"{rng.uniform(1, 99):.2f}" for _ in range(3)]
        problem = (
            f"{sentence(rng, 20)} {numbers[0]} {sentence(rng, 20)} {numbers[1]} "
            f"{sentence(rng, 20)} {numbers[2]} {sentence(rng, 10)}?"
        )
        solution = f"{sentence(rng, 40)} {numbers[2]} {sentence(rng, 20)}."
        parents.append(
            ParentProblem.model_validate(
                {
                    "source": book,
                    "source_problem_id": f"P{i}",
                    "problem": problem,
                    "solution": solution,
                    "answer": f"\\boxed{{{numbers[0]}\\,\\mathrm{{m/s}}}}",
                    "answer_type": "NV",
                }
            )
        )
        target = (i % books) * chapters_per_book + rng.randrange(chapters_per_book)
        noisy = " ".join(w for k, w in enumerate(problem.split()) if k % 20 != 19)
        plants.setdefault(target, []).extend([problem, solution, noisy])
    for f in range(files):
        book, chapter = divmod(f, chapters_per_book)
        folder = root / f"Book{book:02d}" / f"ch{chapter:02d}"
        folder.mkdir(parents=True)
        paragraphs = [sentence(rng, 100) + "." for _ in range(per_file // 100)]
        for text in plants.get(f, []):
            paragraphs.insert(rng.randrange(len(paragraphs) + 1), text)
        (folder / "ocrfix.md").write_text("\n\n".join(paragraphs))
    return parents


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=6_000_000)
    parser.add_argument("--items", type=int, default=200, help="test items (2 fields each)")
    parser.add_argument("--books", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        parents = build(root, args.tokens, args.items, args.books)
        files = len(list(root.rglob("ocrfix.md")))
        size = sum(p.stat().st_size for p in root.rglob("ocrfix.md")) / 1e6
        print(
            f"corpus: {files} files, ~{args.tokens:,} tokens, {size:.0f} MB; "
            f"{len(parents)} items ({2 * len(parents)} long fields); "
            f"built in {time.perf_counter() - start:.1f} s"
        )

        start = time.perf_counter()
        report = redact_corpus(parents, root)
        redact_s = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        copies = sum(1 for item in report.items for r in item.redactions if r.field == "problem")
        print(
            f"redact: {redact_s:.1f} s ({args.tokens / redact_s:,.0f} tokens/s), "
            f"{report.redacted_spans} spans, {copies}/{2 * len(parents)} problem copies, "
            f"peak RSS {peak / 1e6:.0f} MB"
        )

        start = time.perf_counter()
        before = audit_corpus(parents, root, name="ocrfix.md")
        audit_before_s = time.perf_counter() - start
        start = time.perf_counter()
        after = audit_corpus(parents, root)
        audit_s = time.perf_counter() - start
        print(f"audit before redaction: {len(before.hits)} hits in {audit_before_s:.1f} s")
        print(f"audit after redaction:  {len(after.hits)} hits in {audit_s:.1f} s")
        print(f"total redact + audit: {redact_s + audit_s:.1f} s")


if __name__ == "__main__":
    main()
