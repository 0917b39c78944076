"""The texts a conversation protocol tells the model, handed to the runner by the benchmark.

The runner and the conversation builder are benchmark-neutral: they know *where* texts go
(an instruction opening the first turn, a placeholder standing for an empty earlier answer, a
header and preamble introducing guidance, an instruction in front of an ACE playbook), never
*what* they say. A benchmark supplies its own :class:`PromptTexts` (StudyBench's are in
:mod:`studybench.benchmarks.studybench.prompts`), and the protocol hash covers them, so
results asked with other words never mix with stored ones.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Language = Literal["EN", "ZH"]


class PromptTexts(BaseModel):
    """One benchmark's prompt texts; the per-language ones are keyed by :data:`Language`."""

    model_config = ConfigDict(frozen=True)

    instruction: dict[Language, str]
    """Opens the first user turn of every conversation, before the stem."""
    placeholder: dict[Language, str]
    """The assistant turn that stands for an earlier answer that was empty or failed, so roles
    always alternate."""
    guidance_header: str
    """The heading above guidance appended to a user turn."""
    guidance_preamble: dict[Language, str]
    """The sentence between the guidance header and the guidance itself."""
    ace_instruction: str
    """Tells the model how to use an ACE playbook appended to the system message."""

    def missing(self, language: Language) -> list[str]:
        """The per-language texts that have nothing for ``language``."""
        fields = {
            "instruction": self.instruction,
            "placeholder": self.placeholder,
            "guidance_preamble": self.guidance_preamble,
        }
        return [name for name, texts in fields.items() if language not in texts]

    def hashed(self, language: Language) -> list[str]:
        """The texts of ``language`` that enter the protocol hash, in their fixed order (the
        order stored results were keyed with; changing it changes every hash)."""
        return [
            self.instruction[language],
            self.placeholder[language],
            self.guidance_preamble[language],
            self.ace_instruction,
        ]
