"""The generated package: NumPy's behaviour under new names, NumPy's methods blocked, no raw
array leaking out, documentation that never names NumPy, reuse by key, installable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy
import pytest

from studybench.benchmarks.sebench.package import ObfuscatedPackage, PackageSpec, generate_package


def _leaks(value: Any) -> bool:
    if isinstance(value, (numpy.ndarray, numpy.generic)):
        return True
    if isinstance(value, (tuple, list)):
        return any(_leaks(v) for v in value)
    return type(value).__module__.startswith("numpy")


def fn(zwc: ModuleType, package: ObfuscatedPackage, path: str) -> Any:
    module = zwc.rfx if path.startswith("linalg.") else zwc
    return getattr(module, package.mapping[path])


def test_functions_compute_what_numpy_computes(zwc: ModuleType, package: ObfuscatedPackage) -> None:
    array = fn(zwc, package, "array")
    x = array([[1.0, 2.0], [3.0, 4.0]])
    assert isinstance(x, zwc.ZWCArray)
    assert fn(zwc, package, "mean")(x) == 2.5
    assert str(fn(zwc, package, "sum")(x, axis=0)) == "[4. 6.]"  # printed as NumPy prints
    assert fn(zwc, package, "linalg.det")(x) == pytest.approx(-2.0)
    assert x.shape == (2, 2) and x.ndim == 2 and x.size == 4 and x.dtype == "float64"
    assert repr(x + 1) == "ZWCArray([[2.0, 3.0], [4.0, 5.0]])"
    assert (x @ x)[0][0] == 7.0 and (2 * x)[1][1] == 8.0 and (-x)[0][0] == -1.0


def test_numpy_methods_are_blocked_with_a_hint(zwc: ModuleType, package: ObfuscatedPackage) -> None:
    x = fn(zwc, package, "array")([1, 2, 3])
    with pytest.raises(AttributeError, match=rf"use zwc\.{package.mapping['mean']}\(x\)"):
        x.mean()
    for name in ("tolist", "reshape", "astype", "sum", "item", "view", "flat", "__array__"):
        with pytest.raises(AttributeError):
            getattr(x, name)
    with pytest.raises(AttributeError):
        x.shape = (3, 1)


def test_no_raw_numpy_object_leaks(zwc: ModuleType, package: ObfuscatedPackage) -> None:
    array = fn(zwc, package, "array")
    m = array([[2.0, 1.0], [1.0, 3.0]])
    results = [
        m.T,
        m[0],
        m[0][0],
        list(m),
        m == m,
        m > 1,
        abs(-m),
        fn(zwc, package, "linalg.inv")(m),
        fn(zwc, package, "linalg.eigvals")(m),
        fn(zwc, package, "linalg.norm")(m),
        fn(zwc, package, "linalg.solve")(m, [1.0, 2.0]),
        fn(zwc, package, "linalg.pinv")(m),
        fn(zwc, package, "linalg.matrix_rank")(m),
        fn(zwc, package, "linalg.matrix_power")(m, 3),
        fn(zwc, package, "where")(m > 1.5),
        fn(zwc, package, "nonzero")(m),
        fn(zwc, package, "unique")([3, 1, 3]),
        fn(zwc, package, "argmax")(m),
        fn(zwc, package, "allclose")(m, m),
        fn(zwc, package, "count_nonzero")(m),
        fn(zwc, package, "linalg.svd")(m),
        fn(zwc, package, "linalg.slogdet")(m),
        fn(zwc, package, "histogram")([1, 2, 2, 3]),
        fn(zwc, package, "vectorize")(lambda v: v + 1)(m),
        fn(zwc, package, "trapz")([1.0, 2.0, 3.0]),
    ]
    assert not any(_leaks(r) for r in results), [type(r) for r in results]
    assert isinstance(m.T, zwc.ZWCArray)
    assert isinstance(results[14], tuple) and type(results[14]) is tuple
    assert isinstance(results[2], float) and isinstance(results[17], int)


def test_docs_and_docstrings_never_name_numpy(zwc: ModuleType, package: ObfuscatedPackage) -> None:
    root = Path(package.root)
    docs = json.loads((root / "api_docs.json").read_text())
    assert len(docs) == len(package.mapping)
    assert {d["function"] for d in docs} == {package.qualified(p) for p in package.mapping}
    assert "numpy" not in (root / "api_docs.json").read_text().lower()
    for module in (zwc, zwc.rfx):
        assert "numpy" not in (module.__doc__ or "").lower()
        for name in module.__all__:
            value = getattr(module, name)
            assert "numpy" not in (getattr(value, "__doc__", "") or "").lower(), name
            assert not hasattr(value, "__wrapped__")
    mean = package.docs["mean"]
    assert mean.function == "zwc.kocito" and package.qualified("linalg.inv") == "zwc.rfx.quvohe"
    assert "mean" in mean.doc and "Parameters" in mean.doc
    # the mapping names NumPy: it is the only file that does, and never enters a prompt
    mapping = json.loads((root / "mapping.json").read_text())
    assert mapping["functions"] == package.mapping


def test_the_full_package_has_every_published_function(package: ObfuscatedPackage) -> None:
    assert len(package.mapping) == len(package.docs) == 278
    assert len(set(package.mapping.values())) == 278
    for path, entry in package.docs.items():
        assert entry.doc.strip(), path
        assert "numpy" not in entry.render().lower(), path


def test_generation_is_keyed_and_reused(tmp_path: Path, package: ObfuscatedPackage) -> None:
    spec = PackageSpec(functions=("array", "mean", "linalg.inv"), seed=5)
    first = generate_package(spec, tmp_path)
    stamp = (Path(first.root) / "zwc" / "__init__.py").stat().st_mtime_ns
    again = generate_package(spec, tmp_path)
    assert again == first
    assert (Path(first.root) / "zwc" / "__init__.py").stat().st_mtime_ns == stamp
    other = generate_package(spec.model_copy(update={"seed": 6}), tmp_path)
    assert other.root != first.root and other.mapping != first.mapping
    assert generate_package(spec, tmp_path / "elsewhere").mapping == first.mapping


def test_package_installs_with_pip(tmp_path: Path, package: ObfuscatedPackage) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "--target", str(target), package.root],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    probe = f"import zwc; print(zwc.{package.mapping['mean']}([1, 2, 3]))"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        env={"PYTHONPATH": str(target)},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert done.stdout.strip() == "2.0"
