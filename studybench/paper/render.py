"""The paper table in three formats: Markdown (the README, a PR comment), LaTeX (booktabs, a
``table`` float ready to ``\\input``) and a self-contained HTML page (figures embedded, every
cell linked to the MLflow runs it came from).

Rounding: scores are percentages with one decimal (``f"{100 * x:.1f}"``: Python rounds the
binary value correctly, so the same store always prints the same digits); differences and CI
bounds carry a sign. Nothing here reads a clock, so a re-run on the same store writes the
same bytes.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence

from studybench.paper.table import (
    Cell,
    Column,
    PaperTable,
    display_name,
    gap_footnotes,
    split_label,
)
from studybench.tracking.ui_links import run_url

MISSING = "—"
INCOMPLETE = "‡"


def score(cell: Cell) -> str:
    if cell.mean is None:
        return ""
    text = f"{100 * cell.mean:.1f}"
    return text + (f" ± {100 * cell.std:.1f}" if cell.std is not None else "")


def _groups(columns: Sequence[Column]) -> list[tuple[str, int, list[Column]]]:
    """Consecutive columns of one (split, k): the header's first level."""
    out: list[tuple[str, int, list[Column]]] = []
    for column in columns:
        if out and (out[-1][0], out[-1][1]) == (column.split, column.k):
            out[-1][2].append(column)
        else:
            out.append((column.split, column.k, [column]))
    return out


def _gap_pairs(table: PaperTable) -> list[tuple[str, int]]:
    return [(split, k) for split, k, _ in _groups(table.columns)]


def _gap_value(closed: float | None, state: str) -> str:
    if state == "ok" and closed is not None:
        return f"{100 * closed:.1f}%"
    return "undefined" if state == "undefined" else MISSING


# ---------------------------------------------------------------- Markdown


def _md_cell(cell: Cell) -> str:
    if cell.state == "missing":
        text = MISSING
    elif cell.state == "mixed":
        text = "mixed"
    else:
        text = score(cell) + (f" {INCOMPLETE}" if cell.state == "incomplete" else "")
    if cell.marker:
        text += f" {cell.marker}"
    if cell.footnotes:
        text += "[" + ",".join(map(str, cell.footnotes)) + "]"
    return text.replace("|", "\\|")


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


def markdown(table: PaperTable) -> str:
    lines = [f"# Paper tables: experiment {_md_escape(table.experiment)}", ""]
    lines += ["## Main table", ""]
    if not table.columns:
        lines += ["No evaluation run in the selection logged a Par@k or Sub@k score.", ""]
        return "\n".join(lines)
    header = ["Base model", "Method"] + [f"{split_label(c.split)} {c.label}" for c in table.columns]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join(["---", "---"] + ["--:"] * len(table.columns)) + "|")
    for block in table.blocks:
        for i, row in enumerate(block.rows):
            name = _md_escape(display_name(block.base_model)) if i == 0 else ""
            cells = [_md_cell(row.cells[c.key]) for c in table.columns]
            lines.append("| " + " | ".join([name, _md_escape(row.method), *cells]) + " |")
    lines += [
        "",
        "Scores in %, mean ± std over seeds. Against the block's base model: "
        f"↑ improved, ↓ regressed, = unchanged; {INCOMPLETE} incomplete seeds; "
        f"{MISSING} missing.",
        "",
    ]
    lines += [f"{i}. {_md_escape(t)}" for i, t in enumerate(table.footnotes, 1)]
    lines += ["", "## Guidance Gap", ""]
    if not table.gap_rows:
        lines += ["No method row (other than the base model and Naive Guidance) to report.", ""]
        return "\n".join(lines)
    pairs = _gap_pairs(table)
    header = ["Base model", "Method"] + [
        f"{split_label(s)} {level}@{k} closed" for s, k in pairs for level in ("Par", "Sub")
    ]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join(["---", "---"] + ["--:"] * (2 * len(pairs))) + "|")
    texts, marks = gap_footnotes(table.gap_rows)
    for i, gap_row in enumerate(table.gap_rows):
        cells = []
        for split, k in pairs:
            for level in ("par", "sub"):
                key = f"{split}/{level}_at_{k}"
                gap = gap_row.cells[key]
                mark = f"[{marks[(i, key)]}]" if (i, key) in marks else ""
                cells.append(_gap_value(gap.closed, gap.state) + mark)
        lines.append(
            "| "
            + " | ".join(
                [_md_escape(display_name(gap_row.base_model)), _md_escape(gap_row.method), *cells]
            )
            + " |"
        )
    lines += ["", "Share of the Naive Guidance gain closed: (method − base) / (guided − base).", ""]
    lines += [f"{i}. {_md_escape(t)}" for i, t in enumerate(texts, 1)]
    lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------- LaTeX

