"""Deterministic parts of retrieval and verification: the quote check, RRF, BM25 on
normalised text, the offline MiniLM embeddings, the sub-discipline preference, and the
canonicalisation of knowledge-point names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from studybench.corpus.fragments import Fragment
from studybench.guidance.canonical import canonicalise, normalise_name, review_markdown
from studybench.guidance.records import CanonicalPoint, KnowledgePointDraft, SlotDecomposition
from studybench.guidance.retrieve import RetrievalConfig, Retriever, load_fragments, rrf
from studybench.guidance.textnorm import compact, quote_in_text, words

PASSAGE = (
    r"The centrifugal force $m\omega^2 \rho$ derives from the potential "
    r"$-\tfrac{1}{2}m\omega^{2}\rho^{2}$."
)


@pytest.mark.parametrize(
    ("quote", "found"),
    [
        (PASSAGE, True),
        (r"derives from the potential $-\tfrac{1}{2} m \omega^{2} \rho^{2}$", True),  # spacing
        ("derives  from the\npotential $-\\frac{1}{2}m\\,\\omega^{2}\\rho^{2}$", True),  # \, \tfrac
        ('"The centrifugal force $m\\omega^2 \\rho$ derives"', True),  # quotation marks
        ("...derives from the potential...", True),  # ellipses
        ("THE CENTRIFUGAL FORCE", True),  # case
        (r"derives from the potential $-\frac{1}{2}m\omega^{2}r^{2}$", False),  # changed symbol
        ("The centrifugal force is derived from a potential.", False),  # paraphrase
        ("force", False),  # too short to prove anything
        ("", False),
    ],
)
def test_quote_check(quote: str, found: bool) -> None:
    assert quote_in_text(quote, PASSAGE) is found


def test_normal_forms() -> None:
    assert compact(r"$a \, b\left( c \right)$") == "ab(c)"
    assert words(r"Kepler's $\omega^2$ law") == "kepler s omega 2 law"


@pytest.mark.parametrize(
    ("rankings", "boost", "expected"),
    [
        ([["a", "b", "c"], ["a", "b", "c"]], {}, ["a", "b", "c"]),
        ([["a", "b"], ["b", "a"]], {}, ["a", "b"]),  # tie: broken by id
        ([["a", "b"], ["b", "c"]], {}, ["b", "a", "c"]),  # in both channels beats one
        ([["a", "b"], []], {"b": 2.0}, ["b", "a"]),  # preferred book lifts b
        ([["a"], ["x"]], {"zz": 2.0}, ["a", "x"]),  # boosting an absent id does nothing
    ],
)
def test_rrf(rankings: list[list[str]], boost: dict[str, float], expected: list[str]) -> None:
    assert [item for item, _ in rrf(rankings, k=1, boost=boost)] == expected


def test_rrf_scores() -> None:
    fused = dict(rrf([["a", "b"], ["b"]], k=60))
    assert fused["a"] == pytest.approx(1 / 61)
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)


def point(
    name: str, *, keywords: tuple[str, ...] = (), types: tuple[str, ...] = ()
) -> CanonicalPoint:
    return CanonicalPoint(
        kp_id="kp-x",
        type="concept",
        name=name,
        description="",
        keywords=list(keywords),
        aliases=[],
        slots=[],
        problem_types=list(types),
    )


@pytest.fixture(scope="module")
def retriever(fragments_file: Path, embedder: Any) -> Retriever:
    return Retriever(load_fragments(fragments_file), embedder)


def test_fragment_vectors_are_cached(fragments_file: Path, tmp_path: Path) -> None:
    import numpy as np

    class Counting:
        name = "counting"
        calls = 0

        def embed(self, texts: Any) -> Any:
            Counting.calls += 1
            return np.ones((len(texts), 4), dtype="float32") / 2

    fragments = load_fragments(fragments_file)
    first = Retriever(fragments, Counting(), cache_dir=tmp_path)
    second = Retriever(fragments, Counting(), cache_dir=tmp_path)
    assert Counting.calls == 1 and len(list(tmp_path.glob("fragment-embeddings-*.npy"))) == 1
    assert (first._vectors == second._vectors).all()
    Retriever(fragments[:-1], Counting(), cache_dir=tmp_path)  # other texts: embedded anew
    assert Counting.calls == 2


def test_bm25_matches_latex_names(retriever: Retriever) -> None:
    ranking = retriever.bm25_ranking("Stefan Boltzmann law luminosity sigma T^4", 5)
    assert ranking and ranking[0].startswith("SB_ThermoOptics/")
    assert retriever.bm25_ranking("zzzz qqqq", 5) == []  # no known word: no ranking


def test_dense_channel_finds_paraphrases(retriever: Retriever) -> None:
    ranking = retriever.dense_ranking(
        "a spinning reference frame and the outward fictitious force", 3
    )
    texts = {f.fragment_id: f.text for f in retriever.fragments}
    assert any("centrifugal" in texts[fid].lower() for fid in ranking)


def test_candidates_fuse_and_prefer_the_discipline(retriever: Retriever) -> None:
    query = point("Conservation of mechanical energy", keywords=("energy", "potential"))
    plain = retriever.candidates(query, RetrievalConfig(top_n=5, book_preference=1.0))
    assert [c.rank for c in plain] == [1, 2, 3, 4, 5]
    assert all(c.bm25_rank or c.dense_rank for c in plain)
    assert plain == retriever.candidates(query, RetrievalConfig(top_n=5, book_preference=1.0))
    prefer = RetrievalConfig(
        top_n=5, book_preference=3.0, book_disciplines={"SB_ThermoOptics": ["Thermodynamics"]}
    )
    thermo = retriever.candidates(
        point(query.name, keywords=query.keywords, types=("Thermodynamics",)), prefer
    )
    assert thermo[0].book == "SB_ThermoOptics" and thermo[0].preferred_book


def draft(name: str, kind: str = "concept") -> KnowledgePointDraft:
    return KnowledgePointDraft(type=kind, name=name, keywords=[name.split()[0]])  # type: ignore[arg-type]


def test_canonicalisation_merges_and_lists_every_merge(embedder: Any) -> None:
    records = [
        SlotDecomposition(
            key="s1",
            problem_type="Classical Mechanics",
            knowledge_points=[
                draft("Conservation of mechanical energy"),
                draft("Kepler's third law", "law_or_equation"),
            ],
        ),
        SlotDecomposition(
            key="s2",
            problem_type="Astrophysics",
            knowledge_points=[
                draft("conservation of mechanical energy."),
                draft("Mechanical energy conservation"),
                draft("Kepler's 3rd law of planetary motion"),
            ],
        ),
        SlotDecomposition(
            key="s3",
            problem_type="Optics",
            knowledge_points=[draft("Thin lens equation", "law_or_equation")],
        ),
    ]
    result = canonicalise(records, embedder=embedder, fuzzy_threshold=90, embedding_threshold=0.8)
    names = {p.name: p for p in result.points}
    (energy,) = [p for p in result.points if "s1" in p.slots and "energy" in p.name.lower()]
    assert sorted(energy.slots) == ["s1", "s2"]
    assert {energy.name, *energy.aliases} == {
        "Conservation of mechanical energy",
        "conservation of mechanical energy.",
        "Mechanical energy conservation",  # word order: the fuzzy score merges it
    }
    assert "Thin lens equation" in names and len(names["Thin lens equation"].slots) == 1
    kepler = [p for p in result.points if "Kepler" in p.name]
    assert len(kepler) == 1 and set(kepler[0].problem_types) == {
        "Classical Mechanics",
        "Astrophysics",
    }
    assert len(result.points) == 3
    review = review_markdown(result, 90, 0.8)
    assert len(result.merges) == 2  # the "." variant has the same normal form: not a merge
    for merge in result.merges:
        assert f"| {merge.alias} |" in review
    again = canonicalise(records, embedder=embedder, fuzzy_threshold=90, embedding_threshold=0.8)
    assert again == result  # deterministic


def test_without_embeddings_only_close_strings_merge() -> None:
    records = [
        SlotDecomposition(
            key="s",
            problem_type="",
            knowledge_points=[
                draft("Energy conservation"),
                draft("Conservation of energy"),
                draft("Ohm's law"),
            ],
        )
    ]
    result = canonicalise(records, embedder=None, fuzzy_threshold=90)
    assert len(result.points) == 2
    assert normalise_name("The Conservation of Energy!") == "conservation energy"


def test_bad_fragment_line_names_file_and_line(tmp_path: Path) -> None:
    from studybench.errors import DataError

    path = tmp_path / "f.jsonl"
    good = Fragment(
        fragment_id="b/c/000",
        book="b",
        chapter="c",
        fragment_type="exposition",
        heading="h",
        text="t",
        words=1,
    )
    path.write_text(good.model_dump_json() + "\n" + '{"fragment_id": "x"}\n')
    with pytest.raises(DataError, match=r"f.jsonl: line 2"):
        load_fragments(path)
