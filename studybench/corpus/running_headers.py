"""Running headers and footers of converted PDF pages: which lines go, and a record of each.

A running header (or footer) is what a typesetter repeats on every page: a book or chapter
title, a page number. The rule, as narrow as that definition so that content is never taken
for it (a problem statement lost is worse than a header kept). A line is a running header
when all of these hold:

1. **Edge**: it is one of the first two or last two non-empty lines of its page; its
   *position* is the edge and the index from that edge (top 0, top 1, bottom 0, bottom 1).
2. **Repeated at the same position**: its *signature* (the text with every number replaced by
   ``#``, whitespace and Markdown emphasis ignored) is found at that same position on at
   least ``max(2, ceil(min_share * pages))`` pages; headers that alternate between left and
   right pages count among the pages of their parity, if they carry a page number (rule 3).
3. **Same text apart from a page number**: its numbers are the same on every one of those
   pages except at most one, and that one is a page number: a bare integer (not part of a
   dotted or decimal number such as ``2.5`` or ``9.80``) whose value minus the page's index
   is the same on every page (a printed page number with any offset).
4. **Short**: at most ``max_words`` words (a repeated sentence is not a header).
5. **Not a numbered heading**: a line whose page number follows its first word ("Problem 7",
   "Example 12") is a heading when body text follows it on its page, and stays; "Page 37"
   closing a page is a footer.

Lines that repeat only in their digits (``Problem 2.1`` ... ``Problem 2.4`` opening four
pages, each followed by a statement that differs only in its numbers) fail rule 3 and stay.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel

MAX_WORDS = 12
EDGE_LINES = 2
MAX_SHOWN = 120  # characters of a removed line kept in the report

# one number: 37, 2.5, 9.80, 1,000, 3:14 (a dotted, decimal or grouped number is one token)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_MARKUP = "*_#` "
# the page number right after the first word: "Problem #", "Page #", "Example #."
_LABELLED = re.compile(r"^[^\W\d_]+\.?\s+#(?:\W|$)")


class RemovedLines(BaseModel):
    """One kind of removed line: its text on the first page it was found, where it sits and
    on how many pages it was removed."""

    text: str
    position: str  # "top 1", "bottom 1" (1: the outermost line)
    pages: int
    page_number: bool  # the line carried the page number


class HeaderRemoval(BaseModel):
    """What the rule removed from one document."""

    lines_removed: int = 0
    removed: list[RemovedLines] = []

    def describe(self) -> str:
        if not self.lines_removed:
            return "no running header or footer line removed"
        kinds = "; ".join(
            f"{r.position}: {r.text!r} on {r.pages} page(s)"
            + (" (page number varies)" if r.page_number else "")
            for r in self.removed
        )
        return f"{self.lines_removed} running header/footer line(s) removed: {kinds}"


@dataclass
class _Occurrence:
    page: int
    line: int  # index in the page's lines
    numbers: tuple[str, ...]
    text: str


@dataclass
class _Group:
    signature: str
    position: tuple[str, int]
    found: list[_Occurrence] = field(default_factory=list)
    page_number: bool = False
    labelled: bool = False  # the page number follows the first word


def _split(line: str) -> tuple[str, tuple[str, ...]]:
    text = " ".join(line.split()).strip(_MARKUP)
    text = text.replace("**", "").replace("__", "").strip(_MARKUP)
    numbers = tuple(_NUMBER.findall(text))
    return _NUMBER.sub("#", text).lower(), numbers


def _edges(lines: Sequence[str]) -> list[tuple[tuple[str, int], int]]:
    """((edge, index from that edge), line index) of the edge lines of one page."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    top = [(("top", n), i) for n, i in enumerate(filled[:EDGE_LINES])]
    bottom = [(("bottom", n), i) for n, i in enumerate(reversed(filled[-EDGE_LINES:]))]
    return top + bottom


def _page_number_column(group: _Group) -> int | None:
    """The index (among the line's numbers) of its page number; -1 when no number varies;
    None when the numbers vary in any other way (not a running header)."""
    columns = list(zip(*(o.numbers for o in group.found), strict=True))
    varying = [i for i, c in enumerate(columns) if len(set(c)) > 1]
    if not varying:
        return -1
    (index, *others) = varying
    if others or not all(v.isdigit() for v in columns[index]):
        return None
    offsets = {int(v) - o.page for v, o in zip(columns[index], group.found, strict=True)}
    return index if len(offsets) == 1 else None


def _repeated_enough(group: _Group, pages: int, min_share: float) -> bool:
    def needed(of: int) -> int:
        return max(2, math.ceil(min_share * of - 1e-9))

    count = len(group.found)
    if count >= needed(pages):
        return True
    parities = {o.page % 2 for o in group.found}
    if not group.page_number or len(parities) != 1:
        return False
    (parity,) = parities
    return count >= needed(len(range(parity, pages, 2)))


def strip_running_headers(
    pages: Sequence[str], min_share: float = 0.5, max_words: int = MAX_WORDS
) -> tuple[list[str], HeaderRemoval]:
    """The pages without their running headers and footers (the rule of this module), and
    what was removed."""
    if len(pages) < 2:
        return list(pages), HeaderRemoval()
    split_pages = [page.splitlines() for page in pages]
    groups: dict[tuple[tuple[str, int], str], _Group] = {}
    for page_index, lines in enumerate(split_pages):
        for position, line_index in _edges(lines):
            signature, numbers = _split(lines[line_index])
            if not signature or len(signature.split()) > max_words:
                continue
            group = groups.setdefault(
                (position, signature), _Group(signature=signature, position=position)
            )
            group.found.append(_Occurrence(page_index, line_index, numbers, lines[line_index]))
    headers: list[_Group] = []
    for group in groups.values():
        column = _page_number_column(group)
        if column is None:
            continue
        group.page_number = column >= 0
        group.labelled = column == 0 and bool(_LABELLED.match(group.signature))
        if _repeated_enough(group, len(pages), min_share):
            headers.append(group)
    drop = {(o.page, o.line) for g in headers for o in g.found}

    def heading(group: _Group) -> bool:  # rule 5: body text follows it on a page
        return any(
            (o.page, i) not in drop and split_pages[o.page][i].strip()
            for o in group.found
            for i in range(o.line + 1, len(split_pages[o.page]))
        )

    labelled = [g for g in headers if g.labelled]
    kept = [g for g in labelled if heading(g)]
    for group in kept:
        drop -= {(o.page, o.line) for o in group.found}
    removed = [g for g in headers if g not in kept]
    out = [
        "\n".join(line for i, line in enumerate(lines) if (p, i) not in drop)
        for p, lines in enumerate(split_pages)
    ]
    report = HeaderRemoval(
        lines_removed=len(drop),
        removed=[
            RemovedLines(
                text=" ".join(g.found[0].text.split())[:MAX_SHOWN],
                position=f"{g.position[0]} {g.position[1] + 1}",
                pages=len({o.page for o in g.found}),
                page_number=g.page_number,
            )
            for g in sorted(removed, key=lambda g: (g.position, g.signature))
        ],
    )
    return out, report
