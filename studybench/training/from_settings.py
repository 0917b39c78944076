"""The inputs every reference recipe builds from the settings: its training items, the rule
verifier that rewards them and the metered LLM chats of the prompt methods.

The ``studybench train`` commands only parse and print; what a recipe trains on is decided
here, once, so a command and a test build the same inputs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from studybench.config import Settings

if TYPE_CHECKING:
    from studybench.training.items import TrainItem
    from studybench.training.llm import MeteredChat
    from studybench.verify.verifier import Verifier


def verifier_for(settings: Settings) -> Verifier:
    """The rule verifier with the judge's tolerance and timeout (two worker processes)."""
    from studybench.verify.verifier import Verifier

    return Verifier(
        workers=2, tolerance=settings.judge.tolerance, timeout_s=settings.judge.rule_timeout_s
    )


def answered_items(settings: Settings, folder: Path) -> list[TrainItem]:
    """Instructions-with-Answer (single and multi-turn) as training items; the list used is
    written to ``folder/train_items.json`` for the record."""
    from studybench.training.items import answered_items as build

    return build(
        [settings.data.instructions_with_answer, settings.data.instructions_with_answer_multi],
        folder / "train_items.json",
        settings.protocol.system_prompt,
        settings.protocol.language,
    )


def unanswered_items(settings: Settings) -> list[TrainItem]:
    """Instructions-without-Answer as training items (test-time RL labels them itself)."""
    from studybench.training.items import unanswered_items as build

    return build(
        settings.data.instructions_without_answer,
        settings.protocol.system_prompt,
        settings.protocol.language,
    )


def prompt_chats(settings: Settings) -> tuple[MeteredChat, MeteredChat]:
    """The task model and the reflector of GEPA and ACE, each metering its calls."""
    from studybench.training.llm import MeteredChat

    prompts = settings.training.prompts
    return MeteredChat(prompts.task, "task model"), MeteredChat(prompts.reflector, "reflector")
