"""The Anthropic Messages engine through the real ``anthropic`` SDK, against a scripted
Messages endpoint on loopback (the API itself needs an account)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from studybench.engines.anthropic_messages import (
    AnthropicEngine,
    rejected_sampling,
    to_messages_api,
)
from studybench.engines.base import EngineError, Message, SamplingParams
from tests.engines.fake_anthropic import Reply, fake_anthropic

CONVERSATION = [
    Message(role="system", content="You are a physicist."),
    Message(role="user", content="Problem 1"),
    Message(role="assistant", content="Answer 1"),
    Message(role="user", content="Problem 2"),
]
PROTOCOL = SamplingParams(temperature=1.0, top_p=0.95, top_k=20, max_tokens=256, seed=7)


def run(engine: AnthropicEngine, sampling: SamplingParams = PROTOCOL) -> list:  # type: ignore[type-arg]
    async def go() -> list:  # type: ignore[type-arg]
        try:
            return await engine.complete(CONVERSATION, sampling)
        finally:
            await engine.aclose()

    return asyncio.run(go())


def test_system_prompt_moves_to_the_top_level_field_and_sampling_maps() -> None:
    with fake_anthropic(lambda body: Reply(text="\\boxed{2}", stop_reason="end_turn")) as (
        url,
        received,
    ):
        engine = AnthropicEngine("claude-x", base_url=url, api_key="k")
        out = run(engine)
    assert [c.text for c in out] == ["\\boxed{2}"]
    assert out[0].finish_reason == "stop"
    assert (out[0].prompt_tokens, out[0].completion_tokens) == (11, 5)
    body = received[0].body
    assert body["system"] == "You are a physicist."
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][2]["content"] == "Problem 2"
    assert (body["temperature"], body["top_p"], body["top_k"], body["max_tokens"]) == (
        1.0,
        0.95,
        20,
        256,
    )
    assert "seed" not in body and "n" not in body
    assert engine.dropped == {"seed"}


def test_max_tokens_stop_is_a_truncated_turn() -> None:
    with fake_anthropic(lambda body: Reply(text="partial", stop_reason="max_tokens")) as (
        url,
        _,
    ):
        out = run(AnthropicEngine("m", base_url=url, api_key="k"))
    assert out[0].finish_reason == "length"


def test_n_samples_are_n_requests() -> None:
    with fake_anthropic(lambda body: Reply(text="x")) as (url, received):
        out = run(
            AnthropicEngine("m", base_url=url, api_key="k"), PROTOCOL.model_copy(update={"n": 3})
        )
    assert len(out) == 3 and len(received) == 3


@pytest.mark.parametrize(
    ("message", "refused"),
    [
        ("`temperature` and `top_p` cannot both be specified for this model", "top_p"),
        ("top_p is not supported by this model", "top_p"),
        ("temperature: unsupported parameter", "temperature"),
        ("max_tokens: must be at most 8192", None),
        ("prompt is too long", None),
    ],
)
def test_which_sampling_parameter_a_400_refuses(message: str, refused: str | None) -> None:
    assert rejected_sampling(message) == refused


def test_a_model_refusing_temperature_with_top_p_gets_the_one_it_accepts_once() -> None:
    def script(body: dict) -> Reply:  # type: ignore[type-arg]
        if "top_p" in body and "temperature" in body:
            return Reply(400, "temperature and top_p cannot both be specified")
        return Reply(text="ok")

    with fake_anthropic(script) as (url, received):
        engine = AnthropicEngine("m", base_url=url, api_key="k")

        async def go() -> None:
            await engine.complete(CONVERSATION, PROTOCOL)
            await engine.complete(CONVERSATION, PROTOCOL)
            await engine.aclose()

        asyncio.run(go())
    assert len(received) == 3  # one refused request, then every request without top_p
    assert [("top_p" in r.body) for r in received] == [True, False, False]
    assert all(r.body["temperature"] == 1.0 for r in received)


def test_rate_limits_and_overload_are_retried_honouring_retry_after() -> None:
    statuses = iter([429, 529, 200])

    def script(body: dict) -> Reply:  # type: ignore[type-arg]
        status = next(statuses)
        return Reply(status, "slow down" if status != 200 else "done", {"retry-after": "1"})

    with fake_anthropic(script) as (url, received):
        engine = AnthropicEngine("m", base_url=url, api_key="k", backoff_base_s=0.01)
        started = time.monotonic()
        out = run(engine)
        waited = time.monotonic() - started
    assert out[0].text == "done" and len(received) == 3 and engine.retries == 2
    assert waited >= 2.0  # two Retry-After: 1 waits, not the 10 ms backoff


def test_retry_after_is_bounded_by_the_request_timeout() -> None:
    statuses = iter([429, 200])
    with fake_anthropic(lambda body: Reply(next(statuses), "x", {"retry-after": "600"})) as (
        url,
        _,
    ):
        engine = AnthropicEngine("m", base_url=url, api_key="k", timeout_s=1.0)
        started = time.monotonic()
        run(engine)
    assert time.monotonic() - started < 5.0


def test_client_errors_fail_at_once_and_never_carry_the_key() -> None:
    key = "sk-ant-api03-" + "Q" * 40
    with fake_anthropic(lambda body: Reply(401, f"invalid x-api-key: {key}")) as (url, received):
        engine = AnthropicEngine("m", base_url=url, api_key=key, max_retries=5)
        with pytest.raises(EngineError) as error:
            run(engine)
    assert len(received) == 1
    assert key not in str(error.value) and "AuthenticationError" in str(error.value)


def test_retry_budget_exhausted_is_an_engine_error() -> None:
    with fake_anthropic(lambda body: Reply(500, "boom")) as (url, received):
        engine = AnthropicEngine("m", base_url=url, api_key="k", max_retries=2, backoff_base_s=0.01)
        with pytest.raises(EngineError, match="after 3 attempt"):
            run(engine)
    assert len(received) == 3


def test_conversations_the_api_cannot_take_are_refused_clearly() -> None:
    with pytest.raises(EngineError, match="start with a user turn"):
        to_messages_api([Message(role="assistant", content="x")])
    with pytest.raises(EngineError, match="no role 'tool'"):
        to_messages_api([Message(role="user", content="x"), Message(role="tool", content="y")])
    system, turns = to_messages_api(
        [Message(role="user", content="a"), Message(role="user", content="b")]
    )
    assert system == "" and turns == [{"role": "user", "content": "a\n\nb"}]


def test_the_factory_opens_the_anthropic_engine_from_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from studybench.config import Settings
    from studybench.engines.factory import open_engine

    monkeypatch.setenv("TEST_ANTHROPIC_KEY", "sk-ant-factory")
    with fake_anthropic(lambda body: Reply(text="y")) as (url, received):
        settings = Settings.model_validate(
            {
                "engine": {
                    "kind": "anthropic",
                    "base_url": url + "/v1",
                    "api_key_env": "TEST_ANTHROPIC_KEY",
                }
            }
        )
        with open_engine("anthropic", "claude-x", settings, tmp_path) as engine:
            assert isinstance(engine, AnthropicEngine)
            assert run(engine)[0].text == "y"
    assert received[0].path.startswith("/v1/messages")  # the /v1 of the settings is not doubled
    headers = received[0].headers  # the SDK's choice of header: x-api-key or a bearer token
    assert "sk-ant-factory" in (headers.get("x-api-key"), headers.get("authorization", "")[7:])
