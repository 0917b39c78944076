"""PDF conversion on PDFs the test writes (fpdf2): known text, formulas as text, running
headers and page-number footers that must go, and the MinerU error when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from studybench.corpus.ocr_fix import fix_text
from studybench.corpus.pdf import convert_pdfs, strip_running_headers
from studybench.errors import ConfigError, DataError

HEADER = "SAMPLE MECHANICS - CHAPTER 2 ENERGY"
PARAGRAPHS = [
    "Section 2.1 Work. A constant force F acting through a displacement d does work "
    "W = F d cos(theta) on the body it acts on.",
    "Section 2.2 Kinetic energy. The work-energy theorem states W = (1/2) m v^2 - (1/2) m u^2 "
    "for a body of mass m whose speed changes from u to v.",
    "Problem 2.7 A block of mass 2.50 kg slides from rest down a frictionless ramp of height "
    "8.00 m. Find its speed at the bottom, using v = sqrt(2 g h) with g = 9.80 m/s^2.",
]


class _Book(FPDF):
    def header(self) -> None:
        self.set_font("Helvetica", size=9)
        self.cell(0, 8, HEADER, align="C")
        self.ln(12)

    def footer(self) -> None:
        self.set_y(-15)
        self.set_font("Helvetica", size=9)
        self.cell(0, 8, str(self.page_no()), align="C")


def write_pdf(path: Path, paragraphs: list[str]) -> Path:
    pdf = _Book()
    for paragraph in paragraphs:
        pdf.add_page()
        pdf.set_font("Helvetica", size=12)
        pdf.multi_cell(0, 6, paragraph)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


def words(text: str) -> list[str]:
    return text.split()


def test_text_layer_pdf_to_chapter_markdown(tmp_path: Path) -> None:
    write_pdf(tmp_path / "pdf" / "SB_Mech" / "ch02_energy.pdf", PARAGRAPHS)
    result = convert_pdfs(tmp_path / "pdf", tmp_path / "books")
    assert result.files == ["SB_Mech/ch02_energy/full.md"] and result.pages == 3
    text = fix_text((tmp_path / "books/SB_Mech/ch02_energy/full.md").read_text())
    flat = " ".join(text.split())
    for paragraph in PARAGRAPHS:  # known text and formulas as text, in reading order
        assert " ".join(paragraph.split()) in flat.replace("**", "")
    assert flat.index("Section 2.1") < flat.index("Section 2.2") < flat.index("Problem 2.7")
    assert HEADER not in text  # running header gone from every page
    assert result.header_lines_removed >= 3
    assert not any(line.strip() in {"1", "2", "3"} for line in text.splitlines())


def test_header_rule_keeps_lines_that_are_not_on_most_pages() -> None:
    bodies = ["Work and energy.", "Power is a rate.", "Springs store energy.", "Collisions."]
    pages = [f"Chapter 1 page {n}\n\n{body}\n\n{n}" for n, body in enumerate(bodies, 1)]
    pages[2] += "\n\nA closing line only here"
    stripped, removal = strip_running_headers(pages)
    # the header of each page and the bare page number closing it (but not on page 3,
    # where the page number is no longer at the bottom edge's same position)
    assert removal.lines_removed == 7
    assert all("Chapter 1 page" not in p for p in stripped)
    assert all(body in page for body, page in zip(bodies, stripped, strict=True))
    assert "A closing line only here" in stripped[2]
    assert strip_running_headers(["one page only\nx"])[1].lines_removed == 0


def test_mineru_selected_but_absent_says_why(tmp_path: Path) -> None:
    write_pdf(tmp_path / "pdf" / "B" / "c.pdf", PARAGRAPHS[:1])
    with pytest.raises(ConfigError, match="cannot be downloaded on this machine"):
        convert_pdfs(
            tmp_path / "pdf", tmp_path / "out", converter="mineru",
            mineru_command=("mineru-not-installed",),
        )  # fmt: skip


def test_bad_inputs_name_the_path(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="no PDF file"):
        convert_pdfs(tmp_path / "empty", tmp_path / "out")
    broken = tmp_path / "broken" / "B" / "c.pdf"
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"%PDF-1.4 not really")
    with pytest.raises(DataError, match=r"c\.pdf"):
        convert_pdfs(tmp_path / "broken", tmp_path / "out")
