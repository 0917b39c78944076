"""Message construction of a conversational protocol (StudyBench's: format doc, 2.1); the
words come from the benchmark's :class:`~studybench.rollout.prompts.PromptTexts`.

For attempt *a* of a parent, sub-problem *i* is asked with: the system message; turn 0 =
instruction + shared stem + sub-problem 0 (blank-line separated, empty parts dropped; a solo
parent's whole question is its only turn, never duplicated as a stem); later turns = the
sub-problem's own text. Every earlier turn is followed by the model's own answer from the same
attempt with thinking removed, or the fixed placeholder when that answer is empty, so roles
always alternate. A sub-problem's guidance is appended to its user turn (also when replayed).
No gold or solution text ever enters the prompt.
"""

from __future__ import annotations

from collections.abc import Sequence

from studybench.data.records import Slot
from studybench.engines.base import Message
from studybench.rollout.artefacts import MethodArtefacts
from studybench.rollout.prompts import Language, PromptTexts
from studybench.verify.extract import strip_think


def strip_thinking(text: str) -> str:
    """The visible answer under the one thinking rule
    (:func:`studybench.verify.extract.strip_think`): closed blocks and anything before a stray
    ``</think>`` removed; an unterminated ``<think>`` means no answer at all (empty)."""
    visible, unterminated = strip_think(text)
    return "" if unterminated else visible.strip()


def user_turn(
    slots: Sequence[Slot],
    index: int,
    artefacts: MethodArtefacts,
    texts: PromptTexts,
    language: Language,
) -> str:
    """The user text of sub-problem ``index``: the instruction and stem open turn 0, guidance
    (the artefact's, else the slot's own) closes any turn."""
    slot = slots[index]
    first = [texts.instruction[language], slot.stem] if index == 0 else []
    parts = [*first, slot.question]
    text = "\n\n".join(part.strip() for part in parts if part and part.strip())
    guidance = artefacts.guidance_for(slot.key) or slot.guidance
    if guidance.strip():
        header, preamble = texts.guidance_header, texts.guidance_preamble[language]
        text += f"\n\n{header}\n{preamble}\n\n{guidance.strip()}"
    return text


def build_messages(
    slots: Sequence[Slot],
    index: int,
    previous_answers: Sequence[str],
    artefacts: MethodArtefacts,
    texts: PromptTexts,
    language: Language = "EN",
) -> list[Message]:
    """The conversation that asks sub-problem ``index`` of one attempt, in the words of
    ``texts`` (the benchmark's).

    ``previous_answers`` are the raw completions of sub-problems ``0 .. index-1`` of the same
    attempt (empty string for a failed turn).
    """
    if len(previous_answers) != index:
        raise ValueError(f"need {index} previous answers, got {len(previous_answers)}")
    messages = [Message(role="system", content=artefacts.system_prompt)]
    for turn in range(index):
        messages.append(
            Message(role="user", content=user_turn(slots, turn, artefacts, texts, language))
        )
        answer = strip_thinking(previous_answers[turn])
        messages.append(Message(role="assistant", content=answer or texts.placeholder[language]))
    messages.append(
        Message(role="user", content=user_turn(slots, index, artefacts, texts, language))
    )
    return messages
