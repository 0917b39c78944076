"""Pydantic records of the StudyBench release format (format doc, section 1).

The models describe structure only (types, required fields, the legacy ``problems`` key);
the semantic rules of the release (gold boxes versus ``type_sequence``, duplicate keys, known
quirks) live in :mod:`studybench.data.validate`, which reports every problem with file,
record and field instead of stopping at the first.

Unknown keys are kept (``extra="allow"``): a release may carry fields this version does not
know, and dropping them would lose data when records are written back.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NamedTuple

from pydantic import AliasChoices, BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer

from studybench.data.answer_types import AnswerType, format_type_sequence, split_type_sequence


def _to_str(value: Any) -> Any:
    """Ids and years are strings in the release, but hand-written files use numbers."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return str(value)
    return value


def _to_type_sequence(value: Any) -> Any:
    if value is None:
        return ()
    if isinstance(value, str | list | tuple):
        return split_type_sequence(value)
    return value


def _to_answer_type(value: Any) -> Any:
    """Empty strings mean "no answer type" (multi-sub parents carry none)."""
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return value


IdStr = Annotated[str, BeforeValidator(_to_str)]
# Written back in the release's own notation: "EX,NV" and "" for a multi-sub parent's type.
TypeSequence = Annotated[
    tuple[AnswerType, ...],
    BeforeValidator(_to_type_sequence),
    PlainSerializer(format_type_sequence, return_type=str),
]
OptionalAnswerType = Annotated[
    AnswerType | None,
    BeforeValidator(_to_answer_type),
    PlainSerializer(lambda t: "" if t is None else t.value, return_type=str),
]


class SlotKey(NamedTuple):
    """The stable identity of an evaluation slot across files, runs and releases."""

    source: str
    year: str
    source_problem_id: str
    problem_id: str

    def __str__(self) -> str:
        year = self.year or "-"
        return f"{self.source}/{year}/{self.source_problem_id}/{self.problem_id}"


class _Record(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True, populate_by_name=True)


class KnowledgePoint(_Record):
    """A named piece of knowledge a competition sub-problem needs (guidance pipeline)."""

    type: str = ""
    name: str
    description: str = ""
    source: str = ""
    keywords: tuple[str, ...] = ()


class GuidanceCheck(_Record):
    """How a guidance text passed (or failed) the leak gates."""

    passed: bool | None = Field(None, alias="pass")
    fallback_sanitized: bool = False
    residual_leak: tuple[Any, ...] = ()
    attempts: int = 0
    kp_used: tuple[Any, ...] = ()
    history: tuple[dict[str, Any], ...] = ()


class SubProblem(_Record):
    """One sub-question of a multi-sub parent; each is one evaluation slot."""

    problem_id: IdStr
    problem: str
    solution: str = ""
    answer: str
    answer_type: AnswerType
    type_sequence: TypeSequence = ()
    knowledge_points: tuple[KnowledgePoint, ...] = ()
    guidance: str = ""
    guidance_check: GuidanceCheck | None = None


class ParentProblem(_Record):
    """A parent problem: a shared stem with sub-problems, or a solo question.

    A solo parent (no sub-problems) carries its gold answer itself and is exactly one slot
    whose ``problem_id`` is the parent's ``source_problem_id``.
    """

    source: IdStr
    source_kind: str = ""
    domain: str = ""
    year: IdStr = ""
    source_problem_id: IdStr
    title: str = ""
    problem_type: str = ""
    problem: str = ""
    solution: str = ""
    answer: str = ""
    answer_type: OptionalAnswerType = None
    type_sequence: TypeSequence = ()
    sub_problems: tuple[SubProblem, ...] = Field(
        (), validation_alias=AliasChoices("sub_problems", "problems")
    )

    @property
    def is_solo(self) -> bool:
        return not self.sub_problems

    def slot_key(self, problem_id: str) -> SlotKey:
        return SlotKey(self.source, self.year, self.source_problem_id, problem_id)

    def slots(self) -> tuple[Slot, ...]:
        """The evaluation units of this parent, in order (section 1, "slot")."""
        if self.is_solo:
            if self.answer_type is None:
                raise ValueError(f"solo parent {self.source_problem_id} has no answer_type")
            return (
                Slot(
                    key=self.slot_key(self.source_problem_id),
                    index=0,
                    problem_type=self.problem_type,
                    stem="",
                    question=self.problem,
                    solution=self.solution,
                    answer=self.answer,
                    answer_type=self.answer_type,
                    type_sequence=self.type_sequence,
                ),
            )
        return tuple(
            Slot(
                key=self.slot_key(sub.problem_id),
                index=index,
                problem_type=self.problem_type,
                stem=self.problem,
                question=sub.problem,
                solution=sub.solution,
                answer=sub.answer,
                answer_type=sub.answer_type,
                type_sequence=sub.type_sequence,
                guidance=sub.guidance,
                knowledge_points=sub.knowledge_points,
            )
            for index, sub in enumerate(self.sub_problems)
        )


class Slot(BaseModel):
    """One evaluation unit: what the rollout asks and what the judge compares against.

    ``stem`` is the parent's shared text (empty for solo parents, whose whole question is
    ``question``), so prompt building never duplicates a question.
    """

    model_config = ConfigDict(frozen=True)

    key: SlotKey
    index: int
    problem_type: str
    stem: str
    question: str
    solution: str
    answer: str
    answer_type: AnswerType
    type_sequence: tuple[AnswerType, ...] = ()
    guidance: str = ""
    knowledge_points: tuple[KnowledgePoint, ...] = ()


class ChatMessage(_Record):
    role: Literal["system", "user", "assistant"]
    content: str


AnswerField = str | tuple[str, ...]


class InstructionRecord(_Record):
    """One item of an instruction layer (``verifiable_instr*.json``, ``unverifiable_instr.json``).

    Single-turn items carry one gold answer. Multi-turn items (one user turn per sub-problem)
    carry lists with exactly one answer per user turn; ``answer_type`` / ``type_sequence`` may
    be a single value shared by every turn. A single (non-list) answer on a multi-turn item
    belongs to its last user turn. Layers without answers leave the answer fields empty.
    """

    messages: tuple[ChatMessage, ...]
    answer: AnswerField = ""
    answer_type: AnswerField = ""
    type_sequence: AnswerField = ""
    metadata: dict[str, Any] = Field(default_factory=dict)

    @property
    def user_turns(self) -> int:
        return sum(1 for message in self.messages if message.role == "user")

    def answers(self) -> list[tuple[str, str, str]]:
        """(answer, answer_type, type_sequence) per answered turn, as raw strings."""

        def as_list(value: AnswerField) -> list[str]:
            return [value] if isinstance(value, str) else list(value)

        answers = as_list(self.answer)
        types = as_list(self.answer_type)
        sequences = as_list(self.type_sequence)
        if not any(answer.strip() for answer in answers):
            return []
        if len(types) == 1 and len(answers) > 1:
            types = types * len(answers)
        if len(sequences) == 1 and len(answers) > 1:
            sequences = sequences * len(answers)
        return list(zip(answers, types, sequences, strict=True))
