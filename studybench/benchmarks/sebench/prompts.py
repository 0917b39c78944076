"""What the model is asked, under each evaluation condition: the reference's prompt parts,
in the project's own words, in the reference's order.

One user message, no system prompt (as the reference). ``closed_book``: an introduction, the
problem, one example test case, the function to complete and the requirements: solve with the
package only (no reimplementation, no other library), complete only the body keeping the name
and parameters, standard-library imports allowed, one final fenced Python block with the
imports and the function, and outputs of the same structure as the example's. ``open_book``
puts the package documentation of the functions the reference solution uses between the
introduction and the problem, as a Python list of ``{name: documentation}`` entries, and asks
to use those functions. The prompt never names NumPy: the example's ``np.array`` is shown as
the package's array constructor, as the reference does.
"""

from __future__ import annotations

import re
from typing import Literal

from studybench.benchmarks.sebench.package import ObfuscatedPackage
from studybench.benchmarks.sebench.tasks import SETask
from studybench.engines.base import Message

Condition = Literal["closed_book", "open_book"]
CONDITIONS: tuple[Condition, ...] = ("closed_book", "open_book")

INTRO_CLOSED = (
    "Below is a programming problem with an example of its test cases. The example only "
    "shows the shape of the inputs and outputs; its output values are not guaranteed to be "
    "right. Complete the function so that it takes and returns data of that shape."
)
INTRO_OPEN = (
    "Below are functions of the {package} library, then a programming problem with an "
    "example of its test cases. The example only shows the shape of the inputs and outputs; "
    "its output values are not guaranteed to be right. Complete the function so that it "
    "takes and returns data of that shape."
)
DOCS_HEADING = "### {package} Codebase Functions"
PROBLEM_HEADING = "### Problem"
EXAMPLE_HEADING = "### Test Cases"
FUNCTION_HEADING = "### Function to Complete"
REQUIREMENTS_HEADING = "### Requirements"
USE_LIBRARY = {
    "closed_book": (
        "- Solve the problem with the {package} library. Do not reimplement what its "
        "functions do and do not use any other library, unless there is no other way."
    ),
    "open_book": (
        "- Solve the problem with the {package} library and the functions listed under "
        '"{package} Codebase Functions". Do not reimplement what they do and do not use any '
        "other library, unless there is no other way."
    ),
}
REQUIREMENTS = (
    "- Write only the body of the given function; keep its name, its parameters and their "
    "order.\n"
    "- You may import modules of the Python standard library, but the core of the solution "
    "must be {package} calls.\n"
    "- End your reply with one fenced Python code block (```python ... ```) holding every "
    "import and the completed function.\n"
    "- Return data of the same structure as the example's output: if it is a list, return a "
    "list."
)
CLOSING = "Write the final implementation below, and make sure it calls {package} functions."
_NP_ARRAY = re.compile(r"\b(?:np|numpy)\.array\b")


def _example(task: SETask, package: ObfuscatedPackage) -> str:
    constructor = f"{package.name}.{package.mapping.get('array', 'array')}"
    return _NP_ARRAY.sub(constructor, task.example)


def docs_section(task: SETask, package: ObfuscatedPackage) -> str:
    """The open-book documentation: a Python list of ``{qualified name: documentation}``."""
    entries = [{package.docs[f].function: package.doc_text(f)} for f in task.functions]
    return repr(entries)


def user_prompt(task: SETask, package: ObfuscatedPackage, condition: Condition) -> str:
    name = package.name
    parts = [(INTRO_OPEN if condition == "open_book" else INTRO_CLOSED).format(package=name)]
    if condition == "open_book":
        parts += [DOCS_HEADING.format(package=name), docs_section(task, package)]
    parts += [PROBLEM_HEADING, task.query]
    parts += [EXAMPLE_HEADING, _example(task, package) or "(none)"]
    parts += [FUNCTION_HEADING, task.stub]
    requirements = USE_LIBRARY[condition] + "\n" + REQUIREMENTS
    parts += [REQUIREMENTS_HEADING, requirements.format(package=name)]
    parts.append(CLOSING.format(package=name))
    return "\n\n".join(parts)


def messages(task: SETask, package: ObfuscatedPackage, condition: Condition) -> list[Message]:
    return [Message(role="user", content=user_prompt(task, package, condition))]


def prompt_texts() -> list[str]:
    """Every fixed text of the prompts (hashed into the protocol)."""
    return [
        INTRO_CLOSED, INTRO_OPEN, DOCS_HEADING, PROBLEM_HEADING, EXAMPLE_HEADING,
        FUNCTION_HEADING, REQUIREMENTS_HEADING, *USE_LIBRARY.values(), REQUIREMENTS, CLOSING,
    ]  # fmt: skip
