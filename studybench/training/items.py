"""Training items for the RL recipes, asked exactly as the benchmark asks.

A policy trained on prompts worded differently from the evaluation learns a format the
benchmark never shows it, so every item here is built by the rollout's own message builder:
the benchmark's system prompt and instruction, the shared stem on turn 0, one user turn per
sub-problem. Multi-turn items become one item per turn; turn *i* carries its own prefix (the
earlier turns with their gold answers as the assistant's replies, as the memorisation split's
SFT examples do), so the policy is trained on each turn in the context the benchmark builds.

* GRPO (:func:`answered_items`): the Instructions-with-Answer layers, each item with its gold
  answer, answer type and type sequence for the verifier.
* TTRL (:func:`unanswered_items`): the Instructions-without-Answer layer, no gold; the
  layer's own instruction paragraph ("a final boxed answer is not required") is replaced by
  the benchmark's, so the group's boxed answers can be voted on.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from studybench.errors import DataError


class TrainItem(BaseModel):
    """One prompt of an RL dataset (a row of the TRL dataset, plus the verifier's fields)."""

    model_config = ConfigDict(frozen=True)

    item_id: str
    prompt: list[dict[str, str]]
    answer: str = ""
    answer_type: str = ""
    type_sequence: str = ""

    def row(self) -> dict[str, object]:
        return self.model_dump()


def answered_items(
    layers: Sequence[Path], split_file: Path, system_prompt: str, language: str = "EN"
) -> list[TrainItem]:
    """Items of the answered instruction layers (written to ``split_file`` as benchmark
    parents first, so what was trained on is on disk beside the checkpoints)."""
    from studybench.benchmarks.studybench.memorisation import write_split
    from studybench.benchmarks.studybench.prompts import PROMPTS
    from studybench.data.loaders import load_parents
    from studybench.rollout.artefacts import MethodArtefacts
    from studybench.rollout.conversation import build_messages

    write_split(layers, split_file)
    artefacts = MethodArtefacts(system_prompt=system_prompt)
    items: list[TrainItem] = []
    for parent in load_parents(split_file):
        slots = parent.slots()
        targets = [f"Final Answer: {slot.answer}" for slot in slots]
        for index, slot in enumerate(slots):
            messages = build_messages(
                slots,
                index,
                targets[:index],
                artefacts,
                PROMPTS,
                language,  # type: ignore[arg-type]
            )
            items.append(
                TrainItem(
                    item_id=str(slot.key),
                    prompt=[{"role": m.role, "content": m.content} for m in messages],
                    answer=slot.answer,
                    answer_type=slot.answer_type.value,
                    type_sequence=",".join(t.value for t in slot.type_sequence),
                )
            )
    if not items:
        raise DataError(f"{', '.join(map(str, layers))}: no answered items to train on")
    return items


def _question(text: str) -> str:
    """The question without the layer's leading instruction paragraph."""
    head, sep, rest = text.partition("\n\n")
    if sep and rest.strip() and ("answer" in head.lower() or "\\boxed" in head):
        return rest.strip()
    return text.strip()


def unanswered_items(layer: Path, system_prompt: str, language: str = "EN") -> list[TrainItem]:
    """Items of the Instructions-without-Answer layer, one per user turn (the first turn's
    prefix is empty; later turns keep the layer's own assistant replies when it has them)."""
    from studybench.benchmarks.studybench.prompts import INSTRUCTION
    from studybench.data.loaders import load_instruction_layer

    instruction = INSTRUCTION[language]  # type: ignore[index]
    items: list[TrainItem] = []
    for index, record in enumerate(load_instruction_layer(layer, with_answers=False)):
        history: list[dict[str, str]] = [{"role": "system", "content": system_prompt}]
        turn = 0
        for message in record.messages:
            if message.role == "system":
                continue
            if message.role == "assistant":
                history.append({"role": "assistant", "content": message.content})
                continue
            content = message.content if turn else f"{instruction}\n\n{_question(message.content)}"
            history.append({"role": "user", "content": content})
            source = str(record.metadata.get("source") or layer.stem)
            items.append(
                TrainItem(item_id=f"{source}/{index}/{turn}", prompt=[dict(m) for m in history])
            )
            turn += 1
    if not items:
        raise DataError(f"{layer}: no instructions to train on")
    return items
