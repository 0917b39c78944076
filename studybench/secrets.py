"""Remove API keys and other secrets from text before it is stored, logged or uploaded.

Providers echo keys back (a 401 body that quotes the ``Authorization`` header), model output
is hostile, and judge replies quote their prompts: every error text, judge reply and log line
goes through :func:`scrub_secrets` before a store, a log handler or MLflow sees it.

Two rules, both always applied:

* **Configured values**: the values of the environment variables that settings name as
  holding a secret (every ``*_env`` field carrying a string, e.g. ``judge.api_key_env``;
  :func:`register_settings` derives them from a settings tree without importing it), the
  environment variables whose *names* say they hold a secret (``*_API_KEY``, ``*_TOKEN``,
  ``*_SECRET``, ``*_PASSWORD``, ...), and any value registered directly with
  :func:`register_secret_value` (a key handed to an engine in code). Their values are read at
  scrub time, so a key exported after start-up is still removed.
* **Key-shaped strings**: ``sk-...``/``sk-ant-...`` style provider keys, other well-known
  token prefixes, JWTs, ``Bearer``/``Basic`` credentials, and long token values after a
  ``key=``/``token:``/``Authorization:``-like name. Ordinary text (a physics answer, a
  content hash in a path, a UUID problem id) is left alone: the patterns need a key context
  or a provider prefix, never just "long and hexadecimal".

This module imports nothing from studybench so every layer (engines, stores, tracking, the
config loader) can use it.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
from collections.abc import Mapping
from typing import Any

REDACTED = "[REDACTED]"

# Values shorter than this are never scrubbed literally: "1", "true" or "admin" in an env var
# named *_TOKEN would otherwise blank out ordinary words everywhere.
MIN_SECRET_VALUE_LENGTH = 8

_SECRET_NAME = re.compile(
    r"(API_?KEY|ACCESS_?KEY|SECRET(_?KEY)?|TOKEN|PASSWORD|PASSWD|CREDENTIALS?|FERNET_KEY|"
    r"PRIVATE_?KEY)$",
    re.IGNORECASE,
)

_TOKEN_CHARS = r"A-Za-z0-9_\-\.~\+/="

_KEY_SHAPES: tuple[re.Pattern[str], ...] = (
    # Anthropic / OpenAI style keys: sk-ant-..., sk-proj-..., sk-...
    re.compile(r"(?<![A-Za-z0-9_\-])sk-(?:ant-|proj-|svcacct-)?[A-Za-z0-9_\-]{16,}"),
    # GitHub, Hugging Face, Slack, GitLab, AWS access key ids.
    re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})"),
    re.compile(r"(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{20,}"),
    re.compile(r"(?<![A-Za-z0-9_\-])xox[abposr]-[A-Za-z0-9\-]{10,}"),
    re.compile(r"(?<![A-Za-z0-9_\-])glpat-[A-Za-z0-9_\-]{20,}"),
    re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])"),
    # JSON Web Tokens: three base64url parts, the first two starting with '{"'.
    re.compile(r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]+"),
)

# "Bearer <token>" / "Basic <token>" anywhere (headers echoed in error bodies).
_AUTH_SCHEME = re.compile(rf"\b(Bearer|Basic|Token)(\s+)([{_TOKEN_CHARS}]{{8,}})", re.IGNORECASE)

# name=value / name: value / "name": "value" where the name says "secret". The value must
# look like a token (no spaces, 12+ chars with a digit, or 24+ chars) so that prose such as
# "password: see the manual" survives.
_KEYED_VALUE = re.compile(
    r"(?P<name>\b(?:[A-Za-z0-9]+[_\-])*(?:api[_\-]?key|apikey|access[_\-]?key|secret(?:[_\-]?key)?"
    r"|token|access[_\-]?token|auth[_\-]?token|password|passwd|authorization|x-api-key"
    r"|client[_\-]?secret|private[_\-]?key)\b[\"']?\s*[=:]\s*[\"']?)"
    rf"(?P<value>[{_TOKEN_CHARS}]+)",
    re.IGNORECASE,
)

_lock = threading.Lock()
_registered_names: set[str] = set()
_registered_values: set[str] = set()
_defaults_loaded = False


def register_secret_env(*names: str) -> None:
    """Declare environment variables whose values are secrets (e.g. a custom key variable)."""
    with _lock:
        _registered_names.update(name for name in names if name)


def register_secret_value(*values: str) -> None:
    """Declare a secret value held in memory only (a key passed to an engine in code)."""
    with _lock:
        _registered_values.update(v for v in values if v and len(v) >= MIN_SECRET_VALUE_LENGTH)


def is_secret_env(name: str) -> bool:
    """Whether an environment variable holds a secret (registered, or named like one)."""
    _register_setting_defaults()
    with _lock:
        registered = name in _registered_names
    return registered or bool(_SECRET_NAME.search(name))


def secret_env_names(settings: Any) -> set[str]:
    """Every environment-variable name a settings tree says holds a secret.

    Walks pydantic models (anything with ``model_dump``), mappings and sequences and collects
    string values of keys ending in ``_env`` (``api_key_env``, ``password_env``); a mapping
    such as ``vllm_env`` (variables handed to a subprocess) is not a name and is skipped.
    """
    found: set[str] = set()
    tree = settings.model_dump() if hasattr(settings, "model_dump") else settings
    _collect(tree, found)
    return found


def _collect(node: Any, found: set[str]) -> None:
    if isinstance(node, Mapping):
        for key, value in node.items():
            if isinstance(key, str) and key.endswith("_env") and isinstance(value, str):
                if value:
                    found.add(value)
            else:
                _collect(value, found)
    elif isinstance(node, (list, tuple)):
        for item in node:
            _collect(item, found)


def register_settings(settings: Any) -> set[str]:
    """Register every key variable a settings tree names; returns the names registered."""
    names = secret_env_names(settings)
    register_secret_env(*names)
    return names


def _register_setting_defaults() -> None:
    """Register the key variables the settings *defaults* name, once, lazily.

    Imported inside the function: config sits at the bottom of the package, but a module-level
    import would make this module unusable from config itself. A call made while config is
    still being imported (a log record emitted meanwhile) skips and a later call retries.
    """
    global _defaults_loaded
    if _defaults_loaded:
        return
    config = sys.modules.get("studybench.config")
    if config is not None and not hasattr(config, "Settings"):
        return  # config is half-imported right now: try again on a later call
    _defaults_loaded = True
    try:
        from studybench.config import Settings

        register_settings(Settings())
    except Exception:  # scrubbing must never fail because the settings defaults cannot load
        return


def secret_values(environ: Mapping[str, str] | None = None) -> list[str]:
    """The literal secret values to remove, longest first (so a key containing another wins)."""
    _register_setting_defaults()
    env = os.environ if environ is None else environ
    with _lock:
        names = set(_registered_names)
        values = set(_registered_values)
    for name, value in env.items():
        if (name in names or _SECRET_NAME.search(name)) and len(value) >= MIN_SECRET_VALUE_LENGTH:
            values.add(value)
    return sorted(values, key=len, reverse=True)


def _looks_like_token(value: str) -> bool:
    if len(value) >= 24:
        return True
    return len(value) >= 12 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _redact_keyed(match: re.Match[str]) -> str:
    value = match.group("value")
    if value.startswith(REDACTED[1:]) or not _looks_like_token(value):
        return match.group(0)
    return match.group("name") + REDACTED


def _redact_scheme(match: re.Match[str]) -> str:
    token = match.group(3)
    if not _looks_like_token(token) and len(token) < 16:
        return match.group(0)
    return f"{match.group(1)}{match.group(2)}{REDACTED}"


def scrub_secrets(text: str, *, environ: Mapping[str, str] | None = None) -> str:
    """``text`` with every configured secret value and every key-shaped string replaced."""
    if not text:
        return text
    for value in secret_values(environ):
        if value in text:
            text = text.replace(value, REDACTED)
    for pattern in _KEY_SHAPES:
        text = pattern.sub(REDACTED, text)
    text = _AUTH_SCHEME.sub(_redact_scheme, text)
    return _KEYED_VALUE.sub(_redact_keyed, text)


def scrub_optional(text: str | None) -> str | None:
    """:func:`scrub_secrets` for optional fields."""
    return None if text is None else scrub_secrets(text)


def scrub_tree(node: Any) -> Any:
    """A copy of a JSON-like tree (dicts, lists, strings) with every string scrubbed."""
    if isinstance(node, str):
        return scrub_secrets(node)
    if isinstance(node, Mapping):
        return {key: scrub_tree(value) for key, value in node.items()}
    if isinstance(node, (list, tuple)):
        return [scrub_tree(item) for item in node]
    return node


_previous_factory: Any = None


def install_log_scrubbing() -> None:
    """Scrub every log record of this process at creation (idempotent).

    A record factory rather than a handler filter: it sees records of every logger, including
    third-party ones (httpx, openai, Airflow's task logger) and those that propagate to
    handlers nobody here configures. The message is formatted once, scrubbed, and stored
    without arguments; exception texts are scrubbed too (the traceback itself is left: it
    carries code locations, not values).
    """
    global _previous_factory
    if _previous_factory is not None:
        return
    previous = logging.getLogRecordFactory()
    _previous_factory = previous

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: leave it to logging's own error path
            return record
        record.msg, record.args = scrub_secrets(message), None
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text = str(exc)
            if scrub_secrets(text) != text:
                record.exc_info = None
                record.msg += f" [{type(exc).__name__}: {scrub_secrets(text)}]"
        return record

    logging.setLogRecordFactory(factory)
