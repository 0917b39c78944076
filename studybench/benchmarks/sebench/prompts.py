"""What the model is asked, under each evaluation condition.

``closed_book``: the task alone; the model must know the package from its weights (the
point of SE-Bench: base models score about 0 here). ``open_book``: the same prompt with the
documentation of the functions the reference solution uses placed before the task: the
solvability ceiling. The prompt never names NumPy.
"""

from __future__ import annotations

from typing import Literal

from studybench.benchmarks.sebench.package import ObfuscatedPackage
from studybench.benchmarks.sebench.tasks import SETask
from studybench.engines.base import Message

Condition = Literal["closed_book", "open_book"]
CONDITIONS: tuple[Condition, ...] = ("closed_book", "open_book")

SYSTEM_PROMPT = "You are a helpful assistant that writes correct Python code."
INSTRUCTION = (
    "Write a Python function for the task below using the `{package}` library "
    "(import it with `import {package}`). Do not use any other third-party library."
)
DOCS_HEADER = "Documentation of the `{package}` functions you may need:"
ANSWER_FORMAT = "Reply with the complete function in one ```python code block."


def user_prompt(task: SETask, package: ObfuscatedPackage, with_docs: bool) -> str:
    parts = [INSTRUCTION.format(package=package.name)]
    if with_docs:
        parts.append(DOCS_HEADER.format(package=package.name))
        parts.append(package.docs_for(task.functions))
    parts.append(f"Task: {task.query}")
    parts.append(f"Complete this function:\n```python\n{task.stub}\n```")
    if task.example:
        parts.append(f"Example: {task.example}")
    parts.append(ANSWER_FORMAT)
    return "\n\n".join(parts)


def messages(task: SETask, package: ObfuscatedPackage, condition: Condition) -> list[Message]:
    return [
        Message(role="system", content=SYSTEM_PROMPT),
        Message(role="user", content=user_prompt(task, package, condition == "open_book")),
    ]


def prompt_texts() -> list[str]:
    """Every fixed text of the prompts (hashed into the protocol)."""
    return [SYSTEM_PROMPT, INSTRUCTION, DOCS_HEADER, ANSWER_FORMAT]
