"""The conversations of EvaLearn's four paradigms, built as the reference builds them.

Every request is two messages: a per-type system prompt and one user message. The user
message carries, in the reference's order, what the paradigm lets the model learn from,
then a closing line, then the problem (the wording is the project's own; the parts and their
order are the reference's, spec §3):

* ``zero_shot``: the problem alone.
* ``few_shot``: three examples of the problem's type, drawn once per run (:func:`draw_examples`:
  Python's ``random`` seeded with 42, types in order of first appearance, ``sample(k)``),
  each its last turn and its ``canonical_answer``; the current problem is shown as its last
  turn only. The examples stay in the evaluation set, as in the reference.
* ``demonstration``: every earlier problem of the sequence, solved or not, with its rubric
  shown as the standard answer (the reference shows the rubric, not ``canonical_answer``).
* ``feedback``: every earlier problem with the model's own answer, the rubric and the
  judge's full reply; the closing line is there even at position 1.

One documented difference (README, EvaLearn parity): an earlier problem is written as its
turns (``user: ...``), not as the Python ``str()`` of the turn list the reference pastes in.

Bump :data:`PROMPTS_VERSION` when any text here changes: it enters the protocol hash, so
results of other prompts never mix.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Literal

from studybench.benchmarks.evalearn.records import (
    EvaLearnProblem,
    EvaLearnRelease,
    RubricLanguage,
)
from studybench.engines.base import Message

PROMPTS_VERSION = "2"
Paradigm = Literal["zero_shot", "few_shot", "demonstration", "feedback"]
PARADIGMS: tuple[Paradigm, ...] = ("zero_shot", "few_shot", "demonstration", "feedback")

ROLE = "You are a student working on a {type} task."
SYSTEM: dict[Paradigm, str] = {
    "zero_shot": (
        "{role} Give the best answer you can. Keep in mind: (1) work out exactly what the "
        "task asks for; (2) satisfy every one of its requirements; (3) make your answer "
        "clear and to the point."
    ),
    "few_shot": (
        "{role} Before the problem you have to answer you will find example problems of "
        "the same kind, each with its standard answer; learn from them. Keep in mind: (1) "
        "see what the examples have in common with the final problem; (2) satisfy every "
        "requirement of the final problem; (3) make your answer clear and to the point."
    ),
    "demonstration": (
        "{role} Before the problem you have to answer you will see earlier problems with "
        "their standard answers. Learn the patterns they show and apply them. Keep in "
        "mind: (1) study how each earlier problem was meant to be solved; (2) notice what "
        "the standard answers demand; (3) carry those patterns over to the final problem; "
        "(4) satisfy every requirement of the final problem; (5) make your answer clear "
        "and to the point."
    ),
    "feedback": (
        "{role} Before the problem you have to answer you will see earlier problems, the "
        "answers you gave to them and the teacher's assessment of each. Learn from them to "
        "get better at {type} tasks. Keep in mind: (1) read each assessment and what it "
        "found wrong; (2) do not make the same mistakes again, and feel free to show your "
        "reasoning; (3) satisfy every requirement of the final problem; (4) make your "
        "answer clear and to the point."
    ),
}

PROBLEM_LABEL = "[Problem]:"
EXAMPLE = (
    "[Example {k} begins]\n[Problem begins]\n{question}\n[Problem ends]\n"
    "[Standard answer begins]\n{answer}\n[Standard answer ends]\n[Example {k} ends]\n\n"
)
DEMONSTRATION = (
    "[Demonstration {k} begins]\n[Problem begins]\n{question}\n[Problem ends]\n"
    "[Standard answer begins]\n{answer}\n[Standard answer ends]\n[Demonstration {k} ends]\n\n"
)
ATTEMPT = (
    "[Earlier attempt {k} begins]\n[Problem begins]\n{question}\n[Problem ends]\n"
    "[Your answer begins]\n{answer}\n[Your answer ends]\n"
    "[Grading criteria begin]\n{rubric}\n[Grading criteria end]\n"
    "[Teacher's assessment begins]\n{assessment}\n[Teacher's assessment ends]\n"
    "[Earlier attempt {k} ends]\n\n"
)
CLOSING: dict[Paradigm, str] = {
    "few_shot": "**That was the last example. Now answer the final problem.**\n\n",
    "demonstration": "**That was the last demonstration. Now answer the final problem.**\n",
    "feedback": "**That was the last earlier attempt. Now answer the final problem.**\n",
}

FEW_SHOT_SEED = 42
FEW_SHOT_EXAMPLES = 3


def system_prompt(problem_type: str, paradigm: Paradigm) -> str:
    role = ROLE.format(type=problem_type)
    return SYSTEM[paradigm].format(role=role, type=problem_type)


def question_text(problem: EvaLearnProblem) -> str:
    """Q: every turn in order, as ``user: <turn>`` / ``assistant: <turn>`` and a blank line."""
    return "".join(f"{m.role}: {m.content}\n\n" for m in problem.prompt)


def last_turn(problem: EvaLearnProblem) -> str:
    return problem.prompt[-1].content


def draw_examples(
    release: EvaLearnRelease,
    count: int = FEW_SHOT_EXAMPLES,
    seed: int = FEW_SHOT_SEED,
) -> dict[str, list[EvaLearnProblem]]:
    """The few-shot examples of every type, drawn once per run as the reference draws them:
    one ``random.Random(seed)``, the types in order of first appearance in the problem file,
    ``count`` problems of each sampled without replacement (all of them if fewer)."""
    rng = random.Random(seed)
    by_type: dict[str, list[EvaLearnProblem]] = {}
    for problem in release.problems.values():  # the file's order
        by_type.setdefault(problem.type, []).append(problem)
    return {
        name: rng.sample(members, min(count, len(members))) for name, members in by_type.items()
    }


def build_messages(
    paradigm: Paradigm,
    problems: Sequence[EvaLearnProblem],
    position: int,
    *,
    language: RubricLanguage = "zh",
    answers: Sequence[str] = (),
    assessments: Sequence[str] = (),
    examples: Mapping[str, Sequence[EvaLearnProblem]] | None = None,
) -> list[Message]:
    """The request that asks ``problems[position]`` (0-based) of a sequence.

    ``answers`` and ``assessments`` are the model's earlier answers (thinking removed) and
    the judge's replies on them, position by position (``feedback`` only); ``examples`` the
    run's few-shot draw (:func:`draw_examples`); ``language`` picks the rubric shown."""
    current = problems[position]
    system = Message(role="system", content=system_prompt(current.type, paradigm))
    if paradigm == "zero_shot":
        text = f"\n{PROBLEM_LABEL}\n{question_text(current)}"
    elif paradigm == "few_shot":
        shown = (examples or {}).get(current.type, [])
        blocks = "".join(
            EXAMPLE.format(k=k, question=last_turn(p), answer=p.canonical_answer)
            for k, p in enumerate(shown, start=1)
        )
        text = f"{blocks}{CLOSING['few_shot']}{PROBLEM_LABEL}\n{last_turn(current)}"
    elif paradigm == "demonstration":
        blocks = "".join(
            DEMONSTRATION.format(k=k, question=question_text(p).strip(), answer=p.rubric(language))
            for k, p in enumerate(problems[:position], start=1)
        )
        text = f"{blocks}{CLOSING['demonstration']}\n{PROBLEM_LABEL}\n{question_text(current)}"
    else:
        if len(answers) < position or len(assessments) < position:
            raise ValueError(
                f"feedback paradigm: position {position} needs {position} earlier answers "
                f"and assessments, got {len(answers)} and {len(assessments)}"
            )
        blocks = "".join(
            ATTEMPT.format(
                k=k,
                question=question_text(p).strip(),
                answer=answers[k - 1],
                rubric=p.rubric(language),
                assessment=assessments[k - 1],
            )
            for k, p in enumerate(problems[:position], start=1)
        )
        text = f"{blocks}{CLOSING['feedback']}\n{PROBLEM_LABEL}\n{question_text(current)}"
    return [system, Message(role="user", content=text)]


def prompt_texts() -> list[str]:
    """Every fixed text of the prompts (for the protocol hash)."""
    return [
        PROMPTS_VERSION,
        ROLE,
        PROBLEM_LABEL,
        EXAMPLE,
        DEMONSTRATION,
        ATTEMPT,
        *(f"{k}={v}" for k, v in sorted(SYSTEM.items())),
        *(f"{k}={v}" for k, v in sorted(CLOSING.items())),
    ]
