"""Generate the obfuscated package: NumPy under meaningless names, with its documentation.

``generate_package`` writes an installable package (``pyproject.toml`` + ``<name>/``) into a
folder of the run, never into an environment: ``<name>/__init__.py`` and
``<name>/<linalg module>.py`` (``rfx`` in the release) define one function per wrapped NumPy
function under the reference's seeded name (:mod:`.names`), ``<name>/_core.py`` is the array
type (:mod:`.package_template`). Beside it go
``mapping.json`` (NumPy path → new name; the only file that names NumPy, kept out of every
prompt) and ``api_docs.json`` (one entry per function, in terms of the new names).

Generation is keyed by a hash of (package name, seed, function list, documentation limit,
generator and NumPy versions): an existing, complete package with the same key is reused,
so planning twice is a no-op and every run of one key sees identical names.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from studybench.benchmarks.base import stable_hash
from studybench.benchmarks.sebench.docs import ApiEntry, api_entry
from studybench.benchmarks.sebench.functions import CONSTRUCTORS, DEFAULT_FUNCTIONS, RENAMED
from studybench.benchmarks.sebench.names import REFERENCE_SEED, obfuscated_names
from studybench.benchmarks.sebench.package_template import CORE
from studybench.errors import ConfigError
from studybench.fileio import write_atomic

GENERATOR_VERSION = "3"
MANIFEST = "package.json"


class PackageSpec(BaseModel):
    """What decides the generated package."""

    name: str = Field("zwc", pattern=r"^[a-z][a-z0-9_]*$")
    linalg_module: str = Field("rfx", pattern=r"^[a-z][a-z0-9_]*$")
    seed: int = REFERENCE_SEED
    functions: tuple[str, ...] = Field(DEFAULT_FUNCTIONS, min_length=1)
    doc_max_chars: int = Field(4000, ge=200)

    def key(self) -> str:
        import numpy

        return stable_hash(
            {**self.model_dump(), "generator": GENERATOR_VERSION, "numpy": numpy.__version__}
        )


class ObfuscatedPackage(BaseModel):
    """A generated package on disk."""

    spec: PackageSpec
    key: str
    root: str = Field(description="folder holding pyproject.toml and the package")
    mapping: dict[str, str] = Field(description="NumPy path -> new name")
    docs: dict[str, ApiEntry] = Field(description="NumPy path -> documentation entry")
    released_docs: dict[str, str] = Field(
        default_factory=dict,
        description="NumPy path -> the release's rewritten documentation, when loaded",
    )

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def linalg_module(self) -> str:
        return self.spec.linalg_module

    @property
    def array_class(self) -> str:
        """The array type's public name (``ZWCArray`` for ``zwc``, as in the release)."""
        return array_class_name(self.spec.name)

    @property
    def import_root(self) -> Path:
        """The folder to put on ``sys.path`` to import the package."""
        return Path(self.root)

    def qualified(self, path: str) -> str:
        """``mean`` → ``zwc.kocito``; ``linalg.inv`` → ``zwc.rfx.quvohe``."""
        return self.docs[path].function

    def constructor_names(self) -> set[str]:
        return {self.mapping[c] for c in CONSTRUCTORS if c in self.mapping}

    def doc_text(self, path: str) -> str:
        """The open-book documentation of one function: the release's rewritten text when
        it was loaded (``sebench.api_docs``), else the one generated from NumPy's."""
        return self.released_docs.get(path) or self.docs[path].render()

    def docs_for(self, functions: Sequence[str]) -> str:
        """The documentation of ``functions``, one after the other."""
        return "\n\n".join(self.doc_text(f) for f in functions)

    @classmethod
    def load(cls, root: Path) -> ObfuscatedPackage:
        return cls.model_validate_json((root / MANIFEST).read_text(encoding="utf-8"))


def array_class_name(package: str) -> str:
    return f"{package.upper()}Array"


def numpy_target(path: str) -> str:
    """The NumPy path a wrapper calls: ``path`` itself, or its new name where NumPy renamed
    it after the release (``trapz`` → ``trapezoid`` in NumPy 2.4)."""
    import numpy

    head, _, last = path.rpartition(".")
    module = numpy.linalg if head == "linalg" else numpy
    if not hasattr(module, last) and last in RENAMED:
        return f"{head}.{RENAMED[last]}" if head else RENAMED[last]
    return path


