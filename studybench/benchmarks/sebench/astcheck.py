"""Static checks of a candidate solution before it runs: an allowlist of what it may import,
name and call, and the reference's rule that the called function really uses the package.

Everything not listed is refused, so a route nobody thought of is closed too:

* **Imports**: the package (``zwc``, ``zwc.rfx`` and their functions) and a few pure
  standard-library modules, each with the names a solution may take from it
  (:data:`MODULE_NAMES`: ``math`` and ``itertools`` whole, ``functools.reduce`` but no
  ``operator.attrgetter``). ``numpy`` gets its own rule name.
* **Names**: a name must be bound by the code itself or be one of :data:`SAFE_BUILTINS`
  (``len``, ``range``, ``sorted``, exceptions...). ``getattr``, ``eval``, ``globals``,
  ``__import__``, ``type``, ``open`` and every dunder name are therefore refused.
* **Attributes**: never one starting with ``_`` (``__globals__``, ``_value``, the package's
  ``_core``); on an imported module, only its listed names; on the package, only its
  functions, its ``linalg`` submodule and its array type; on anything else, only a method or
  attribute of plain Python values (:data:`SAFE_ATTRIBUTES`: ``append``, ``items``, ``real``,
  the array's ``shape``...) or one the code defines on its own objects (``self.total``),
  never a frame's, code object's or module's. NumPy array methods get the rule name
  ``array-method``.
* **Use of the package** (the reference's rule, on the function the harness calls): it is
  defined, its body calls at least one package function other than a single call of the
  array constructor, and it returns a value.
"""

from __future__ import annotations

import ast
import builtins
import collections
import decimal
import fractions
import functools
import importlib
import re
from collections.abc import Iterable
from types import ModuleType

from pydantic import BaseModel


def _public(module_name: str) -> frozenset[str]:
    """Every public non-module name of a module."""
    module = importlib.import_module(module_name)
    return frozenset(
        n
        for n in dir(module)
        if not n.startswith("_") and not isinstance(getattr(module, n), ModuleType)
    )


MODULE_NAMES: dict[str, frozenset[str]] = {
    "math": _public("math"),
    "cmath": _public("cmath"),
    "itertools": _public("itertools"),
    "heapq": _public("heapq"),
    "bisect": _public("bisect"),
    "statistics": _public("statistics"),
    "decimal": _public("decimal"),
    "fractions": frozenset({"Fraction"}),
    "copy": frozenset({"copy", "deepcopy"}),
    "collections": frozenset(
        {"Counter", "defaultdict", "deque", "OrderedDict", "namedtuple", "ChainMap"}
    ),
    "functools": frozenset(
        {"reduce", "partial", "lru_cache", "cache", "cmp_to_key", "total_ordering", "wraps"}
    ),
    "operator": frozenset(
        "add sub mul truediv floordiv mod pow neg pos abs eq ne lt le gt ge and_ or_ xor not_ "
        "truth concat contains countOf indexOf index inv invert lshift rshift matmul".split()
    ),
    "string": frozenset(
        "ascii_letters ascii_lowercase ascii_uppercase digits hexdigits octdigits punctuation "
        "printable whitespace".split()
    ),
    "re": frozenset(
        "compile match search fullmatch findall finditer sub subn split escape IGNORECASE I "
        "MULTILINE M DOTALL S VERBOSE X ASCII A".split()
    ),
    "typing": frozenset(
        "Any Callable Dict FrozenSet Iterable Iterator List Mapping Optional Sequence Set "
        "Tuple Union Generator".split()
    ),
}

SAFE_BUILTINS = frozenset(
    {
        *"abs all any ascii bin bool bytes callable chr complex dict divmod enumerate filter "
        "float frozenset hash hex id int isinstance iter len list map max min next oct ord pow "
        "print range repr reversed round set slice sorted str sum tuple zip classmethod "
        "staticmethod property Ellipsis NotImplemented".split(),
        *(
            n
            for n in dir(builtins)
            if isinstance(getattr(builtins, n), type)
            and issubclass(getattr(builtins, n), Exception)
        ),
    }
)

_VALUE_TYPES: tuple[type, ...] = (
    list, dict, str, set, frozenset, tuple, int, float, complex, bool, bytes, range, slice,
    collections.Counter, collections.deque, collections.OrderedDict, collections.defaultdict,
    fractions.Fraction, decimal.Decimal, re.Pattern, re.Match,
)  # fmt: skip
SAFE_ATTRIBUTES = frozenset(
    {n for kind in _VALUE_TYPES for n in dir(kind) if not n.startswith("_")}
    - {"format", "format_map", "mro"}  # str.format walks attributes named in a string
    | {"shape", "dtype", "ndim", "size", "T", "args"}
)


