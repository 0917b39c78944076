"""``studybench corpus ...``: OCR cleanup, redaction of test items, leak audit, fragments."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from studybench.cli.common import ParamsOpt, err, say
from studybench.config import load_settings

corpus_app = typer.Typer(
    help="Textbook corpus: OCR cleanup, redaction of test items, leak audit, fragments.",
    no_args_is_help=True,
)

BooksOpt = Annotated[Path, typer.Option("--books", help="Books root: <root>/<source>/<chapter>/.")]
OutRootOpt = Annotated[
    Path | None,
    typer.Option("--out", help="Write into a mirrored tree here instead of beside each file."),
]
EvalOpt = Annotated[
    list[Path], typer.Option("--eval", help="Test split(s) whose items must not leak.")
]


def _write_report(path: Path | None, payload: str, default: Path) -> Path:
    from studybench.fileio import write_atomic

    target = path or default
    write_atomic(target, payload)
    return target


@corpus_app.command("ocr-fix")
def corpus_ocr_fix(
    books: BooksOpt,
    out_root: OutRootOpt = None,
    input_name: Annotated[str, typer.Option(help="Chapter file to read.")] = "full.md",
    output_name: Annotated[str, typer.Option(help="File to write.")] = "ocrfix.md",
) -> None:
    """Deterministic cleanup of converted textbook markdown (writes ocrfix.md)."""
    from studybench.corpus.ocr_fix import fix_books

    stats = fix_books(books, input_name=input_name, output_name=output_name, out_root=out_root)
    say(
        f"cleaned {stats.files} chapter(s): {stats.prompts_dropped} converter prompt(s) dropped, "
        f"{stats.math_repairs} split number(s) rejoined, {stats.page_lines_dropped} page line(s) "
        "removed"
    )


@corpus_app.command("redact")
def corpus_redact(
    eval_paths: EvalOpt,
    books: BooksOpt,
    out_root: OutRootOpt = None,
    report: Annotated[Path | None, typer.Option(help="Report path (JSON).")] = None,
    input_name: Annotated[str, typer.Option(help="Chapter file to read.")] = "ocrfix.md",
    params: ParamsOpt = None,
) -> None:
    """Remove every test item from the corpus (writes ocrfix.redacted.md beside each file)."""
    from studybench.corpus.redact import RedactionSettings, redact_corpus
    from studybench.data.loaders import load_test_parents

    corpus = load_settings(params).corpus
    settings = RedactionSettings.from_corpus(corpus)  # the audit's thresholds are its floor
    result = redact_corpus(
        load_test_parents(eval_paths),
        books,
        input_name=input_name,
        out_root=out_root,
        settings=settings,
    )
    default = (out_root or books) / "redaction_report.json"
    path = _write_report(report, result.model_dump_json(indent=1), default)
    missing = sum(1 for item in result.items if not item.redactions)
    say(
        f"redacted {result.redacted_spans} span(s) in {result.files} file(s) for "
        f"{len(result.items)} test item(s) ({missing} not found in the corpus); report: {path}"
    )


@corpus_app.command("audit")
def corpus_audit(
    eval_paths: EvalOpt,
    books: BooksOpt,
    report: Annotated[Path | None, typer.Option(help="Report path (JSON).")] = None,
    name: Annotated[str, typer.Option(help="Corpus file to scan.")] = "ocrfix.redacted.md",
    params: ParamsOpt = None,
) -> None:
    """Fail (exit 1) if any test item's text is still in the corpus."""
    from studybench.corpus.audit import audit_corpus
    from studybench.data.loaders import load_test_parents

    corpus = load_settings(params).corpus
    result = audit_corpus(
        load_test_parents(eval_paths),
        books,
        name=name,
        ngram_sizes=corpus.audit_ngrams,
        min_answer_tokens=corpus.audit_min_answer_tokens,
        solution_min_tokens=corpus.audit_solution_min_tokens,
    )
    if report is not None:
        _write_report(report, result.model_dump_json(indent=1), report)
    for hit in result.hits:
        err.print(
            f"{books / hit.file}:{hit.line}: {hit.kind} of {hit.item} {hit.field}: {hit.excerpt!r}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    say(
        f"audited {result.files} file(s) against {result.fields} test field(s): "
        f"{len(result.hits)} residue hit(s)"
    )
    if result.hits:
        raise typer.Exit(1)


@corpus_app.command("fragments")
def corpus_fragments(
    books: BooksOpt,
    out_path: Annotated[Path, typer.Option("--out", help="JSONL file to write.")],
    input_name: Annotated[str, typer.Option(help="Chapter file to read.")] = "ocrfix.redacted.md",
    params: ParamsOpt = None,
) -> None:
    """Split the redacted corpus into exposition / worked-example / exercise fragments."""
    from collections import Counter

    from studybench.corpus.fragments import build_fragments

    max_words = load_settings(params).corpus.fragment_max_words
    fragments = build_fragments(books, out_path, input_name=input_name, max_words=max_words)
    kinds = Counter(f.fragment_type for f in fragments)
    say(
        f"{len(fragments)} fragment(s) -> {out_path}: "
        + ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
    )
