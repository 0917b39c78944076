"""The released SE-Bench files, read into the project's tasks and documentation.

**Tasks** (``train.jsonl``, ``single_test.jsonl``, ``multiple_test.jsonl``: one JSON object
per line, the same fields in all three):

| released field | becomes |
|---|---|
| ``query`` | ``query`` |
| ``function_name`` (the stub's text) | ``stub`` |
| ``example`` (``{input text: output}``) | ``example``: the first pair, as the prompt shows it |
| ``test_cases[i].input`` (``p1=..., p2=...``) | ``test_cases[i].kwargs`` (``np.array(...)`` |
| | values become lists marked in ``arrays``, passed as the package's array) |
| ``right_exe_result`` (printed outputs joined by ``#``) | ``test_cases[i].expected``, parsed |
| | as data; an output that is no data is kept as text and compared as printed text |
| ``selected_functions`` | ``functions`` (``inv`` of ``numpy.linalg`` becomes ``linalg.inv``) |
| ``is_valid`` | records with ``false`` are skipped, as the reference rolls out valid ones only |

``test_cases[i].output`` is not used, as in the reference (its judge reads only
``right_exe_result``). A task's id is the record's ``id`` when it has one, else
``<file stem>-<line>``; its split is ``single`` / ``multi`` / ``train`` from the file name.

Printed outputs are parsed without ``eval``: NumPy's print forms (``[1. 2.5]``, nested rows,
``array(...)``, ``np.float64(...)``, ``inf``/``nan``) are normalised, then a small literal
parser accepts numbers, strings, booleans, ``None``, lists, tuples and dicts only.

**Documentation** (``datasets/train/api_doc.jsonl``: ``original_name``, ``curr_name``,
``rewritten_doc``) maps onto the package by the obfuscated name, so it can replace the
generated open-book docs (``sebench.api_docs``).

Every problem names the file, the line and the field.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studybench.benchmarks.sebench.astcheck import stub_function_name
from studybench.benchmarks.sebench.functions import LINALG, MAIN
from studybench.benchmarks.sebench.tasks import SETask
from studybench.errors import DataError
from studybench.fileio import JSONReadError, loads_json

SPLITS = {"single_test": "single", "multiple_test": "multi", "train": "train"}
_ARRAY_CALLS = frozenset({"np.array", "numpy.array", "zwc.yitaf", "array", "np.asarray"})
_CONSTANTS = {"inf": float("inf"), "nan": float("nan"), "True": True, "False": False}
_NUMPY_SCALAR = re.compile(r"\bnp\.(?:float|int|uint|complex|bool|str)_?\d*\(([^()]*)\)")
_WRAPPER_WORD = re.compile(r"\b(?:ZWCArray|array)\(")
_MISSING_COMMA = re.compile(r"(?<=[\w.\]'\")])\s+(?=[\w.\-+\['\"(])")


class _NotDataError(ValueError):
    """The text is not a literal this parser accepts."""


def _value(node: ast.AST) -> Any:
    """A literal's value: numbers, strings, booleans, None, lists, tuples, dicts; ``inf`` and
    ``nan`` names; ``float('inf')``; signs and complex sums. Tuples become lists."""
    if isinstance(node, ast.Constant) and isinstance(
        node.value, (int, float, complex, str, bool, type(None))
    ):
        return node.value
    if isinstance(node, ast.Name) and node.id in _CONSTANTS:
        return _CONSTANTS[node.id]
    if isinstance(node, ast.Attribute) and node.attr in ("inf", "nan"):
        return _CONSTANTS[node.attr]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(e) for e in node.elts]
    if isinstance(node, ast.Dict) and all(k is not None for k in node.keys):
        return {_value(k): _value(v) for k, v in zip(node.keys, node.values, strict=True)}  # type: ignore[arg-type]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _value(node.operand)
        if isinstance(operand, (int, float, complex)) and not isinstance(operand, bool):
            return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        left, right = _value(node.left), _value(node.right)
        if isinstance(left, (int, float)) and isinstance(right, complex):
            return left + right if isinstance(node.op, ast.Add) else left - right
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "float"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value in ("inf", "-inf", "nan")
    ):
        return float(node.args[0].value)
    raise _NotDataError(f"not a literal: {ast.dump(node)[:80]}")


def to_json(value: Any) -> Any:
    """Parsed data as the task format stores it: complex numbers as ``{"complex": [re, im]}``."""
    if isinstance(value, complex):
        return {"complex": [value.real, value.imag]}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def parse_printed(text: str) -> Any:
    """A printed output as data; ``_NotDataError`` when it is none (then it is compared as text)."""
    normal = _NUMPY_SCALAR.sub(r"\1", text.strip())
    normal = _WRAPPER_WORD.sub("(", normal)
    normal = " ".join(normal.split())
    if "'" not in normal and '"' not in normal:  # commas inside strings would change them
        normal = _MISSING_COMMA.sub(", ", normal)
    try:
        tree = ast.parse(normal, mode="eval")
    except (SyntaxError, RecursionError, ValueError, MemoryError) as exc:
        raise _NotDataError(str(exc)) from None
    try:
        return to_json(_value(tree.body))
    except RecursionError:
        raise _NotDataError("nested too deeply") from None


def _call_name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_call_name(node.value)}.{node.attr}"
    return ""


def parse_input(text: str) -> tuple[list[Any], dict[str, Any], list[str]]:
    """``p1=..., p2=...`` → (positional args, kwargs, kwargs given as arrays)."""
    try:
        call = ast.parse(f"_({text})", mode="eval").body
    except (SyntaxError, RecursionError, ValueError) as exc:
        raise _NotDataError(f"does not parse as call arguments: {exc}") from None
    assert isinstance(call, ast.Call)
    arrays: list[str] = []

    def argument(node: ast.AST, name: str | None) -> Any:
        if isinstance(node, ast.Call) and _call_name(node.func) in _ARRAY_CALLS and node.args:
            if name is None:
                raise _NotDataError(
                    "an array given by position (only keyword arrays are supported)"
                )
            arrays.append(name)
            return to_json(_value(node.args[0]))
        return to_json(_value(node))

    args = [argument(a, None) for a in call.args]
    kwargs: dict[str, Any] = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            raise _NotDataError("**kwargs in a test input")
        kwargs[keyword.arg] = argument(keyword.value, keyword.arg)
    return args, kwargs, arrays


def function_path(name: str) -> str | None:
    """A released ``selected_functions`` entry as a package path, ``None`` if unknown."""
    bare = re.sub(r"^(?:np|numpy)\.", "", name.strip())
    if bare.startswith("linalg."):
        return bare if bare[7:] in LINALG else None
    if bare in MAIN:
        return bare
    return f"linalg.{bare}" if bare in LINALG else None


def _lines(path: Path) -> Iterator[tuple[int, Any]]:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 at byte {exc.start}") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                yield number, loads_json(line, source=f"{path}: line {number}")
            except JSONReadError as exc:
                raise DataError(str(exc)) from None


def _task(record: Mapping[str, Any], where: str, task_id: str, split: str) -> SETask:
    def need(field: str, kind: type | tuple[type, ...]) -> Any:
        if field not in record:
            raise DataError(f"{where}: field {field}: missing")
        if not isinstance(record[field], kind):
            raise DataError(f"{where}: field {field}: expected {getattr(kind, '__name__', kind)}")
        return record[field]

    query, stub = need("query", str), need("function_name", str)
    try:
        stub_function_name(stub)
    except ValueError as exc:
        raise DataError(f"{where}: field function_name: {exc}") from None
    example = need("example", dict)
    shown = repr(dict([(k, str(v)) for k, v in list(example.items())[:1]]))
    cases = need("test_cases", list)
    printed = need("right_exe_result", str).split("#")
    if len(printed) != len(cases):
        raise DataError(
            f"{where}: field right_exe_result: {len(printed)} outputs for {len(cases)} test cases"
        )
    test_cases = []
    for i, (case, output) in enumerate(zip(cases, printed, strict=True)):
        if not isinstance(case, dict) or not isinstance(case.get("input"), str):
            raise DataError(f"{where}: field test_cases[{i}].input: missing or not text")
        try:
            args, kwargs, arrays = parse_input(case["input"])
        except _NotDataError as exc:
            raise DataError(f"{where}: field test_cases[{i}].input: {exc}") from None
        try:
            expected: Any = parse_printed(output)
        except _NotDataError:
            expected = output.strip()
        test_cases.append({"args": args, "kwargs": kwargs, "arrays": arrays, "expected": expected})
    functions = []
    for name in need("selected_functions", list):
        path = function_path(str(name))
        if path is None:
            raise DataError(f"{where}: field selected_functions: {name!r} is not wrapped")
        functions.append(path)
    try:
        return SETask.model_validate(
            {
                "id": task_id,
                "query": query,
                "stub": stub,
                "example": shown if example else "",
                "test_cases": test_cases,
                "functions": functions,
                "split": split,
            }
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "(record)"
        raise DataError(f"{where}: field {field}: {first['msg']}") from None


def import_release(
    path: Path, split: str | None = None
) -> tuple[list[SETask], list[tuple[int, str]]]:
    """The valid tasks of one released file, and (line, id) of the ones skipped as invalid."""
    chosen = split or SPLITS.get(path.stem, path.stem)
    tasks: list[SETask] = []
    skipped: list[tuple[int, str]] = []
    for number, record in _lines(path):
        where = f"{path}: line {number}"
        if not isinstance(record, dict):
            raise DataError(f"{where}: expected a JSON object")
        task_id = str(record.get("id") or f"{path.stem}-{number}")
        valid = record.get("is_valid", True)
        if not isinstance(valid, bool):
            raise DataError(f"{where}: field is_valid: expected true or false")
        if not valid:
            skipped.append((number, task_id))
            continue
        tasks.append(_task(record, where, task_id, chosen))
    return tasks, skipped


def import_files(paths: Sequence[Path]) -> tuple[list[SETask], int]:
    """Tasks of several released files (ids must stay unique), and how many were skipped."""
    tasks: list[SETask] = []
    skipped = 0
    seen: dict[str, str] = {}
    for path in paths:
        found, invalid = import_release(path)
        skipped += len(invalid)
        for task in found:
            if task.id in seen:
                raise DataError(f"{path}: field id: {task.id!r} is also in {seen[task.id]}")
            seen[task.id] = str(path)
        tasks += found
    return tasks, skipped


def released_docs(path: Path, mapping: Mapping[str, str]) -> dict[str, str]:
    """``{package path: rewritten_doc}`` from the release's ``api_doc.jsonl``."""
    by_name = {name: p for p, name in mapping.items()}
    docs: dict[str, str] = {}
    for number, record in _lines(path):
        where = f"{path}: line {number}"
        if not isinstance(record, dict):
            raise DataError(f"{where}: expected a JSON object")
        for field in ("original_name", "curr_name", "rewritten_doc"):
            if not isinstance(record.get(field), str):
                raise DataError(f"{where}: field {field}: missing or not text")
        target = by_name.get(record["curr_name"])
        if target is None:
            continue  # a function this (narrowed) package does not wrap
        if target.rpartition(".")[2] != record["original_name"]:
            raise DataError(
                f"{where}: field curr_name: {record['curr_name']} is {target} here, not "
                f"{record['original_name']} (another name seed or function list?)"
            )
        docs[target] = record["rewritten_doc"]
    return docs
