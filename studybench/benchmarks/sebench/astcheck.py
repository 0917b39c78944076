"""Static checks of a candidate solution before it runs: it must use the package, and
nothing else that could reach NumPy.

The rules are an allow-list where possible: imports only of the package and of a few pure
standard-library modules; no dynamic import or reflection builtins (``__import__``,
``getattr``, ``eval``, ``globals``, ...); no attribute whose name starts with ``_`` (which
closes every dunder route: ``__class__``, ``__globals__``, ``__closure__``, the package's
private core); no attribute that names a module registry or loader (``sys``, ``modules``,
``importlib``, ...); and no NumPy array method or attribute on any object other than the
package itself (``x.mean()``, ``x.tolist()``: the wrapper refuses them at run time too).

Unlike the reference, helper functions and classes before the stub's function are allowed;
the stub's function must be defined at module level, and the code must call at least one
package function that is not just the array constructor.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable

from pydantic import BaseModel

ALLOWED_MODULES = frozenset(
    {
        "math",
        "cmath",
        "itertools",
        "functools",
        "operator",
        "collections",
        "collections.abc",
        "heapq",
        "bisect",
        "fractions",
        "decimal",
        "statistics",
        "string",
        "re",
        "typing",
        "dataclasses",
        "copy",
    }
)
FORBIDDEN_NAMES = frozenset(
    {
        "__import__",
        "__builtins__",
        "__loader__",
        "__spec__",
        "importlib",
        "sys",
        "os",
        "builtins",
        "eval",
        "exec",
        "compile",
        "getattr",
        "setattr",
        "delattr",
        "globals",
        "locals",
        "vars",
        "open",
        "breakpoint",
        "input",
        "help",
        "memoryview",
    }
)
FORBIDDEN_ATTRIBUTES = frozenset(
    {
        "sys",
        "modules",
        "os",
        "importlib",
        "import_module",
        "builtins",
        "numpy",
        "gc",
        "inspect",
        "ctypes",
        "subprocess",
        "loader",
        "spec",
        "f_globals",
        "f_locals",
        "f_back",
        "f_builtins",
        "gi_frame",
        "cr_frame",
        "ag_frame",
        "tb_frame",
    }
)
ARRAY_ATTRIBUTES_ALLOWED = frozenset({"shape", "ndim", "size", "T"})


@functools.cache
def array_only_attributes() -> frozenset[str]:
    """NumPy array methods and attributes that no plain Python container or number has
    (``copy``, ``sort``, ``real`` stay allowed: lists and numbers have them too)."""
    import numpy

    plain: set[str] = set()
    for kind in (list, dict, set, tuple, str, bytes, int, float, complex):
        plain |= set(dir(kind))
    names = set(dir(numpy.ndarray)) - plain - ARRAY_ATTRIBUTES_ALLOWED
    return frozenset(n for n in names if not n.startswith("_"))


class PackageNames(BaseModel):
    """What the checker needs to know about the obfuscated package."""

    name: str
    top: frozenset[str]
    linalg: frozenset[str]
    constructors: frozenset[str]


class Violation(BaseModel):
    rule: str
    line: int
    detail: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.rule}: {self.detail}"


class _Checker:
    def __init__(self, package: PackageNames) -> None:
        self.package = package
        self.violations: list[Violation] = []
        self.roots: set[str] = set()  # names bound to the package
        self.linalg_modules: set[str] = set()  # names bound to package.linalg
        self.functions: dict[str, bool] = {}  # alias -> is a constructor
        self.api_calls = 0
        self.constructor_calls = 0

    def flag(self, node: ast.AST, rule: str, detail: str) -> None:
        self.violations.append(Violation(rule=rule, line=getattr(node, "lineno", 0), detail=detail))

    def _module_allowed(self, node: ast.AST, module: str) -> bool:
        head = module.split(".")[0]
        if head == self.package.name:
            return True
        if head == "numpy":
            self.flag(node, "numpy-import", f"imports {module}")
        elif module not in ALLOWED_MODULES:
            self.flag(node, "import-forbidden", f"imports {module} (not allowed here)")
        return False

    def check_import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not self._module_allowed(node, alias.name):
                continue
            parts = alias.name.split(".")
            if alias.asname is None:
                self.roots.add(parts[0])
            elif parts[1:] == ["linalg"]:
                self.linalg_modules.add(alias.asname)
            elif len(parts) == 1:
                self.roots.add(alias.asname)
            else:
                self.flag(node, "import-forbidden", f"imports {alias.name}")

    def check_import_from(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level:
            self.flag(node, "import-forbidden", "relative import")
            return
        if not self._module_allowed(node, module):
            return
        parts = module.split(".")
        for alias in node.names:
            bound = alias.asname or alias.name
            if alias.name == "*":
                if parts[0] == self.package.name:
                    self.flag(node, "star-import", f"from {module} import *")
                continue
            if parts[0] != self.package.name:
                continue
            if parts == [self.package.name] and alias.name == "linalg":
                self.linalg_modules.add(bound)
            elif parts == [self.package.name] and alias.name in self.package.top:
                self.functions[bound] = alias.name in self.package.constructors
            elif parts[1:] == ["linalg"] and alias.name in self.package.linalg:
                self.functions[bound] = False

    def check_name(self, node: ast.Name) -> None:
        if node.id in FORBIDDEN_NAMES or (node.id.startswith("__") and node.id != "__name__"):
            self.flag(node, "forbidden-name", f"uses {node.id}")

    def package_attribute(self, node: ast.Attribute) -> str | None:
        """'top' / 'linalg' when ``node`` is ``<package>.x`` / ``<package>.linalg.x``."""
        base = node.value
        if isinstance(base, ast.Name) and base.id in self.roots:
            return "top"
        if isinstance(base, ast.Name) and base.id in self.linalg_modules:
            return "linalg"
        if (
            isinstance(base, ast.Attribute)
            and base.attr == "linalg"
            and isinstance(base.value, ast.Name)
            and base.value.id in self.roots
        ):
            return "linalg"
        return None


def stub_function_name(stub: str) -> str:
    """The name of the function a task's stub declares; ``ValueError`` if it declares none."""
    try:
        tree = ast.parse(stub + " ..." if stub.rstrip().endswith(":") else stub)
    except SyntaxError as exc:
        raise ValueError(f"stub does not parse: {exc.msg}") from exc
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node.name
    raise ValueError("stub defines no function")


