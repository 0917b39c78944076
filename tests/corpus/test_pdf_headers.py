"""The running-header rule on real-layout PDFs (fpdf2 writes them, pymupdf4llm converts them):
textbook pages with chapter headers, page numbers in footers, problems that begin a page,
two-column pages, left/right running heads, equation numbers closing pages.

Every line put on a page is hand-labelled in pdf_header_cases.json (``truth``: ``keep`` for
content, ``remove`` for a running header or footer); the test measures what the conversion
kept and removed against that truth and against what it reports removing per file."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from fpdf import FPDF

from studybench.corpus.pdf import convert_pdfs

CASES: list[dict[str, Any]] = json.loads(
    Path(__file__).with_name("pdf_header_cases.json").read_text()
)
SOURCE = "SB_Cases"


def write_case(path: Path, pages: list[list[dict[str, str]]]) -> None:
    """One PDF page per entry: a small header at the top edge, a footer at the bottom edge,
    body blocks (headings bold) or a left and a right column in between."""
    pdf = FPDF()
    pdf.set_auto_page_break(False)
    for elements in pages:
        pdf.add_page()
        pdf.set_y(25)
        column_top = 25.0
        for element in elements:
            at, text = element["at"], element["text"]
            if at == "header":
                pdf.set_xy(10, 8)
                pdf.set_font("Helvetica", size=9)
                pdf.cell(0, 6, text, align=element.get("align", "C"))
                pdf.set_xy(10, 25)
            elif at == "footer":
                pdf.set_xy(10, -15)
                pdf.set_font("Helvetica", size=9)
                pdf.cell(0, 6, text, align="C")
            elif at in ("left", "right"):
                pdf.set_font("Helvetica", size=10)
                pdf.set_xy(10 if at == "left" else 110, column_top)
                pdf.multi_cell(85, 5, text, new_x="LMARGIN", new_y="NEXT")
            else:
                bold = element.get("style") == "heading"
                pdf.set_font("Helvetica", style="B" if bold else "", size=13 if bold else 11)
                pdf.multi_cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")
                pdf.ln(3)
                column_top = pdf.get_y()
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def norm(text: str) -> str:
    return " ".join(text.replace("*", " ").replace("#", " ").split())


@pytest.fixture(scope="module")
def converted(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, Any], list[str]]:
    """Every case converted once, with the conversion's per-file log lines."""
    root = tmp_path_factory.mktemp("pdf_cases")
    for case in CASES:
        write_case(root / "pdf" / SOURCE / f"{case['name']}.pdf", case["pages"])
    handler = _Collect()
    logger = logging.getLogger("studybench.corpus.pdf")
    logger.addHandler(handler)
    previous = logger.level
    logger.setLevel(logging.INFO)
    try:
        result = convert_pdfs(root / "pdf", root / "books")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)
    return root / "books", result.model_dump(), [r.getMessage() for r in handler.records]


def measure(text: str, case: dict[str, Any]) -> dict[str, int]:
    """Labelled lines kept and removed: a content line is kept when its text is in the output;
    a header line is removed when no output line is that text any more."""
    lines = [norm(line) for line in text.splitlines() if norm(line)]
    flat = " ".join(lines)
    units = [e for page in case["pages"] for e in page]
    keep = [e for e in units if e["truth"] == "keep"]
    remove = [e for e in units if e["truth"] == "remove"]
    kept = sum(1 for e in keep if norm(e["text"]) in flat)
    left = {norm(e["text"]) for e in remove}
    still_there = sum(lines.count(t) for t in left)
    return {
        "keep": len(keep),
        "kept": kept,
        "remove": len(remove),
        "removed": len(remove) - still_there,
    }


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_kept_and_removed_lines_match_the_labels(
    converted: tuple[Path, dict[str, Any], list[str]], case: dict[str, Any]
) -> None:
    books, _, _ = converted
    text = (books / SOURCE / case["name"] / "full.md").read_text()
    figures = measure(text, case)
    assert figures["kept"] == figures["keep"], (case["why"], figures, text)  # no content lost
    assert figures["removed"] == figures["remove"], (case["why"], figures, text)


def test_removals_are_reported_per_file(
    converted: tuple[Path, dict[str, Any], list[str]],
) -> None:
    """The report and the log name each file, how many lines went and which (their text and
    position); the count is what the labels say went."""
    _, result, messages = converted
    per_file = {Path(f["file"]).parent.name: f for f in result["per_file"]}
    assert sorted(per_file) == sorted(c["name"] for c in CASES)
    for case in CASES:
        headers = per_file[case["name"]]["headers"]
        truth = [e for page in case["pages"] for e in page if e["truth"] == "remove"]
        assert headers["lines_removed"] == len(truth), case["name"]
        assert sum(r["pages"] for r in headers["removed"]) >= len(truth)
        shown = {norm(r["text"]) for r in headers["removed"]}
        assert shown <= {norm(e["text"]) for e in truth}, case["name"]  # only what went
        (line,) = [m for m in messages if m.startswith(f"{SOURCE}/{case['name']}.pdf:")]
        if truth:
            assert f"{len(truth)} running header/footer line(s) removed" in line
            assert all(repr(r["text"]) in line for r in headers["removed"])
        else:
            assert "no running header or footer line removed" in line
    assert result["header_lines_removed"] == sum(
        f["headers"]["lines_removed"] for f in result["per_file"]
    )
