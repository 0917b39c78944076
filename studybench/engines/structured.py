"""Structured output: the reply format an LLM stage parses, as vLLM's request fields.

An LLM stage (the judge, the rubric judge, the guidance teacher, the recipes' reflector and
generator) parses its reply in a fixed format. When its endpoint honours vLLM's structured
output (``structured_output: true`` in the endpoint's settings), the stage sends that format
as a regular expression in the request body (``extra_body={"structured_outputs": {"regex":
...}}``, vLLM 0.32's field; the older ``guided_regex`` is gone), and every reply is one the
parser accepts, even a babbling model's.

Why a regex for the JSON stages too, not ``{"json": schema}``: vLLM reads its "no free
whitespace" switch only from the server's command line, so a schema-constrained reply may
fill its whole token budget with whitespace and be cut off mid-object; the regex
:func:`json_regex` builds from a pydantic model has no whitespace at all.

Why every free field is bounded by the stage's token budget: a reply cut off by
``max_tokens`` is unparseable whatever constrained its tokens. A token holds at least one
byte, so a reply of at most ``max_tokens`` bytes always ends in time; a free character costs
at most :data:`BYTES_PER_CHAR` bytes (UTF-8), so the bounds shrink until the longest reply
the pattern allows fits. A long structured reply therefore needs a large ``max_tokens``.

Engines that cannot honour the field (in-process transformers, Anthropic, agents, an
OpenAI-compatible endpoint not declared to honour it) ignore it: the stage then parses a
free reply exactly as before, and nothing about the request or its cache key changes.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from pydantic import BaseModel, ConfigDict

BYTES_PER_CHAR = 4  # the most bytes one free character takes in UTF-8
_META = set("\\.^$|?*+()[]{}/")
_DEFAULT_MAX_LENGTH = 1000  # a string field without maxLength, before the budget shrinks it
_DEFAULT_MAX_ITEMS = 16  # an array without maxItems, likewise
# one character of a JSON string: no quote, backslash or control character, or a short
# escape (two bytes for one character, within BYTES_PER_CHAR)
_JSON_CHAR = '(?:[^"\\\\\\x00-\\x1f]|\\\\["\\\\/nt])'


class OutputFormat(BaseModel):
    """The format a reply must take: a regular expression over the whole reply."""

    model_config = ConfigDict(frozen=True)

    regex: str

    def request_fields(self) -> dict[str, Any]:
        """The fields to merge into a chat-completion request's ``extra_body``."""
        return {"structured_outputs": {"regex": self.regex}}


def honours_format(engine: object) -> bool:
    """Whether ``engine`` sends an :class:`OutputFormat` (its endpoint honours it)."""
    return getattr(engine, "structured_output", False) is True


def literal(text: str) -> str:
    """``text`` as a regex matching exactly it."""
    return "".join(f"\\{c}" if c in _META else _control(c) for c in text)


def _control(char: str) -> str:
    return {"\n": "\\n", "\t": "\\t"}.get(char, char)


def free_text(chars: int, banned: str = "\n", *, min_chars: int = 0) -> str:
    """Between ``min_chars`` and ``chars`` characters, none of them in ``banned``; the first
    is not a space when ``min_chars`` is positive (a field that must say something)."""
    chars = max(chars, min_chars)
    excluded = "".join(literal(c) if c not in "-]" else f"\\{c}" for c in banned)
    body = f"[^{excluded}]" if excluded else "[\\s\\S]"
    if min_chars <= 0:
        return f"{body}{{0,{chars}}}"
    space = "".join(literal(c) for c in " \t\n" if c not in banned)
    first = f"[^{space}{excluded}]"
    return f"{first}{body}{{{min_chars - 1},{chars - 1}}}"


def text_budget(max_tokens: int, fixed: str, fields: int = 1) -> int:
    """The characters each of ``fields`` free fields may hold so that the whole reply (its
    ``fixed`` text plus the fields) takes at most ``max_tokens`` tokens, at one byte or more
    a token."""
    spare = max_tokens - len(fixed.encode())
    return max(spare // (BYTES_PER_CHAR * max(fields, 1)), 0)


# --- JSON replies ------------------------------------------------------------------------


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        resolved: dict[str, Any] = defs[ref.removeprefix("#/$defs/")]
        return resolved
    return schema


def _bound(low: int, high: int, scale: float) -> int:
    return max(low, int(high * scale))


def _json_value(schema: dict[str, Any], defs: dict[str, Any], scale: float) -> tuple[str, int]:
    """The regex of one value and the most bytes a match takes."""
    schema = _resolve(schema, defs)
    if "const" in schema:
        text = json.dumps(schema["const"], ensure_ascii=False)
        return literal(text), len(text.encode())
    if "enum" in schema:
        texts = [json.dumps(v, ensure_ascii=False) for v in schema["enum"]]
        return f"(?:{'|'.join(literal(t) for t in texts)})", max(len(t.encode()) for t in texts)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [_json_value(option, defs, scale) for option in schema[key]]
            regex = "|".join(r for r, _ in options)
            return f"(?:{regex})", max(size for _, size in options)
    kind = schema.get("type")
    if kind == "object":
        return _json_object(schema, defs, scale)
    if kind == "array":
        item, size = _json_value(schema.get("items", {"type": "string"}), defs, scale)
        low = int(schema.get("minItems", 0))
        high = _bound(low, int(schema.get("maxItems", _DEFAULT_MAX_ITEMS)), scale)
        if high == 0:
            return "\\[\\]", 2
        rest = f"(?:,{item}){{{max(low - 1, 0)},{high - 1}}}"
        body = f"{item}{rest}" if low > 0 else f"(?:{item}{rest})?"
        return f"\\[{body}\\]", 2 + high * (size + 1)
    if kind == "string":
        low = int(schema.get("minLength", 0))
        high = _bound(low, int(schema.get("maxLength", _DEFAULT_MAX_LENGTH)), scale)
        return f'"{_JSON_CHAR}{{{low},{high}}}"', 2 + BYTES_PER_CHAR * high
    if kind == "boolean":
        return "(?:true|false)", 5
    if kind == "null":
        return "null", 4
    if kind == "integer":
        return "-?(?:0|[1-9][0-9]{0,17})", 19
    if kind == "number":
        return "-?(?:0|[1-9][0-9]{0,17})(?:\\.[0-9]{1,6})?", 26
    raise ValueError(f"no structured output for the JSON schema {schema!r}")


def _json_object(schema: dict[str, Any], defs: dict[str, Any], scale: float) -> tuple[str, int]:
    parts: list[str] = []
    size = 2
    for name, sub in schema.get("properties", {}).items():
        key = json.dumps(name, ensure_ascii=False) + ":"
        value, value_size = _json_value(sub, defs, scale)
        parts.append(literal(key) + value)
        size += len(key.encode()) + value_size + 1
    return "\\{" + ",".join(parts) + "\\}", size


@functools.lru_cache(maxsize=64)
def json_regex(model: type[BaseModel], max_tokens: int) -> OutputFormat:
    """One JSON object of ``model``'s schema, every property in order, no whitespace, its
    string lengths and array sizes scaled down (never below their minimum) until the longest
    reply fits ``max_tokens``; at the minimum it is the best there is."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    low, high = 0.0, 1.0
    if _json_value(schema, defs, high)[1] > max_tokens:
        for _ in range(40):  # bisection on the one scale of every bound
            middle = (low + high) / 2
            if _json_value(schema, defs, middle)[1] <= max_tokens:
                low = middle
            else:
                high = middle
        high = low
    return OutputFormat(regex=_json_value(schema, defs, high)[0])
