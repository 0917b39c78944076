"""The prompts carry the reference's parts in the reference's order (spec §3): one user
message, no system prompt; the open book adds the functions' documentation first."""

from __future__ import annotations

import ast

from studybench.benchmarks.sebench.package import ObfuscatedPackage
from studybench.benchmarks.sebench.prompts import (
    DOCS_HEADING,
    EXAMPLE_HEADING,
    FUNCTION_HEADING,
    PROBLEM_HEADING,
    REQUIREMENTS_HEADING,
    messages,
)
from studybench.benchmarks.sebench.tasks import SETask

TASK = SETask.model_validate(
    {
        "id": "p",
        "query": "Return the inverse of the matrix.",
        "stub": "def inverse(matrix):",
        "example": "{'matrix=np.array([[2.0]])': '[[0.5]]'}",
        "test_cases": [{"kwargs": {"matrix": [[2.0]]}, "expected": [[0.5]]}],
        "functions": ["array", "linalg.inv"],
    }
)


def _positions(text: str, parts: list[str]) -> list[int]:
    return [text.index(p) for p in parts]


def test_closed_book_parts_in_order(package: ObfuscatedPackage) -> None:
    (message,) = messages(TASK, package, "closed_book")
    assert message.role == "user"
    text = message.content
    headings = [PROBLEM_HEADING, EXAMPLE_HEADING, FUNCTION_HEADING, REQUIREMENTS_HEADING]
    assert _positions(text, headings) == sorted(_positions(text, headings))
    assert DOCS_HEADING.format(package="zwc") not in text
    assert "zwc.yitaf([[2.0]])" in text and "np.array" not in text  # as the reference shows it
    assert text.index("def inverse(matrix):") > text.index(FUNCTION_HEADING)
    assert "```python" in text and "numpy" not in text.lower()


def test_open_book_adds_the_documentation_first(package: ObfuscatedPackage) -> None:
    (message,) = messages(TASK, package, "open_book")
    text = message.content
    docs = DOCS_HEADING.format(package="zwc")
    assert text.index(docs) < text.index(PROBLEM_HEADING) < text.index(REQUIREMENTS_HEADING)
    section = text[text.index(docs) + len(docs) : text.index(PROBLEM_HEADING)].strip()
    entries = ast.literal_eval(section)  # a Python list of {name: documentation}
    assert [next(iter(e)) for e in entries] == ["zwc.yitaf", "zwc.rfx.quvohe"]
    assert "numpy" not in text.lower() and "functions listed under" in text
