"""Retries with backoff on 429 / 5xx / timeouts / malformed 200 replies, Retry-After, a
budget, no retry on client errors, and no secret in an error text."""

from __future__ import annotations

import asyncio
import email.utils
import json
import time
from pathlib import Path

import pytest

from studybench.engines.base import EngineError, Message, SamplingParams
from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.engines.retry import retry_after_s
from tests.engines.fake_openai import Raw, fake_openai, sequence

MESSAGES = [Message(role="user", content="Find v.")]


def engine(url: str, **kwargs: float) -> OpenAICompatEngine:
    options = {"max_retries": 4, "backoff_base_s": 0.01, "backoff_cap_s": 0.05, **kwargs}
    return OpenAICompatEngine(url, "m", **options)  # type: ignore[arg-type]


def complete(e: OpenAICompatEngine, sampling: SamplingParams | None = None) -> list[str]:
    async def go() -> list[str]:
        try:
            return [c.text for c in await e.complete(MESSAGES, sampling or SamplingParams())]
        finally:
            await e.aclose()

    return asyncio.run(go())


@pytest.mark.parametrize("status", [429, 500, 502, 503])
def test_retryable_statuses_are_retried(status: int) -> None:
    with fake_openai(sequence((status, "busy", 0), (status, "busy", 0), (200, "v = 3", 0))) as (
        url,
        received,
    ):
        e = engine(url)
        assert complete(e) == ["v = 3"]
        assert len(received) == 3 and e.retries == 2


def test_timeouts_are_retried() -> None:
    with fake_openai(sequence((200, "late", 1.0), (200, "on time", 0))) as (url, received):
        e = engine(url, timeout_s=0.3)
        assert complete(e) == ["on time"]
        assert len(received) == 2


def test_budget_then_engine_error() -> None:
    with fake_openai(sequence((500, "down", 0))) as (url, received):
        with pytest.raises(EngineError, match="after 5 attempt"):
            complete(engine(url))
        assert len(received) == 5  # one try + max_retries


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_client_errors_are_not_retried(status: int) -> None:
    with fake_openai(sequence((status, "bad request", 0))) as (url, received):
        with pytest.raises(EngineError, match="after 1 attempt"):
            complete(engine(url))
        assert len(received) == 1


def test_connection_refused_is_retried_then_fails() -> None:
    e = engine("http://127.0.0.1:9/v1", max_retries=2)
    with pytest.raises(EngineError, match="APIConnectionError after 3 attempt"):
        complete(e)


def test_request_carries_sampling_and_thinking_switch() -> None:
    with fake_openai(sequence((200, "ok", 0))) as (url, received):
        sampling = SamplingParams(
            n=2,
            temperature=0.7,
            top_p=0.9,
            top_k=20,
            min_p=0.05,
            presence_penalty=1.5,
            repetition_penalty=1.1,
            max_tokens=64,
            seed=1234,
            stop=("</answer>",),
            thinking=False,
        )
        assert complete(engine(url), sampling) == ["ok", "ok"]
        body = received[0]
        assert body["n"] == 2 and body["seed"] == 1234 and body["max_tokens"] == 64
        assert (body["temperature"], body["top_p"], body["presence_penalty"]) == (0.7, 0.9, 1.5)
        assert (body["top_k"], body["min_p"], body["repetition_penalty"]) == (20, 0.05, 1.1)
        assert body["chat_template_kwargs"] == {"enable_thinking": False}
        assert body["stop"] == ["</answer>"]


def test_no_max_tokens_means_the_rest_of_the_budget() -> None:
    with fake_openai(sequence((200, "ok", 0))) as (url, received):
        complete(engine(url))
        assert "max_tokens" not in received[0] and "seed" not in received[0]


MALFORMED = json.loads((Path(__file__).parent / "malformed_replies.json").read_text())["cases"]


def _raw(case: dict[str, str]) -> Raw:
    body = "[" * 200_000 if case["body"] == "DEEP" else case["body"]
    return Raw(200, body, content_type=case["content_type"])


@pytest.mark.parametrize("case", MALFORMED, ids=lambda c: c["name"])
def test_malformed_200_is_retried_then_recovers(case: dict[str, str]) -> None:
    with fake_openai(sequence(_raw(case), (200, "v = 3", 0))) as (url, received):
        e = engine(url)
        assert complete(e) == ["v = 3"]
        assert len(received) == 2 and e.retries == 1


@pytest.mark.parametrize("case", MALFORMED, ids=lambda c: c["name"])
def test_malformed_200_becomes_engine_error(case: dict[str, str]) -> None:
    with fake_openai(sequence(_raw(case))) as (url, received):
        with pytest.raises(EngineError, match=r"MalformedReplyError after 3 attempt"):
            complete(engine(url, max_retries=2))
        assert len(received) == 3


def _timed(e: OpenAICompatEngine) -> float:
    start = time.monotonic()
    assert complete(e) == ["ok"]
    return time.monotonic() - start


def test_retry_after_seconds_is_honoured() -> None:
    busy = Raw(429, '{"error": {"message": "slow down"}}', headers=(("Retry-After", "1"),))
    with fake_openai(sequence(busy, (200, "ok", 0))) as (url, received):
        assert _timed(engine(url)) >= 0.95
        assert len(received) == 2


def test_retry_after_http_date_is_honoured() -> None:
    when = email.utils.formatdate(time.time() + 2, usegmt=True)
    busy = Raw(503, '{"error": {"message": "maintenance"}}', headers=(("Retry-After", when),))
    with fake_openai(sequence(busy, (200, "ok", 0))) as (url, _):
        assert _timed(engine(url)) >= 0.9  # the date has one-second resolution


def test_retry_after_is_bounded_by_the_request_timeout() -> None:
    busy = Raw(
        429, '{"error": {"message": "come back in an hour"}}', headers=(("Retry-After", "3600"),)
    )
    with fake_openai(sequence(busy, (200, "ok", 0))) as (url, _):
        assert _timed(engine(url, timeout_s=0.5)) < 5


@pytest.mark.parametrize(
    ("header", "expected"),
    [("20", 20.0), ("0", 0.0), ("-3", 0.0), ("soon", None), ("", None), ("1.5", 1.5)],
)
def test_retry_after_parsing(header: str, expected: float | None) -> None:
    assert retry_after_s({"retry-after": header}) == expected


def test_retry_after_past_date_means_now() -> None:
    assert retry_after_s({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0


def test_echoed_key_never_reaches_the_error() -> None:
    key = "sk-planted-Zq8Xw7Vu6Ts5Rq4Po3Nm"
    echo = Raw(401, json.dumps({"error": {"message": f"Incorrect API key provided: {key}"}}))
    with fake_openai(sequence(echo)) as (url, _):
        e = OpenAICompatEngine(url, "m", api_key=key, max_retries=0)
        with pytest.raises(EngineError) as info:
            complete(e)
    assert key not in str(info.value) and "401" in str(info.value)
    assert info.value.__cause__ is None  # no chained exception carrying the raw body
