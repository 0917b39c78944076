"""SE-Bench tasks: the release format, loading and validation.

A task file is a JSON list of task objects (or ``{"tasks": [...]}``, or JSON Lines), each:

| field | meaning |
|---|---|
| ``id`` | unique task id |
| ``query`` | the task in words (never names a package function) |
| ``stub`` | the function to complete, e.g. ``def row_norms(matrix):`` |
| ``example`` | an example call and its result, shown in the prompt (optional) |
| ``test_cases`` | ``[{"args": [...], "kwargs": {...}, "expected": ...}]``, plain JSON; |
| | ``arrays`` names keyword arguments passed as the package's array; complex numbers are |
| | ``{"complex": [re, im]}``; an ``expected`` string that is no data is compared as text |
| ``functions`` | the NumPy functions the reference solution uses (``mean``, ``linalg.inv``) |
| ``split`` | optional; default ``single`` (one function besides the array constructor), |
| | else ``multi`` |
| ``solution`` | optional reference solution written with NumPy (``import numpy as np``) |

Every problem is reported with the file, the record (index and id) and the field. The
released SE-Bench files (one JSON object per line) are converted by :mod:`.release`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from studybench.benchmarks.sebench.astcheck import stub_function_name
from studybench.benchmarks.sebench.functions import CONSTRUCTORS
from studybench.errors import DataError
from studybench.fileio import JSONReadError, loads_json


class TestCase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    args: list[Any] = Field(default_factory=list)
    kwargs: dict[str, Any] = Field(default_factory=dict)
    arrays: tuple[str, ...] = Field((), description="kwargs passed as the package's array")
    expected: Any

    @model_validator(mode="after")
    def _arrays_are_kwargs(self) -> TestCase:
        missing = sorted(set(self.arrays) - set(self.kwargs))
        if missing:
            raise ValueError(f"arrays names no keyword argument: {', '.join(missing)}")
        return self


class SETask(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    query: str = Field(min_length=1)
    stub: str = Field(min_length=1)
    example: str = ""
    test_cases: tuple[TestCase, ...] = Field(min_length=1)
    functions: tuple[str, ...] = Field(min_length=1)
    split: str = ""
    solution: str = ""

    @model_validator(mode="after")
    def _derive_split(self) -> SETask:
        if not self.split:
            api = [f for f in self.functions if f not in CONSTRUCTORS]
            object.__setattr__(self, "split", "single" if len(api) <= 1 else "multi")
        return self

    @property
    def function_name(self) -> str:
        return stub_function_name(self.stub)


def numpy_functions_used(code: str) -> set[str]:
    """The NumPy functions ``code`` calls through ``np.`` / ``np.linalg.`` (the sample's
    reference solutions import ``numpy as np``)."""
    used: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if not isinstance(node, ast.Attribute):
            continue
        base = node.value
        if isinstance(base, ast.Name) and base.id == "np" and node.attr != "linalg":
            used.add(node.attr)
        elif (
            isinstance(base, ast.Attribute)
            and base.attr == "linalg"
            and isinstance(base.value, ast.Name)
            and base.value.id == "np"
        ):
            used.add(f"linalg.{node.attr}")
    return used


def _records(path: Path) -> list[Any]:
    """The task records of a JSON list, ``{"tasks": [...]}`` or JSON Lines file; hostile
    input (deep nesting, huge integers) is a :class:`DataError` naming the file and line."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise DataError(f"{path}: cannot read SE-Bench tasks: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 at byte {exc.start}") from exc
    try:
        data = loads_json(text, source=str(path))
    except JSONReadError as whole:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) < 2:
            raise DataError(str(whole)) from None
        return [loads_json(line, source=f"{path}: line {n}") for n, line in lines]
    if isinstance(data, dict) and isinstance(data.get("tasks"), list):
        return list(data["tasks"])
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a list of tasks or {{'tasks': [...]}}")
    return data


def _where(path: Path, index: int, record: Any) -> str:
    task_id = record.get("id") if isinstance(record, dict) else None
    return f"{path}: record {index}" + (f" (id={task_id})" if task_id else "")


def load_tasks(path: Path, known_functions: Iterable[str] | None = None) -> list[SETask]:
    """Read and validate a task file; :class:`DataError` names file, record and field."""
    known = set(known_functions) if known_functions is not None else None
    tasks: list[SETask] = []
    seen: dict[str, int] = {}
    for index, record in enumerate(_records(path)):
        where = _where(path, index, record)
        try:
            task = SETask.model_validate(record)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "(record)"
            raise DataError(f"{where}: field {field}: {first['msg']}") from exc
        try:
            task.function_name  # noqa: B018 - validates the stub
        except ValueError as exc:
            raise DataError(f"{where}: field stub: {exc}") from exc
        if task.id in seen:
            raise DataError(f"{where}: field id: duplicate of record {seen[task.id]}")
        seen[task.id] = index
        if known is not None:
            missing = sorted(set(task.functions) - known)
            if missing:
                raise DataError(
                    f"{where}: field functions: not in the package's function list: "
                    + ", ".join(missing)
                )
        if task.solution:
            try:
                used = numpy_functions_used(task.solution)
            except SyntaxError as exc:
                raise DataError(f"{where}: field solution: does not parse: {exc.msg}") from exc
            if used != set(task.functions):
                raise DataError(
                    f"{where}: field functions: {sorted(task.functions)} but the solution "
                    f"uses {sorted(used)}"
                )
        tasks.append(task)
    if not tasks:
        raise DataError(f"{path}: no tasks")
    return tasks


def by_split(tasks: Sequence[SETask]) -> dict[str, list[SETask]]:
    out: dict[str, list[SETask]] = {}
    for task in tasks:
        out.setdefault(task.split, []).append(task)
    return out