def _numpy_function(path: str) -> object:
    import numpy

    target: object = numpy
    for part in numpy_target(path).split("."):
        target = getattr(target, part, None)
        if target is None:
            raise ConfigError(f"sebench.functions: numpy has no function {path!r}")
    if not callable(target):
        raise ConfigError(f"sebench.functions: numpy.{path} is not a function")
    return target


def _module_source(
    package: str,
    module: str,
    doc: str,
    entries: list[tuple[str, str, str]],
    submodules: Sequence[str] = (),
) -> str:
    """Source of ``module``: one ``_make`` call per (NumPy path, new name, documentation)."""
    array = array_class_name(package)
    lines = [f'"""{doc}"""', "", f"from {package}._core import {array}, make as _make"]
    lines += [f"from {package} import {name}" for name in submodules]
    lines.append("")
    for path, name, text in entries:
        target = numpy_target(path)
        lines.append(f"{name} = _make({target!r}, {name!r}, {text!r}, {module!r})")
    public = [array, *submodules, *(name for _, name, _ in entries)]
    lines += ["", f"__all__ = {sorted(public)!r}", "del _make", ""]
    return "\n".join(lines)


def generate_package(spec: PackageSpec, out_dir: Path) -> ObfuscatedPackage:
    """Write (or reuse) the package of ``spec`` under ``out_dir/<name>-<key>``."""
    key = spec.key()
    root = out_dir / f"{spec.name}-{key}"
    if (root / MANIFEST).is_file():
        return ObfuscatedPackage.load(root)
    functions = list(dict.fromkeys(spec.functions))
    targets = {path: _numpy_function(path) for path in functions}
    try:
        mapping = obfuscated_names(functions, spec.seed)
    except KeyError as exc:
        raise ConfigError(f"sebench.functions: {exc.args[0]}") from exc
    sub = spec.linalg_module
    docs = {
        path: api_entry(path, targets[path], mapping, spec.name, spec.doc_max_chars, sub)
        for path in functions
    }
    staging = out_dir / f".{spec.name}-{key}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    pkg_dir = staging / spec.name
    pkg_dir.mkdir(parents=True)
    top = [(p, mapping[p], docs[p].doc) for p in functions if not p.startswith("linalg.")]
    lin = [(p, mapping[p], docs[p].doc) for p in functions if p.startswith("linalg.")]
    core = CORE.replace("@PACKAGE@", spec.name).replace("@ARRAY@", array_class_name(spec.name))
    (pkg_dir / "_core.py").write_text(core, encoding="utf-8")
    (pkg_dir / "__init__.py").write_text(
        _module_source(
            spec.name,
            spec.name,
            f"{spec.name}: computing with n-dimensional arrays.",
            top,
            [sub],
        ),
        encoding="utf-8",
    )
    (pkg_dir / f"{sub}.py").write_text(
        _module_source(spec.name, f"{spec.name}.{sub}", f"{spec.name}.{sub}: linear algebra.", lin),
        encoding="utf-8",
    )
    hints = {path: docs[path].function for path in functions if not path.startswith("linalg.")}
    with (pkg_dir / "_core.py").open("a", encoding="utf-8") as handle:
        handle.write(f"\nHINTS.update({hints!r})\n")
    (staging / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=61"]\n'
        'build-backend = "setuptools.build_meta"\n\n'
        f'[project]\nname = "{spec.name}"\nversion = "1.0.{spec.seed}"\n'
        'dependencies = ["numpy"]\n\n'
        f'[tool.setuptools]\npackages = ["{spec.name}"]\n',
        encoding="utf-8",
    )
    (staging / "mapping.json").write_text(
        json.dumps({"package": spec.name, "seed": spec.seed, "functions": mapping}, indent=2),
        encoding="utf-8",
    )
    (staging / "api_docs.json").write_text(
        json.dumps([docs[p].model_dump() for p in functions], indent=2, ensure_ascii=False),
        encoding="utf-8",
    )
    package = ObfuscatedPackage(spec=spec, key=key, root=str(root), mapping=mapping, docs=docs)
    write_atomic(staging / MANIFEST, package.model_dump_json(indent=2))
    if root.exists():  # a concurrent planner finished first: keep its identical result
        shutil.rmtree(staging, ignore_errors=True)
        return ObfuscatedPackage.load(root)
    staging.replace(root)
    return package
