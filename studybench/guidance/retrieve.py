"""Candidate textbook fragments per knowledge point: BM25 + dense, fused by RRF.

Two channels see different things: BM25 (``bm25s`` over :func:`~studybench.guidance.textnorm.
words`, so ``\\omega`` is the word "omega") finds the exact terms a knowledge point names;
the MiniLM embeddings find the passage that explains the idea in other words. Reciprocal rank
fusion (score = sum over channels of ``1 / (rrf_k + rank)``) combines rankings without having
to calibrate their scores, and a fragment from a book of the problem's sub-discipline has its
fused score multiplied by ``book_preference`` (1 = no preference).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.corpus.fragments import Fragment
from studybench.errors import DataError
from studybench.guidance.embeddings import Embedder
from studybench.guidance.records import Candidate, CanonicalPoint
from studybench.guidance.textnorm import words


def load_fragments(path: Path) -> list[Fragment]:
    """``fragments.jsonl`` of the corpus stage; a bad line names file, line and field."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise DataError(f"{path}: no fragments (run the corpus fragments stage first)") from None
    fragments: list[Fragment] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            fragments.append(Fragment.model_validate(json.loads(line)))
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}: line {number}: invalid JSON: {exc.msg}") from None
        except ValueError as exc:
            raise DataError(f"{path}: line {number}: {str(exc).splitlines()[0]}") from None
    return fragments


def rrf(
    rankings: Sequence[Sequence[str]],
    *,
    k: int = 60,
    boost: Mapping[str, float] | None = None,
) -> list[tuple[str, float]]:
    """Reciprocal rank fusion of ranked id lists (rank 1 first), best first.

    Ties are broken by id, so the order is deterministic."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    for item, factor in (boost or {}).items():
        if item in scores:
            scores[item] *= factor
    return sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))


class RetrievalConfig(BaseModel):
    top_n: int = 3
    pool: int = 20  # candidates per channel before fusion
    rrf_k: int = 60
    book_preference: float = 1.5
    book_disciplines: dict[str, list[str]] = {}


def kp_query(point: CanonicalPoint) -> str:
    return " ".join([point.name, point.description, *point.keywords, *point.aliases])


class Retriever:
    """Both channels over one fragment list (index once, query many)."""

    def __init__(
        self,
        fragments: Sequence[Fragment],
        embedder: Embedder | None,
        *,
        cache_dir: Path | None = None,
    ) -> None:
        import bm25s

        if not fragments:
            raise DataError("no fragments to retrieve from")
        self.fragments = list(fragments)
        self.ids = [f.fragment_id for f in self.fragments]
        texts = [words(f"{f.heading} {f.text}") for f in self.fragments]
        self._bm25: Any = bm25s.BM25()
        self._bm25.index(
            bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False
        )
        self._embedder = embedder
        self._vectors: Any = self._embed_corpus(embedder, cache_dir) if embedder else None

    def _embed_corpus(self, embedder: Embedder, cache_dir: Path | None) -> Any:
        """Fragment vectors, cached on disk by (model, texts): embedding a real corpus takes
        minutes on a CPU, and the corpus rarely changes between runs."""
        import hashlib

        import numpy as np

        texts = [f"{f.heading}\n{f.text}" for f in self.fragments]
        path = None
        if cache_dir is not None:
            digest = hashlib.sha256(
                json.dumps([getattr(embedder, "name", type(embedder).__name__), texts]).encode()
            ).hexdigest()[:20]
            path = cache_dir / f"fragment-embeddings-{digest}.npy"
            if path.exists():
                return np.load(path)
        vectors = embedder.embed(texts)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npy")
            np.save(tmp, vectors)
            tmp.replace(path)
        return vectors

    def bm25_ranking(self, query: str, pool: int) -> list[str]:
        import bm25s

        vocab = self._bm25.vocab_dict
        tokens = [
            t
            for t in bm25s.tokenize(
                [words(query)], stopwords="en", return_ids=False, show_progress=False
            )[0]
            if t in vocab
        ]
        if not tokens:
            return []
        results, scores = self._bm25.retrieve(
            [tokens], k=min(pool, len(self.ids)), show_progress=False
        )
        return [self.ids[int(i)] for i, s in zip(results[0], scores[0], strict=True) if s > 0]

    def dense_ranking(self, query: str, pool: int) -> list[str]:
        if self._embedder is None:
            return []
        import numpy as np

        vector = self._embedder.embed([query])[0]
        similarity = self._vectors @ vector
        order = np.argsort(-similarity, kind="stable")[:pool]
        return [self.ids[int(i)] for i in order]

    def candidates(self, point: CanonicalPoint, config: RetrievalConfig) -> list[Candidate]:
        query = kp_query(point)
        bm25 = self.bm25_ranking(query, config.pool)
        dense = self.dense_ranking(query, config.pool)
        preferred_books = {
            book
            for book, disciplines in config.book_disciplines.items()
            if {d.casefold() for d in disciplines} & {p.casefold() for p in point.problem_types}
        }
        book_of = {f.fragment_id: f.book for f in self.fragments}
        boost = {
            fid: config.book_preference
            for fid in {*bm25, *dense}
            if book_of[fid] in preferred_books
        }
        fused = rrf([bm25, dense], k=config.rrf_k, boost=boost)[: config.top_n]
        return [
            Candidate(
                kp_id=point.kp_id,
                fragment_id=fid,
                book=book_of[fid],
                rank=rank,
                score=round(score, 6),
                bm25_rank=bm25.index(fid) + 1 if fid in bm25 else None,
                dense_rank=dense.index(fid) + 1 if fid in dense else None,
                preferred_book=fid in boost,
            )
            for rank, (fid, score) in enumerate(fused, start=1)
        ]
