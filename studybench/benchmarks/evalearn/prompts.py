"""The conversations of EvaLearn's four paradigms, as proper chat messages.

Every paradigm asks the current problem's own turns last; what comes before them is what the
model may learn from:

* ``zero_shot``: nothing (each problem alone).
* ``few_shot``: fixed solved examples of the problem's type (drawn with a seed), each as a
  user turn and an assistant turn holding the reference answer.
* ``demonstration``: every earlier problem of the sequence with its reference answer.
* ``feedback``: every earlier problem of the sequence with the model's *own* earlier answer,
  and the judge's feedback on it opening the next user turn.

Earlier problems are real user/assistant turns, never a stringified Python list pasted into
one message (the reference does that). Roles always alternate, so every chat template
accepts the conversation. Bump :data:`PROMPTS_VERSION` when any text here changes: it enters
the protocol hash, so results of other prompts never mix.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from studybench.benchmarks.evalearn.records import EvaLearnProblem, EvaLearnRelease
from studybench.engines.base import Message

PROMPTS_VERSION = "1"
Paradigm = Literal["zero_shot", "few_shot", "demonstration", "feedback"]
PARADIGMS: tuple[Paradigm, ...] = ("zero_shot", "few_shot", "demonstration", "feedback")

ANSWER_RULE = (
    "Think as much as you need, then give your final answer on the last line in the form "
    "'Final answer: <answer>'."
)

SYSTEM_PROMPTS: dict[str, str] = {
    "summarization": "You write faithful, concise summaries that keep every key fact and "
    "add nothing that is not in the text.",
    "classification": "You assign the single label that fits best, choosing only among the "
    "labels the task allows.",
    "extraction": "You extract exactly the requested information from the text, copying "
    "names and values as written.",
    "logical reasoning": "You solve logic puzzles by checking every constraint before "
    "committing to an answer.",
    "mathematical reasoning": "You solve mathematical problems carefully, step by step, and "
    "check the result.",
    "sequential reasoning": "You reason through ordered processes step by step, keeping "
    "track of the state after each step.",
}
DEFAULT_SYSTEM_PROMPT = "You solve the task carefully and precisely."

SEQUENCE_NOTE = (
    "You will meet several problems of the same kind one after another. Use whatever you "
    "learn from the earlier ones."
)
FEEDBACK_LEAD = "Feedback on your previous answer: {verdict}. {feedback}\n\nNext problem:\n"


def system_prompt(problem_type: str, paradigm: Paradigm) -> str:
    """The per-type system prompt, the answer format and, for paradigms that show earlier
    problems, a note that the problems come in a sequence."""
    base = SYSTEM_PROMPTS.get(problem_type.strip().lower(), DEFAULT_SYSTEM_PROMPT)
    parts = [base, ANSWER_RULE]
    if paradigm != "zero_shot":
        parts.append(SEQUENCE_NOTE)
    return " ".join(parts)


def _turns(problem: EvaLearnProblem) -> list[Message]:
    """The problem's own turns without its system turn (the paradigm sets the system)."""
    return [m for m in problem.prompt if m.role != "system"]


def _with_lead(turns: list[Message], lead: str) -> list[Message]:
    """``turns`` with ``lead`` prefixed to the first user turn (keeps roles alternating)."""
    first = turns[0]
    return [Message(role=first.role, content=lead + first.content), *turns[1:]]


def few_shot_examples(
    release: EvaLearnRelease, problem_type: str, count: int, seed: int, exclude: Sequence[str]
) -> list[EvaLearnProblem]:
    """The fixed, seeded examples of a type: a seeded order of the type's problems, the
    first ``count`` that are not in ``exclude`` (the sequence being asked: an example must
    never give away an answer of the sequence)."""
    pool = sorted(
        (p for p in release.problems.values() if p.type == problem_type), key=lambda p: p.id
    )
    random.Random(f"{seed}|{problem_type}").shuffle(pool)
    banned = set(exclude)
    return [p for p in pool if p.id not in banned][:count]


def build_messages(
    paradigm: Paradigm,
    problems: Sequence[EvaLearnProblem],
    position: int,
    *,
    answers: Sequence[str] = (),
    feedback: Sequence[tuple[bool, str]] = (),
    examples: Sequence[EvaLearnProblem] = (),
) -> list[Message]:
    """The conversation that asks ``problems[position]`` of a sequence.

    ``answers`` and ``feedback`` are the model's own earlier answers and the judge's
    (correct, feedback text) on them, position by position (``feedback`` paradigm only);
    ``examples`` are the few-shot examples."""
    current = problems[position]
    messages = [Message(role="system", content=system_prompt(current.type, paradigm))]
    shown: list[tuple[EvaLearnProblem, str]] = []
    if paradigm == "few_shot":
        shown = [(p, p.canonical_answer) for p in examples]
    elif paradigm == "demonstration":
        shown = [(p, p.canonical_answer) for p in problems[:position]]
    elif paradigm == "feedback":
        if len(answers) < position or len(feedback) < position:
            raise ValueError(
                f"feedback paradigm: position {position} needs {position} earlier answers "
                f"and verdicts, got {len(answers)} and {len(feedback)}"
            )
        shown = [(p, answers[i]) for i, p in enumerate(problems[:position])]
    lead = ""
    for index, (problem, answer) in enumerate(shown):
        turns = _turns(problem)
        messages.extend(_with_lead(turns, lead) if lead else turns)
        messages.append(Message(role="assistant", content=answer))
        if paradigm == "feedback":  # the judge's word opens the next user turn
            correct, text = feedback[index]
            lead = FEEDBACK_LEAD.format(
                verdict="correct" if correct else "incorrect", feedback=text.strip()
            )
    current_turns = _turns(current)
    messages.extend(_with_lead(current_turns, lead) if lead else current_turns)
    return messages


def prompt_texts() -> list[str]:
    """Every fixed text of the prompts (for the protocol hash)."""
    return [
        PROMPTS_VERSION,
        ANSWER_RULE,
        SEQUENCE_NOTE,
        FEEDBACK_LEAD,
        DEFAULT_SYSTEM_PROMPT,
        *(f"{k}={v}" for k, v in sorted(SYSTEM_PROMPTS.items())),
    ]
