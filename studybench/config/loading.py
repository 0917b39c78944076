"""Reading the settings tree from ``params.yaml`` plus environment overrides and profiles.

``params.yaml`` is the single source of protocol and pipeline parameters: DVC stages, Airflow
DAGs and the CLI all read it through :func:`load_settings`. An environment variable
``STUDYBENCH__SECTION__KEY`` (nested keys joined by ``__``) overrides one value; its text is
parsed as YAML, so ``STUDYBENCH__PROTOCOL__SEEDS='[0, 1]'`` gives a list.

The override merge is written here rather than taken from pydantic-settings because every
error must name its origin: an unknown key names the file (or the environment variable) that
introduced it, which pydantic-settings' merged sources cannot report. A key or value that was
renamed gets a message naming the new one (:data:`RENAMED_KEYS`, :data:`RENAMED_VALUES`).

Secrets are never stored in settings: sections hold the *name* of the environment variable
that carries an API key (``api_key_env``), so a dump of the settings is safe to log.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from studybench.config.settings import Settings
from studybench.errors import ConfigError

ENV_PREFIX = "STUDYBENCH__"
PARAMS_ENV = "STUDYBENCH_PARAMS"
PROFILE_ENV = "STUDYBENCH_PROFILE"
PROFILES_KEY = "profiles"
DEFAULT_PARAMS_FILE = "params.yaml"


def default_params_path() -> Path:
    """``$STUDYBENCH_PARAMS`` if set, else ``params.yaml`` in the working directory."""
    return Path(os.environ.get(PARAMS_ENV, DEFAULT_PARAMS_FILE))


def load_settings(
    path: Path | str | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    require_file: bool = False,
    profile: str | None = None,
) -> Settings:
    """Read settings from ``path`` (default :func:`default_params_path`) and the environment.

    A missing file gives the built-in defaults unless ``require_file`` is set. Any invalid or
    unknown key raises :class:`ConfigError` naming the file or environment variable and the
    dotted key. A profile (``profile``, else ``$STUDYBENCH_PROFILE``) lays the values of
    ``profiles.<name>`` in the file over the file's own; environment overrides still win.
    """
    params_path = Path(path) if path is not None else default_params_path()
    env = os.environ if environ is None else environ

    raw: dict[str, Any] = {}
    if params_path.exists():
        raw = _read_yaml_mapping(params_path)
    elif require_file or path is not None or os.environ.get(PARAMS_ENV):
        # a file named explicitly (argument or $STUDYBENCH_PARAMS) must exist: silently
        # running on the defaults would evaluate with a protocol nobody asked for
        origin = f" (named by ${PARAMS_ENV})" if path is None else ""
        raise ConfigError(f"{params_path}: settings file not found{origin}")
    profiles = raw.pop(PROFILES_KEY, None) or {}

    origins: dict[tuple[str, ...], str] = {}
    for key_path in _leaf_paths(raw):
        origins[key_path] = str(params_path)
    chosen = profile if profile is not None else env.get(PROFILE_ENV, "")
    if chosen:
        overlay = profiles.get(chosen) if isinstance(profiles, dict) else None
        if not isinstance(overlay, dict):
            known = ", ".join(sorted(profiles)) if isinstance(profiles, dict) else ""
            raise ConfigError(
                f"{params_path}: no profile {chosen!r} under '{PROFILES_KEY}' "
                f"(known: {known or 'none'})"
            )
        for key_path in _leaf_paths(overlay):
            node: Any = overlay
            for part in key_path:
                node = node[part]
            if not isinstance(node, Mapping):
                _set_nested(raw, key_path, node, f"{params_path}: profile {chosen}")
            origins[key_path] = f"{params_path} (profile {chosen})"
    for name, text in sorted(env.items()):
        if not name.startswith(ENV_PREFIX):
            continue
        key_path = tuple(part.lower() for part in name[len(ENV_PREFIX) :].split("__"))
        if not all(key_path):
            raise ConfigError(f"environment variable {name}: empty key segment")
        _set_nested(raw, key_path, _parse_env_value(name, text), name)
        origins[key_path] = f"environment variable {name}"

    try:
        return Settings.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_describe_validation_error(exc, origins, params_path)) from None


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key given twice in one mapping (YAML keeps the last one
    silently, so a doubled ``seeds:`` would change the protocol without a word)."""


