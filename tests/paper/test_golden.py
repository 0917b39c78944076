"""The report of a fixed store, byte for byte (``golden_paper.md``), and its LaTeX checked
structurally (no TeX engine on this machine; ``pdflatex`` compiles it when one exists)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from studybench.paper.records import PairComparison, PaperRun
from studybench.paper.render import latex, latex_escape, markdown
from studybench.paper.table import (
    PaperTable,
    build_blocks,
    build_table,
    columns_of,
    comparison_pairs,
)

HERE = Path(__file__).parent
GOLDEN = HERE / "golden_paper.md"


def fixed_table() -> PaperTable:
    store = json.loads((HERE / "fixed_store.json").read_text())
    runs = [PaperRun.model_validate(r) for r in store["runs"]]
    comparisons = {
        (c["baseline_run"], c["candidate_run"]): PairComparison.model_validate(c)
        for c in store["comparisons"]
    }
    return build_table(store["experiment"], runs, comparisons)


def test_markdown_equals_the_golden_file() -> None:
    text = markdown(fixed_table())
    if not GOLDEN.exists():  # pragma: no cover - writing the golden file is a deliberate act
        pytest.fail(f"no golden file; review and save:\n{text}")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_the_table_asks_for_exactly_the_comparisons_it_shows() -> None:
    store = json.loads((HERE / "fixed_store.json").read_text())
    runs = [PaperRun.model_validate(r) for r in store["runs"]]
    pairs = comparison_pairs(build_blocks(runs, columns_of(runs)))
    # the ACE row is mixed (no value, nothing to compare), the llama block has no base row
    assert pairs == [("q-base", "q-gepa"), ("q-base", "q-guided"), ("q-base", "q-sft-80")]


def test_latex_is_a_booktabs_table_with_every_row_complete() -> None:
    tex = latex(fixed_table())
    for table in re.findall(r"\\begin\{tabular\}\{(\w+)\}(.*?)\\end\{tabular\}", tex, re.S):
        spec, body = table
        assert body.lstrip().startswith(r"\toprule") and body.rstrip().endswith(r"\bottomrule")
        assert r"\midrule" in body
        for line in body.splitlines():
            if line.endswith(r"\\") and r"\multicolumn" not in line:
                cells = re.split(r"(?<!\\)&", line.removesuffix(r"\\"))
                assert len(cells) == len(spec), line
    assert tex.count(r"\begin{table}") == tex.count(r"\end{table}") == 2
    # every special character of a name is escaped, none is left bare
    assert r"R\&D\_ace 50\%" in tex
    stripped = re.sub(r"\\[&%_#$]", "", tex)
    body = "\n".join(line for line in stripped.splitlines() if not line.startswith("%"))
    assert not re.search(r"(?<!\\)[%#]", body)
    assert body.count("{") == body.count("}")


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("a_b", r"a\_b"),
        ("50%", r"50\%"),
        ("R&D", r"R\&D"),
        ("$x$", r"\$x\$"),
        ("#1", r"\#1"),
        ("{x}", r"\{x\}"),
        ("~/m", r"\textasciitilde{}/m"),
        ("a^b", r"a\textasciicircum{}b"),
        ("C:\\m", r"C:\textbackslash{}m"),
        ("±", r"$\pm$"),
    ],
)
def test_latex_escape(text: str, escaped: str) -> None:
    assert latex_escape(text) == escaped


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no TeX engine: checked structurally")
def test_latex_compiles(tmp_path: Path) -> None:  # pragma: no cover - needs TeX
    (tmp_path / "table.tex").write_text(latex(fixed_table()))
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\\usepackage{booktabs}\\usepackage{amsmath}"
        "\\begin{document}\\input{table}\\end{document}\n"
    )
    result = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:]
