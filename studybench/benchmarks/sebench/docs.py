"""API documentation of the obfuscated package, rewritten from NumPy's own docstrings.

Each entry keeps what a user needs to call the function (summary, signature, parameters,
returns, raises and, when they only use functions of the package, the examples) and drops
what would tie it back to NumPy (see-also lists, notes, references). References to wrapped
functions become the new names; any other mention of NumPy becomes the package's name; a
final check refuses an entry that still names NumPy.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

KEPT_SECTIONS = ("Parameters", "Returns", "Yields", "Raises", "Examples")
_SIGNATURE_LINE = re.compile(r"^[A-Za-z_][\w.]*\(.*\)(\s*->.*)?$")
_SECTION_RULE = re.compile(r"^-{3,}\s*$")
_QUALIFIED = re.compile(r"\b(?:numpy|np)\.(linalg\.)?([A-Za-z_]\w*)")
_ROLE = re.compile(
    r":(?:py:)?(?:func|meth|class|obj|attr|ref|doc|data|mod|term):`~?([^`<]*?)(?:\s*<[^>]*>)?`"
)
_BACKTICKED = re.compile(r"(`{1,2})([A-Za-z_][\w.]*)\1")
_NUMPY_WORD = re.compile(r"numpy", re.IGNORECASE)
_NDARRAY = re.compile(r"\bndarrays?\b")


class ApiEntry(BaseModel):
    """One documented function of the package."""

    function: str  # the qualified new name, ``zwc.kocito`` / ``zwc.rfx.quvohe``
    signature: str
    doc: str

    def render(self) -> str:
        return f"{self.function}{self.signature}\n{self.doc}".strip()


def split_sections(doc: str) -> tuple[str, dict[str, str]]:
    """NumPy-style docstring → (introduction, {section title: body})."""
    lines = doc.splitlines()
    intro: list[str] = []
    sections: dict[str, list[str]] = {}
    current: list[str] = intro
    i = 0
    while i < len(lines):
        line = lines[i]
        if i + 1 < len(lines) and line.strip() and _SECTION_RULE.match(lines[i + 1]):
            current = sections.setdefault(line.strip(), [])
            i += 2
            continue
        current.append(line)
        i += 1
    return "\n".join(intro).strip(), {k: "\n".join(v).strip() for k, v in sections.items()}


class _Rewriter:
    def __init__(self, mapping: Mapping[str, str], package: str, linalg_module: str) -> None:
        self.mapping = mapping
        self.package = package
        self.linalg = linalg_module
        self.unmapped = 0

    def qualified(self, path: str) -> str:
        linalg = f"{self.package}.{self.linalg}."
        prefix = linalg if path.startswith("linalg.") else f"{self.package}."
        return prefix + self.mapping[path]

    def _replace(self, match: re.Match[str]) -> str:
        path = (match.group(1) or "") + match.group(2)
        if path in self.mapping:
            return self.qualified(path)
        if path == "ndarray":
            return f"{self.package}.{self.package.upper()}Array"
        self.unmapped += 1
        return match.group(2)

    def _backticked(self, match: re.Match[str]) -> str:
        name = match.group(2)
        if name in self.mapping:
            return f"{match.group(1)}{self.qualified(name)}{match.group(1)}"
        return match.group(0)

    def __call__(self, text: str) -> str:
        text = _ROLE.sub(lambda m: m.group(1), text)
        text = text.replace(">>> import numpy as np", f">>> import {self.package}")
        text = _QUALIFIED.sub(self._replace, text)
        text = _BACKTICKED.sub(self._backticked, text)
        text = _NDARRAY.sub(f"{self.package}.{self.package.upper()}Array", text)
        return _NUMPY_WORD.sub(self.package, text)


def signature_of(func: Any, doc: str) -> tuple[str, str]:
    """(signature text without the name, docstring without a leading signature line)."""
    first, _, rest = doc.partition("\n")
    if _SIGNATURE_LINE.match(first.strip()):
        sig = first.strip()
        return sig[sig.index("(") :], rest.lstrip("\n")
    try:
        return str(inspect.signature(func)), doc
    except (TypeError, ValueError):
        return "(...)", doc


def api_entry(
    path: str,
    func: Any,
    mapping: Mapping[str, str],
    package: str,
    max_chars: int,
    linalg_module: str = "rfx",
) -> ApiEntry:
    """The rewritten documentation of ``func`` (the NumPy function at ``path``)."""
    raw = inspect.getdoc(func) or ""
    signature, body = signature_of(func, raw)
    intro, sections = split_sections(body)
    rewrite = _Rewriter(mapping, package, linalg_module)
    parts = [rewrite(intro)]
    for title in KEPT_SECTIONS:
        if title not in sections:
            continue
        before = rewrite.unmapped
        text = rewrite(sections[title])
        if title == "Examples" and rewrite.unmapped > before:
            continue  # an example calling something the package lacks would mislead
        parts.append(f"{title}\n{'-' * len(title)}\n{text}")
    doc = "\n\n".join(p for p in parts if p)
    if len(doc) > max_chars:
        doc = "\n\n".join(p for p in parts[:-1] if p) if parts[-1].startswith("Examples\n") else doc
    if len(doc) > max_chars:
        doc = doc[: max_chars - 1].rstrip() + "…"
    entry = ApiEntry(
        function=rewrite.qualified(path), signature=rewrite(signature), doc=doc.strip()
    )
    if _NUMPY_WORD.search(entry.render()):
        raise ValueError(f"documentation of {path} still names NumPy")
    return entry