def _construct_unique_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> Any:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        line = key_node.start_mark.line + 1
        if key in seen:
            first = seen[key]
            message = f"duplicate key {key!r} at line {line} (first at line {first})"
            raise _DuplicateKeyError(message)
        seen[key] = line
    return loader.construct_mapping(node)


class _DuplicateKeyError(yaml.YAMLError):
    pass


_UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping
)


def _read_yaml_mapping(path: Path) -> dict[str, Any]:
    try:
        loaded = yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)
    except _DuplicateKeyError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: invalid YAML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise ConfigError(f"{path}: top level must be a mapping, got {type(loaded).__name__}")
    return loaded


def _parse_env_value(name: str, text: str) -> Any:
    try:
        return yaml.safe_load(text) if text.strip() else text
    except yaml.YAMLError as exc:
        raise ConfigError(f"environment variable {name}: value is not valid YAML: {exc}") from None


def _set_nested(tree: dict[str, Any], key_path: tuple[str, ...], value: Any, origin: str) -> None:
    node = tree
    for depth, part in enumerate(key_path[:-1]):
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            prefix = ".".join(key_path[: depth + 1])
            raise ConfigError(f"{origin}: '{prefix}' is a value, not a section")
        node = child
    node[key_path[-1]] = value


def _leaf_paths(tree: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths: list[tuple[str, ...]] = []
    for key, value in tree.items():
        here = (*prefix, str(key))
        paths.append(here)
        if isinstance(value, Mapping):
            paths.extend(_leaf_paths(value, here))
    return paths


# Keys and values of params.yaml that were renamed: old -> new. A settings file that still
# uses the old one gets an error naming the new one (every entry has a case in
# tests/config_renamed_cases.json).
RENAMED_KEYS: dict[str, str] = {
    "training.synth.concurrency": "training.synth.generator.concurrency",
}
RENAMED_VALUES: dict[str, dict[str, str]] = {
    "engine.kind": {"transformers": "hf"},
}


def _renamed(dotted: str, error: Any) -> str | None:
    """The message for a key or value that was renamed, else None."""
    if error["type"] == "extra_forbidden":
        for old, new in RENAMED_KEYS.items():
            if dotted == old or dotted.startswith(old + "."):
                return f"'{old}' was renamed: use '{new}'"
        return None
    values = RENAMED_VALUES.get(dotted, {})
    given = error.get("input")
    if isinstance(given, str) and given in values:
        return f"'{dotted}': {given!r} was renamed: use {values[given]!r}"
    return None


def _describe_validation_error(
    exc: ValidationError, origins: Mapping[tuple[str, ...], str], params_path: Path
) -> str:
    lines = []
    for error in exc.errors():
        loc = tuple(str(part) for part in error["loc"])
        origin = _origin_of(loc, origins) or str(params_path)
        dotted = ".".join(loc)
        renamed = _renamed(dotted, error)
        if renamed is not None:
            lines.append(f"{origin}: {renamed}")
        elif error["type"] == "extra_forbidden":
            lines.append(f"{origin}: unknown key '{dotted}'")
        else:
            lines.append(f"{origin}: '{dotted}': {error['msg']}")
    return "invalid settings:\n  " + "\n  ".join(lines)


def _origin_of(loc: tuple[str, ...], origins: Mapping[tuple[str, ...], str]) -> str | None:
    """The origin of the longest recorded key path that is a prefix of ``loc``."""
    for length in range(len(loc), 0, -1):
        if loc[:length] in origins:
            return origins[loc[:length]]
    return None
