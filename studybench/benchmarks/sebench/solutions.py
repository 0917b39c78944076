"""Reference solutions: NumPy code rewritten onto the obfuscated package.

The sample's solutions are written once, in NumPy (``import numpy as np``, ``np.mean``,
``np.linalg.inv``). :func:`to_package` renames every call onto the package of a run
(``import zwc``, ``zwc.<new name>``), so one source gives both the reference solution that
must pass and the NumPy solution that must be rejected, whatever the seed.
"""

from __future__ import annotations

import ast

from studybench.benchmarks.sebench.package import ObfuscatedPackage


class _Rename(ast.NodeTransformer):
    def __init__(self, package: ObfuscatedPackage) -> None:
        self.package = package

    def visit_Import(self, node: ast.Import) -> ast.AST:
        if any(a.name.split(".")[0] == "numpy" for a in node.names):
            return ast.Import(names=[ast.alias(name=self.package.name)])
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        base = node.value
        path: str | None = None
        if isinstance(base, ast.Name) and base.id == "np" and node.attr != "linalg":
            path = node.attr
        elif (
            isinstance(base, ast.Attribute)
            and base.attr == "linalg"
            and isinstance(base.value, ast.Name)
            and base.value.id == "np"
        ):
            path = f"linalg.{node.attr}"
        if path is None:
            return self.generic_visit(node)
        if path not in self.package.mapping:
            raise ValueError(f"solution uses np.{path}, which the package does not wrap")
        return ast.parse(self.package.qualified(path), mode="eval").body


def to_package(numpy_code: str, package: ObfuscatedPackage) -> str:
    """``numpy_code`` with NumPy replaced by ``package`` (``ValueError`` on an unwrapped
    function)."""
    tree = _Rename(package).visit(ast.parse(numpy_code))
    return ast.unparse(ast.fix_missing_locations(tree))