# attribute names a solution may not give its own objects either: they would open the
# object-specific rule to frames, code objects and modules reached through an alias
_INTROSPECTION = re.compile(r"^(?:gi|cr|ag|f|tb|co)_")
_MODULE_VALUED = frozenset(
    name
    for module in (*MODULE_NAMES, "numpy")
    if module != "numpy"
    for name in dir(importlib.import_module(module))
    if isinstance(getattr(importlib.import_module(module), name), ModuleType)
) | {"numpy", "sys", "os", "builtins", "modules", "importlib"}


def _own_attributes(tree: ast.AST) -> set[str]:
    """Attribute names the code gives its own objects (``self.total = ...``, methods and
    class attributes), except any that could name a frame, code object or module."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                    targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                    names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return {n for n in names if not _INTROSPECTION.match(n) and n not in _MODULE_VALUED}


@functools.cache
def array_only_attributes() -> frozenset[str]:
    """NumPy array methods and attributes no plain Python value has (for a clearer rule)."""
    import numpy

    return frozenset(n for n in dir(numpy.ndarray) if not n.startswith("_")) - SAFE_ATTRIBUTES


class PackageNames(BaseModel):
    """What the checker needs to know about the obfuscated package."""

    name: str
    linalg_module: str = "rfx"
    array_class: str = "ZWCArray"
    top: frozenset[str]
    linalg: frozenset[str]
    constructors: frozenset[str]


class Violation(BaseModel):
    rule: str
    line: int
    detail: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.rule}: {self.detail}"


def _bound_names(tree: ast.AST) -> set[str]:
    """Every name the code binds itself (assignments, parameters, definitions, imports...)."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound.add(node.rest)
    return bound


class _Checker:
    def __init__(self, package: PackageNames) -> None:
        self.package = package
        self.violations: list[Violation] = []
        self.roots: set[str] = set()  # names bound to the package
        self.linalg_modules: set[str] = set()  # names bound to package.<linalg>
        self.modules: dict[str, str] = {}  # name bound to an allowed module -> module
        self.functions: dict[str, bool] = {}  # alias of a package function -> constructor?
        self.own_attributes: set[str] = set()  # attribute names the code defines itself

    def flag(self, node: ast.AST, rule: str, detail: str) -> None:
        self.violations.append(Violation(rule=rule, line=getattr(node, "lineno", 0), detail=detail))

    def _head_allowed(self, node: ast.AST, module: str) -> bool:
        head = module.split(".")[0]
        if head == self.package.name:
            return True
        if head == "numpy":
            self.flag(node, "numpy-import", f"imports {module}")
        elif module not in MODULE_NAMES:
            self.flag(node, "import-forbidden", f"imports {module} (not allowed here)")
        return False

    def check_import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not self._head_allowed(node, alias.name):
                if alias.name in MODULE_NAMES:
                    self.modules[alias.asname or alias.name] = alias.name
                continue
            parts = alias.name.split(".")
            if alias.asname is None:
                self.roots.add(parts[0])
            elif parts[1:] == [self.package.linalg_module]:
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
        package = self._head_allowed(node, module)
        if not package and module not in MODULE_NAMES:
            return
        parts = module.split(".")
        for alias in node.names:
            bound = alias.asname or alias.name
            if alias.name == "*":
                self.flag(node, "star-import", f"from {module} import *")
            elif not package:
                if alias.name not in MODULE_NAMES[module]:
                    self.flag(node, "import-forbidden", f"from {module} import {alias.name}")
            elif parts == [self.package.name] and alias.name == self.package.linalg_module:
                self.linalg_modules.add(bound)
            elif parts == [self.package.name] and alias.name in self.package.top:
                self.functions[bound] = alias.name in self.package.constructors
            elif parts == [self.package.name] and alias.name == self.package.array_class:
                continue
            elif parts[1:] == [self.package.linalg_module] and alias.name in self.package.linalg:
                self.functions[bound] = False
            else:
                self.flag(node, "import-forbidden", f"from {module} import {alias.name}")

    def package_attribute(self, node: ast.Attribute) -> str | None:
        """'top' / 'linalg' when ``node`` is ``<package>.x`` / ``<package>.<linalg>.x``."""
        base = node.value
        if isinstance(base, ast.Name) and base.id in self.roots:
            return "top"
        if isinstance(base, ast.Name) and base.id in self.linalg_modules:
            return "linalg"
        if (
            isinstance(base, ast.Attribute)
            and base.attr == self.package.linalg_module
            and isinstance(base.value, ast.Name)
            and base.value.id in self.roots
        ):
            return "linalg"
        return None

    def check_attribute(self, node: ast.Attribute) -> None:
        name = node.attr
        where = self.package_attribute(node)
        base = node.value
        if name.startswith("_"):
            self.flag(node, "private-attribute", f"accesses .{name}")
        elif where == "top":
            allowed = self.package.top | {self.package.linalg_module, self.package.array_class}
            if name not in allowed:
                self.flag(node, "attribute-not-allowed", f"{self.package.name} has no {name}")
        elif where == "linalg":
            if name not in self.package.linalg:
                detail = f"{self.package.name}.{self.package.linalg_module} has no {name}"
                self.flag(node, "attribute-not-allowed", detail)
        elif isinstance(base, ast.Name) and base.id in self.modules:
            if name not in MODULE_NAMES[self.modules[base.id]]:
                detail = f"{self.modules[base.id]}.{name} is not allowed"
                self.flag(node, "attribute-not-allowed", detail)
        elif name in self.own_attributes:
            return
        elif name in array_only_attributes():
            self.flag(node, "array-method", f".{name} is an array method; use the package")
        elif name not in SAFE_ATTRIBUTES:
            self.flag(node, "attribute-not-allowed", f"accesses .{name}")

    def package_call(self, node: ast.Call) -> bool | None:
        """``True``: a constructor call; ``False``: another package function; ``None``: no."""
        func = node.func
        if isinstance(func, ast.Name) and func.id in self.functions:
            return self.functions[func.id]
        if isinstance(func, ast.Attribute):
            where = self.package_attribute(func)
            if where == "top" and func.attr in self.package.top:
                return func.attr in self.package.constructors
            if where == "linalg" and func.attr in self.package.linalg:
                return False
        return None


