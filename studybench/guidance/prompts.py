"""The teacher prompts of the guidance stages (StudyBench-specific texts, kept in one place).

Each prompt asks for one JSON object in a fixed schema (see
:mod:`studybench.guidance.records`), so replies are validated rather than interpreted.
Changing a text changes every request hash, so cached replies are not reused for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from studybench.engines.base import Message

SYSTEM = (
    "You are a physics teacher preparing study material. You always reply with exactly one "
    "JSON object and nothing else."
)

DECOMPOSE = """List the minimal named knowledge points a student needs to reach the reference
solution of the sub-problem below: concepts, laws or equations, techniques and assumptions.
Name each one as a textbook would (for example "Conservation of mechanical energy"), not by
this problem's numbers. Use between 1 and 5 points.

Reply with JSON:
{{"knowledge_points": [{{"type": "concept|law_or_equation|technique|assumption",
  "name": "...", "description": "one sentence", "source": "solution|problem|both",
  "keywords": ["...", "..."]}}]}}

Problem (shared part):
{stem}

Sub-problem:
{question}

Reference solution:
{solution}
"""

VERIFY = """Does the textbook passage below teach the knowledge point? Score it:
0 = not covered; 1 = only mentioned; 2 = applied or shown in a worked example;
3 = directly explained (stated and explained).
Copy one short sentence or formula from the passage, verbatim, as evidence (empty for 0).

Reply with JSON: {{"score": 0, "quote": "...", "reason": "..."}}

Knowledge point: {name} ({type})
{description}

Passage [{fragment_id}]:
{text}
"""

GUIDE = """Write solving guidance for the sub-problem below. Name which concepts, formulae and
worked examples from the passages to use, and in what order. Do NOT state the final answer,
do not give its value or expression in any form, do not write the final equation and do not
do the key calculation. The reference solution is for your understanding only.
{feedback}
Reply with JSON: {{"guidance": "2-5 sentences", "kp_used": ["knowledge point name", "..."]}}

Problem (shared part):
{stem}

Sub-problem:
{question}

Reference solution (never reveal):
{solution}

Reference answer (never reveal): {answer}

Knowledge points and verified textbook passages:
{passages}
"""

REVIEW = """Check a hint written for a student. It leaks if it states the final answer, its
value or expression in any notation, the final equation, or does the key calculation.

Reply with JSON: {{"leak": true, "reason": "..."}}

Sub-problem:
{question}

Reference answer: {answer}

Hint:
{guidance}
"""

FEEDBACK = """A previous draft was rejected because it leaked the answer ({reasons}). Write a
new draft that avoids this.
"""


def messages(user: str) -> list[Message]:
    return [Message(role="system", content=SYSTEM), Message(role="user", content=user)]


def passages_text(items: Sequence[tuple[str, str, Sequence[tuple[str, str]]]]) -> str:
    """``(kp name, kp description, [(fragment_id, quote), ...])`` as a readable list."""
    lines: list[str] = []
    for name, description, quotes in items:
        lines.append(f"- {name}: {description}")
        for fragment_id, quote in quotes:
            lines.append(f'    [{fragment_id}] "{quote}"')
    return "\n".join(lines) or "(none)"
