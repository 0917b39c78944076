"""Reading docker/: the compose file as Compose reads it, the Dockerfiles' instructions, and
the translation of a container's command and environment into the same command on loopback.

Compose's variable interpolation is small and fully specified (``${VAR}``, ``${VAR:-default}``,
``${VAR-default}``, ``${VAR:?error}``, ``${VAR?error}``, ``$$``), and no maintained Python
library implements the compose rules (docker-compose v1, which did, is retired), so it is
written here. ``.env`` files are read with python-dotenv, anchors and merge keys with PyYAML.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from dotenv import dotenv_values

from tests.conftest import ROOT

DOCKER = ROOT / "docker"
COMPOSE = DOCKER / "compose.yaml"
ENV_EXAMPLE = DOCKER / ".env.example"
DOCKERFILES = sorted(DOCKER.glob("*.Dockerfile"))

_VARIABLE = re.compile(
    r"\$\$|\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}"
    r"|\$(?P<bare>[A-Za-z_][A-Za-z0-9_]*)"
)


class InterpolationError(ValueError):
    """A required variable (``${VAR:?}``) is unset or empty."""


def variables_in(text: str) -> set[str]:
    """Names of the variables a compose text interpolates (``$$`` escapes are not)."""
    names = set()
    for match in _VARIABLE.finditer(text):
        name = match.group("name") or match.group("bare")
        if name:
            names.add(name)
            names |= variables_in(match.group("arg") or "")
    return names


def interpolate(text: str, values: Mapping[str, str]) -> str:
    """``text`` with compose's interpolation applied, as ``docker compose config`` does."""

    def replace(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name = match.group("name") or match.group("bare")
        op, arg = match.group("op") or "", interpolate(match.group("arg") or "", values)
        value = values.get(name)
        unset = value is None or (op.startswith(":") and value == "")
        if op.endswith("-"):
            return arg if unset else str(value)
        if op.endswith("?"):
            if unset:
                raise InterpolationError(f"{name}: {arg or 'required variable is not set'}")
            return str(value)
        return "" if value is None else str(value)

    return _VARIABLE.sub(replace, text)


def interpolate_tree(node: Any, values: Mapping[str, str]) -> Any:
    if isinstance(node, str):
        return interpolate(node, values)
    if isinstance(node, list):
        return [interpolate_tree(item, values) for item in node]
    if isinstance(node, dict):
        return {key: interpolate_tree(item, values) for key, item in node.items()}
    return node


def env_example() -> dict[str, str]:
    return {key: value or "" for key, value in dotenv_values(ENV_EXAMPLE).items()}


def compose_raw() -> dict[str, Any]:
    loaded = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(loaded, dict)
    return loaded


def services() -> dict[str, dict[str, Any]]:
    return dict(compose_raw()["services"])


# ---------------------------------------------------------------- Dockerfiles


@dataclass
class Dockerfile:
    """The instructions of one Dockerfile that the checks need."""

    path: Path
    base: str = ""
    env: dict[str, str] = field(default_factory=dict)
    args: dict[str, str] = field(default_factory=dict)
    copies: list[tuple[list[str], str]] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    users: list[str] = field(default_factory=list)
    entrypoint: list[str] = field(default_factory=list)
    workdir: str = ""

    def container_to_repo(self) -> dict[str, Path]:
        """Container path → repository path of everything COPY puts into the image."""
        mapping = {}
        for sources, dest in self.copies:
            for source in sources:
                if dest.endswith("/") and (len(sources) > 1 or (ROOT / source).is_file()):
                    target = dest + Path(source).name
                else:
                    target = dest
                mapping[target.rstrip("/")] = ROOT / source
                # a folder that receives repository paths under their own names is the
                # project's root in the image (/opt/studybench)
                suffix = "/" + source.rstrip("/")
                if target.rstrip("/").endswith(suffix):
                    mapping.setdefault(target.rstrip("/")[: -len(suffix)], ROOT)
        return mapping


def _instructions(text: str) -> Iterator[tuple[str, str]]:
    logical = re.sub(r"\\\n", " ", text)
    for line in logical.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        keyword, _, rest = stripped.partition(" ")
        yield keyword.upper(), rest.strip()


def parse_dockerfile(path: Path) -> Dockerfile:
    parsed = Dockerfile(path)
    for keyword, rest in _instructions(path.read_text()):
        if keyword == "FROM":
            parsed.base = rest.split()[0]
        elif keyword in ("ENV", "ARG"):
            for item in shlex.split(rest):
                key, _, value = item.partition("=")
                (parsed.env if keyword == "ENV" else parsed.args)[key] = value
        elif keyword == "COPY":
            words = [w for w in shlex.split(rest) if not w.startswith("--")]
            dest = words[-1]
            dest = re.sub(r"\$\{(\w+)\}", lambda m: parsed.args.get(m.group(1), ""), dest)
            parsed.copies.append((words[:-1], dest))
        elif keyword == "RUN":
            parsed.runs.append(rest)
        elif keyword == "USER":
            parsed.users.append(rest)
        elif keyword == "ENTRYPOINT":
            parsed.entrypoint = list(yaml.safe_load(rest))
        elif keyword == "WORKDIR":
            parsed.workdir = rest
    return parsed


def dockerfile_of(service: Mapping[str, Any]) -> Dockerfile | None:
    """The Dockerfile that builds ``service``'s image (by its build, else by image name)."""
    build = service.get("build")
    if build is None:
        image = str(service.get("image", "")).split(":")[0]  # tags may be interpolated
        for other in services().values():
            if other.get("build") and str(other.get("image")).split(":")[0] == image:
                build = other["build"]
                break
    if build is None:
        return None
    context = (COMPOSE.parent / build["context"]).resolve()
    return parse_dockerfile(context / build["dockerfile"])
