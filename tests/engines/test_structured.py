"""Structured output without a server: every reply a stage's format allows is one its parser
accepts and fits its token budget (replies drawn from the format's regex by hypothesis),
and the request carries the format only where the endpoint honours it."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from studybench.benchmarks.evalearn.judge import parse_reply as rubric_parse
from studybench.benchmarks.evalearn.judge import rubric_format
from studybench.engines.base import Message, SamplingParams
from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.engines.structured import (
    BYTES_PER_CHAR,
    OutputFormat,
    free_text,
    honours_format,
    json_regex,
)
from studybench.guidance.records import DecomposeReply, GuideReply, ReviewReply, VerifyReply
from studybench.guidance.teacher import extract_json
from studybench.judge.prompt import parse_reply as verdict_parse
from studybench.judge.prompt import verdict_format
from studybench.training.ace import SECTIONS, Playbook, apply_reflection, reflection_format
from studybench.training.gepa_prompt import instruction_format
from studybench.training.synth import ATOMIC_TYPES, pair_format
from studybench.training.synth import parse_reply as pair_parse
from tests.engines.fake_openai import fake_openai

SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def replies(form: OutputFormat) -> st.SearchStrategy[str]:
    return st.from_regex(form.regex, fullmatch=True)


def fits(reply: str, max_tokens: int) -> bool:
    """At least one byte a token: a reply of at most ``max_tokens`` bytes is never cut."""
    return len(reply.encode()) <= max_tokens


@SLOW
@given(st.data(), st.integers(40, 400))
def test_every_verdict_reply_parses_and_fits(data: st.DataObject, max_tokens: int) -> None:
    reply = data.draw(replies(verdict_format(max_tokens)))
    assert verdict_parse(reply) in ("true", "false")
    assert fits(reply, max_tokens)


@SLOW
@given(st.data(), st.integers(90, 600))
def test_every_rubric_reply_has_its_score(data: st.DataObject, max_tokens: int) -> None:
    reply = data.draw(replies(rubric_format(max_tokens)))
    outcome = rubric_parse(reply)
    assert outcome in ("correct", "incorrect")
    assert (outcome == "correct") == ('"answer_score": 1}' in reply)  # the line and JSON agree
    assert fits(reply, max_tokens)


@pytest.mark.parametrize("schema", [DecomposeReply, VerifyReply, GuideReply, ReviewReply])
@pytest.mark.parametrize("max_tokens", [200, 512, 2048])
@SLOW
@given(data=st.data())
def test_every_teacher_reply_validates_and_fits(
    schema: type[BaseModel], max_tokens: int, data: st.DataObject
) -> None:
    reply = data.draw(replies(json_regex(schema, max_tokens)))
    schema.model_validate(extract_json(reply))
    assert fits(reply, max_tokens)


def test_json_bounds_shrink_with_the_budget_but_not_below_the_schema_minimum() -> None:
    lengths = [int(n) for n in re.findall(r"\{1,(\d+)\}", json_regex(GuideReply, 256).regex)]
    wider = [int(n) for n in re.findall(r"\{1,(\d+)\}", json_regex(GuideReply, 4096).regex)]
    assert lengths and wider and lengths[0] < wider[0] <= 6000
    assert (wider[0] + 2) * BYTES_PER_CHAR > 2048  # a large budget is used, not wasted
    tiny = json_regex(DecomposeReply, 1).regex  # nothing fits: the schema's minimum
    assert '"name":"(?:' in tiny and "{2,2}" in tiny


@SLOW
@given(st.data(), st.integers(64, 400))
def test_every_reflection_tags_known_bullets_and_adds(data: st.DataObject, budget: int) -> None:
    playbook = Playbook()
    playbook.add("formulas", "Energy is conserved without friction.")
    playbook.add("pitfalls", "Convert units before comparing.")
    reply = data.draw(replies(reflection_format(playbook, budget)))
    before = {b.id: (b.helpful, b.harmful) for b in playbook.bullets}
    added = apply_reflection(playbook, reply, max_bullets=50)
    tags = sum(h + m for h, m in ((b.helpful, b.harmful) for b in playbook.bullets))
    assert tags == reply.count("HELPFUL [") + reply.count("HARMFUL [")  # every tag landed
    assert set(before) <= {b.id for b in playbook.bullets}
    assert 1 <= reply.count("ADD ") <= 2 and added <= 2
    assert all(b.section in SECTIONS for b in playbook.bullets)
    assert fits(reply, budget)


@SLOW
@given(st.data(), st.integers(16, 400))
def test_every_reflection_block_is_a_gepa_instruction(data: st.DataObject, budget: int) -> None:
    from gepa.strategies.instruction_proposal import InstructionProposalSignature

    reply = data.draw(replies(instruction_format(budget)))
    instruction = InstructionProposalSignature.output_extractor(reply)["new_instruction"]
    assert instruction and "`" not in instruction and instruction in reply
    assert fits(reply, budget)


@SLOW
@given(st.data(), st.integers(120, 600))
def test_every_pair_reply_passes_the_format_filter(data: st.DataObject, budget: int) -> None:
    reply = data.draw(replies(pair_format(budget)))
    pair, reason = pair_parse(reply, {"fragment_id": "f"})
    kind = re.search(r"Answer type: (\w+)", reply)
    assert kind is not None and kind[1] in ATOMIC_TYPES
    # the format guarantees the shape; only the verifier's own reading may still refuse
    assert pair is not None or reason.startswith("the verifier cannot read"), reason
    if kind[1] in ("NV", "MC", "TF"):
        assert pair is not None, reason
    assert fits(reply, budget)


def test_free_text_bans_its_characters_and_a_blank_start() -> None:
    pattern = re.compile(free_text(12, "\n`", min_chars=1))
    assert pattern.fullmatch("a tip") and not pattern.fullmatch(" tip")
    assert not pattern.fullmatch("") and not pattern.fullmatch("a`b")
    assert re.fullmatch(free_text(3, ""), "a\nb")  # nothing banned: any character


def test_the_format_leaves_an_unset_request_and_its_dump_unchanged() -> None:
    plain = SamplingParams(temperature=0.0)
    assert "output_format" not in plain.model_dump()  # cache keys built from dumps stay
    constrained = plain.model_copy(update={"output_format": verdict_format(64)})
    assert constrained.model_dump()["output_format"]["regex"] == verdict_format(64).regex


@pytest.mark.parametrize("structured", [True, False])
def test_the_format_travels_only_where_the_endpoint_honours_it(structured: bool) -> None:
    form = verdict_format(64)

    def script(body: dict[str, Any]) -> tuple[int, str, float]:
        return 200, "VERDICT: TRUE\nJUSTIFICATION: same.", 0.0

    async def ask(url: str) -> None:
        engine = OpenAICompatEngine(url, "judge", structured_output=structured)
        assert honours_format(engine) is structured
        try:
            await engine.complete(
                [Message(role="user", content="grade")],
                SamplingParams(max_tokens=64, output_format=form),
            )
        finally:
            await engine.aclose()

    with fake_openai(script) as (url, received):
        asyncio.run(ask(url))
    (body,) = received
    if structured:
        assert body["structured_outputs"] == {"regex": form.regex}
    else:
        assert "structured_outputs" not in body and "guided_regex" not in body
