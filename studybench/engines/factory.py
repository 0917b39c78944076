"""Opening the engine a run asks for, with the settings of ``params.yaml``: THE one place
that starts an engine and always closes it (:func:`open_engine` as a context manager,
:func:`run_on_engine` for "serve, run this coroutine, close")."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar

from studybench.config import EngineKind as AnyEngineKind
from studybench.config import ModelEngineKind, Settings
from studybench.engines.base import Engine
from studybench.errors import ConfigError

EngineKind = ModelEngineKind  # the one vocabulary (config.EngineKind); these serve a model
T = TypeVar("T")


@contextlib.contextmanager
def open_engine(
    kind: AnyEngineKind,
    model: str,
    settings: Settings,
    run_dir: Path,
    *,
    seed: int = 0,
    base_url: str | None = None,
    api_key_env: str | None = None,
    pid_file: Path | None = None,
) -> Iterator[Engine]:
    """The engine for ``model``; a vLLM server lives exactly as long as the context.

    ``base_url`` / ``api_key_env`` override the settings' endpoint (a nightly model served
    elsewhere); a vLLM server writes its process id to ``pid_file`` as soon as it starts
    (the pipeline's teardown stops it from there if this process dies first)."""
    engine_settings = settings.engine
    if kind == "hf":
        from studybench.engines.local_hf import LocalHFEngine

        yield LocalHFEngine(
            model,
            threads=engine_settings.hf_threads,
            max_new_tokens=settings.protocol.max_new_tokens or 512,
        )
        return
    if kind == "openai":
        from studybench.engines.openai_compat import OpenAICompatEngine

        yield OpenAICompatEngine(
            base_url or engine_settings.base_url,
            model,
            api_key=os.environ.get(api_key_env or engine_settings.api_key_env),
            concurrency=engine_settings.concurrency,
            max_retries=engine_settings.max_retries,
            timeout_s=engine_settings.request_timeout_s,
            structured_output=engine_settings.structured_output,
        )
        return
    if kind == "anthropic":
        from studybench.engines.anthropic_messages import AnthropicEngine

        yield AnthropicEngine(
            model,
            base_url=base_url or engine_settings.base_url or None,
            api_key=os.environ.get(api_key_env or engine_settings.api_key_env),
            concurrency=engine_settings.concurrency,
            max_retries=engine_settings.max_retries,
            timeout_s=engine_settings.request_timeout_s,
        )
        return
    if kind == "agent":
        from studybench.engines.agent import AgentEngine

        yield AgentEngine(
            settings.agent,
            model=model,
            base_url=base_url or engine_settings.base_url or None,
            api_key=os.environ.get(api_key_env or engine_settings.api_key_env),
            run_dir=run_dir,
            max_new_tokens=settings.protocol.max_new_tokens,
        )
        return
    if kind != "vllm":
        raise ConfigError(f"unknown engine {kind!r}: use vllm, openai, hf, anthropic or agent")
    from studybench.engines.openai_compat import OpenAICompatEngine
    from studybench.engines.vllm_server import VLLMServer, VLLMServerConfig

    config = VLLMServerConfig.from_settings(
        engine_settings,
        model,
        max_model_len=settings.protocol.max_tokens,
        served_model_name=Path(model).name or "model",
        seed=seed,
        cache_dir=(engine_settings.vllm_cache_dir or settings.paths.cache_dir / "vllm").resolve(),
    )
    with VLLMServer(config, run_dir, pid_file=pid_file) as server:
        yield OpenAICompatEngine(
            server.base_url,
            config.served_model_name,
            concurrency=engine_settings.concurrency,
            max_retries=engine_settings.max_retries,
            timeout_s=engine_settings.request_timeout_s,
            structured_output=True,  # the managed server is vLLM: it honours the field
        )


def run_on_engine(
    kind: AnyEngineKind,
    model: str,
    settings: Settings,
    run_dir: Path,
    work: Callable[[Engine], Awaitable[T]],
    *,
    base_url: str | None = None,
    api_key_env: str | None = None,
    pid_file: Path | None = None,
) -> T:
    """Serve ``model``, run ``work(engine)`` to completion, close the engine's client and
    stop its server, also when ``work`` fails."""
    with open_engine(
        kind, model, settings, run_dir, base_url=base_url, api_key_env=api_key_env,
        pid_file=pid_file,
    ) as engine:  # fmt: skip

        async def go() -> T:
            try:
                return await work(engine)
            finally:
                await engine.aclose()

        return asyncio.run(go())