def stub_function_name(stub: str) -> str:
    """The name of the function a task's stub declares; ``ValueError`` if it declares none."""
    try:
        tree = ast.parse(stub + " ..." if stub.rstrip().endswith(":") else stub)
    except SyntaxError as exc:
        raise ValueError(f"stub does not parse: {exc.msg}") from exc
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node.name
    raise ValueError("stub defines no function")


def _uses_package(checker: _Checker, tree: ast.Module, function: str | None) -> None:
    """The reference's rule on the called function (found anywhere, as there)."""
    target = next(
        (
            n
            for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == function
        ),
        None,
    )
    if target is None:
        checker.flag(tree, "missing-function", f"does not define {function or 'a function'}()")
        return
    calls = [c for c in ast.walk(target) if isinstance(c, ast.Call)]
    kinds = [k for k in map(checker.package_call, calls) if k is not None]
    if not kinds:
        detail = f"{function}() never calls a function of {checker.package.name}"
        checker.flag(target, "no-api-call", detail)
    elif kinds == [True]:
        checker.flag(target, "no-api-call", f"{function}() calls only the array constructor")
    if not any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(target)):
        checker.flag(target, "no-return", f"{function}() returns no value")


def check_code(code: str, package: PackageNames, function: str | None) -> list[Violation]:
    """Every rule ``code`` breaks when ``function`` is the one called; empty when it may run."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        return [Violation(rule="syntax-error", line=exc.lineno or 0, detail=exc.msg)]
    checker = _Checker(package)
    for node in ast.walk(tree):  # imports first, wherever they are: aliases must be known
        if isinstance(node, ast.Import):
            checker.check_import(node)
        elif isinstance(node, ast.ImportFrom):
            checker.check_import_from(node)
    bound = _bound_names(tree)
    checker.own_attributes = _own_attributes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id.startswith("__") and node.id != "__name__":
                checker.flag(node, "forbidden-name", f"uses {node.id}")
            elif node.id not in bound and node.id not in SAFE_BUILTINS | {"__name__"}:
                checker.flag(node, "forbidden-name", f"uses {node.id} (not an allowed builtin)")
        elif isinstance(node, ast.Attribute):
            checker.check_attribute(node)
    _uses_package(checker, tree, function)
    return sorted(checker.violations, key=lambda v: (v.line, v.rule))


def rules(violations: Iterable[Violation]) -> list[str]:
    return sorted({v.rule for v in violations})
