"""The teacher client: JSON found in replies, invalid replies retried then recorded as
failures, replies cached (a re-run makes no call), engine errors never cached."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.guidance import prompts
from studybench.guidance.records import VerifyReply
from studybench.guidance.teacher import ReplyCache, Teacher, extract_json
from tests.engines.fake_openai import fake_openai, sequence


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ('{"score": 2, "quote": "x"}', {"score": 2, "quote": "x"}),
        ('Sure.\n```json\n{"score": 3}\n```\nDone.', {"score": 3}),
        ('<think>maybe {"score": 0}</think>{"score": 1}', {"score": 1}),
        ('Here: {"quote": "a } brace", "score": 2} trailing', {"quote": "a } brace", "score": 2}),
        ('{"a": {"b": 1}}', {"a": {"b": 1}}),
        ('{broken {"score": 2}', {"score": 2}),
    ],
)
def test_extract_json(reply: str, value: object) -> None:
    assert extract_json(reply) == value


@pytest.mark.parametrize("reply", ["no json here", '{"score": 2', "", "<think>{}"])
def test_extract_json_rejects(reply: str) -> None:
    with pytest.raises(ValueError):
        extract_json(reply)


def ask(url: str, cache: Path, retries: int = 2) -> tuple[object, Teacher]:
    teacher = Teacher(
        engine=OpenAICompatEngine(url, "t", max_retries=0),
        model="t",
        cache=ReplyCache(cache),
        json_retries=retries,
    )

    async def go() -> object:
        try:
            return await teacher.ask("verify", prompts.messages("q"), VerifyReply)
        finally:
            await teacher.aclose()

    try:
        return asyncio.run(go()), teacher
    finally:
        teacher.cache.close()


def test_invalid_replies_are_retried_then_recorded(tmp_path: Path) -> None:
    script = sequence((200, "not json", 0), (200, '{"score": 7}', 0), (200, '{"score": 2}', 0))
    with fake_openai(script) as (url, received):
        answer, teacher = ask(url, tmp_path / "c.sqlite")
        assert answer.value == VerifyReply(score=2)  # type: ignore[attr-defined]
        assert answer.attempts == 3 and teacher.calls == 3  # type: ignore[attr-defined]
        assert [r["seed"] for r in received] == [0, 1, 2]  # each retry samples anew
        again, cached = ask(url, tmp_path / "c.sqlite")
        assert cached.calls == 0 and cached.cached == 3 and len(received) == 3
        assert again.value == answer.value  # type: ignore[attr-defined]

    with fake_openai(sequence((200, "noise", 0))) as (url, received):
        failed, teacher = ask(url, tmp_path / "d.sqlite", retries=1)
        failure = failed.failure  # type: ignore[attr-defined]
        assert failed.value is None and failure is not None  # type: ignore[attr-defined]
        assert failure.attempts == 2 and failure.replies == ["noise", "noise"]
        assert "no JSON object" in failure.error and teacher.failures == 1
        ask(url, tmp_path / "d.sqlite", retries=1)
        assert len(received) == 2  # the decision to give up is cached too


def test_schema_errors_name_the_field(tmp_path: Path) -> None:
    with fake_openai(sequence((200, '{"score": 9, "quote": ""}', 0))) as (url, _):
        failed, _ = ask(url, tmp_path / "c.sqlite", retries=0)
    assert "schema: score" in failed.failure.error  # type: ignore[attr-defined]


def test_engine_errors_are_not_cached(tmp_path: Path) -> None:
    with fake_openai(sequence((400, "bad request", 0))) as (url, received):
        failed, _ = ask(url, tmp_path / "c.sqlite")
        assert "engine error" in failed.failure.error  # type: ignore[attr-defined]
        ask(url, tmp_path / "c.sqlite")
        assert len(received) == 2  # asked again on the next run


def test_a_bad_stage_record_names_file_line_and_field(tmp_path: Path) -> None:
    from studybench.errors import DataError
    from studybench.guidance.records import Match, read_lines

    path = tmp_path / "kp_matches.jsonl"
    good = Match(
        kp_id="kp-1",
        fragment_id="b/c/000",
        teacher_score=3,
        score=3,
        quote="q",
        quote_found=True,
        covered=True,
    )
    path.write_text(
        good.model_dump_json()
        + "\n"
        + good.model_dump_json().replace('"score":3', '"score":"x"')
        + "\n"
    )
    with pytest.raises(DataError, match=r"kp_matches.jsonl: line 2: field score"):
        read_lines(path, Match)
    with pytest.raises(DataError, match="run the previous guidance stage"):
        read_lines(tmp_path / "missing.jsonl", Match)
