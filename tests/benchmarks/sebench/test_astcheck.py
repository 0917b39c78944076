"""The static checker (an allowlist): every route to NumPy, reflection and the host is
refused, ordinary solutions are accepted.

Cases live in ``ast_cases.json``: ``code`` (``{mean}``, ``{linalg.det}`` stand for the
qualified new names, ``{array}`` for the bare new name of the constructor, ``{mean_bare}``
for the bare name of ``mean``) and the ``rules`` it must break (empty: accepted)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks.sebench.astcheck import check_code, rules, stub_function_name
from studybench.benchmarks.sebench.judging import package_names
from studybench.benchmarks.sebench.package import ObfuscatedPackage

CASES: list[dict[str, Any]] = json.loads(Path(__file__).with_name("ast_cases.json").read_text())


def render(code: str, package: ObfuscatedPackage) -> str:
    def name(match: re.Match[str]) -> str:
        key = match.group(1)
        if key == "array":
            return package.mapping["array"]
        if key.endswith("_bare"):
            return package.mapping[key[: -len("_bare")]]
        return package.qualified(key)

    return re.sub(r"\{([a-z_.]+)\}", name, code)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_checker_rules(case: dict[str, Any], package: ObfuscatedPackage) -> None:
    code = render(case["code"], package)
    found = check_code(code, package_names(package), "solve")
    assert rules(found) == sorted(case["rules"]), "\n".join(map(str, found)) + "\n" + code


def test_every_listed_bypass_is_covered() -> None:
    names = " ".join(c["name"] for c in CASES)
    for route in ("import numpy", "from numpy", "__import__", "importlib", "sys.modules",
                  "wrapped object", "attrgetter", "itemgetter", "__globals__", "_value",
                  "str.format", "generator frame"):  # fmt: skip
        assert route in names


def test_violation_names_the_line(package: ObfuscatedPackage) -> None:
    code = render("import zwc\n\ndef solve(x):\n    y = {sum}(x)\n    return y.mean()", package)
    (violation,) = check_code(code, package_names(package), "solve")
    assert violation.line == 5 and violation.rule == "array-method" and ".mean" in str(violation)


def test_stub_names() -> None:
    assert stub_function_name("def row_means(matrix):") == "row_means"
    assert stub_function_name('def f(x):\n    """doc"""') == "f"
    with pytest.raises(ValueError, match="no function"):
        stub_function_name("x = 1")
