"""``studybench corpus ...`` as a user runs it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.cli.entry import run


def test_corpus_commands_beside_each_chapter(sample_dir: Path, tmp_path: Path) -> None:
    books = tmp_path / "books"
    shutil.copytree(sample_dir / "books", books)
    split = sample_dir / "application_problems.json"
    assert run("corpus", "ocr-fix", "--books", books).returncode == 0
    assert len(list(books.rglob("ocrfix.md"))) == 4
    dirty = run("corpus", "audit", "--eval", split, "--books", books, "--name", "ocrfix.md")
    assert dirty.returncode == 1
    assert "residue hit(s)" in dirty.stdout and "ocrfix.md:" in dirty.stderr
    redacted = run("corpus", "redact", "--eval", split, "--books", books)
    assert redacted.returncode == 0, redacted.stderr
    assert len(list(books.rglob("ocrfix.redacted.md"))) == 4
    report = json.loads((books / "redaction_report.json").read_text())
    assert len(report["items"]) == 17
    clean = run("corpus", "audit", "--eval", split, "--books", books)
    assert clean.returncode == 0, clean.stderr
    fragments = run("corpus", "fragments", "--books", books, "--out", tmp_path / "f.jsonl")
    assert fragments.returncode == 0
    lines = (tmp_path / "f.jsonl").read_text().splitlines()
    kinds = {json.loads(line)["fragment_type"] for line in lines}
    assert kinds == {"exposition", "worked_example", "exercises"}
