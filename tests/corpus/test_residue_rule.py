"""The residue rule, the alignment and the redaction's passes, piece by piece (fast).

Each test pins one decision of the rule at its boundary, with the expected value written
here by hand: a threshold one token either side, a move one token too far, a number one
too many. The end-to-end tests (test_redact, test_noisy_redaction, test_redact_oracle)
show the rule works on planted books; these show that each of its parts is the one that
makes it work, and are the tests the mutation run of the corpus modules uses.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studybench.config import CorpusSettings
from studybench.corpus import ngrams
from studybench.corpus.audit import audit_corpus
from studybench.corpus.ngrams import (
    Copy,
    SeedIndex,
    compact,
    numbers_in,
    problem_number,
    same_numbers,
)
from studybench.corpus.ngrams import (
    test_fields as fields_of,
)
from studybench.corpus.redact import (
    REDACTED,
    RedactionSettings,
    apply_spans,
    redact_corpus,
    redact_text,
)
from studybench.corpus.residue import ResidueRule, ResidueScanner, is_answer_field
from studybench.corpus.tokens import tokenize
from studybench.data import ParentProblem
from studybench.errors import DataError


def words(first: int, last: int, stem: str = "w") -> str:
    """``w<first> ... w<last>``: distinct tokens whose order the alignment can follow."""
    return " ".join(f"{stem}{i}" for i in range(first, last + 1))


def field(text: str, name: str = "problem", source: str = "B") -> ngrams.TestField:
    return ngrams.TestField(f"{source}/P1.2", source, name, text, "1.2")


def copies(text: str, book: str, seed: int = 8, gap: int = 2) -> list[Copy]:
    return SeedIndex([field(text)], seed=seed, min_tokens=13).copies(tokenize(book), gap)


# --- the alignment --------------------------------------------------------------------


def test_moves_are_tried_nearest_first() -> None:
    assert ngrams._steps(1) == [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)]
    moves = ngrams._steps(2)
    assert len(moves) == 15 and moves[:3] == [(1, 1), (1, 2), (2, 1)]
    assert max(m[0] for m in moves) == 5 and max(m[1] for m in moves) == 3


def test_a_clean_copy_is_one_copy_of_every_token() -> None:
    assert copies(words(0, 19), "a b " + words(0, 19) + " c") == [Copy(0, 2, 21, 20)]
    assert copies(words(0, 19), words(0, 7)) == [Copy(0, 0, 7, 8)]  # one seed
    assert copies(words(0, 19), words(0, 6)) == []  # under a seed


def test_fields_shorter_than_the_seed_or_the_minimum_are_not_indexed() -> None:
    fields = [field(words(0, 12)), field(words(0, 11), "title"), field(words(0, 6), "x")]
    index = SeedIndex(fields, seed=8, min_tokens=13)
    assert set(index.words) == {0}
    assert len(index.grams) == 6 and index.grams[tuple(words(0, 7).split())] == [(0, 0)]
    short_seed = SeedIndex([field(words(0, 13))], seed=14, min_tokens=13)
    assert short_seed.words == {0: tuple(words(0, 13).split())}
    assert SeedIndex([field(words(0, 12))], seed=14, min_tokens=13).words == {}


def test_each_edit_kind_costs_one_move() -> None:
    text = words(0, 29)
    drop = text.replace("w15 ", "")
    assert copies(text, drop) == [Copy(0, 0, 28, 29)]
    misread = text.replace("w15 ", "q ")
    assert copies(text, misread) == [Copy(0, 0, 29, 29)]
    split = text.replace("w15 ", "w1- 5 ")
    assert copies(text, split) == [Copy(0, 0, 30, 29)]
    inserted = text.replace("w15 ", "w15 17 ")
    assert copies(text, inserted) == [Copy(0, 0, 30, 30)]


def test_the_widest_move_is_max_gap_field_tokens_and_twice_as_many_text_tokens() -> None:
    text = words(0, 39)
    # three field tokens skipped (w14..w16) with nothing in their place: one move (1, 4)?
    # no: max_gap 2 skips at most 2 field tokens, so the stretches join as separate seeds
    two = text.replace("w14 w15 ", "")
    assert copies(text, two) == [Copy(0, 0, 37, 38)]
    four_text = text.replace("w15 ", "a b c d ")  # 4 text tokens for 1 field token
    assert copies(text, four_text) == [Copy(0, 0, 42, 39)]
    # a stretch shorter than a seed is reached only by a move: 4 text tokens need max_gap 2
    tail = words(0, 19) + " a b c d " + words(21, 25) + " q q q q"
    assert copies(text, tail) == [Copy(0, 0, 27, 24)]  # w21..w24 (w25 is unconfirmed)
    assert copies(text, tail, gap=1) == [Copy(0, 0, 19, 20)]
    five_text = text.replace("w15 ", "a b c d e ")  # 5: one move at max_gap 2
    assert copies(text, five_text) == [Copy(0, 0, 43, 39)]
    six_text = text.replace("w15 ", "a b c d e f ")  # 6 text tokens: two stretches, merged
    assert copies(text, six_text) == [Copy(0, 0, 44, 39)]


def test_a_step_without_a_seed_needs_a_second_match_or_the_field_end() -> None:
    text = words(0, 29)
    # one stray shared word after the copy: not taken; two within a move: the first taken
    assert copies(text, words(0, 9) + " x w12 y y y y y y") == [Copy(0, 0, 9, 10)]
    # (the second, unconfirmed itself, is not taken)
    assert copies(text, words(0, 9) + " x w12 w13 y") == [Copy(0, 0, 11, 11)]
    assert copies(text, words(0, 9) + " x w12 y w14 y") == [Copy(0, 0, 11, 11)]
    # leftwards the same: a stray shared word before the copy is not taken
    assert copies(text, "w2 x x x x x x " + words(10, 29)) == [Copy(0, 7, 26, 20)]
    # near the field's end a lone match is taken (the words after it may all be damaged)
    end = words(0, 26) + " x w28 q"
    assert copies(text, end) == [Copy(0, 0, 28, 28)]
    assert copies(text, words(0, 25) + " x w27 q q") == [Copy(0, 0, 27, 27)]
    assert copies(text, words(0, 24) + " x w26 q q q") == [Copy(0, 0, 24, 25)]
    start = "q w1 x " + words(3, 29)
    assert copies(text, start) == [Copy(0, 1, 29, 28)]
    assert copies(text, "q q w2 x " + words(4, 29)) == [Copy(0, 2, 29, 27)]
    assert copies(text, "q q q w3 x " + words(5, 29)) == [Copy(0, 5, 29, 25)]


def test_the_field_end_allowance_is_max_gap() -> None:
    text = words(0, 29)
    assert copies(text, words(0, 25) + " x w27 q q", gap=1) == [Copy(0, 0, 25, 26)]
    assert copies(text, words(0, 26) + " x w28 q", gap=1) == [Copy(0, 0, 28, 28)]
    assert copies(text, "q w1 x " + words(3, 29), gap=1) == [Copy(0, 1, 29, 28)]
    assert copies(text, "q q w2 x " + words(4, 29), gap=1) == [Copy(0, 4, 29, 26)]


def test_stretches_of_one_field_in_order_join_within_a_seed() -> None:
    text = words(0, 59)
    # 7 field tokens missing (w10..w16): joined; 8 (w10..w17): separate
    assert copies(text, words(0, 9) + " " + words(17, 59)) == [Copy(0, 0, 52, 53)]
    assert copies(text, words(0, 9) + " " + words(18, 59)) == [
        Copy(0, 0, 9, 10),
        Copy(0, 10, 51, 42),
    ]
    # text gap: up to 2 seeds (16 tokens) between them joins, 17 does not
    filler16 = " ".join(["x"] * 15)
    assert copies(text, words(0, 9) + f" {filler16} " + words(12, 59)) == [Copy(0, 0, 72, 58)]
    filler17 = " ".join(["x"] * 16)
    assert copies(text, words(0, 9) + f" {filler17} " + words(12, 59)) == [
        Copy(0, 0, 9, 10),
        Copy(0, 26, 73, 48),
    ]
    # the second stretch must come later in the field
    assert copies(text, words(30, 59) + " x " + words(0, 9)) == [
        Copy(0, 0, 29, 30),
        Copy(0, 31, 40, 10),
    ]


def test_joined_stretches_carry_the_field_position_of_their_last_token() -> None:
    text = words(0, 59)
    x8 = " ".join(["x"] * 8)
    # A (w0..w9), B (w10..w26, then w29 after two dropped words; w31 confirms w29 but is not
    # confirmed itself), C (w37..w50): C is 8 field tokens after B's last (w29), so all join
    book = f"{words(0, 9)} {x8} {words(10, 26)} w29 w31 {x8} {words(37, 50)}"
    assert copies(text, book) == [Copy(0, 0, 58, 42)]
    # consecutive field tokens apart in the text (a long insertion) join; the same field
    # token again does not (a second copy starting where the first stopped)
    assert copies(text, f"{words(0, 14)} {x8} {words(15, 29)}") == [Copy(0, 0, 37, 30)]
    assert copies(text, f"{words(0, 14)} {x8} {words(14, 29)}") == [
        Copy(0, 0, 14, 15),
        Copy(0, 23, 38, 16),
    ]


def test_alignments_sharing_one_text_token_are_one_copy() -> None:
    # the field repeats w9: one alignment ends on the text's w9, another starts there
    text = words(0, 9) + " " + words(0, 9, "u") + " w9 " + words(20, 26)
    book = tokenize(words(0, 9) + " " + words(20, 26))
    assert SeedIndex([field(text)], seed=8, min_tokens=13).copies(book, 2) == [Copy(0, 0, 16, 17)]


def test_overlapping_alignments_of_a_repeated_phrase_are_one_copy() -> None:
    text = words(0, 9) + " " + words(0, 9) + " " + words(10, 19)
    book = tokenize(text)
    (copy,) = SeedIndex([field(text)], seed=8, min_tokens=13).copies(book, 2)
    assert copy == Copy(0, 0, 29, 30)


def test_copies_of_several_fields_are_found_in_one_pass() -> None:
    first, second = field(words(0, 19)), field(words(0, 19, "v"), "solution")
    index = SeedIndex([first, second], seed=8, min_tokens=13)
    found = index.copies(tokenize(words(0, 19, "v") + " x " + words(0, 19)), 2)
    assert sorted(found, key=lambda c: c.field_id) == [Copy(0, 21, 40, 20), Copy(1, 0, 19, 20)]


# --- numbers: copy or variant ---------------------------------------------------------


def test_numbers_are_read_from_tokens() -> None:
    text = r"m = 2. 50 kg, h = 8  .00 m, $\frac{1}{2}$ q26.2 2.5O P4.7 x_3 (0.35). 10^{8}"
    assert numbers_in(text) == {"2.50", "8.00", "1", "2", "0.35", "10", "8"}
    assert numbers_in("no numbers here") == set()


def test_a_region_is_a_copy_when_most_of_its_numbers_are_the_items() -> None:
    item = {"2.50", "8.00", "30"}
    assert same_numbers(item, "no numbers")
    assert same_numbers(item, "2.50 and 8.00")
    assert same_numbers(item, "2.50 8.00 and 9.99")  # one damaged of three
    assert not same_numbers(item, "2.50 and 9.99")  # one changed of two: a variant
    assert not same_numbers(item, "4.10 and 3.20")
    assert same_numbers(set(), "no numbers either")
    assert not same_numbers(set(), "but 7 here")


# --- the residue rule -----------------------------------------------------------------


def test_answer_fields_are_recognised_by_name() -> None:
    assert is_answer_field("answer[0]") and is_answer_field("sub_problems[b].answer[1]")
    assert not is_answer_field("solution") and not is_answer_field("sub_problems[b].problem")


def scanner(*fields: ngrams.TestField, **rule: int) -> ResidueScanner:
    return ResidueScanner(list(fields), ResidueRule(**rule))  # type: ignore[arg-type]


def test_a_copy_of_a_statement_is_residue_from_13_aligned_tokens() -> None:
    rule = scanner(field(words(0, 29)))
    (residue,) = rule.scan("x " + words(0, 12) + " y")
    assert (residue.kind, residue.tokens, residue.matched) == ("13-gram", 13, 13)
    assert (residue.start, residue.end) == (2, 2 + len(words(0, 12)))
    assert rule.scan(words(0, 11)) == []
    noisy = rule.scan(words(0, 7) + " q " + words(9, 14))  # 13 aligned around an edit
    assert [(r.tokens, r.matched) for r in noisy] == [(14, 13)]
    assert rule.scan(words(0, 7) + " q " + words(9, 13)) == []  # 12: w13 is unconfirmed
    assert rule.scan(words(0, 5) + " q " + words(7, 20)) != []
    assert rule.scan(words(0, 6) + " q " + words(8, 14)) == []  # no seed of 8 at all


def test_a_copied_solution_is_residue_from_26_aligned_tokens() -> None:
    rule = scanner(field(words(0, 39), "sub_problems[a].solution"))
    assert [r.matched for r in rule.scan(words(0, 25))] == [26]
    assert rule.scan(words(0, 24)) == []
    assert [r.matched for r in scanner(field(words(0, 39), "solution")).scan(words(0, 25))] == [26]
    lower = scanner(field(words(0, 39), "solution"), solution_min_tokens=10)
    assert [r.matched for r in lower.scan(words(0, 12))] == [13]  # never under the n-gram
    assert lower.needed(field("", "solution"), 13) == 13
    assert lower.needed(field("", "problem"), 8) == 8


def test_shorter_ngram_sizes_flag_shorter_copies_with_their_kind() -> None:
    rule = scanner(field(words(0, 29)), ngram_sizes=(13, 8))  # type: ignore[arg-type]
    assert rule.sizes == [13, 8] and rule.index.seed == 8
    assert [r.kind for r in rule.scan(words(0, 13))] == ["13-gram"]
    assert [r.kind for r in rule.scan(words(0, 9))] == ["8-gram"]
    small = scanner(field(words(0, 29)), ngram_sizes=(6,))  # type: ignore[arg-type]
    assert small.index.seed == 6 and [r.kind for r in small.scan(words(3, 8))] == ["6-gram"]
    wide = scanner(field(words(0, 29)), seed_tokens=10)
    assert wide.index.seed == 10 and wide.scan(words(0, 8) + " q " + words(10, 15)) == []


def test_the_rule_steps_over_at_most_max_gap() -> None:
    text = words(0, 29)
    book = words(0, 9) + " q q " + words(12, 16)  # 14 aligned across two misread words
    assert [r.matched for r in scanner(field(text)).scan(book)] == [14]
    assert scanner(field(text), max_gap=1).scan(book) == []


def test_a_variant_with_other_numbers_is_not_residue() -> None:
    text = "a block of 2.50 kg slides from 8.00 m " + words(0, 20)
    rule = scanner(field(text))
    assert [r.matched for r in rule.scan(text)] == [len(tokenize(text))]
    assert rule.scan(text.replace("2.50", "4.10").replace("8.00", "3.20")) == []
    (copy,) = rule.copies(text)
    assert (copy.first, copy.last, copy.matched, copy.length) == (0, 29, 30, 30)
    assert copy.tokens == 30 and (copy.start, copy.end) == (0, len(text))


def test_gold_answers_of_four_tokens_are_residue_anywhere() -> None:
    long_answer = field(r"v = 12.5 m / s", "answer[0]")
    short_answer = field(r"12.5 m/s", "sub_problems[a].answer[0]")
    rule = scanner(long_answer, short_answer)
    assert [f.name for f, _ in rule.answers] == ["answer[0]"]
    text = r"so $v=12.5\,\mathrm{m/s}$ and again v = 12.5 m / s."
    found = rule.scan(text)
    assert [(r.kind, text[r.start : r.end]) for r in found] == [
        ("answer", r"v=12.5\,\mathrm{m/s"),
        ("answer", "v = 12.5 m / s"),
    ]
    three = scanner(long_answer, min_answer_tokens=6)
    assert three.answers == [] and three.scan(text) == []
    empty = scanner(field(r"\boxed{} $ $ {}", "answer[0]"), min_answer_tokens=1)
    assert empty.scan("anything {} here") == []
    # an empty answer is skipped, not the end of the search; every occurrence is found
    both = scanner(field(r"\boxed{} $ $ {}", "answer[0]"), long_answer, min_answer_tokens=1)
    thrice = "v = 12.5 m / s, v = 12.5 m / s and v = 12.5 m / s"
    assert [(r.field.name, r.start) for r in both.scan(thrice)] == [
        ("answer[0]", 0),
        ("answer[0]", 16),
        ("answer[0]", 35),
    ]


# --- test fields ----------------------------------------------------------------------


ITEM = ParentProblem.model_validate(
    {
        "source": "Book",
        "source_problem_id": "P3.4",
        "title": "Two blocks",
        "problem": "   ",
        "sub_problems": [
            {
                "problem_id": "a",
                "problem": words(0, 14),
                "solution": words(20, 30),
                "answer": r"\boxed{1.5} and \boxed{2 m}",
                "answer_type": "NV",
            }
        ],
    }
)


def test_every_text_of_an_item_is_a_field_and_blank_ones_are_not() -> None:
    fields = fields_of([ITEM], 13)
    assert [(f.name, f.short) for f in fields] == [
        ("title", True),
        ("sub_problems[a].problem", False),
        ("sub_problems[a].solution", True),
        ("sub_problems[a].answer[0]", True),
        ("sub_problems[a].answer[1]", True),
    ]
    assert {(f.item, f.source, f.number) for f in fields} == {("Book/P3.4", "Book", "3.4")}
    assert [f.short for f in fields_of([ITEM], 11)][2] is False


def test_problem_numbers_and_the_compact_form() -> None:
    assert problem_number("P4.7") == "4.7" and problem_number("Ex12") == "12"
    assert problem_number("1.2.3b") == "1.2.3" and problem_number("intro") == "intro"
    packed, offsets = compact(r"$\boxed{12.5\,\mathrm{m/s}}$ X")
    assert packed == "12.5m/sx"
    assert offsets == [8, 9, 10, 11, 22, 23, 24, 29]
    assert compact(r"\left(a\right) \quad b\qquad c\text{d}\;e\!f\:g\ h~i")[0] == "(a)bcdefghi"


# --- the redaction's passes -----------------------------------------------------------


def test_settings_come_from_the_corpus_section_and_feed_the_rule() -> None:
    corpus = CorpusSettings(
        ngram=11,
        coverage=0.5,
        max_gap=1,
        near_window_tokens=300,
        audit_ngrams=(13, 8),
        audit_min_answer_tokens=5,
        audit_solution_min_tokens=30,
    )
    settings = RedactionSettings.from_corpus(corpus)
    assert settings == RedactionSettings(11, 0.5, 1, 300, 3, (13, 8), 5, 30)
    assert settings.residue_rule() == ResidueRule((13, 8), 5, 30, 1)
    assert RedactionSettings().residue_rule() == ResidueRule((13,), 4, 26, 2, 8)


def redact(text: str, *fields: ngrams.TestField, **settings: float) -> tuple[str, list[str]]:
    config = RedactionSettings(**settings)  # type: ignore[arg-type]
    rule = ResidueScanner([f for f in fields if not f.short], config.residue_rule())
    short = [f for f in fields if f.short]
    out, found = redact_text(text, "ch", rule, "B", short, config, floor=False)
    return out, [f"{f.name}:{r.method}:{r.matched}" for f, r in found]


def test_the_coverage_pass_needs_60_percent_of_the_field_aligned() -> None:
    text = words(0, 39)  # 40 tokens: 24 needed
    assert redact(words(0, 23), field(text)) == (REDACTED, ["problem:ngram:24"])
    assert redact(words(0, 22), field(text)) == (words(0, 22), [])
    assert redact(words(0, 22), field(text), coverage=0.5)[1] == ["problem:ngram:23"]
    # never fewer than `ngram` tokens, whatever the coverage
    assert redact(words(0, 12), field(text), coverage=0.1)[1] == ["problem:ngram:13"]
    assert redact(words(0, 11), field(text), coverage=0.1)[1] == []
    assert redact(words(0, 10), field(text), coverage=0.1, ngram=11)[1] == ["problem:ngram:11"]


def test_the_coverage_pass_reads_only_its_own_books_items() -> None:
    other = ngrams.TestField("C/P1.2", "C", "problem", words(0, 19), "1.2")
    assert redact(words(0, 19), other) == (words(0, 19), [])
    # a copy it skips (another book's, or under the coverage) does not end the pass
    own = field(words(0, 19, "v"))
    book = f"{words(0, 19)} x {words(0, 11, 'v')} x {words(0, 19, 'v')}"
    out, found = redact(book, other, own)
    assert out == f"{words(0, 19)} x {words(0, 11, 'v')} x {REDACTED}"
    assert found == ["problem:ngram:20"]


def test_short_fields_go_near_a_redacted_copy_and_on_their_answer_key_line() -> None:
    stem = field(words(0, 19))
    answer = ngrams.TestField("B/P1.2", "B", "answer[0]", r"\boxed{7.25}", "1.2", short=True)
    far = " ".join(["x"] * 400)
    text = f"{words(0, 19)} gives 7.25 here. {far} 7.25 far away\n\n1.2) 7.25 s\n\n1.3 7.25"
    out, found = redact(text, stem, answer)
    assert (
        out
        == f"{REDACTED} gives {REDACTED} here. {far} 7.25 far away\n\n1.2) {REDACTED} s\n\n1.3 7.25"
    )
    assert found == ["problem:ngram:20", "answer[0]:near:0", "answer[0]:answer_key:0"]
    # the window: a quarter of it before the copy, all of it after
    before = "7.25 " + " ".join(["x"] * 99) + " " + words(0, 19)  # 100 tokens before
    assert redact(before, stem, answer)[1][1:] == ["answer[0]:near:0"]
    before_far = "7.25 " + " ".join(["x"] * 100) + " " + words(0, 19)
    assert redact(before_far, stem, answer)[1][1:] == []
    after = words(0, 19) + " " + " ".join(["x"] * 399) + " 7.25"  # 400 tokens after
    assert redact(after, stem, answer)[1][1:] == ["answer[0]:near:0"]
    after_far = words(0, 19) + " " + " ".join(["x"] * 400) + " 7.25"
    assert redact(after_far, stem, answer)[1][1:] == []
    wide = redact(after_far, stem, answer, near_window_tokens=401)
    assert wide[1][1:] == ["answer[0]:near:0"]
    # every occurrence in the window goes, the first one too
    thrice = redact(f"{words(0, 19)} gives 7.25, then 7.25 and 7.25", stem, answer)
    assert thrice[0] == f"{REDACTED} gives {REDACTED}, then {REDACTED} and {REDACTED}"
    assert thrice[1] == ["problem:ngram:20", *["answer[0]:near:0"] * 3]
    # answers shorter than min_short_chars are left alone
    tiny = ngrams.TestField("B/P1.2", "B", "answer[0]", r"\boxed{7}", "1.2", short=True)
    assert redact(words(0, 19) + " 7", stem, tiny)[1] == ["problem:ngram:20"]
    both = redact(words(0, 19) + " 7 and 7.25", stem, tiny, answer)  # and the next one goes
    assert both == (f"{REDACTED} 7 and {REDACTED}", ["problem:ngram:20", "answer[0]:near:0"])


@pytest.mark.parametrize(
    ("line", "redacted"),
    [
        ("1.2 7.25", True),
        ("**1.2** 7.25", True),
        ("> Problem 1.2: 7.25", True),
        ("P1.2. 7.25", True),
        ("- 1.2) 7.25", True),
        ("1.21 7.25", False),
        ("1.2.3 7.25", False),
        ("see 1.2 7.25", False),
    ],
)
def test_answer_key_lines_start_with_the_problem_number(line: str, redacted: bool) -> None:
    answer = ngrams.TestField("B/P1.2", "B", "answer[0]", "7.25", "1.2", short=True)
    out, _ = redact(f"intro\n\n{line}\n\nnext 7.25\n\nlast 7.25", answer)
    assert (REDACTED in out) is redacted
    assert out.endswith("\n\nnext 7.25\n\nlast 7.25")  # the key line's paragraph only
    last, _ = redact(f"intro\n\n{line}", answer)  # the last paragraph of the file
    assert last.endswith(REDACTED) is redacted


def test_the_floor_removes_other_books_copies_and_rescans() -> None:
    other = ngrams.TestField("C/P1.2", "C", "problem", words(0, 19), "1.2")
    config = RedactionSettings()
    rule = ResidueScanner([other], config.residue_rule())
    out, found = redact_text("a " + words(0, 14) + " b", "ch", rule, "B", [], config)
    assert out == f"a {REDACTED} b"
    assert [(r.method, r.kind, r.tokens, r.matched, r.chars) for _, r in found] == [
        ("audit_rule", "13-gram", 15, 15, len(words(0, 14)))
    ]
    none = RedactionSettings(max_floor_passes=0)
    assert redact_text(words(0, 14), "ch", rule, "B", [], none)[0] == REDACTED


def test_each_removal_is_reported_once_and_where_it_starts() -> None:
    stem = field("12.5 m / s is " + words(0, 15) + " so v = 12.5 m / s")
    twin = ngrams.TestField("B/P1.2", "B", "sub_problems[b].problem", stem.text, "1.2")
    answer = ngrams.TestField("B/P1.2", "B", "answer[0]", "v = 12.5 m / s", "1.2")
    key = ngrams.TestField("B/P1.2", "B", "answer[1]", r"\boxed{7.25}", "1.2", short=True)
    config = RedactionSettings()
    rule = ResidueScanner([stem, twin, answer], config.residue_rule())
    text = f"so v = {stem.text[:40]}\n{stem.text[40:]} 7.25 here\n\nlater: v = 12.5 m / s"
    out, found = redact_text(text, "ch", rule, "B", [key], config)
    assert out == f"so {REDACTED} {REDACTED} here\n\nlater: {REDACTED}"
    assert [(r.tokens, r.matched) for _, r in found[:2]] == [(25, 25), (25, 25)]
    report = [(f.name, r.method, r.kind, r.line_start, r.line_end) for f, r in found]
    assert report == [
        ("problem", "ngram", "", 1, 2),  # two fields with one text: both removed, both said
        ("sub_problems[b].problem", "ngram", "", 1, 2),
        ("answer[1]", "near", "", 2, 2),
        # the answer straddling the copy's start is residue of its own; inside it (the
        # copy's last words) it is not reported again; after it, it is
        ("answer[0]", "audit_rule", "answer", 1, 1),
        ("answer[0]", "audit_rule", "answer", 4, 4),
    ]
    # an answer that starts the copy is inside it too
    opening = field("v = 12.5 m / s is " + words(0, 15))
    rule = ResidueScanner([opening, answer], config.residue_rule())
    out, found = redact_text(opening.text, "ch", rule, "B", [], config)
    assert out == REDACTED and [(f.name, r.method) for f, r in found] == [("problem", "ngram")]


def test_the_floor_scans_again_what_its_first_pass_left() -> None:
    # a copy that states two foreign numbers more than the item's reads as a variant, until
    # the gold answer inside it (with two of them) is removed: then it is a copy
    problem = field("the block of 1.5 kg " + words(0, 9) + " rises 2.5 m " + words(10, 19))
    answer = ngrams.TestField("B/P1.2", "B", "answer[0]", "a = 9.9 and 8.8", "1.2")
    config = RedactionSettings()
    rule = ResidueScanner([problem, answer], config.residue_rule())
    book = problem.text.replace("w4 ", "w4 a = 9.9 and 8.8 ").replace("w15", "7.7")
    out, found = redact_text(book, "ch", rule, "B", [], config)
    assert out == REDACTED
    assert [(f.name, r.method, r.kind, r.file) for f, r in found] == [
        ("answer[0]", "audit_rule", "answer", "ch"),
        ("problem", "audit_rule", "13-gram", "ch"),
    ]
    once = redact_text(book, "ch", rule, "B", [], RedactionSettings(max_floor_passes=0))
    assert once[0] == book.replace("a = 9.9 and 8.8", REDACTED)


def test_spans_merge_when_they_overlap_or_touch() -> None:
    assert apply_spans("abcdef", [(0, 2), (2, 4)]) == f"{REDACTED}ef"
    assert apply_spans("abcdef", [(3, 4), (0, 2)]) == f"{REDACTED}c{REDACTED}ef"
    assert apply_spans("abcdef", []) == "abcdef"
    assert apply_spans("abcdef", [(1, 5), (2, 3)]) == f"a{REDACTED}f"


def test_the_report_lists_each_field_and_what_was_not_found(tmp_path: Path) -> None:
    chapter = tmp_path / "Book" / "ch3"
    chapter.mkdir(parents=True)
    (chapter / "ocrfix.md").write_text(f"{words(0, 14)}\n\n{words(0, 14)}\n\n3.4 (a) 1.5 and 2 m\n")
    report = redact_corpus([ITEM], tmp_path, settings=RedactionSettings(ngram=13))
    (item,) = report.items
    assert (item.item, item.source) == ("Book/P3.4", "Book")
    # "2 m" is under min_short_chars (3) in compact form: never redacted alone
    assert item.fields_not_found == [
        "title",
        "sub_problems[a].solution",
        "sub_problems[a].answer[1]",
    ]
    assert [(r.field, r.method, r.line_start, r.line_end) for r in item.redactions] == [
        ("sub_problems[a].problem", "ngram", 1, 1),
        ("sub_problems[a].problem", "ngram", 3, 3),
        ("sub_problems[a].answer[0]", "near", 5, 5),  # near both copies, removed once
    ]
    assert report.files == 1 and report.redacted_spans == 3
    assert report.by_method == {"near": 1, "ngram": 2}
    assert report.settings == {
        "ngram": 13,
        "coverage": 0.6,
        "max_gap": 2,
        "near_window_tokens": 400,
        "audit_ngrams": [13],
        "audit_min_answer_tokens": 4,
        "audit_solution_min_tokens": 26,
    }
    assert (chapter / "ocrfix.redacted.md").read_text() == (
        f"{REDACTED}\n\n{REDACTED}\n\n3.4 (a) {REDACTED} and 2 m\n"
    )


def test_the_report_has_one_entry_per_item(tmp_path: Path) -> None:
    other = ITEM.model_copy(update={"source_problem_id": "P3.5", "title": "Three blocks"})
    chapter = tmp_path / "Book" / "ch3"
    chapter.mkdir(parents=True)
    (chapter / "ocrfix.md").write_text("nothing to find\n")
    report = redact_corpus([ITEM, other], tmp_path)
    assert [(i.item, i.redactions, len(i.fields_not_found)) for i in report.items] == [
        ("Book/P3.4", [], 5),
        ("Book/P3.5", [], 5),
    ]


# --- the audit ------------------------------------------------------------------------


def test_the_audit_lists_each_residue_once_per_line_with_an_excerpt(tmp_path: Path) -> None:
    item = ParentProblem.model_validate(
        {
            "source": "Book",
            "source_problem_id": "P3.4",
            "problem": words(0, 99),
            "solution": words(0, 39, "s"),
            "answer": r"\boxed{v = 12.5 m / s}",
            "answer_type": "NV",
        }
    )
    chapter = tmp_path / "Book" / "ch3"
    chapter.mkdir(parents=True)
    text = f"intro\n{words(0, 99)}\nv = 12.5 m / s twice: v = 12.5 m / s\nv = 12.5 m / s\n"
    (chapter / "ocrfix.redacted.md").write_text(text)
    report = audit_corpus([item], tmp_path)
    assert (report.files, report.ngram_sizes, report.fields) == (1, [13], 3)
    assert not report.clean
    assert [(h.file, h.line, h.item, h.field, h.kind) for h in report.hits] == [
        ("Book/ch3/ocrfix.redacted.md", 2, "Book/P3.4", "problem", "13-gram"),
        ("Book/ch3/ocrfix.redacted.md", 3, "Book/P3.4", "answer[0]", "answer"),  # once
        ("Book/ch3/ocrfix.redacted.md", 4, "Book/P3.4", "answer[0]", "answer"),
    ]
    assert report.hits[0].excerpt == words(0, 99)[:160]
    assert report.hits[1].excerpt == "v = 12.5 m / s"
    strict = audit_corpus([item], tmp_path, min_answer_tokens=6, ngram_sizes=(13, 8))
    assert [h.kind for h in strict.hits] == ["13-gram"] and strict.ngram_sizes == [13, 8]
    # a copied solution needs 26 aligned tokens by default, or the floor given
    (chapter / "ocrfix.redacted.md").write_text(words(0, 25, "s") + "\n")
    assert [h.field for h in audit_corpus([item], tmp_path).hits] == ["solution"]
    assert audit_corpus([item], tmp_path, solution_min_tokens=27).hits == []
    (chapter / "ocrfix.redacted.md").write_text(words(0, 24, "s") + "\n")
    assert audit_corpus([item], tmp_path).hits == []
    # a long gold answer is both a copy and an answer on its line: two hits
    long_answer = item.model_copy(update={"answer": rf"\boxed{{{words(0, 13, 'g')}}}"})
    (chapter / "ocrfix.redacted.md").write_text(words(0, 13, "g") + "\n")
    hits = audit_corpus([long_answer], tmp_path).hits
    assert [(h.field, h.kind) for h in hits] == [("answer[0]", "13-gram"), ("answer[0]", "answer")]
    (chapter / "ocrfix.redacted.md").write_text("clean text\n")
    assert audit_corpus([item], tmp_path).clean
    with pytest.raises(
        DataError,
        match=(
            r"no corpus file named 'other\.md' below this folder; an audit that read nothing "
            r"proves nothing \(check the folder and --name\)$"
        ),
    ):
        audit_corpus([item], tmp_path, name="other.md")
