"""The code a model answered with: the last Python code block of its visible reply."""

from __future__ import annotations

import re

from studybench.rollout.conversation import strip_thinking

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n(.*?)```", re.DOTALL)
PYTHON_TAGS = frozenset({"", "python", "py", "python3"})


def last_code_block(completion: str) -> str | None:
    """The last fenced block tagged Python (or untagged), thinking removed first; ``None``
    when the reply has none (a reply without a fence is not run: prose is not code)."""
    blocks: list[str] = [
        body
        for tag, body in _FENCE.findall(strip_thinking(completion))
        if tag.lower() in PYTHON_TAGS
    ]
    if not blocks or not blocks[-1].strip():
        return None
    return blocks[-1]