_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "↑": r"$\uparrow$",
    "↓": r"$\downarrow$",
    "±": r"$\pm$",
    "—": "---",
    "−": "$-$",
    "‡": r"$\ddagger$",
}


def latex_escape(text: str) -> str:
    """Text safe in a LaTeX paragraph or cell: every special character escaped, the few
    symbols the report prints mapped to their math forms; other characters kept."""
    return "".join(_LATEX.get(ch, ch) for ch in text)


def _tex_cell(cell: Cell) -> str:
    """One cell: the score in one math group with its marks as a superscript
    (``$12.5 \\pm 2.1^{\\uparrow 6}$``); mixed and missing cells as text."""
    sup = []
    if cell.state == "incomplete":
        sup.append(r"\ddagger")
    if cell.marker:
        sup.append({"↑": r"\uparrow", "↓": r"\downarrow"}.get(cell.marker, "="))
    if cell.footnotes:
        sup.append(",".join(map(str, cell.footnotes)))
    marks = f"^{{{' '.join(sup)}}}" if sup else ""
    if cell.mean is None:
        text = "mixed" if cell.state == "mixed" else "---"
        return text + (f"${marks}$" if marks else "")
    inner = f"{100 * cell.mean:.1f}"
    if cell.std is not None:
        inner += f" \\pm {100 * cell.std:.1f}"
    return f"${inner}{marks}$"


def _tex_header(table_columns: Sequence[Column], lead: int) -> list[str]:
    groups = _groups(table_columns)
    first = ["", ""] + [
        rf"\multicolumn{{{len(cols)}}}{{c}}{{{latex_escape(split_label(s))} ($k={k}$)}}"
        for s, k, cols in groups
    ]
    rules, start = [], lead + 1
    for _, _, cols in groups:
        rules.append(rf"\cmidrule(lr){{{start}-{start + len(cols) - 1}}}")
        start += len(cols)
    second = ["Base model", "Method"] + [latex_escape(c.label) for c in table_columns]
    return [" & ".join(first) + r" \\", " ".join(rules), " & ".join(second) + r" \\"]


def latex(table: PaperTable) -> str:
    out = [
        "% studybench report paper: needs \\usepackage{booktabs} (and amsmath for \\text)",
        f"% experiment: {latex_escape(table.experiment)}",
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
    ]
    if not table.columns:
        out += [
            r"No evaluation run in the selection logged a Par@k or Sub@k score.",
            r"\end{table}",
            "",
        ]
        return "\n".join(out)
    spec = "ll" + "r" * len(table.columns)
    out += [
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        *_tex_header(table.columns, 2),
        r"\midrule",
    ]
    for b, block in enumerate(table.blocks):
        if b:
            out.append(r"\midrule")
        for i, row in enumerate(block.rows):
            name = latex_escape(display_name(block.base_model)) if i == 0 else ""
            cells = [_tex_cell(row.cells[c.key]) for c in table.columns]
            out.append(" & ".join([name, latex_escape(row.method), *cells]) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}"]
    caption = (
        "Par@k and Sub@k in \\%, mean $\\pm$ std over seeds. Against the block's base model: "
        "$\\uparrow$ improved, $\\downarrow$ regressed, $=$ unchanged; $\\ddagger$ incomplete "
        "seeds; --- missing."
    )
    out.append(rf"\caption{{{caption}}}")
    out.append(r"\label{tab:studybench-main}")
    if table.footnotes:
        out.append(r"\par\footnotesize")
        out += [
            rf"\textsuperscript{{{i}}}{latex_escape(t)}\par"
            for i, t in enumerate(table.footnotes, 1)
        ]
    out.append(r"\end{table}")
    out += _tex_gap(table)
    out.append("")
    return "\n".join(out)


