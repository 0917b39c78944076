"""Small file helpers shared by every layer: atomic writes and the one safe JSON reader.

User JSON (release splits, ``verify --cases`` tables, SE-Bench task files) is hostile input:
200,000 nested brackets make :func:`json.loads` raise ``RecursionError`` and a 5,000-digit
integer raises a bare ``ValueError`` (CPython's int-conversion limit). :func:`loads_json` and
:func:`read_json` turn every such failure into a :class:`JSONReadError` (a ``DataError``)
naming the file, the line and column where known, and the reason; they also refuse nesting
deeper than :data:`MAX_JSON_DEPTH`, because code after the parser (``copy.deepcopy``,
pydantic, ``json.dumps``) recurses too and would fail later with a traceback.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from studybench.errors import DataError

# No StudyBench, EvaLearn or SE-Bench file nests deeper than ~8 levels; 100 leaves room for
# any honest file and keeps every recursive consumer far from Python's recursion limit.
MAX_JSON_DEPTH = 100


class JSONReadError(DataError):
    """A JSON file or text could not be read; ``str()`` names the source and the reason."""

    def __init__(self, source: str, reason: str, line: int | None = None) -> None:
        self.source = source
        self.reason = reason
        self.line = line
        super().__init__(f"{source}: {reason}")


def write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a killed stage never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` nests deeper than ``limit`` containers (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def loads_json(text: str, *, source: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse ``text``; raises :class:`JSONReadError` naming ``source`` on any failure."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        reason = f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        raise JSONReadError(source, reason, exc.lineno) from None
    except RecursionError:
        raise JSONReadError(source, f"JSON nested deeper than {max_depth} levels") from None
    except ValueError as exc:  # CPython's integer-digits limit, raised by int()
        limit = sys.get_int_max_str_digits()
        text = str(exc)
        reason = f"a number has more than {limit} digits" if "digits" in text else text
        raise JSONReadError(source, f"invalid JSON: {reason}") from None
    if _depth_exceeds(value, max_depth):
        raise JSONReadError(source, f"JSON nested deeper than {max_depth} levels")
    return value


def read_json(path: Path | str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Read and parse a UTF-8 JSON file (a BOM is allowed); raises :class:`JSONReadError`."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise JSONReadError(str(path), f"cannot read file: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise JSONReadError(str(path), f"not UTF-8 at byte {exc.start}") from None
    return loads_json(text, source=str(path), max_depth=max_depth)


def read_jsonl(path: Path | str, *, max_depth: int = MAX_JSON_DEPTH) -> list[Any]:
    """One JSON value per non-empty line; errors name the file and the line."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise JSONReadError(str(path), f"cannot read file: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise JSONReadError(str(path), f"not UTF-8 at byte {exc.start}") from None
    values = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            values.append(loads_json(line, source=f"{path} line {number}", max_depth=max_depth))
    return values