def check_code(code: str, package: PackageNames, function: str) -> list[Violation]:
    """Every rule ``code`` breaks; empty when it may run."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        return [Violation(rule="syntax-error", line=exc.lineno or 0, detail=exc.msg)]
    checker = _Checker(package)
    # imports first, wherever they are, so aliases are known when calls are visited
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            checker.check_import(node)
        elif isinstance(node, ast.ImportFrom):
            checker.check_import_from(node)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            checker.check_name(node)
        elif isinstance(node, ast.Attribute):
            _attribute(checker, node)
        elif isinstance(node, ast.Call):
            _call(checker, node)
    defined = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if function not in defined:
        checker.flag(tree, "missing-function", f"does not define {function}() at module level")
    if checker.api_calls == 0:
        detail = (
            "calls only the array constructor"
            if checker.constructor_calls
            else f"never calls a function of {package.name}"
        )
        checker.flag(tree, "no-api-call", detail)
    return sorted(checker.violations, key=lambda v: (v.line, v.rule))


def _attribute(checker: _Checker, node: ast.Attribute) -> None:
    name = node.attr
    if name.startswith("_"):
        checker.flag(node, "private-attribute", f"accesses .{name}")
    elif name in FORBIDDEN_ATTRIBUTES:
        checker.flag(node, "forbidden-attribute", f"accesses .{name}")
    elif name in array_only_attributes() and checker.package_attribute(node) is None:
        checker.flag(node, "array-method", f".{name} is an array method; use the package")


def _call(checker: _Checker, node: ast.Call) -> None:
    func = node.func
    constructor: bool | None = None
    if isinstance(func, ast.Name) and func.id in checker.functions:
        constructor = checker.functions[func.id]
    elif isinstance(func, ast.Attribute):
        where = checker.package_attribute(func)
        if where == "top" and func.attr in checker.package.top:
            constructor = func.attr in checker.package.constructors
        elif where == "linalg" and func.attr in checker.package.linalg:
            constructor = False
    if constructor is True:
        checker.constructor_calls += 1
    elif constructor is False:
        checker.api_calls += 1


def rules(violations: Iterable[Violation]) -> list[str]:
    return sorted({v.rule for v in violations})