def _tex_gap(table: PaperTable) -> list[str]:
    if not table.gap_rows:
        return []
    pairs = _gap_pairs(table)
    texts, marks = gap_footnotes(table.gap_rows)
    out = [
        "",
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
        rf"\begin{{tabular}}{{ll{'r' * (2 * len(pairs))}}}",
        r"\toprule",
        " & ".join(
            ["", ""]
            + [
                rf"\multicolumn{{2}}{{c}}{{{latex_escape(split_label(s))} ($k={k}$)}}"
                for s, k in pairs
            ]
        )
        + r" \\",
        " ".join(rf"\cmidrule(lr){{{3 + 2 * i}-{4 + 2 * i}}}" for i in range(len(pairs))),
        " & ".join(["Base model", "Method"] + ["Par closed", "Sub closed"] * len(pairs)) + r" \\",
        r"\midrule",
    ]
    for i, gap_row in enumerate(table.gap_rows):
        cells = []
        for split, k in pairs:
            for level in ("par", "sub"):
                key = f"{split}/{level}_at_{k}"
                gap = gap_row.cells[key]
                text = latex_escape(_gap_value(gap.closed, gap.state))
                if (i, key) in marks:
                    text += f"$^{{{marks[(i, key)]}}}$"
                cells.append(text)
        out.append(
            " & ".join(
                [
                    latex_escape(display_name(gap_row.base_model)),
                    latex_escape(gap_row.method),
                    *cells,
                ]
            )
            + r" \\"
        )
    out += [r"\bottomrule", r"\end{tabular}"]
    out.append(
        r"\caption{Guidance Gap: share of the Naive Guidance gain closed, "
        r"(method $-$ base) / (guided $-$ base).}"
    )
    out.append(r"\label{tab:studybench-guidance-gap}")
    if texts:
        out.append(r"\par\footnotesize")
        out += [rf"\textsuperscript{{{i}}}{latex_escape(t)}\par" for i, t in enumerate(texts, 1)]
    out.append(r"\end{table}")
    return out


# ---------------------------------------------------------------- HTML

STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:80em}
table{border-collapse:collapse;margin:1em 0}
th,td{padding:.3em .7em;border-bottom:1px solid #ddd;text-align:right}
th:nth-child(-n+2),td:nth-child(-n+2){text-align:left}
thead th{border-bottom:2px solid #444}
tr.first td{border-top:2px solid #888}
td.missing{color:#999}td.mixed{background:#fdecea}td.incomplete{background:#fff7e0}
a{color:inherit}sup{color:#555}figure{margin:1em 0}img{max-width:100%}
ol{font-size:.9em}
"""

CHECK = (
    "window.addEventListener('load',function(){var i=document.images,n=0;"
    "for(var j=0;j<i.length;j++){if(i[j].complete&&i[j].naturalWidth>0){n++;}}"
    "document.body.setAttribute('data-figures-loaded',n+'/'+i.length);});"
)


def _html_cell(cell: Cell, ui_base: str, experiment_id: str) -> str:
    e = html.escape
    if cell.state == "missing":
        body = MISSING
    else:
        label = "mixed" if cell.state == "mixed" else score(cell)
        links = [
            f'<a href="{e(run_url(ui_base, experiment_id, r))}">'
            f"{e(label if i == 0 else f'[{i + 1}]')}</a>"
            for i, r in enumerate(cell.runs)
        ]
        body = " ".join(links) + (f" {INCOMPLETE}" if cell.state == "incomplete" else "")
    sup = (
        (cell.marker + ",".join(map(str, cell.footnotes)))
        if (cell.marker or cell.footnotes)
        else ""
    )
    title = "runs: " + ", ".join(cell.runs) if cell.runs else cell.note
    if cell.seeds:
        title += "; seeds " + ",".join(map(str, cell.seeds))
    if cell.superseded:
        title += "; superseded: " + ", ".join(cell.superseded)
    data = f' data-runs="{e(",".join(cell.runs))}"' if cell.runs else ""
    return (
        f'<td class="{cell.state}" title="{e(title)}"{data}>{body}'
        + (f"<sup>{e(sup)}</sup>" if sup else "")
        + "</td>"
    )


def page(
    table: PaperTable,
    *,
    ui_base: str,
    experiment_id: str,
    figures: Mapping[str, bytes],
    report_run: str = "",
) -> str:
    """One self-contained HTML page: the tables (each cell linked to its runs in the MLflow
    UI, run ids in the tooltip) and the figures embedded as PNG data URIs."""
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>StudyBench paper tables: {e(table.experiment)}</title>",
        f"<style>{STYLE}</style>",
        f"<script>{CHECK}</script>",
        "</head><body>",
        f"<h1>Paper tables: experiment {e(table.experiment)}</h1>",
    ]
    if report_run:
        parts.append(
            f'<p>Report run: <a href="{e(run_url(ui_base, experiment_id, report_run))}">'
            f"{e(report_run)}</a> (MLflow UI at {e(ui_base)})</p>"
        )
    parts.append("<h2>Main table</h2>")
    if table.columns:
        groups = _groups(table.columns)
        parts.append('<table id="main"><thead><tr><th></th><th></th>')
        parts += [f'<th colspan="{len(c)}">{e(split_label(s))} (k={k})</th>' for s, k, c in groups]
        parts.append("</tr><tr><th>Base model</th><th>Method</th>")
        parts += [f"<th>{e(c.label)}</th>" for c in table.columns]
        parts.append("</tr></thead><tbody>")
        for block in table.blocks:
            for i, row in enumerate(block.rows):
                name = e(display_name(block.base_model)) if i == 0 else ""
                parts.append(
                    f'<tr class="{"first" if i == 0 else ""}"><td title="{e(block.base_model)}">'
                    f"{name}</td><td>{e(row.method)}</td>"
                )
                parts += [
                    _html_cell(row.cells[c.key], ui_base, experiment_id) for c in table.columns
                ]
                parts.append("</tr>")
        parts.append("</tbody></table>")
        parts.append(
            "<p>Scores in %, mean ± std over seeds. Against the block's base model: ↑ improved, "
            f"↓ regressed, = unchanged; {INCOMPLETE} incomplete seeds; {MISSING} missing. "
            "Hover a cell for its run ids; click it for the run in MLflow.</p>"
        )
        parts.append("<ol>" + "".join(f"<li>{e(t)}</li>" for t in table.footnotes) + "</ol>")
    else:
        parts.append("<p>No evaluation run in the selection logged a Par@k or Sub@k score.</p>")
    parts.append("<h2>Guidance Gap</h2>")
    if table.gap_rows:
        pairs = _gap_pairs(table)
        texts, marks = gap_footnotes(table.gap_rows)
        parts.append('<table id="gap"><thead><tr><th>Base model</th><th>Method</th>')
        parts += [
            f"<th>{e(split_label(s))} {lv}@{k} closed</th>"
            for s, k in pairs
            for lv in ("Par", "Sub")
        ]
        parts.append("</tr></thead><tbody>")
        for i, gap_row in enumerate(table.gap_rows):
            parts.append(
                f"<tr><td>{e(display_name(gap_row.base_model))}</td><td>{e(gap_row.method)}</td>"
            )
            for split, k in pairs:
                for level in ("par", "sub"):
                    key = f"{split}/{level}_at_{k}"
                    gap = gap_row.cells[key]
                    sup = f"<sup>{marks[(i, key)]}</sup>" if (i, key) in marks else ""
                    title = "runs: " + ", ".join(gap.runs) if gap.runs else gap.note
                    parts.append(
                        f'<td class="{gap.state}" title="{e(title)}">'
                        f"{e(_gap_value(gap.closed, gap.state))}{sup}</td>"
                    )
            parts.append("</tr>")
        parts.append("</tbody></table>")
        parts.append("<ol>" + "".join(f"<li>{e(t)}</li>" for t in texts) + "</ol>")
    else:
        parts.append("<p>No method row (other than the base model and Naive Guidance).</p>")
    parts.append("<h2>Figures</h2>")
    for name, png in figures.items():
        data = base64.b64encode(png).decode("ascii")
        parts.append(
            f'<figure><img alt="{e(name)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{e(name)}</figcaption></figure>"
        )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
