"""Redaction and audit on a synthetic book with planted test items."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from studybench.corpus import ngrams
from studybench.corpus.audit import audit_corpus
from studybench.corpus.ngrams import Copy, SeedIndex
from studybench.corpus.ocr_fix import fix_text
from studybench.corpus.redact import REDACTED, RedactionSettings, apply_spans, redact_corpus
from studybench.corpus.tokens import tokenize
from studybench.data import ParentProblem

PROBLEM = (
    "A small block of mass 2.50 kg slides down a frictionless ramp inclined at 30 degrees to "
    "the horizontal, starting from rest at a height of 8.00 m above the floor. At the bottom "
    "it enters a rough horizontal section where the coefficient of kinetic friction is 0.35. "
    "Find the speed of the block at the bottom of the ramp and the distance it slides on the "
    "rough floor before it comes to rest."
)
SOLUTION = (
    "Energy conservation on the frictionless ramp gives v equal to the square root of 2gh, "
    "which is 12.5 m/s at the bottom. On the rough floor the friction force does negative "
    "work equal to the kinetic energy, so the sliding distance is v squared over 2 mu g, "
    "which evaluates to 22.8 m for the numbers given in the statement."
)
NEAR_DUPLICATE = (
    PROBLEM.replace("2.50 kg", "4.10 kg")
    .replace("8.00 m", "3.20 m")
    .replace("0.35", "0.12")
    .replace("30 degrees", "45 degrees")
    .replace("Find the speed", "Determine the speed")
)
ANSWER = r"\boxed{12.5\,\mathrm{m/s}}, \boxed{22.8\,\mathrm{m}}"

ITEM = ParentProblem.model_validate(
    {
        "source": "SynthBook",
        "source_problem_id": "P4.7",
        "problem": PROBLEM,
        "solution": SOLUTION,
        "answer": ANSWER,
        "answer_type": "TUP",
        "type_sequence": "NV,NV",
    }
)
WORDS = [
    "energy",
    "momentum",
    "force",
    "field",
    "charge",
    "wave",
    "lens",
    "heat",
    "entropy",
    "orbit",
    "torque",
    "spring",
    "pendulum",
    "pressure",
    "volume",
    "circuit",
    "current",
    "voltage",
    "magnet",
    "photon",
    "electron",
    "nucleus",
    "gravity",
    "friction",
]


def filler(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)) + "."


def ocr_noise(text: str) -> str:
    """Split digits, doubled spaces, and one dropped word in every 20."""
    words = text.replace("2.50", "2. 50").replace("8.00", "8 .00").split(" ")
    kept = [w for i, w in enumerate(words) if i % 20 != 19]
    return "  ".join(kept)


@pytest.fixture
def books(tmp_path: Path) -> Path:
    rng = random.Random(7)
    chapter = tmp_path / "books" / "SynthBook" / "ch04"
    chapter.mkdir(parents=True)
    text = "\n\n".join(
        [
            "# Chapter 4 Work and energy",
            filler(rng, 300),
            "### Example 4.2",
            PROBLEM,  # verbatim, in a worked example
            "*Solution.* " + SOLUTION,
            filler(rng, 300),
            "A similar situation: " + NEAR_DUPLICATE,  # must survive
            filler(rng, 200),
            "## Problems",
            "**4.7** " + PROBLEM,  # second verbatim copy
            filler(rng, 150),
            "**4.9** " + ocr_noise(PROBLEM),  # noisy copy
            filler(rng, 300),
        ]
    )
    (chapter / "ocrfix.md").write_text(text)
    manual = tmp_path / "books" / "SynthBook" / "solutions"
    manual.mkdir()
    (manual / "ocrfix.md").write_text(
        "\n\n".join(
            [
                "# Answers to selected problems",
                "**4.5** 3.2 s",
                "**4.7** $12.5\\,\\mathrm{m/s}$ and $22.8\\,\\mathrm{m}$",
                filler(rng, 100),
                "Worked solution of 4.7. " + SOLUTION,  # solution-manual copy
                filler(rng, 100),
            ]
        )
    )
    other = tmp_path / "books" / "OtherBook" / "ch01"
    other.mkdir(parents=True)
    (other / "ocrfix.md").write_text(PROBLEM)  # another source: not this item's book
    return tmp_path / "books"


def test_every_copy_is_redacted_and_the_near_duplicate_survives(books: Path) -> None:
    report = redact_corpus([ITEM], books)
    chapter = (books / "SynthBook/ch04/ocrfix.redacted.md").read_text()
    manual = (books / "SynthBook/solutions/ocrfix.redacted.md").read_text()
    assert PROBLEM not in chapter and SOLUTION not in chapter and SOLUTION not in manual
    assert "coefficient of kinetic friction is 0.35" not in chapter  # noisy copy too
    assert chapter.count(REDACTED) >= 4
    assert NEAR_DUPLICATE in chapter
    assert "12.5" not in manual and "22.8" not in manual  # answer key line
    assert "**4.5** 3.2 s" in manual  # other problems' answers untouched
    # a copy in another book is residue the audit would flag: removed by the audit's rule
    assert (books / "OtherBook/ch01/ocrfix.redacted.md").read_text() == REDACTED
    (item,) = report.items
    methods = {(r.field, r.method) for r in item.redactions}
    assert ("problem", "ngram") in methods and ("solution", "ngram") in methods
    assert ("answer[0]", "answer_key") in methods
    problem_copies = [r for r in item.redactions if r.field == "problem" and r.method == "ngram"]
    assert len(problem_copies) == 3
    (elsewhere,) = [r for r in item.redactions if r.file.startswith("OtherBook")]
    assert (elsewhere.method, elsewhere.kind, elsewhere.field) == (
        "audit_rule",
        "13-gram",
        "problem",
    )
    assert report.by_method["audit_rule"] >= 1
    assert item.fields_not_found == []


def test_audit_fails_before_and_passes_after(books: Path) -> None:
    before = audit_corpus([ITEM], books, name="ocrfix.md")
    assert not before.clean
    hit_files = {h.file for h in before.hits}
    assert "SynthBook/ch04/ocrfix.md" in hit_files and "OtherBook/ch01/ocrfix.md" in hit_files
    assert all(h.line >= 1 for h in before.hits)
    redact_corpus([ITEM], books)
    after = audit_corpus([ITEM], books)
    assert after.hits == []  # also the other book's copy: the audit's rule is the floor


def _field(text: str) -> ngrams.TestField:
    return ngrams.TestField("B/P1", "B", "problem", text, "1")


def test_skipped_tokens_do_not_count_and_edits_do_not_break_a_copy() -> None:
    field = " ".join(f"w{i}" for i in range(30))
    index = SeedIndex([_field(field)], seed=8, min_tokens=13)
    # w3 misread, w15 dropped, w22 split in two: 27 of the 30 tokens aligned, in order;
    # only w4..w14 are 8 clean consecutive tokens (the seed), the rest is grown from it
    noisy = field.replace("w3 ", "wx ").replace("w15 ", "").replace("w22", "w2- 2")
    book = tokenize("lead in " + noisy + " lead out")
    assert index.copies(book, max_gap=2) == [Copy(0, 2, 31, 27)]
    # a drop next to a misread word (two field tokens, one text token) is one move
    adjacent = field.replace("w5 w6 ", "wy ")
    assert index.copies(tokenize(adjacent), max_gap=2) == [Copy(0, 0, 28, 28)]
    # a cluster of edits too wide for one move still joins two seeded stretches in order
    cut = field.replace("w10 w11 w12 ", "x y z u v ")
    assert index.copies(tokenize(cut), max_gap=2) == [Copy(0, 0, 31, 27)]
    # stretches a seed or more apart in the field, or out of order, are separate copies
    apart = " ".join(f"w{i}" for i in range(10)) + " x " + " ".join(f"w{i}" for i in range(19, 30))
    assert index.copies(tokenize(apart), max_gap=2) == [Copy(0, 0, 9, 10), Copy(0, 11, 21, 11)]
    back = " ".join(f"w{i}" for i in range(20, 30)) + " x " + " ".join(f"w{i}" for i in range(10))
    assert index.copies(tokenize(back), max_gap=2) == [Copy(0, 0, 9, 10), Copy(0, 11, 20, 10)]


def test_a_step_past_the_seeds_needs_a_second_match() -> None:
    field = " ".join(f"w{i}" for i in range(20))
    index = SeedIndex([_field(field)], seed=8, min_tokens=13)
    # w0..w9 copied, then prose that shares single words (w11, w15) with the field
    book = tokenize(" ".join(f"w{i}" for i in range(10)) + " and w11 so it is w15 then")
    assert index.copies(book, max_gap=2) == [Copy(0, 0, 9, 10)]
    # w11 is taken (w13 follows it within a move), w13 is not (nothing follows it)
    book = tokenize(" ".join(f"w{i}" for i in range(10)) + " and w11 so w13 then")
    assert index.copies(book, max_gap=2) == [Copy(0, 0, 11, 11)]
    # the field's last token matches alone (nothing can follow it)
    book = tokenize(" ".join(f"w{i}" for i in range(10, 19)) + " x w19")
    assert index.copies(book, max_gap=2) == [Copy(0, 0, 10, 10)]
    # fewer tokens than the seed are never a copy
    assert index.copies(tokenize("w0 w1 w2 w3 w4 w5 w6"), max_gap=2) == []


def test_mirrored_output_tree_and_report(books: Path, tmp_path: Path) -> None:
    out = tmp_path / "mirror"
    report = redact_corpus([ITEM], books, out_root=out, settings=RedactionSettings(coverage=0.6))
    assert (out / "SynthBook/ch04/ocrfix.redacted.md").exists()
    assert not (books / "SynthBook/ch04/ocrfix.redacted.md").exists()
    assert json.loads(report.model_dump_json())["items"][0]["item"] == "SynthBook/P4.7"


def test_apply_spans_merges_overlaps() -> None:
    assert apply_spans("abcdefgh", [(1, 3), (2, 5), (6, 7)]) == f"a{REDACTED}f{REDACTED}h"


def test_ocr_fix_rules() -> None:
    text = (
        "Please output the text of this page in markdown format.\n\n"
        "Speed $c = 3. 0 \\times 10^{8}$ and $$g = 9. 81$$ but 3. 0 outside math stays.\n"
        "PROBLEMS 169\n"
        "42\n"
        "# 12 Heading stays\n"
    )
    fixed = fix_text(text)
    assert "Please output" not in fixed
    assert "$c = 3.0 \\times 10^{8}$" in fixed and "$$g = 9.81$$" in fixed
    assert "3. 0 outside" in fixed
    assert "PROBLEMS 169" not in fixed and "\n42\n" not in fixed
    assert "# 12 Heading stays" in fixed
    assert fix_text(fixed) == fixed  # idempotent


LENS = ParentProblem.model_validate(
    {
        "source": "LensBook",
        "source_problem_id": "P1.10",
        "problem": (
            "An object is placed 30.0 cm in front of a thin converging lens of focal length "
            "20.0 cm. Use the convention of this chapter for real objects and real images."
        ),
        "solution": (
            "The thin-lens equation gives the image distance as the product of the object "
            "distance and the focal length divided by their difference, which is 60.0 cm "
            "behind the lens, so the image is real, inverted and twice the size."
        ),
        "answer": r"\boxed{60.0\,\mathrm{cm}}",
        "answer_type": "NV",
    }
)


def test_legitimate_text_that_shares_phrases_with_a_test_item_stays(tmp_path: Path) -> None:
    """False positives of a fuzzier alignment: textbook text near a test item, not a copy."""
    kept = [
        # the same setup with one of the two numbers and the lens changed: an exercise variant
        "**1.11** An object is placed 30.0 cm in front of a thin diverging lens of focal "
        "length -15.0 cm. Use the convention of Section 1.9.",
        # exposition sharing the solution's first 21 words (under the solution floor of 26)
        "The thin-lens equation gives the image distance as the product of the object "
        "distance and the focal length divided by their difference; this is the form we use.",
        # two short phrases of the stem (7 and 6 words), far apart in the field's order
        "A lens of focal length 20.0 cm forms images; for a thin converging lens of focal "
        "length we write the rule, and for real objects and real images the signs agree.",
        # a 12-word run of the stem inside other prose
        "Suppose an object is placed 30.0 cm in front of a thin lens; what then?",
    ]
    chapter = tmp_path / "LensBook" / "ch01"
    chapter.mkdir(parents=True)
    (chapter / "ocrfix.md").write_text("\n\n".join(["# Lenses", *kept]))
    report = redact_corpus([LENS], tmp_path)
    out = (chapter / "ocrfix.redacted.md").read_text()
    for paragraph in kept:
        assert paragraph in out
    assert REDACTED not in out
    assert report.redacted_spans == 0
    assert audit_corpus([LENS], tmp_path).hits == []
