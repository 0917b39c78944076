"""Throughput of the deterministic guidance parts on a corpus scaled from the sample books.

Replicates the sample's fragments ``--copies`` times (the real corpus has about 15,000
fragments of 400 words), then measures: indexing (BM25 and MiniLM embeddings), candidate
retrieval per knowledge point (both channels + RRF), the quote check, and the leakage rules
on the sample guidance texts (with and without the symbolic comparison).

    .venv/bin/python perf/guidance_throughput.py [--copies 20] [--queries 80]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from studybench.corpus.fragments import build_fragments
from studybench.data import load_parents
from studybench.guidance.embeddings import default_embedder
from studybench.guidance.leakage import Gold, check
from studybench.guidance.records import CanonicalPoint
from studybench.guidance.retrieve import RetrievalConfig, Retriever
from studybench.guidance.textnorm import quote_in_text, sentences

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "sample"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--queries", type=int, default=80)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        base = build_fragments(SAMPLE / "books", Path(tmp) / "f.jsonl", input_name="full.md")
    fragments = [
        f.model_copy(update={"fragment_id": f"{f.fragment_id}#{copy}"})
        for copy in range(args.copies)
        for f in base
    ]
    start = time.perf_counter()
    embedder = default_embedder()
    load_s = time.perf_counter() - start
    start = time.perf_counter()
    retriever = Retriever(fragments, embedder)
    index_s = time.perf_counter() - start
    print(
        f"corpus: {len(fragments)} fragments; model load {load_s:.1f} s, "
        f"index (BM25 + embeddings) {index_s:.1f} s = {len(fragments) / index_s:.0f} fragments/s"
    )

    guided = load_parents(SAMPLE / "guidance.json")
    points = [
        CanonicalPoint(
            kp_id=f"kp-{i}",
            type=kp.type
            if kp.type in ("concept", "law_or_equation", "technique", "assumption")
            else "concept",
            name=kp.name,
            description=kp.description,
            keywords=list(kp.keywords),
            aliases=[],
            slots=[],
            problem_types=[p.problem_type],
        )
        for i, (p, kp) in enumerate(
            (p, kp) for p in guided for s in p.sub_problems for kp in s.knowledge_points
        )
    ][: args.queries]
    config = RetrievalConfig(top_n=3, pool=20)
    latencies = []
    for point in points:
        start = time.perf_counter()
        retriever.candidates(point, config)
        latencies.append(time.perf_counter() - start)
    print(
        f"retrieval: {len(points)} knowledge points, {len(points) / sum(latencies):.1f}/s, "
        f"p50 {1000 * statistics.median(latencies):.1f} ms"
    )

    texts = [f.text for f in base]
    quotes = [sentences(t)[0] for t in texts]
    start = time.perf_counter()
    found = sum(quote_in_text(q, t) for q, t in zip(quotes, texts, strict=True))
    quote_s = time.perf_counter() - start
    print(f"quote check: {len(texts) / quote_s:,.0f}/s ({found}/{len(texts)} found)")

    subs = [(p, s) for p in guided for s in p.sub_problems]
    for _, sub in subs[:3]:  # warm up: unit registry, LaTeX parser, verifier pool
        check(sub.guidance, Gold.of(sub.answer, sub.answer_type, sub.type_sequence), "")
    for symbolic in (False, True):
        start = time.perf_counter()
        flagged = 0
        for parent, sub in subs:
            gold = Gold.of(sub.answer, sub.answer_type, sub.type_sequence)
            hits = check(sub.guidance, gold, f"{parent.problem}\n{sub.problem}", symbolic=symbolic)
            flagged += bool(hits)
        elapsed = time.perf_counter() - start
        label = "pass 2, parser caches warm: rules + symbolic" if symbolic else "pass 1: rules only"
        print(
            f"leakage check ({label}): {len(subs) / elapsed:.1f} guidance texts/s, "
            f"{flagged}/{len(subs)} sample texts flagged"
        )


if __name__ == "__main__":
    main()
