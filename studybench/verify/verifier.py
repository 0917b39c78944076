"""The verifier's public API: ``verify``, ``verify_many`` and ``reward``.

Stage one of the two-stage judge and the only reward signal RL training may use. Every
verdict records how it was reached (``reason``), what was compared (``extracted``,
``normalized_gold``) and by which rules (``verifier_version``), so stored verdicts can be
audited and re-scored when the rules change.

Bump :data:`VERIFIER_VERSION` whenever a rule changes: stored verdicts of an older version
are then re-computed instead of reused.
"""

from __future__ import annotations

import atexit
import math
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from studybench.data.answer_types import AnswerType, split_type_sequence
from studybench.verify.angle_reference import (
    question_references,
    reference_after,
    with_agreed_reference,
)
from studybench.verify.closing_remarks import (
    after_unit,
    against_convention,
    directed_sign,
    is_negative,
    sign_of_direction,
    with_closing_remark,
    with_sign_turned,
)
from studybench.verify.conditions import without_condition
from studybench.verify.extract import (
    AFTER_CHARS,
    Extraction,
    boxed_answers,
    gold_answers,
    select_answers,
)
from studybench.verify.normalize import (
    collapse_whitespace,
    constant_word,
    expand_siunitx,
    split_top_level,
)
from studybench.verify.number_words import numbers_in_digits
from studybench.verify.pool import ProcessPool, Task, default_workers
from studybench.verify.question import asked_words, remarks_in_asked_order, requested_units
from studybench.verify.relations import (
    DIRECTION_NAMES,
    mark_unit_annotations,
    phrase_as_label,
    remark_claims,
    split_unit_connectives,
    strip_remark,
    unit_out_of_fraction,
    unmark,
)
from studybench.verify.revisions import undecided, undecided_before
from studybench.verify.tuple_labels import in_labelled_order, without_unasked_parts
from studybench.verify.unit_qualifiers import without_asked_qualifier
from studybench.verify.viewpoints import viewpoint_after
from studybench.verify.visibility import (
    MAGNITUDE,
    MAX_OFFERS,
    bounded_before,
    label_before,
    unwrapped,
)
from studybench.verify.word_labels import names_set_equal, without_respectively, words_as_labels

# 1.2.0: angle-bracket tuples split inside their brackets, an ambiguous unit symbol read in
# either side's dimension, "quanta" a count, a failed list names a failed pair's reason,
# lists of 8+ values matched one-to-one (was first-fit), the infinity sign U+221E in intervals
# 1.3.0: symbols that cancel exactly equal a closed EX gold, every option named after a leading
# "(A)" counts (no dropped extra choice), plain-text "inf" is infinity in intervals
# 1.4.0: a chain A = B = C is right only when every side that states a value is (it was: any
# side); the gold's left side is a label, never a value form; only the label, or the label with
# a wrong value, restates the question (``restated_question``); function applications F(t),
# I(0) are opaque quantities; TUP rows of cases/array split at their rows (commas end rows)
# 1.4.1: every side of an EX/EQ chain is checked, none skipped as a "derivation step" (a side
# in a symbol the gold lacks, F = ma = 2ma + Y, is wrong; only a written number beside a
# symbolic gold is the data plugged in); a function application in last place is no label
# (M = Q(M)); a ratio of one quantity at two arguments (v(t)/v(0)) in first place is a label
# 1.5.0: a TUP given as a table (array, tabular, ``a & b \\ c & d``) is its cells in row
# order; PDE subscripts (u_t, u_{xx}) are the partial derivative where the other side writes
# that derivative; an infinite sum of numbers is replaced by sympy's closed form (checked
# against the numeric series) and then compared exactly; rules split per answer type
# 1.6.0 (soundness): only a remark that cannot change the value is dropped; a unit after an
# EX/EQ side is compared (converted), never stripped; a zero gold takes zero only; an
# unreadable chain side fails the chain; negated relations are rejected; Leibniz derivatives,
# \Delta x and function applications are single quantities; equations are equal when their
# solution sets for the asked quantity are (no implied equation); exact agreement is
# confirmed exactly; floor/min/max/|x| need a proof; IN compares the bounded quantity; QL keeps
# signs and relations; MC counts options after a colon; a label naming another element,
# alternative or the reciprocal quantity is wrong. Recall: derivative notations, tables and
# lists, ALT lists in one box, flipped and ISO intervals, EQ multiplied through. Then, before
# release: remarks only of describing words ((kilo), (diameter), unknown unit words stay; a
# counted thing after a bare number is a count); a stated side anywhere in an NV chain is
# compared (exponents are no stated numbers); primes after numbers and powers of ten are
# refused; Hz never beside radians (prefixed or not), turns per time beside Hz count turns;
# question scales only where asked; ratio labels and their reciprocals; definitions
# substituted; inverse trig on the principal branch; emf glyphs; approximate bounds; times signs
# 1.7.0: a number and its unit written as one fraction (\frac{21.8m}{s}, a quotient of
# quantities) or after a power of ten is a stated side; a derivative, change or mean of the
# gold's label (\dot v, \Delta v, \bar v for v) is wrong_label; an ALT value is an
# alternative only with that alternative's remark, and a number in a chain that matched a
# symbolic alternative must be a numeric one; a unit the question names in a data sentence
# ("given in m", "mass m [kg]") is not asked for; two numbers side by side (2.0(3.5), 12\,50)
# as the only value are refused; products of hatted operators keep their order. Recall:
# siunitx (\SI, \qty, \si, \num, \ang), \textdegree, 45^{o}, Unicode superscripts,
# "k \Omega", "y" for years; an MC option's text where the question lists the options (its
# decimal points and commas kept); numbered roots x_1, x_2 of one ALT label (x_0 is another
# quantity, and two roots may not be the same alternative); compound quantities (1 h 32
# min). Standard constants written as their values were tried and withdrawn: plugging a tiny
# constant's value into the gold let the comparison's absolute floor pass any structure, and
# a symbol named like a constant (h a height, c a heat capacity) was taken for it
# 1.8.0: decimals are compared part by part. The sampled comparison had an absolute floor
# (1e-40) and, with decimals, a 1% tolerance relative to the whole expression at points of
# order one: F = 1.8e10 q1q2/r^2 was a multiple of F = 8.99e9 q1q2/r^2, T = 293 + 1.5t
# equalled T = 293 + 1.0t, and any two values below 1e-40 were equal. The floor is gone; with
# decimals, term groups that do not match within their own size must cancel at their own
# scale and every partial derivative agree relative to its terms (symbolic.parts_agree); the
# gold with its decimals rounded within 1% is accepted as such (rounded: e^{-E/0.026})
# 1.9.0: a power series with a parameter takes its closed form where it converges (sympy's
# case split |x| < 1; the series checked by mpmath at two points inside that region; an
# exponential summand e^{-n a} summed as powers of e^{-a}); a definite integral takes sympy's
# result where quadrature agrees at two points (before, no integral was evaluated); a
# function of the integration variable (\lambda(x) under dx) is a function, no constant
# (\int_0^L \lambda(x)\,dt equalled the integral over x); an accented Greek letter is one
# symbol in the slow parser (\dot\omega was o m e g a_dot, with a g); a derivative of the
# one position the gold writes reads as its plain a, v, omega or alpha (\ddot x + \omega^2 x
# = 0 for a = -\omega^2 x); a separator opening a text group splits a tuple (-6.00\text{ and
# inverted})
# 1.9.1: spacing, a full stop or a lone backslash after an equation side's unit no longer hides
# the unit (x = 0.382\,\mathrm{m}\, was wrong against x = 0.382\,\mathrm{m}); a box's last "\\ "
# whose space was stripped leaves no backslash behind (14.5\ \text{m/s}\ was unparseable)
# 1.10.0 (soundness): only boxes a reader sees and the output stands behind count: comments
# (%, \iffalse, <!-- -->), invisible, struck-out, verbatim or macro-defined boxes, and text in
# a colour not readable on white, are removed before boxes are found; a box the prose denies
# ("it is not", "is wrong", \neq) is dropped; a value offered in prose beside the final box
# ("or maybe 29 m/s") is a hedge; boxes a hedge word joins ("or", "maybe", "/")
# must each be right, and a multi-value answer may offer no extra hedged guess; "times"
# beside a unit is the operator (\text{ (times N)} was the unit count*newton); MC text that
# hedges or names another option, a negated, retracted or contradicted TF word and a QL
# qualifier from the question's setting are wrong (TF now gets the question, as MC and QL);
# a definition of the answer's own label, a symbol defined twice or unused, a derivative name
# of the wrong order or quantity (y'' for v), duplicate or swapped tuple labels and repeated
# numbered roots are wrong; a decimal coefficient's stray term is found at any depth (every
# factor without symbols is a coefficient); a chain side "= 0" beside a symbolic gold is
# checked. Recall: \pm in an ALT is two values; inequalities joined by "or" are a union;
# primed or current-named integration variables are bound dummies; I, \gamma, \Gamma are
# symbols in the slow parser; hyphenated unit words (newton-meters) are products
# 1.11.0 (the prose around a box read as models write it, checked by two model-style corpora
# and a red team): a judgement right before a box denies it unless its clause corrects
# ("Correcting this error: \boxed{...}" is the answer); "<" inside math or a box opens no
# HTML tag unless it opens a real element ($v<c$ ... $v>c$ hid the boxes between); "%" after
# math ending in a digit, or after the/few/per/in/by before a word, is a percent sign; "?"
# hedges only right after a box, a slash only alone (m/s does not); a cross line naming an
# option or a value is an elimination list; every value offered around the last box is
# judged (right, or the box's number rounded, it stands); one symbolic box hedged onto a
# numeric one is its formula; a one-digit coefficient before symbols (\sqrt{2 g h}) states no
# quantity; a bare or labelled number takes the unit written after its box (the prompt asks
# for units outside: \boxed{2.66} kV passed for 2.66 V). Soundness: boxes joined only by "="
# or \approx each claim the value; an empty script is no script (T_{} redefines T); a cross
# or judgement in a box's table row, on the next line or in a paragraph of its own denies it;
# two boxes in one table hedge one asked value; closed <dialog>, transparent colours
# 1.12.0 (a fourth red-team round and a later-prose corpus): values offered in the sentences
# after the box are judged ("It might also be 0.31", "Another possible answer is 30 cm",
# "Some textbooks would give … instead", "31.6 N/m is also plausible"; a counterfactual or
# another setup is a what-if), and so are values offered relative to it ("or twice that"),
# restatements, ranges and listed values right after it ("≈ 29 m/s", "–29 m/s", "and 29
# m/s"), the rest of the box's math after a hedge word, hedge words behind markup, HTML
# entities, invisible or look-alike characters, or in other languages; two boxes as a range
# or as answers to two readings hedge; code spans, CSS classes, a collapsed <details>
# summary and dark named/cmyk/hsb colours hide no hedge, a link reference only its own line,
# and macros without arguments show their bodies; a qualified truth value ("False (mostly)")
# is wrong. Recall: a power of ten, a bracketed, emphasised, \si, \mu or degree unit after a
# bare box is read; a unit after the box ends at a full stop or the line's end (the next
# sentence's "A" was amperes); a fraction is no rounding (1/4 passed for 1/2)
# 1.13.0 (a sixth red-team round and a third model-style corpus): hidden boxes in commands
# and elements that typeset nothing, registers, overlays, transparency, off-screen CSS and
# after \stop/\bye; hedge words as TeX character codes, letterlike forms, mirrored, and in
# more languages; runner-up labels; a bound is no value (in the box, before it in math, in
# words around it) unless the gold or the question asks for that extreme; an exact gold holds
# a prediction's numbers to the digits they write; two boxes labelled as cases hedge one
# asked value; fenced code keeps its boxes; a final answer stated again after the box is
# judged; offers beside several asked values are judged in the place their unit names; an
# option struck out or negated, a truth value qualified after the box, a phrase put as a
# question. Recall: interval units after the box, siunitx after the box, a bracketed unit on
# the next line, more ways to name the unit before the box, an option's text after its
# letter, sets of alternatives, "untrue", interval ends split by a semicolon
# 1.14.0 (a seventh red-team round and a fourth model-style corpus): a box counts only where
# every group and environment around it shows its content (enclosure.py); an operation
# written around a box, or a first side that is a function of one quantity (v^2 = ...), makes
# the answer no value; a value for the asked quantity stated again after the box is judged;
# an exact gold's check is held to the most precise number written (padding no longer
# loosens it); more denial, bound and hedge words; one condition between two boxes makes
# them cases. Recall: a decimal comma {,}, J/°C, sets of equation alternatives with units,
# more type faces, bold option letters, a text group in parentheses as a remark
# 1.15.0 (an eighth red-team round, a fifth model-style corpus, a blind set of equivalent
# forms): negated and struck relations around a box disown it; stated confidence, questions,
# drafts, someone else's claim, disavowal marks, imprecision before the box and "both … work"
# leave it uncommitted; unit, rate and percent words after a box change its quantity; a
# number side before the box that differs contradicts it; boxes drawn over each other, in
# code that disagrees, after a redefined command, skipped off the page in any unit, in an
# unused \title or an empty loop count for nothing; an expression or a tuple element stated
# again after the box is judged. Recall: Unicode radicals, partial derivatives of a
# one-variable function, intervals in words, a stated precision, bold and sentence truth
# values, a bracketed tuple after other boxes, a unit after a bracketed number
# 1.16.0 (a ninth red-team round, on the issue's core classes in model-style output): every
# side of the chain a final box closes is judged (values converted, expressions in the
# gold's symbols); a name after a labelled formula and a negated label are claims; a value
# in parentheses after the box, a correction remark ("(really …)"), a remark that says what
# a choice or an expression holds, a box unequal to itself, a counterfactual sentence; a
# constant's definition reads the gold's letter as the constant only where the question
# speaks of it; an interval's quantity where the question writes a ratio; values offered
# beside an equation judged as equations; a move back after a math opening overprints
# 1.17.0 (a tenth red-team round: what stands after a right box): boxes joined by an
# equivalence sign or labelled as another estimate, method, source or system of units are
# two claims; a unit after a box of listed alternatives is each one's; a value stated again
# is read with its unit after the math, "≈", a quantity named in words, on a bare line, in
# another frame, in fenced code, "In km/h this is …"; an ALT answer's other alternative in
# prose must be one; derived labels (Δ, dot, bar) are other quantities; an interval of a
# name the question does not ask about; \fcolorbox hides by its background
# 1.18.0 (an eleventh red-team round: the vocabulary of 1.17.0's readers): a labelled number
# for an asked quantity is read wherever it is stated after the box; more connectives (and
# other languages), label forms, nouns and verbs, frames, headings, answer tags and code;
# boxes in one math joined by signs, or under a check/method/precision/source label, are two
# claims; an ALT answer's prose claiming another value works; a unit in prose after a list
# box; a labelled offer takes the unit after its math ("That is $T = 92.4$ min"); a change
# of a variant of the asked quantity is another quantity
# 1.19.0 (red-team rounds 13 and 14: honest and multi-part outputs, the core comparison,
# attacks on the draft): an ALT answer's prose adding one more value (so does, also, a
# third, a list holding the alternatives) claims it; an EX conclusion written as an equation
# must hold at the box; decimals against an exact EX/EQ gold must round it; two boxes joined
# by "viz."/"same" are both claimed; \equiv and a decimal after \sim state a value; exact
# NV golds written with ln/log/exp/trig functions hold values to their digits, a closed form
# with a decimal to the gold's value; a temperature change reads °C as a step; 0 °C is no
# 0 K. Recall: the next paragraph's first word is no unit of the box; a qualifier opening the
# next sentence with a remark of its own is not the box's; a heading of words is a title; a
# summary of a problem's parts reads the last part's value
# 1.20.0 (round 16: equivalent forms, real models' mistakes, slow inputs): a formula beside
# the number in an NV answer must not contradict the gold at the values the question gives;
# a unit after a symbolic answer must fit the quantity asked; a derivative of an expression
# differentiates its symbols as fields (it vanished, so any factor passed); no thousands
# group opens with 0. Recall: a step of the working in a symbol neither the gold nor the
# question writes; a series written out; \ell is l; k_BT; a number's e is Euler's; the bare
# name for an asked extreme; a unit after a bracketed tuple; a table's headings; remarks in
# the question's words after each element; Greek letters as characters; a plain decimal comma
# 1.21.0 (round 16c, slow inputs): text enters with its whitespace runs collapsed (a run of
# spaces is one space, of blank lines one blank line: a judgement across 250 spaces is next
# to the box); a series, product or integral has a value only where mpmath's extrapolation
# or quadrature converges in bounded work; a power tower past a float has none; an equation
# of degree above 12 in the asked quantity, or with it in two families of functions, is not
# solved (so not shown to be the gold); a box over 1,000 characters is too long to parse;
# round 18: exponents nested four deep, fractions seven deep, more than 8 bars, a binomial of
# a large number and a degree above 400 are refused before sympy; an exact check that would
# multiply out more than 2,000 terms is left to the numeric proof
# 1.22.0 (round 19): in an expression, a sum or product that is neither finite (at most
# 10,000 integer terms) nor summed to a checked closed form has no value, and an integral's
# closed form is looked for only where quadrature can confirm one; e is the question's
# quantity where its math writes e standing alone (restitution, charge), else Euler's;
# corrections after the box in the words people write them in ("I made an error:", "Oops,
# that should be", "Erratum:", "P.S.", "Hmm, or maybe", "I'd also accept"), for tuple
# elements too (placed by label); a TF box whose explanation restates the statement through
# "i.e."/"since"/"indeed" contradicts itself; where the gold labels nothing, a label that is
# the derivative, change or mean of the asked name (\dot v(t), dv/dt, \Delta V_s) and a tuple
# element named for an unasked member of the asked family (T_A beside T_B, T_C, T_D) are wrong.
# Recall: an inverse trigonometric function of a number is an angle in radians; a remark in
# the words the question asks with ("(induced emf)") goes, in a tuple only where the remarks
# name the asked quantities in the order asked; a box that names its quantity in words
# before the value ("\text{The period is } …", "\text{Final temperature: } …") is a label;
# an equation's label with the variables it depends on (E_k(v) for E_k) is the gold's label;
# a multiple of a time constant in a numeric chain (2.30\,\tau, 2.30\,RC) is a step
# 1.23.0 (round 20): physical constants written as their values (\frac{1.99\times10^{-25}}
# {\lambda} for \frac{hc}{\lambda}) where the letter is the constant in the question; a
# numeric answer left as arithmetic on quantities with units; a vector's coefficients in
# brackets are a sum (they were summed into one number: (4\hat x + 3\hat y) equalled (3\hat x
# + 4\hat y)); a precision the question states (six significant figures) is the tolerance;
# plane and solid angles and counted things are kinds of their own (W/sr is no W, 7 photons
# no 7 electrons); a tuple's units asked in order go to its elements in order; an option's
# letter with a text opposite to the option's is no choice; plain-text math, vectors in bold
# or as components, numbered tuple elements, remarks of circumstance, "in units of $\tau$",
# numbers in words, "Not true" for False, degree, ohm and hyphenated unit spellings (round 21
# attacked the draft: a constant counts only where the question names it at its letter or
# speaks of no other meaning of it)
# 1.24.0 (round 22): a partial derivative's held-fixed variable and a bound's name are checked
# (C_p is no C_V, \dot v \ge 11.2 no v \ge 11.2); one value takes the first asked dimension;
# word labels of tuple elements are claims in the question's order; conditions of validity,
# definitions after "where" or in brackets, defining signs, law names, presentation commands,
# sentences in \text, "B is correct", vulgar fractions, arcminutes, ruled tables
# 1.25.0 (round 24): an angle's reference is part of it; a number has no subscript; a short
# sentence after the box that ends in a value offers it, whatever its words; a box given for
# comparison is disowned only as another case; one value's word label names the first asked
# quantity; a letter denied in more words; every step of an equation's derivation; a bare
# angle gold in the data's unit; corrections in blocks and in a sentence's math; units in
# words, norms of vectors, ticks, names set equal to a tuple, "(\text{B})"
VERIFIER_VERSION = "1.29.0"
DEFAULT_TOLERANCE = 1e-2
DEFAULT_TIMEOUT_S = 5.0


class Verdict(BaseModel):
    """The rule stage's decision on one (prediction, gold) pair."""

    model_config = ConfigDict(frozen=True)

    correct: bool
    reason: str
    extracted: tuple[str, ...] = ()
    normalized_gold: tuple[str, ...] = ()
    elapsed_ms: float = 0.0
    verifier_version: str = VERIFIER_VERSION


class VerifyItem(BaseModel):
    """One comparison request (the line format of ``studybench verify --cases``)."""

    model_config = ConfigDict(extra="allow")

    pred: str
    gold: str
    answer_type: str
    type_sequence: str = ""
    tolerance: float | None = Field(None, gt=0)
    question: str | None = None  # the question text: names the unit of a unitless gold

    @field_validator("type_sequence", mode="before")
    @classmethod
    def _join_list(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ",".join(str(v) for v in value)
        return "" if value is None else value


def judge_inline(
    pred: str,
    gold: str,
    answer_type: str,
    type_sequence: str = "",
    tolerance: float = DEFAULT_TOLERANCE,
    strip_think: bool = True,
    question: str | None = None,
) -> Verdict:
    """Verify in the calling process, without a timeout. Workers call this; so may tests.

    ``question`` is the question text; when the gold carries no unit, the unit the question
    asks for ("in days", "(in eV)") is read from it, so an answer in another unit of that
    dimension is converted, and one of another dimension is rejected.

    Untrusted input belongs in :func:`verify`, which bounds the time.
    """
    # The rules (sympy, pint, the LaTeX parsers) are imported where comparisons run: in the
    # workers and in callers of judge_inline. A host that only hands work to the pool (the
    # CLI, an Airflow task, a TRL reward) never pays their ~0.35 s import.
    from studybench.verify.asked import asked_in
    from studybench.verify.enumerated import enumerated_elements
    from studybench.verify.numeric import (
        alternatives_with_unit_after,
        interval_unit_on_variable,
        interval_with_unit_after,
        label_bound,
        list_with_unit_inside,
        symbolic_only,
        with_unit_after,
        with_unit_before,
        with_unit_stated,
    )
    from studybench.verify.question import asked_bound, in_units_of_name, stated_tolerance
    from studybench.verify.rules import judge_answers, normalize_all
    from studybench.verify.unit_vectors import in_gold_basis

    start = time.perf_counter()

    def verdict(correct: bool, reason: str, **fields: Any) -> Verdict:
        elapsed = (time.perf_counter() - start) * 1000
        return Verdict(correct=correct, reason=reason, elapsed_ms=elapsed, **fields)

    try:
        kind = AnswerType(answer_type.strip().upper())
    except ValueError:
        return verdict(False, "unknown_answer_type")
    try:
        sequence = tuple(AnswerType(t.upper()) for t in split_type_sequence(type_sequence))
    except ValueError:
        return verdict(False, "bad_type_sequence")

    question = collapse_whitespace(question) if question else None  # as the output's is
    gold_boxes = tuple(map(constant_word, gold_answers(gold)))
    if kind is AnswerType.TUP and len(gold_boxes) == 1 and len(sequence) > 1:
        gold_boxes = select_answers(gold_boxes, kind, len(sequence))
    golds = normalize_all(_without_remarks(gold_boxes, kind, sequence, gold=True))
    if kind is AnswerType.TUP:  # "(c) Time of flight: \boxed{2.04 s}" where (a), (b) are asked
        pred = without_unasked_parts(pred, question, len(sequence) or len(gold_boxes))
    extraction = boxed_answers(pred, strip_thinking=strip_think, question=question)
    if not extraction.answers:
        return verdict(
            False, extraction.problem or "no_box", normalized_gold=tuple(map(unmark, golds))
        )
    if kind is AnswerType.MC:  # "\\boxed{A}, \\boxed{C}, \\boxed{D}" for the gold "ACD"
        extraction = _joined_choices(extraction, gold_boxes)
    boxes = tuple(map(constant_word, extraction.answers))
    if kind is not AnswerType.TF:  # a tick is a truth value only where one is asked
        boxes = tuple(_OWN_TICK.sub("", box) for box in boxes)
    if kind in _UNIT_AFTER_TYPES and _claims_other_kind(boxes, extraction.after, kind, question):
        return verdict(False, "unit_qualifier", normalized_gold=tuple(map(unmark, golds)))
    if kind in _UNIT_AFTER_TYPES:  # "120\ \mathrm{V_{rms}}" for "Find the rms voltage"
        boxes = tuple(without_asked_qualifier(box, question) for box in boxes)
    # the words after each box, the last box's read further: a remark that closes it ("(this
    # is the angle between the refracted ray and the glass surface)") is longer than a unit
    remarks = (*extraction.after[:-1], extraction.tail[:_REMARK_CHARS] or extraction.after[-1])
    # each tuple value's own remark: the text up to the next value (the last's: the tail)
    element_remarks = (
        (*map(_own_remark, remarks[:-1]), remarks[-1]) if kind is AnswerType.TUP else remarks
    )
    written = boxes
    if kind in _UNIT_AFTER_TYPES and len(extraction.after) == len(boxes):
        read = alternatives_with_unit_after if kind is AnswerType.ALT else with_unit_after
        boxes = tuple(map(read, boxes, extraction.after))
    if (
        kind in _UNIT_AFTER_TYPES
        and question
        and question_references(question)
        and len(extraction.after) == len(boxes)
    ):
        boxes = tuple(map(reference_after, boxes, remarks))  # "… from the vertical"
    if kind is AnswerType.QL and len(extraction.after) == len(boxes):
        boxes = tuple(map(viewpoint_after, boxes, remarks))  # "(seen from below)"
    if kind in _UNIT_AFTER_TYPES and len(extraction.before) == len(boxes):
        boxes = tuple(map(with_unit_before, boxes, extraction.before))
        if kind is AnswerType.NV:  # "F = 9600 N … \\boxed{9600}"
            stated = partial(with_unit_stated, golds=gold_boxes)
            boxes = tuple(map(stated, boxes, extraction.before))
    if kind in _CLOSED_TYPES:  # "\\boxed{4.9 m/s} (going up)", "\\boxed{9.6} kN on each tire"
        # past the unit a reader of units after the box took into it
        closing = remarks[-1] if boxes[-1] == written[-1] else after_unit(remarks[-1])
        if boxes[-1] == written[-1] or closing != remarks[-1]:  # not a reference read in
            # an expression's remark is read for a value per item only ("\\boxed{W} on each
            # leg"): its words are symbols, and its directions the gold's words do not hold
            whole = kind is not AnswerType.EX
            closed = with_closing_remark(boxes[-1], closing, question, whole=whole)
            boxes = (*boxes[:-1], closed)
    if kind is AnswerType.TUP and len(boxes) == len(sequence) == len(extraction.after) == len(
        written
    ):
        boxes = _closed_elements(boxes, written, element_remarks, sequence, question)
    if kind in _UNIT_AFTER_TYPES and against_convention(boxes[-1], remarks[-1], question):
        # "\\boxed{29.4} m/s (taking downward as positive)" where up is positive: -29.4 m/s
        # under the question's convention (and "-4.9 … (downward positive)" is +4.9)
        boxes = (*boxes[:-1], with_sign_turned(boxes[-1]))
    elif kind is AnswerType.NV and len(gold_boxes) == 1:
        signed = _directed_value(boxes[-1], remarks[-1], gold_boxes[0], question)
        if signed is None:  # "-4.9 m/s (upward)" where up is positive
            return verdict(False, "sign_direction", normalized_gold=tuple(map(unmark, golds)))
        boxes = (*boxes[:-1], signed)  # "29.4 m/s downward" where up is positive: -29.4
    if (
        kind is AnswerType.TUP
        and len(boxes) == len(sequence) == len(gold_boxes) == len(remarks)
        and not against_convention(boxes[-1], remarks[-1], question)
    ):  # "(a) \\boxed{9.8} m/s downward" where up is positive: -9.8 m/s
        signed_elements = tuple(
            _directed_value(box, remark, gold, question) if part is AnswerType.NV else box
            for box, remark, gold, part in zip(
                boxes, element_remarks, gold_boxes, sequence, strict=True
            )
        )
        if None in signed_elements:
            return verdict(False, "sign_direction", normalized_gold=tuple(map(unmark, golds)))
        boxes = tuple(box for box in signed_elements if box is not None)
    if kind is AnswerType.IN:  # "30 < d/\\mathrm{cm} < 45": the bounds are in centimetres
        boxes = tuple(map(interval_unit_on_variable, boxes))
    if kind is AnswerType.IN and len(extraction.after) == len(boxes):
        boxes = tuple(map(interval_with_unit_after, boxes, extraction.after))
    if kind is AnswerType.TUP and len(boxes) == 1:
        boxes = (enumerated_elements(boxes[0], len(sequence)),)
    if kind in (AnswerType.TUP, AnswerType.ALT):
        boxes = tuple(map(list_with_unit_inside, boxes))
    if kind is AnswerType.NV:
        boxes = tuple(_PLAIN_DECIMAL_COMMA.sub(r"\1.\2", box) for box in boxes)
    if kind is AnswerType.TUP and question:  # "Range: \\boxed{…}, maximum height: \\boxed{…}"
        count = len(sequence) if len(sequence) > 1 else len(golds)
        befores = extraction.before if len(extraction.before) == len(boxes) else ()
        afters = extraction.after if len(extraction.after) == len(boxes) else ()
        boxes = in_labelled_order(boxes, befores, question, count, afters)
    if kind is AnswerType.TUP:
        boxes = tuple(
            without_respectively(words_as_labels(names_set_equal(box), question)) for box in boxes
        )
    with asked_in(question):  # a sentence's name must be one the question asks for
        answers = tuple(split_unit_connectives(phrase_as_label(box)) for box in boxes)
    if kind in (AnswerType.EX, AnswerType.NV) and len(gold_boxes) == 1:
        answers = tuple(in_gold_basis(answer, gold_boxes[0]) for answer in answers)
    gold_words = frozenset(w.casefold() for w in _WORDS.findall(" ".join(gold_boxes)))

    def judge(boxes: tuple[str, ...]) -> tuple[bool, str, tuple[str, ...]]:
        with asked_in(question):  # the selection reads it too (a table's headings)
            return judged(boxes)

    def judged(boxes: tuple[str, ...]) -> tuple[bool, str, tuple[str, ...]]:
        chosen = select_answers(boxes, kind, len(golds), sequence)
        if kind in _UNIT_AFTER_TYPES:  # "30° from the surface" for 30° from the normal
            paired = kind is AnswerType.TUP and len(chosen) == len(gold_boxes)
            referenced = tuple(
                with_agreed_reference(
                    box, (gold_boxes[i],) if paired else gold_boxes, question, tolerance
                )
                for i, box in enumerate(chosen)
            )
            if None in referenced:
                return False, "angle_reference", tuple(map(unmark, normalize_all(chosen)))
            chosen = tuple(box for box in referenced if box is not None)
        allowed = gold_words
        if question and remarks_in_asked_order(chosen, question):
            allowed |= asked_words(question)  # "8.00 V (induced emf)" for "Find the induced emf"
        selected = normalize_all(_without_remarks(chosen, kind, sequence, allowed=allowed))
        shown = tuple(map(unmark, selected))
        contradicted = _contradicting_remark(
            chosen, gold_boxes, _box_kinds(kind, sequence, len(gold_boxes))
        )
        if contradicted is not None:
            return False, contradicted, shown
        claims = None
        if (
            kind is AnswerType.ALT
            and len(gold_boxes) == len(golds)
            and len(chosen) == len(selected)
        ):
            claims = (tuple(map(remark_claims, chosen)), tuple(map(remark_claims, gold_boxes)))
        outcome = judge_answers(
            selected, golds, kind, sequence, tolerance, requested, question, claims
        )
        return outcome.correct, outcome.reason, shown

    requested = requested_units(question) if question else ()
    if kind is AnswerType.NV and len(golds) == 1:
        tolerance = stated_tolerance(question, golds[0], tolerance)
        bare = [in_units_of_name(answer, golds[0], question) for answer in answers]
        pairs = [pair for pair in bare if pair is not None]
        if pairs and len(pairs) == len(bare):  # "in units of $\\tau$": bare numbers
            answers, golds = tuple(answer for answer, _ in pairs), (pairs[0][1],)
    correct, reason, shown = judge(answers)
    shown_gold = tuple(map(unmark, golds))

    def formula(box: str) -> bool:  # a symbolic box beside a numeric gold checks nothing
        if kind is not AnswerType.NV:
            return False
        (normalized,) = normalize_all((box,))
        return symbolic_only(normalized, golds[0], tolerance)

    def compared() -> int:  # the boxes compared: the last n, or the last alone that holds all
        selected = select_answers(answers, kind, len(golds), sequence)
        return len(golds) if selected == answers[-len(golds) :] else 1

    if correct and any(extraction.operands) and any(extraction.operands[-compared() :]):
        # "v = 2\boxed{…}", "-\boxed{…}", "\boxed{…}^2": the answer is a function of the box
        return verdict(False, "box_in_expression", extracted=shown, normalized_gold=shown_gold)
    ways: list[str] = []
    if correct and any(way is not None for way in extraction.bounds):
        ways = [way for way in extraction.bounds[-compared() :] if way is not None]
    if ways:
        # a box the prose makes a bound ("at most \\boxed{…}", "v \\ge \\boxed{…}") states a
        # value only where the question or the gold's label asks for that extreme
        asked = {asked_bound(question), *map(label_bound, shown_gold)}
        if any(way not in asked for way in ways):
            return verdict(False, "wrong_bound", extracted=shown, normalized_gold=shown_gold)
    if correct and kind is AnswerType.TF and extraction.after:
        from studybench.verify.rules.choice import qualified_after, truth_value

        value = truth_value(shown[-1]) if shown else None
        if value is not None and qualified_after(extraction.after[-1], value):
            return verdict(False, "qualified_truth", extracted=shown, normalized_gold=shown_gold)
    offers = extraction.offers
    if correct and kind is AnswerType.MC and len(golds) == 1 and extraction.after:
        # "\\boxed{C} — 9.8 m/s² downward": the option's text after a dash, read as a remark
        # in brackets is (it must fit the option), and no value offered beside the choice
        dashed = _DASHED_REMARK.match(extraction.after[-1])
        if dashed is not None and not _OPTION_LETTER.search(dashed.group("content")):
            remarked = _remark_content_problem(
                f"({dashed.group('content')})", answers[-1], gold_boxes[-1], kind, judge
            )
            # an option's text is short; a sentence of prose after the dash ("— the velocity is
            # zero there but the acceleration is still downward") is an explanation
            if remarked is not None and len(dashed.group("content").split()) <= _OPTION_WORDS:
                return verdict(False, remarked, extracted=shown, normalized_gold=shown_gold)
            content = numbers_in_digits(dashed.group("content"))  # "— about half a second"
            numbers = set(re.findall(r"\d+(?:\.\d+)?", content))
            offers = tuple(o for o in offers if not set(re.findall(r"\d+(?:\.\d+)?", o)) <= numbers)
    if kind is AnswerType.MC and len(offers) > 1 and all(_ONE_OPTION.fullmatch(o) for o in offers):
        offers = ("".join(sorted(set(offers))),)  # "So the answer is A, C, E.": one set of options
    if kind is AnswerType.EQ and len(answers) == 1:
        offers = _equations_offered(offers, answers[-1])
    if correct and offers:
        elements = select_answers(answers, kind, len(golds), sequence)
        kinds = sequence if len(sequence) == len(elements) else (kind,) * len(elements)
        offered = _offered_problem(offers, elements, kinds, judge, formula, question)
        if offered is not None:
            return verdict(False, offered, extracted=shown, normalized_gold=shown_gold)
    if correct and undecided_before(pred[: pred.rfind("\\boxed")]):
        # "I can't decide between the two. Final Answer: \\boxed{…}": one of several
        return verdict(False, "hedged:undecided", extracted=shown, normalized_gold=shown_gold)
    if correct and extraction.tail and undecided(extraction.tail):
        # "I'm torn between this and 125 m/s", "If that's wrong, then B": one of several
        return verdict(False, "hedged:undecided", extracted=shown, normalized_gold=shown_gold)
    if correct and extraction.tail:
        elements = select_answers(answers, kind, len(golds), sequence)
        kinds = sequence if len(sequence) == len(elements) else (kind,) * len(elements)
        revised = _revised_problem(
            extraction.tail, kind, elements, kinds, gold_boxes, judge, formula, question
        )
        if revised is not None:
            return verdict(False, revised, extracted=shown, normalized_gold=shown_gold)
    if correct and kind in _RESTATED_KINDS and len(golds) == 1 and extraction.after:
        restated = _restated_problem(
            extraction.tail, answers[-1], golds[0], kind, question, judge, formula
        )
        if restated is not None:
            return verdict(False, restated, extracted=shown, normalized_gold=shown_gold)
    if correct and kind is AnswerType.EX and len(golds) == 1 and extraction.after:
        restated = _restated_expression(
            extraction.tail, answers[-1], gold_boxes[-1], question, judge, formula
        )
        if restated is not None:
            return verdict(False, restated, extracted=shown, normalized_gold=shown_gold)
    if correct and kind is AnswerType.EQ and len(answers) == 1 and extraction.after:
        restated = _restated_equation(extraction.tail, answers[-1], gold_boxes[-1], judge)
        if restated is not None:
            return verdict(False, restated, extracted=shown, normalized_gold=shown_gold)
    if correct and kind in _CHAINED_KINDS and len(golds) == 1 and extraction.sides:
        # a display of rows ("aligned", "\\\\") or a number with a thousands space splits
        # working where the chain's sides are not
        rows = bool(extraction.before) and bool(_ROWS.search(extraction.before[-1][-400:]))
        contradicted = _contradicting_side(
            extraction.sides, answers[-1], gold_boxes[-1], kind, judge, working=not rows
        )
        if contradicted is not None:
            return verdict(False, contradicted, extracted=shown, normalized_gold=shown_gold)
    if correct and kind is AnswerType.IN and len(answers) == 1 and extraction.before:
        variable = bounded_before(extraction.before[-1])
        if variable is not None and not re.search(r"\\in\b|∈|<|>|\\[lg]e", answers[-1]):
            fine, why, _ = judge((f"{variable} \\in {answers[-1]}",))
            if not fine:  # "$\\frac{m_2}{m_1} \\in \\boxed{(0, 1]}$": the box bounds that
                return verdict(False, why, extracted=shown, normalized_gold=shown_gold)
    if correct and kind is AnswerType.TUP and len(extraction.before) == len(answers):
        labelled = _outside_labels(extraction.before, answers, len(golds))
        if labelled is not None:
            fine, why, _ = judge(labelled)
            if not fine:
                return verdict(False, why, extracted=shown, normalized_gold=shown_gold)
    if correct and kind is AnswerType.ALT and extraction.tail:
        other = _other_alternative_problem(extraction.tail, gold_boxes[0], judge)
        if other is not None:
            return verdict(False, other, extracted=shown, normalized_gold=shown_gold)
    if correct and kind is AnswerType.TUP and len(golds) > 1 and extraction.after:
        elements = select_answers(answers, kind, len(golds), sequence)
        restated = _restated_element(
            extraction.tail, elements, gold_boxes, sequence, question, judge, formula
        )
        if restated is not None:
            return verdict(False, restated, extracted=shown, normalized_gold=shown_gold)
    if correct and kind in (AnswerType.MC, AnswerType.EX) and len(golds) == 1 and extraction.after:
        remarked = _remark_content_problem(
            extraction.after[-1], answers[-1], gold_boxes[-1], kind, judge
        )
        if remarked is not None:
            return verdict(False, remarked, extracted=shown, normalized_gold=shown_gold)
    if correct and kind in _UNIT_AFTER_TYPES and extraction.after:
        elements = select_answers(answers, kind, len(golds), sequence)
        remarked = _remark_problem(extraction.after, answers, elements, judge)
        if remarked is not None:
            return verdict(False, remarked, extracted=shown, normalized_gold=shown_gold)
    hedges = extraction.hedges
    if kind not in (AnswerType.TUP, AnswerType.ALT) and len(golds) == 1:
        # one asked value: two boxes in one table, or labelled as two cases, are two values
        # offered for it
        hedges = tuple(
            h or t or c
            for h, t, c in zip(hedges, extraction.tabled, extraction.cased, strict=False)
        )
    if correct and any(hedges):
        hedge = _hedge_problem(answers, hedges, kind, len(golds), sequence, judge, formula)
        if hedge is not None:
            return verdict(False, hedge, extracted=shown, normalized_gold=shown_gold)
    return verdict(correct, reason, extracted=shown, normalized_gold=shown_gold)


def _claims_other_kind(
    boxes: tuple[str, ...], afters: tuple[str, ...], kind: AnswerType, question: str | None
) -> bool:
    """Whether a compared box claims a kind of value (rms, peak, peak-to-peak) other than the
    one the question asks for in its place, by its label or the word after it
    (``V_{\\text{rms}} = 170 V``, ``\\boxed{170 V} (rms)`` for the peak; red team r27a). The
    boxes are placed in the order the question asks its kinds; a question that asks no kind,
    or kinds in another number than the boxes, leaves the claims to the other rules."""
    from studybench.verify.unit_qualifiers import asked_kinds, claimed_kind

    asked = asked_kinds(question)
    if not asked or kind is AnswerType.ALT or len(boxes) < len(asked):
        return False
    if len(afters) != len(boxes):
        afters = ("",) * len(boxes)
    pairs = zip(boxes[-len(asked) :], afters[-len(asked) :], asked, strict=True)
    return any(
        (claimed := claimed_kind(box, after)) is not None and claimed != wanted
        for box, after, wanted in pairs
    )


_REMARK_CHARS = 160  # the text after the last box read for a remark that closes it
# the types whose last box takes the remark that closes it (:mod:`closing_remarks`)
_CLOSED_TYPES = (AnswerType.NV, AnswerType.QL, AnswerType.ALT, AnswerType.EX)


def _closed_elements(
    boxes: tuple[str, ...],
    written: tuple[str, ...],
    remarks: tuple[str, ...],
    sequence: tuple[AnswerType, ...],
    question: str | None,
) -> tuple[str, ...]:
    """A tuple's values, each with the remark that closes it read into it ("(a) \\boxed{480
    N} on each leg", "(b) \\boxed{9.8 m/s^2} (upward)"; red team r33a); ``remarks`` are each
    value's own (:func:`_own_remark`; the last value's is the answer's tail)."""
    from studybench.verify.tuple_labels import asked_parts

    # each value's own part of the question: "(b) the force per leg" asks per leg, (a) not
    asked: list[str | None] = list(asked_parts(question, len(boxes)) or []) if question else []
    asked = asked or [question] * len(boxes)
    closed = []
    for box, own, remark, part, text in zip(boxes, written, remarks, sequence, asked, strict=True):
        closing = remark if box == own else after_unit(remark)
        if part is AnswerType.NV and (box == own or closing != remark):  # no reference read in
            box = with_closing_remark(box, closing, text)
        closed.append(box)
    return tuple(closed)


# what may stand between the boxes of one multiple-answer choice: commas, "and", spacing
_CHOICE_JOIN = re.compile(
    r"(?:\s|\$|\\[,;:! ]|\\q?quad(?![A-Za-z])|~|,|;|\\?&|\b(?:and|also|plus)\b"
    r"|\\text\s*\{\s*(?:,|and|&)?\s*\})*"
)


_ONE_OPTION = re.compile(r"[A-H]")
_UNIT_LETTER = re.compile(r"[A-Za-zµμΩ°%\\]")


def _own_remark(remark: str) -> str:
    """The text after a tuple's box up to the next element (its math, its part letter, the
    line's end): "$ m/s downward (b) $" is " m/s downward"."""
    head = re.match(r"^(?:\s|\$|\\\)|\\\])*", remark)
    start = head.end() if head else 0
    cut = _NEXT_ELEMENT.search(remark, start)
    return remark[: cut.start() if cut else len(remark)]


_NEXT_ELEMENT = re.compile(r"\$|\\\(|\\\[|\(\s*[a-h]\s*\)|\n|\\boxed")


def _directed_value(box: str, remark: str, gold: str, question: str | None) -> str | None:
    """``box`` as the signed value its stated direction makes it under the question's
    convention (:func:`closing_remarks.directed_sign`): a magnitude said to point the
    negative way is negative ("\\boxed{29.4} m/s downward" where up is positive), where the
    gold names no direction and the question asks no magnitude; None where a negative value
    is said to point the positive way ("-4.9 m/s (upward)"), which contradicts itself."""
    signed = directed_sign(box, remark, question)
    if signed == 1 and is_negative(box):
        return None
    if signed == -1 and not is_negative(box) and _signed_gold(gold, question):
        return with_sign_turned(box)
    return box


_MAGNITUDE_ASKED = re.compile(
    r"\b(?:speed|magnitude|how\s+fast|distance|how\s+far|size|how\s+(?:much|large|big))\b",
    re.IGNORECASE,
)


def _signed_gold(gold: str, question: str | None) -> bool:
    """Whether the gold is a signed value that names no direction (a component under the
    question's convention: "-29.4 m/s"; "29.4 m/s" where the question asks a velocity, not
    a speed or a magnitude)."""
    from studybench.verify.asking import asking_part
    from studybench.verify.relations import DIRECTION_WORDS

    words = {w.casefold() for w in _WORDS.findall(gold)}
    if words & DIRECTION_WORDS or not re.search(r"\d", gold):
        return False
    asked = asking_part(question) if question else ""
    return is_negative(gold.strip()) or not _MAGNITUDE_ASKED.search(asked)


def _joined_choices(extraction: Extraction, gold_boxes: tuple[str, ...]) -> Extraction:
    """``extraction`` with the last boxes that each name options, and stand next to one
    another with only commas, "and" or spacing between, read as one box, where the gold
    selects several options: "\\boxed{A}, \\boxed{C} and \\boxed{D}" is the answer "ACD"
    written box by box (red team r27b). Boxes joined by anything else ("or", a sentence)
    stay apart, and a gold of one option keeps each box an answer of its own."""
    from studybench.verify.rules.choice import mc_letters

    gold = mc_letters(gold_boxes[-1]) if len(gold_boxes) == 1 else None
    answers = extraction.answers
    if gold is None or len(gold) < 2 or len(answers) < 2 or len(extraction.after) != len(answers):
        return extraction
    first = len(answers) - 1
    while (
        first > 0
        and mc_letters(answers[first - 1]) is not None
        and len(extraction.after[first - 1]) < AFTER_CHARS
        and _CHOICE_JOIN.fullmatch(extraction.after[first - 1])
        and not (
            extraction.hedges
            and extraction.hedges[first - 1]
            and "&" not in extraction.after[first - 1]
        )  # "A & C" lists; "A / C" and "A or C" stay hedges
    ):
        first -= 1
    if first == len(answers) - 1 or mc_letters(answers[-1]) is None:
        return extraction
    letters = sorted(set().union(*(mc_letters(box) or () for box in answers[first:])))
    kept = slice(0, first)
    return replace(
        extraction,
        answers=(*answers[kept], ", ".join(letters)),
        hedges=extraction.hedges[kept],
        tabled=extraction.tabled[kept],
        cased=extraction.cased[kept],
        bounds=(*extraction.bounds[kept], None) if extraction.bounds else (),
        operands=(*extraction.operands[kept], False) if extraction.operands else (),
        after=(*extraction.after[kept], extraction.after[-1]),
        before=(*extraction.before[kept], extraction.before[first]) if extraction.before else (),
    )


def _revised_problem(
    tail: str,
    kind: AnswerType,
    elements: tuple[str, ...],
    kinds: tuple[AnswerType, ...],
    gold_boxes: tuple[str, ...],
    judge: Callable[[tuple[str, ...]], tuple[bool, str, tuple[str, ...]]],
    formula: Callable[[str], bool],
    question: str | None = None,
) -> str | None:
    """Why an answer revised after the final box (:mod:`studybench.verify.revisions`: "…
    Hmm, I'd go with C.") makes a right box wrong, or None: the revision's last commitment
    to a candidate of the asked kind is the model's answer, judged as a value offered in
    prose is (a value in each asked place it measures, or that value rounded)."""
    from studybench.verify import revisions
    from studybench.verify.asking import asking_part
    from studybench.verify.normalize import last_side
    from studybench.verify.numeric import rounds_to, unit_place
    from studybench.verify.relations import LETTER_RUN, word_stem
    from studybench.verify.rules import normalize_all

    region = revisions.revision(tail)
    if region is None or not elements:
        return None
    asked_words = (
        {word_stem(w.casefold()) for w in LETTER_RUN.findall(asking_part(question))}
        if question
        else set()
    )

    def asked(subject: str) -> bool:  # "the flux decreases": a noun the asking part writes
        words = [w.casefold() for w in LETTER_RUN.findall(subject)]
        nouns = [w for w in words if w not in ("the", "a", "an", "its")]
        return bool(nouns) and all(word_stem(w) in asked_words for w in nouns)

    offers: list[str] = []
    single = len(elements) == 1
    if kind is AnswerType.QL and single:
        word = revisions.revised_phrase(region, elements[0], asked)
        return None if word is None else "revised:wrong_phrase"
    if kind is AnswerType.MC and single:
        offers = [o for o in [revisions.last_option(region)] if o]
    elif kind is AnswerType.TF and single:
        truth = revisions.last_truth(region)
        if truth == revisions.OPPOSITE:
            return "revised_after_box"  # "Gut says the opposite."
        offers = [truth] if truth else []
    elif kind is AnswerType.IN and single:
        offers = [o for o in [revisions.last_interval(region, asked)] if o]
    elif kind in (AnswerType.EQ, AnswerType.EX) and single:
        math = revisions.last_math(region, asked)
        offer = _revised_formula(math, kind, elements[0], gold_boxes[-1]) if math else None
        if offer is not None and not judge((offer,))[1].startswith("unparseable"):
            offers = [offer]
    elif kind in _UNIT_AFTER_TYPES and all(k in (AnswerType.NV, AnswerType.ALT) for k in kinds):
        normalized = tuple(normalize_all(elements))
        # a bare box measures what its gold does ("\\boxed{1.5} … so 0.5 A is the answer")
        golds_read = tuple(normalize_all(gold_boxes)) if len(gold_boxes) == len(elements) else ()
        measures = tuple(
            golds_read[i] if golds_read and not _UNIT_LETTER.search(e) else e
            for i, e in enumerate(normalized)
        )
        measured: list[tuple[str, list[int]]] = []
        for value in revisions.values(region, asked):
            if not re.search(r"[A-Za-zµμΩ°\\]", value):
                continue  # a bare number in working ("sin θ = 0.5") measures nothing asked
            (offered,) = normalize_all((value,))
            places = [i for i, e in enumerate(measures) if unit_place(offered, (e,)) == 0]
            if places:
                measured.append((value, places))
        last = {tuple(places): (value, places) for value, places in measured}  # each place's last
        for value, places in measured[-1:] if single else list(last.values()):
            # right in the place of one asked value of its kind, or that value rounded ("the
            # result is 1.0 s" beside 0.990 s): the revision confirms it
            (written,) = normalize_all((value,))
            if not any(
                judge((*elements[:i], value, *elements[i + 1 :]))[0]
                or rounds_to(written, last_side(normalized[i]))
                for i in places
            ):
                return "revised_after_box"
        return None
    if not offers:
        return None
    problem = _offered_problem(tuple(offers), elements, kinds, judge, formula)
    return None if problem is None else "revised_after_box"


def _revised_formula(math: str, kind: AnswerType, box: str, gold: str) -> str | None:
    """The formula a revision's last math offers for the asked EX or EQ answer, or None
    where it is about something else: an equation beside an expression answer must be
    labelled as the answer is ("$F = B^2L^2v/R$" beside the current is another quantity),
    and the formula must be written in the gold's symbols, all of them (the fall time
    "$\\sqrt{2h/g}$" beside a range $v_0\\sqrt{2h/g}$ is a part of it, no answer)."""
    from studybench.verify.normalize import last_side, split_top_level
    from studybench.verify.question import symbols_of

    sides = split_top_level(math, "=")
    if kind is AnswerType.EQ:
        offer = math if len(sides) == 2 else None
    elif len(sides) == 1:
        offer = math
    else:
        offer = last_side(math) if sides[0].strip() in _own_labels(box, gold) else None
    if offer is None or symbols_of(offer) != symbols_of(gold):
        return None
    return offer


def _other_alternative_problem(
    after: str,
    gold: str,
    judge: Callable[[tuple[str, ...]], tuple[bool, str, tuple[str, ...]]],
) -> str | None:
    """Why another alternative named after an ALT answer's box ("(the other position, 70.0
    cm, also works)", "and again at t = 4.0 s"; :func:`restatement.other_alternatives`) makes
    it wrong, or None: each is one more alternative claimed and must be one of the gold's.
    Only values of the gold's kind of quantity are read (one of ``gold``, the first
    alternative); beside an equation's alternatives a bare value takes the gold's label."""
    from studybench.verify.chains import gold_chain
    from studybench.verify.numeric import unit_place
    from studybench.verify.restatement import listed_values, other_alternatives
    from studybench.verify.rules import normalize_all

    label = gold_chain(gold).label
    for listed in listed_values(after):
        # a list that holds the answer's alternatives ("All the times: 1.0 s, 3.0 s and 4.0
        # s") states them all: one more in it is claimed
        verdicts = [judge((value,)) for value in listed]
        right = sum(fine for fine, _, _ in verdicts)
        wrong = [why for fine, why, _ in verdicts if not fine and not why.startswith("unparseable")]
        if right >= 2 and wrong:
            return f"other_alternative:listed:{wrong[0]}"
    for alternative in other_alternatives(after):
        offered, target = normalize_all((alternative, gold))
        if unit_place(offered, (target,)) != 0:
            continue  # "also the highest point, 2.5 m": another kind of quantity
        fine, why, _ = judge((alternative,))
        if not fine and label:  # "x = 0.118 m", as an equation's alternative reads
            fine, why, _ = judge((f"{label} = {alternative}",))
        if not fine and not why.startswith("unparseable"):
            return f"other_alternative:{why}"
    return None


def _restated_problem(
    after: str,
    box: str,
    gold: str,
    kind: AnswerType,
    question: str | None,
    judge: Callable[[tuple[str, ...]], tuple[bool, str, tuple[str, ...]]],
    formula: Callable[[str], bool],
) -> str | None:
    """Why a value for the asked quantity stated again after the final box ("So v = 29.0
    m/s.") makes a right box wrong, or None (:mod:`studybench.verify.restatement`): each such
    value is judged as a value offered in prose is. It is about the asked quantity where its
    label is the box's or the gold's, the question names its label without giving it, or (no
    label) its unit measures what the gold's does."""
    from studybench.verify.numeric import unit_place
    from studybench.verify.restatement import names_asked_quantity, restated_values, value_kind
    from studybench.verify.rules import normalize_all

    own = _own_labels(box, gold)
    offers: list[str] = []
    asked = partial(names_asked_quantity, own_labels=own, question=question)
    for label, value in restated_values(after, question, asked):
        if value_kind(value) != _RESTATED_KINDS[kind]:
            continue  # a letter restates a choice, a truth value a statement, a number a value
        if kind is not AnswerType.NV:
            offers.append(value)
            continue
        offered, target = normalize_all((value, gold))
        place = unit_place(offered, (target,))  # the value's unit measures the gold's
        plain = bool(_PLAIN_NUMBER.match(offered) and _PLAIN_NUMBER.match(target))
        if place != 0 and not plain:
            continue  # a quantity of another kind, or a value no scan reads: not the asked one
        if names_asked_quantity(label, own, question) or label is None or place == 0:
            offers.append(value)
    if not offers:
        return None
    return _offered_problem(tuple(offers), (box,), (kind,), judge, formula)


_RESTATED_KINDS = {AnswerType.NV: "value", AnswerType.MC: "option", AnswerType.TF: "truth"}


def _own_labels(*boxes: str) -> set[str]:
    """The labels the answer's boxes and the gold's give the asked quantities (``v`` of
    ``v = 14.5 m/s``): a value restated under one of them is about an asked quantity."""
    from studybench.verify.chains import gold_chain

    return {label for box in boxes if (label := gold_chain(box).label)}


def _restated_expression(
    after: str,
    box: str,
    gold: str,
    question: str | None,
    judge: Callable[[tuple[str, ...]], tuple[bool, str, tuple[str, ...]]],
    formula: Callable[[str], bool],
) -> str | None:
    """Why an expression for the asked quantity stated again after the final box
    ("Correction: x = d/3.", "So $v = \\sqrt{2gh}$.") makes a right EX box wrong, or None.
    After words that state an answer ("Correction:", "Actually, it's", "TL;DR:") the
    expression is the answer again; after a bare "So" or "Therefore" only where its label
    names the asked quantity and it is written in the gold's symbols (a numeric evaluation
    "So v = 3.7 m/s for h = 1 m" is another claim). One no parser reads is no claim."""
    from studybench.verify.restatement import (
        names_asked_quantity,
        restated_expressions,
        shares_symbol,
    )

    own = _own_labels(box, gold)
    offers: list[str] = []
    for label, expression, answered in restated_expressions(after, question):
        about = answered or (
            names_asked_quantity(label, own, question, given_counts=True)
            and shares_symbol(expression, gold)
        )
        if about and not judge((expression,))[1].startswith("unparseable"):
            offers.append(expression)
    if offers:
        return _offered_problem(tuple(offers), (box,), (AnswerType.EX,), judge, formula)
    return _restated_equation_problem(after, box, gold, own, question)


def _restated_equation_problem(
    after: str, box: str, gold: str, own: set[str], question: str | None
) -> str | None:
    """Why an equation concluded after a right EX box ("So $x/d = 1/3$.", "So $v^2 =
    2gh$.") makes it wrong, or None: written in the gold's symbols and one asked quantity's
    (the box's or gold's label, or one the question names) and otherwise only symbols the
    question writes (the mass in ``mgh = \\tfrac12 mv^2``), it must hold with the asked
    quantity set to the box at every sampled point. A symbol the question never writes
    (``\\omega`` in ``mgh = \\tfrac12 mv^2 + \\tfrac12 I\\omega^2``) makes it working, not a
    claim."""
    from studybench.verify.asking import asking_part
    from studybench.verify.normalize import question_math
    from studybench.verify.question import symbols_of
    from studybench.verify.restatement import names_asked_quantity, restated_equations
    from studybench.verify.rules import normalize_all
    from studybench.verify.rules.equation import holds_at

    known = symbols_of(gold)
    data = symbols_of(question_math(question)) if question else set()
    for lhs, rhs in restated_equations(after):
        outside = symbols_of(f"{lhs} {rhs}") - known
        asked = {n for n in outside if names_asked_quantity(n, own, question, given_counts=True)}
        if len(asked) > 1:  # "of mass $m$ … Find the speed $v$": the asking part says which
            asked &= symbols_of(question_math(asking_part(question))) if question else set()
        if len(asked) != 1 or not outside - asked <= data:
            continue  # no asked quantity, or a symbol the question never writes (working)
        (name,) = asked
        sides = normalize_all((lhs, rhs, box))
        if holds_at((sides[0], sides[1]), name, sides[2], DEFAULT_TOLERANCE) is False:
            return "restated_equation:wrong_equation"
    return None


_CHAINED_KINDS = frozenset({AnswerType.NV, AnswerType.EX})
# rows of a display or a thousands space: "\\\\", "&", "\\begin{aligned}", "1\\;500"
_ROWS = re.compile(r"\\\\|&|\\begin\s*\{|\d\\[,;: ]\d{3}(?!\d)")


def _read_beside(unit: str | None, box_unit: str | None) -> bool:
    """Whether a chain side written with ``unit`` (:func:`visibility.written_unit`) is read
    beside a numeric box written with ``box_unit``: a value written out, and a bare number
    only beside a bare box (``6000 = \\boxed{6\\,\\mathrm{kW}}`` leaves its unit unsaid)."""
    return unit is not None and (unit != "" or box_unit == "")


def _outside_labels(
    befores: tuple[str, ...], answers: tuple[str, ...], count: int
) -> tuple[str, ...] | None:
    """A tuple's last ``count`` boxes with the names written right before each (``T_C =
    \\boxed{2T_0}`` is ``T_C = 2T_0``), where every one has a name and none names itself
    inside: the names say which element is which, as inside the boxes. Else None."""
    from studybench.verify.relations import is_label

    if len(answers) < count:
        return None
    named = []
    for before, box in zip(befores[-count:], answers[-count:], strict=True):
        label = label_before(before)
        if label is None or "=" in box or not is_label(label):
            return None
        named.append(f"{label} = {box}")
    return tuple(named)


def _contradicting_side(
    sides: tuple[str, ...],
    box: str,
    gold: str,
    kind: AnswerType,
    judge: Callable[[tuple[str, ...]], tuple[bool, str, tuple[str, ...]]],
    working: bool = True,
) -> str | None:
    """Why a side of the chain the final box closes (``sides``, :func:`visibility.chain_sides`)
    makes a right final box wrong, or None: ``$x = \\frac{d}{3} = \\boxed{\\frac{2d}{3}}$`` and
    ``$T = 46\\,\\mathrm{min} = \\boxed{5.54\\times10^{3}\\,\\mathrm{s}}$`` claim the box
    equals a value it is not. A chain is correct only where every side that states the asked
    value is right (issue 32), so each side the rules read is judged as the answer would be.

    Left alone: a label (``x``, ``U(\\theta)``); a side no rule parses or whose unit is what
    differs; beside a numeric gold a side that is no value written out (a formula
    ``\\sqrt{2gh}``; working ``\\frac{12.3}{4.56}``, whose rounding is the writer's) and a
    bare number beside a box with a unit (:func:`_read_beside`); beside an expression a side
    in other symbols than the gold's (``\\frac{\\mathcal E}{R}``: working in other
    quantities)."""
    from studybench.verify.relations import is_label
    from studybench.verify.restatement import written_in
    from studybench.verify.visibility import written_unit

    box_unit = written_unit(box)
    for index, side in enumerate(sides):
        if not side or is_label(side):
            continue
        if kind is AnswerType.EX and not written_in(side, gold):
            continue
        if kind is AnswerType.NV and not _read_beside(written_unit(side), box_unit):
            # working read against the box where no value in a unit stands between them
            # ("2(300) = 600 K = 600 - 273 = \\boxed{327 °C}": the 2(300) is in kelvin)
            later = sides[index + 1 :]
            if working and all(map(_worked_or_bare, later)) and _working_contradicts(side, box):
                return "chain_side:working"
            continue
        correct, reason, _ = judge((side,))
        if not correct and not reason.startswith("unparseable") and "unit" not in reason:
            return f"chain_side:{reason}"
    return None


def _working_contradicts(side: str, box: str) -> bool:
    """Whether a chain side that is working in numbers (:func:`working_value`: "$C =
    2.0+3.0 = \\boxed{1.2\\,\\mu\\mathrm{F}}$", "$U = \\tfrac12(50)(0.10) = \\boxed{0.25}$ J")
    evaluates to another value than the box's (red team r35a): a chain claims every side
    equals the box. The working is the writer's, so it is read leniently: within 5 % of the
    box's value in the box's unit or in a common unit of its dimension ("1200 × 5.0 =
    \\boxed{6.0 kN}", "600 - 273 = \\boxed{327 °C}", "2.0 × 1.6 = \\boxed{5.1e-19 J}" in eV),
    and of
    either sign (a magnitude boxed after working that kept the sign, "\\frac{0-20}{4.0} =
    \\boxed{5.0}")."""
    from studybench.verify.normalize import last_side
    from studybench.verify.parsing import UnparseableError, parse_quantity
    from studybench.verify.rules import normalize_all
    from studybench.verify.units import common_readings, in_base_units, si_factor
    from studybench.verify.working import working_value

    worked = working_value(side)
    if worked is None:
        return False
    try:
        boxed = parse_quantity(last_side(normalize_all((box,))[0]))
    except UnparseableError:
        return False
    agrees = max(_WORKING_AGREES, _box_precision(box) * 1.01)
    targets = common_readings(boxed.value, boxed.unit)
    if any(abs(abs(worked) - abs(target)) <= agrees * abs(target) for target in targets):
        return False
    # working in a unit no table lists ("60 m/min", "3 N/cm²"): a ratio that converts units
    coherent = boxed.unit is None or si_factor(boxed.unit) == 1.0
    return not any(
        _converts(abs(worked) / abs(target), agrees, powers=not coherent)
        for target in (boxed.value, in_base_units(boxed.value, boxed.unit))
        if target
    )


# the factors between units that working may be done in (per minute, per hour, km/h, °F per
# kelvin), each as it is: none is near a small whole number, a simple fraction or its power of
# ten (×1.5, ×2, ×3, ×4, ×10 are slips; 2.54, 0.3048, 4.184, 101.325 and 2π are near 2.5, 3,
# 4, 100 and 1/6 of 1, so they are not listed: `common_readings` holds their units); a power of
# ten only beside a box in a unit with a prefix or not SI's own (working in N/cm² beside kPa)
_UNIT_FACTORS = (60.0, 3600.0, 3.6, 1.8)


def _converts(ratio: float, agrees: float, powers: bool) -> bool:
    """Whether ``ratio`` (working over box) is a unit conversion (``_UNIT_FACTORS``)."""
    if not ratio or not math.isfinite(ratio):
        return False
    for factor in _UNIT_FACTORS:
        if abs(ratio / factor - 1) <= agrees or abs(ratio * factor - 1) <= agrees:
            return True
    power = round(math.log10(ratio))
    return powers and power != 0 and abs(power) <= 12 and abs(ratio / 10.0**power - 1) <= agrees


_WORKING_AGREES = 0.05  # relative: the writer rounds the working's steps, not its result
_BARE_NUMBER = re.compile(r"^\s*[-+−]?\d+(?:\.\d+)?\s*$")


def _worked_or_bare(side: str) -> bool:
    """Whether a chain side is working in numbers or a bare number: no unit is written
    between working and the box after it ("2(300) = 600\\,\\mathrm{K} = … = \\boxed{327 °C}":
    the 2(300) is in kelvin, so it is not read against the box)."""
    from studybench.verify.working import working_value

    return bool(_BARE_NUMBER.match(side)) or working_value(side) is not None


def _box_precision(box: str) -> float:
    """Half a unit of the last digit the box's number writes, relative to it ("0.8": 1/16):
    working rounded to the box's figures agrees with it ("\\frac{3}{4} = \\boxed{0.8}")."""
    number = re.search(r"\d+(?:\.\d+)?", box)
    digits = number.group().replace(".", "").lstrip("0") if number else ""
    return 0.5 / int(digits) if digits else 0.0


def _restated_element(
    after: str,
    elements: tuple[str, ...],
    gold_boxes: tuple[str, ...],
    sequence: tuple[AnswerType, ...],
    question: str | None,
    judge: Callable[[tuple[str, ...]], tuple[bool, str, tuple[str, ...]]],
    formula: Callable[[str], bool],
) -> str | None:
    """Why a value stated again after a tuple's boxes ("So s = 1.50 m." beside (0.750 m,
    0.900 J)) makes the tuple wrong, or None: a value whose unit places it at one element,
    and whose label (if any) the question asks for or an element carries, is judged in that
    place. A value no unit places is left alone (it may be about anything)."""
    from studybench.verify.numeric import unit_place
    from studybench.verify.restatement import (
        given_in_question,
        names_asked_quantity,
        restated_expressions,
        restated_values,
        value_kind,
    )
    from studybench.verify.rules import normalize_all

    kinds = sequence if len(sequence) == len(elements) else (AnswerType.TUP,) * len(elements)
    offers: list[str] = []
    own = _own_labels(*elements, *gold_boxes)
    asked = partial(names_asked_quantity, own_labels=own, question=question)
    for label, value in restated_values(after, question, asked):
        if value_kind(value) != "value":
            continue
        if label is not None and given_in_question(label, question):
            continue  # "So R = 0.1 Ω": the data, not an element
        offered, *placed = normalize_all((value, *elements))
        if unit_place(offered, tuple(placed)) is not None:
            offers.append(value)
    for label, expression, _ in restated_expressions(after, question):
        # an expression for an element, under that element's label ("Update: $T_C = 3T_0$.")
        offer = f"{label} = {expression}"
        index = _label_place(offer, elements) if label is not None else None
        if index is not None and kinds[index] is not AnswerType.NV:
            offers.append(offer)
    if not offers:
        return None
    return _offered_problem(tuple(offers), elements, kinds, judge, formula)


def _label_place(offer: str, elements: tuple[str, ...]) -> int | None:
    """The one element whose label the offer's is (``T_C = 3T_0`` beside ``T_B = 2T_0,\
    T_C = 4T_0``: the second), or None: where no unit says which element an offer is about,
    its label does."""
    from studybench.verify.chains import gold_chain, label_key

    label = gold_chain(offer).label
    if label is None:
        return None
    places = [
        index
        for index, element in enumerate(elements)
        if (own := gold_chain(element).label) is not None and label_key(own) == label_key(label)
    ]
    return places[0] if len(places) == 1 else None


# the text of an option after a dash or colon, to the end of its line: "\\boxed{C} — 9.8 m/s²
# downward", "\\boxed{B, D}: kelvin and ampere"
_OPTION_WORDS = 8  # the most words of an option's text read after a dash
_OPTION_LETTER = re.compile(r"(?<![A-Za-z\\])[A-H](?![A-Za-z])")  # "— or C.": read as an offer
_DASHED_REMARK = re.compile(
    r"^(?:[ \t]|\$|\\\]|\\\)|\\[,;:! ])*[—–:]\s*(?P<content>[^\n()]{1,80}?)\s*\.?\s*(?:\n|$)"
)


def _remark_content_problem(
    after: str,
    box: str,
    gold: str,
    kind: AnswerType,
    judge: Callable[[tuple[str, ...]], tuple[bool, str, tuple[str, ...]]],
) -> str | None:
    """Why a remark in parentheses right after the final box (:func:`visibility.
    remark_content`) makes a right answer wrong, or None: beside a choice it is read as the
    box's own remark (``\\boxed{B}\\ (\\tfrac12)`` is ``\\boxed{B (\\tfrac12)}``, whose text
    must fit option B); beside an expression one written in the gold's symbols restates it
    (``\\boxed{\\frac{13}{2}p_0V_0}\\ (6.0\\,p_0V_0)``) and must be right as well."""
    from studybench.verify.restatement import written_in
    from studybench.verify.visibility import eliminated_options, remark_content

    content = remark_content(after)
    if content is None or eliminated_options(after) is not None:
        return None  # "(A, C and D are eliminated)": struck options, no remark on the box's
    if kind is AnswerType.MC:
        from studybench.verify.rules.choice import mc_letters

        # several options ("A, C, E (kelvin, ampere and mole)"): the remark lists their texts,
        # read as what follows the letters ("A, C, E: kelvin, …"), not as one option's text
        letters = sorted(mc_letters(box) or ())
        remarked = f"{', '.join(letters)}: {content}" if len(letters) > 1 else f"{box} ({content})"
        correct, reason, _ = judge((remarked,))
        return None if correct else f"remark:{reason}"
    if not written_in(content, gold):
        return None  # other quantities, or words: not a form of the answer
    correct, reason, _ = judge((content,))
    return None if correct or reason.startswith("unparseable") else f"remark_0:{reason}"


def _remark_problem(
    afters: tuple[str, ...],
    answers: tuple[str, ...],
    elements: tuple[str, ...],
    judge: Callable[[tuple[str, ...]], tuple[bool, str, tuple[str, ...]]],
) -> str | None:
    """Why a value in parentheses right after a compared box (:func:`visibility.remark_value`:
    "\\boxed{14.5\\,\\mathrm{m/s}}\\ (72\\,\\mathrm{km/h})") makes a right answer wrong, or
    None: where its unit measures what the box's does it restates the box in other units, so it
    must be that value as well (or the box's value rounded as written, "about 240 K" for 245 K
    to two figures). One about another
    quantity ("(250 nm)" beside an energy) is left alone."""
    from studybench.verify.normalize import last_side
    from studybench.verify.numeric import rounds_to, unit_place
    from studybench.verify.rules import normalize_all
    from studybench.verify.visibility import remark_value

    if len(afters) != len(answers) or answers[len(answers) - len(elements) :] != elements:
        return None  # the compared boxes are not the elements one to one
    for index, element in enumerate(elements):
        value = remark_value(afters[len(answers) - len(elements) + index])
        if value is None:
            continue
        offered, target = normalize_all((value, element))
        if unit_place(offered, (target,)) != 0:
            continue  # another quantity's value, or one no unit places
        placed = (*elements[:index], value, *elements[index + 1 :])
        if not judge(placed)[0] and not rounds_to(
            offered, last_side(target), loose_zeros=True, converted=True
        ):
            return f"remark_{index}:wrong_value"
    return None


def _equations_offered(offers: tuple[str, ...], box: str) -> tuple[str, ...]:
    """The offers beside an equation, as equations. The scans read a value without its label
    ("or maybe x = L/\\sqrt{3}" offers ``L/\\sqrt{3}``) or with an approximate one ("i.e. x
    \\approx 0.289L"): where the box's left side is that label, the value is judged against
    the box's right side as an expression (0.289L restates L/(2\\sqrt3)) and offered as ``x =
    value`` where it differs; beside another left side (``\\cos\\theta_0 = …, i.e. \\theta_0 =
    \\arccos…``) such a value states no equation and is left alone."""
    from studybench.verify.relations import is_label

    left, _, right = box.partition("=")
    left, right = left.strip(), right.strip()
    found = []
    for offer in offers:
        named = _APPROXIMATE.split(offer, maxsplit=1)
        if len(named) == 2 and left and named[0].strip() == left:
            offer = named[1].strip()  # "x \\approx 0.289L": the value of the box's label
        elif not offer or "=" in offer or _RELATION.search(offer):
            found.append(offer)
            continue
        if not (left and right and is_label(left)):
            continue
        same = judge_inline(f"\\boxed{{{offer}}}", f"\\boxed{{{right}}}", "EX").correct
        if not same:
            found.append(f"{left} = {offer}")
    return tuple(found)


# An equation stated again right after an equation's box: in parentheses, or after "i.e.",
# "that is", "equivalently", "so", "hence", "namely" (and the math it stands in)
_EQUATION_CUE = re.compile(
    r"^(?:[\s,;.:]|\\[ ,;:!]|~|\\q?quad(?![a-zA-Z])|\$|\*)*"
    r"(?:\\left\s*\(|\(|(?:i\.\s*e\.|(?:that\s+is|equivalently|so|hence|thus|namely)\b)[,:]?)"
    r"(?:[\s,;:]|\\[ ,;:!]|~|\$)*(?P<rest>[^\n]{1,200})",
    re.IGNORECASE,
)
# where the restated equation ends: the math's end, the remark's close, a clause
_EQUATION_END = re.compile(
    r"\$|\\right\s*\)|\\\]|\\\)|,\s*\\(?:text|quad)|\\text\s*\{\s*(?:for|if|with|where)\b"
    r"|\s(?:for|if|with|where)\s|[.;](?:\s|$)"
)


def _restated_equation(
    after: str,
    box: str,
    gold: str,
    judge: Callable[[tuple[str, ...]], tuple[bool, str, tuple[str, ...]]],
) -> str | None:
    """Why an equation stated again right after an equation's box makes it wrong, or None:
    "\\boxed{h_{\\min} = \\frac{27}{10}R}, so $10h_{\\min} = 17R$", "Equivalently, $\\omega^2R
    \\cos\\theta_0 = 2g$", "(\\theta_0 = \\arccos\\frac{2g}{\\omega^2R})" claim a second
    equation for the asked one, which must hold as well. Judged where it is written in the
    gold's symbols (an instance in numbers, "h = 2.7 m for R = 10 m", or in other quantities
    is another claim); a label's approximate value ("i.e. x \\approx 0.289L") is compared with
    the box's right side (:func:`_equations_offered`)."""
    from studybench.verify.restatement import written_in

    cue = _EQUATION_CUE.match(unwrapped(after[:_EQUATION_SCOPE]))
    if cue is None:
        return None
    rest = cue.group("rest")
    end = _EQUATION_END.search(rest)
    stated = (rest[: end.start()] if end is not None else rest).strip().rstrip(",")
    if not (stated.count("=") == 1 or _APPROXIMATE.search(stated)) or "\\boxed" in stated:
        return None
    for equation in _equations_offered((stated,), box):
        if not equation or not written_in(equation, gold):
            continue
        correct, reason, _ = judge((equation,))
        if not correct and not reason.startswith("unparseable"):
            return f"restated:{reason}"
    return None


_EQUATION_SCOPE = 240  # characters after the box read for a restated equation


_APPROXIMATE = re.compile(r"\\approx(?![a-zA-Z])|≈|\\simeq(?![a-zA-Z])|≃|\\sim(?![a-zA-Z])|∼")
_RELATION = re.compile(r"=|<|>|\\[lg]eq?(?![a-zA-Z])|≤|≥")  # what makes an equation or bound
_PLAIN_NUMBER = re.compile(r"^[-+−]?\d+(?:\.\d+)?$")  # a dimensionless value, as normalised


def _offered_problem(
    offers: tuple[str, ...],
    elements: tuple[str, ...],
    kinds: tuple[AnswerType, ...],
    judge: Callable[[tuple[str, ...]], tuple[bool, str, tuple[str, ...]]],
    formula: Callable[[str], bool],
    question: str | None = None,
) -> str | None:
    """Why values offered in prose beside a right final answer ("\\boxed{a} or maybe 29 m/s")
    make the answer wrong, or None. Like hedged boxes they are claims about an asked value,
    so each must be right on its own ("or roughly 52 km/h" beside 14.5 m/s is) or be the
    box's number rounded ("or, to two figures, 15 m/s"); more than a few are a list of
    guesses, a hedge.

    ``elements`` are the answer's selected elements (one per asked value) and ``kinds`` their
    answer types. Beside several asked values (a tuple, several parts, alternatives) an offer
    must be right in the place of one of them: "the energy could also be written as 900 mJ"
    beside (0.750 m, 0.900 J) restates the second."""
    if len(offers) > MAX_OFFERS or not all(offer.strip() for offer in offers):
        return "hedged:unboxed"
    from studybench.verify.normalize import last_side
    from studybench.verify.numeric import rounds_to, unit_place
    from studybench.verify.rules import normalize_all

    def right_in_place(offer: str, index: int) -> bool:
        placed = (*elements[:index], offer, *elements[index + 1 :])
        if judge(placed)[0]:
            return True
        if kinds[index] is not AnswerType.NV:
            return False
        written, value = normalize_all((offer, elements[index]))
        return rounds_to(written, last_side(value))

    def place(offer: str) -> int | None:
        if len(elements) == 1:
            return 0
        offered, *normalized = normalize_all((offer, *elements))
        found = unit_place(offered, tuple(normalized))
        return found if found is not None else _label_place(offer, elements)

    from studybench.verify.units import parse_unit

    choices = any(kind in (AnswerType.MC, AnswerType.TF) for kind in kinds)
    formulas = 0  # one symbolic formula beside the number, as for hedged boxes
    for offer in offers:
        if not choices and len(offer) == 1 and offer.isalpha() and parse_unit(offer):
            continue  # "\\boxed{2.0}\\quad\\mathrm{A}": beside a value a letter is its unit
        signs: tuple[str, ...] = (offer,)
        if offer.startswith(MAGNITUDE):  # "i.e. 30 cm to the left": the sign is in the words
            _, side, offer = offer.split(MAGNITUDE, 2)
            # where the question fixes the sign of that side, the value has it ("i.e. 300 m/s²
            # westward" where east is positive is -300); else either sign
            signed = sign_of_direction(side, question)
            signs = (
                (offer, "-" + offer)
                if signed is None
                else ((offer,) if signed > 0 else ("-" + offer,))
            )
        index = place(offer)
        if index is not None and any(right_in_place(o, index) for o in signs):
            continue
        if len(elements) == 1 and formulas == 0 and formula(offer):
            formulas += 1
            continue
        return "hedged:unboxed"
    return None


# types whose boxes may be bare numbers with the unit written after the box
_UNIT_AFTER_TYPES = frozenset({AnswerType.NV, AnswerType.TUP, AnswerType.ALT})
_MAX_HEDGED = 3  # boxes hedged onto one asked value that are judged one by one


def _hedge_problem(
    answers: tuple[str, ...],
    hedges: tuple[bool, ...],
    kind: AnswerType,
    count: int,
    sequence: tuple[AnswerType, ...],
    judge: Callable[[tuple[str, ...]], tuple[bool, str, tuple[str, ...]]],
    formula: Callable[[str], bool],
) -> str | None:
    """Why boxes joined by a hedge word ("\\boxed{a} or \\boxed{b}") make a right last
    answer wrong, or None. The protocol pays the last box (the last ``k``); a hedge offers
    the earlier box as the same answer, so the last-box rule would pay a guess:

    * one value asked (an atomic type, one gold box): every box hedged onto the last one must
      be right on its own (``0.5`` or ``\\frac12`` is fine), or be the symbolic formula of
      a numeric answer (``formula``: ``v = \\sqrt{2gh}`` or, numerically, ``6.26\\,m/s``);
    * several values (TUP, ALT, several gold boxes): a hedged box before the compared ones is
      an extra guess, and a TUP's elements are no alternatives."""
    chosen = select_answers(answers, kind, count, sequence)
    whole = select_answers(answers[-1:], kind, count, sequence)
    used = 1 if chosen == whole else min(count, len(answers))
    before = hedges[: len(answers) - used]  # gaps[i] joins box i and box i + 1
    if kind is not AnswerType.TUP and kind is not AnswerType.ALT and count == 1:
        run = 0
        while run < len(before) and before[len(before) - 1 - run]:
            run += 1
        if run > _MAX_HEDGED:
            return "hedged:extra_guess"  # a list of guesses, not each judged (time bound)
        formulas = 0  # one symbolic formula beside the number; more are guessed formulas
        for index in range(len(before) - run, len(before)):
            correct, reason, _ = judge((answers[index],))
            if correct:
                continue
            if formulas == 0 and formula(answers[index]):
                formulas += 1
                continue
            return f"hedged:{reason}"
        return None
    if before and before[-1]:
        return "hedged:extra_guess"
    if kind is AnswerType.TUP and any(hedges[len(answers) - used :]):
        return "hedged:element"
    return None


_WORDS = re.compile(r"[A-Za-z]{2,}")
_MATH_TYPES = frozenset({AnswerType.NV, AnswerType.EX, AnswerType.EQ, AnswerType.IN})
_SYMBOLIC_TYPES = frozenset({AnswerType.EX, AnswerType.EQ})


def _without_remarks(
    boxes: tuple[str, ...],
    kind: AnswerType,
    sequence: tuple[AnswerType, ...],
    gold: bool = False,
    allowed: frozenset[str] = frozenset(),
) -> tuple[str, ...]:
    """Drop trailing text remarks from boxes of mathematical types (by position for TUP)."""
    positional = kind is AnswerType.TUP or (kind is AnswerType.ALT and gold)
    if positional and len(sequence) == len(boxes):
        kinds = sequence
    elif kind is AnswerType.ALT and len(set(sequence)) == 1:
        kinds = tuple(sequence[0] for _ in boxes)
    elif kind is AnswerType.ALT and sequence and set(sequence) <= _SYMBOLIC_TYPES:
        kinds = tuple(AnswerType.EX for _ in boxes)  # EX and EQ forms: units marked alike
    elif kind in (AnswerType.TUP, AnswerType.ALT):
        # an element of unknown position: remarks go, units stay (NV reads them)
        math = bool(sequence) and all(k in _MATH_TYPES for k in sequence)
        kinds = tuple(AnswerType.NV if math else AnswerType.QL for _ in boxes)
    else:
        kinds = tuple(kind for _ in boxes)
    if kind in (AnswerType.TUP, AnswerType.ALT) and not gold:
        boxes = tuple(_elements_without_remarks(box, allowed) for box in boxes)
    return tuple(
        _clean(box, k, strict=not gold, allowed=allowed)
        for box, k in zip(boxes, kinds, strict=True)
    )


def _elements_without_remarks(box: str, allowed: frozenset[str]) -> str:
    """A box of several elements with a remark after each (``t = 1.0\\,s\\ (\\text{up}),\\ t =
    3.0\\,s\\ (\\text{down})``): each element's remark dropped as a last one is."""
    pieces = split_top_level(box, ",")
    if len(pieces) < 2:
        return box
    return ", ".join(strip_remark(piece.strip(), True, allowed) for piece in pieces)


# Digits grouped in threes by a thin space, a space or ``{,}`` (SI: ``5\,540``, ``1\,000\,000``,
# ``1{,}500``) are one number; read apart they were a product (``5\,540\,s`` was 2700 s).
_GROUP_GAP = r"(?:\\[,;: ]|\\thinspace(?![a-zA-Z])|~|\{,\}|\s)\s*"
_DIGIT_GROUPS = re.compile(
    rf"(?<![\w.^_{{}}\\])(\d{{1,3}}(?:{_GROUP_GAP}\d{{3}})+(?:\.\d+)?"
    rf"|\d+\.\d{{3}}(?:{_GROUP_GAP}\d{{3}})+)(?![\d.])"
)
_GAP = re.compile(_GROUP_GAP)


# A decimal comma written as LaTeX asks for it, ``{,}`` (no space after it), where it cannot
# group thousands: after a lone 0 (``0{,}154``) or before other than three digits (``14{,}5``,
# ``3{,}14159``). Read before the groups are joined.
_DECIMAL_COMMA = re.compile(
    r"(?<![\w.^_{}\\])(0|\d+(?=\{,\}(?:\d{1,2}|\d{4,})(?![\d.]|\{,\})))\{,\}(\d+)(?![\d.]|\{,\})"
)

# A plain comma as a decimal comma, in one value (NV) only, where lists use commas elsewhere:
# ``7,52 \\times 10^{-10}``, ``0,816\\ \\text{m}``, ``14,5`` (three digits after it group
# thousands, ``1,000``; a space after it separates values).
# the model's own tick at the start or end of a box ("3.98\\times10^{-19}\\ J\\ \\checkmark",
# "✓ 2.0 A"): a check it made, not part of the answer (red team r24b); a cross is no tick
_TICK_SPACE = r"(?:\\[,;: ]|\\q?quad(?![A-Za-z])|~|\s)*"
_OWN_TICK = re.compile(
    rf"{_TICK_SPACE}(?:\\checkmark(?![A-Za-z])|[✓✔]\ufe0f?){_TICK_SPACE}$"
    rf"|^{_TICK_SPACE}(?:\\checkmark(?![A-Za-z])|[✓✔]\ufe0f?){_TICK_SPACE}(?=\S)"
)
_PLAIN_DECIMAL_COMMA = re.compile(
    r"(?<![\w.^_{}\\,])(0|\d+(?=,(?:\d{1,2}|\d{4,})(?![\d.,])))\,(\d+)(?![\d.,])"
)


def join_digit_groups(box: str) -> str:
    """``5\\,540\\ \\text{s}`` -> ``5540\\ \\text{s}``; groups of exactly three digits only.
    A decimal comma becomes a point: ``14{,}5`` -> ``14.5``."""
    return _DIGIT_GROUPS.sub(lambda m: _GAP.sub("", m.group(1)), _DECIMAL_COMMA.sub(r"\1.\2", box))


# A unit written as a fraction of unit texts: \frac{\text{m}}{\text{s}^2} is the unit m/s^2 (a
# fraction of bare letters, \frac{m}{s}, stays an expression in symbols).
_TEXT_PIECE = r"\\(?:text|mathrm|rm|textrm)\s*\{(?P<%s>[^{}]*)\}(?P<%s>\s*\^\s*\{?\s*-?\d\s*\}?)?"
_UNIT_FRACTION = re.compile(
    r"\\[dt]?frac\s*\{\s*"
    + _TEXT_PIECE % ("num", "num_power")
    + r"\s*\}\s*\{\s*"
    + _TEXT_PIECE % ("den", "den_power")
    + r"\s*\}"
)


def _unit_fraction(match: re.Match[str]) -> str:
    num = match.group("num").strip() + (match.group("num_power") or "")
    den = match.group("den").strip() + (match.group("den_power") or "")
    return rf"\text{{{num}/({den})}}"


def _box_kinds(
    kind: AnswerType, sequence: tuple[AnswerType, ...], count: int
) -> tuple[AnswerType, ...]:
    """The answer type of each gold box: a TUP's by position, else the answer's own (an
    ALT's alternatives have no positions, so only a single one is compared)."""
    if kind is AnswerType.TUP:
        return sequence if len(sequence) == count else ()
    if kind is AnswerType.ALT:
        return (sequence[0],) if count == 1 and len(set(sequence)) == 1 else ()
    return (kind,) * count


def _contradicting_remark(
    preds: tuple[str, ...], golds: tuple[str, ...], kinds: tuple[AnswerType, ...]
) -> str | None:
    """Why a predicted remark claims what the gold's does not (``3.2 m/s to the right`` for
    ``to the left``, ``into the page`` for ``out of the page``: ``wrong_direction``; ``at the
    top`` for ``at the bottom``, ``lens 1`` for ``lens 2``: ``wrong_remark``), or None. Both
    remarks are dropped before the values are compared, so what they claim is compared here,
    box by box (a tuple's elements by position, named ``element_k:``). Where the gold's box
    claims nothing, nothing can be checked."""
    if not len(preds) == len(golds) == len(kinds):
        return None
    for index, (pred, gold, box_kind) in enumerate(zip(preds, golds, kinds, strict=True)):
        if box_kind not in _MATH_TYPES:
            continue  # a phrase's words are its answer, judged as such
        claimed = remark_claims(gold)
        extra = remark_claims(pred) - claimed
        if claimed and extra:
            reason = "wrong_direction" if extra <= DIRECTION_NAMES else "wrong_remark"
            return f"element_{index}:{reason}" if len(golds) > 1 else reason
    return None


def _clean(
    box: str, kind: AnswerType, strict: bool = True, allowed: frozenset[str] = frozenset()
) -> str:
    """A box of a mathematical type without its remark; ``strict``: a prediction's, whose
    remark may hold only describing words and the gold's own words (``allowed``)."""
    if kind not in _MATH_TYPES:
        return box
    box = _UNIT_FRACTION.sub(_unit_fraction, join_digit_groups(expand_siunitx(box)))
    box = strip_remark(box, strict, allowed)
    if kind not in (AnswerType.EX, AnswerType.EQ):
        return box
    if strict and kind is AnswerType.EX:  # an equation's second relation is a claim
        box = without_condition(box)  # "…, 0 \le x \le L": where it holds, no value
    return mark_unit_annotations(unit_out_of_fraction(box))


def warm_up() -> None:
    """Load the unit registry and both LaTeX parsers so the first real verdict is fast."""
    for pred, gold, kind in (
        (r"\boxed{1.5\,\mathrm{m/s}}", r"\boxed{150\,\mathrm{cm/s}}", "NV"),
        (r"\boxed{\frac{m g}{k}}", r"\boxed{\frac{g m}{k}}", "EX"),
        (r"\boxed{y = 2x}", r"\boxed{2x = y}", "EQ"),
        (r"\boxed{[0, \infty)}", r"\boxed{[0, \infty)}", "IN"),
        (r"\boxed{\sin\theta + \sqrt{x}}", r"\boxed{\sqrt{x} + \sin\theta}", "EX"),
        # latex2sympy2_extended (ANTLR), the fallback parser: its import and first parse
        # (0.3-0.6 s) belong to the worker's start, not to the first comparison that needs it
        (r"\boxed{\sum_{n=1}^{3} n}", r"\boxed{6}", "EX"),
    ):
        judge_inline(pred, gold, kind)


# What a comparison typically costs in ms, by what a glance at its text shows (measured on
# the held-out runs: a sum, product or integral ~80, an EQ ~20, an EX ~9, anything else ~1).
_SERIES = re.compile(r"\\(?:sum|prod|int)(?![a-zA-Z])")
SERIES_COST = 80.0
_TYPE_COST = {"EQ": 20.0, "EX": 9.0}


def _expected_cost(item: VerifyItem) -> float:
    """A rough estimate of how long ``item`` will take; :meth:`Verifier.verify_many` sends
    the costly ones first so that the workers finish together (longest first), instead of
    one worker meeting a 0.3 s comparison at the end while the others have nothing left."""
    series = SERIES_COST if _SERIES.search(item.pred) or _SERIES.search(item.gold) else 0.0
    kinds = [item.answer_type.strip().upper(), *item.type_sequence.upper().split(",")]
    return series + max(_TYPE_COST.get(kind.strip(), 1.0) for kind in kinds)


# A worker more is started for a batch only where each would get at least this much estimated
# work (ms): a worker's start (an interpreter, sympy, the LaTeX parsers) costs about 1 s of CPU,
# which a smaller share does not repay; a judge unit of 30 answers (~0.3 s) or a reward batch
# runs on the workers already started, at least one.
WORK_PER_NEW_WORKER_MS = 2000.0


def _threads_for(costs: list[float], workers: int, started: int) -> int:
    """How many workers a batch of estimated ``costs`` runs on: all those already started,
    and more (up to ``workers``) only while each gets ``WORK_PER_NEW_WORKER_MS``."""
    worth = int(sum(costs) // WORK_PER_NEW_WORKER_MS)
    return max(1, min(workers, max(started, worth)))


def _lanes(costs: list[float], workers: int) -> list[int]:
    """A lane (worker) per comparison, ``costs`` in dispatch order: every series in lane 0,
    so sympy's summation tables and the ANTLR parser's series states (0.3-0.5 s per worker
    that meets one) are built once, the rest spread so each lane's estimated time is even."""
    totals = [0.0] * max(1, workers)
    lanes = []
    for cost in costs:
        lane = 0 if cost >= SERIES_COST else min(range(len(totals)), key=totals.__getitem__)
        totals[lane] += cost
        lanes.append(lane)
    return lanes


def _failure_verdict(kind: str, task: Task, seconds: float) -> Verdict:
    """A timed-out or crashed comparison, with the time it really took."""
    reason = "timeout" if kind == "timeout" else "crashed"
    return Verdict(correct=False, reason=reason, elapsed_ms=seconds * 1000)


class Verifier:
    """A verifier with its own worker processes; use as a context manager or ``close()``.

    Args:
        workers: processes (default: the CPUs this process may use).
        tolerance: relative tolerance of numeric answers (params ``judge.tolerance``).
        timeout_s: hard limit per comparison (params ``judge.rule_timeout_s``).
        strip_think: drop ``<think>`` blocks before extracting (params
            ``protocol.strip_think_before_judging``).
    """

    def __init__(
        self,
        *,
        workers: int | None = None,
        tolerance: float = DEFAULT_TOLERANCE,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        strip_think: bool = True,
        memory_limit_mb: int | None = 4096,
    ) -> None:
        self.tolerance = tolerance
        self.strip_think = strip_think
        self._pool = ProcessPool(
            workers or default_workers(), timeout_s, _failure_verdict, memory_limit_mb
        )

    @property
    def workers_started(self) -> int:
        """Workers running or starting: at most ``workers``, fewer while batches are small."""
        return self._pool.started

    @property
    def restarts(self) -> int:
        """Workers replaced after a timeout or crash."""
        return self._pool.restarts

    def _task(self, item: VerifyItem) -> Task:
        tolerance = item.tolerance if item.tolerance is not None else self.tolerance
        return (
            item.pred,
            item.gold,
            item.answer_type,
            item.type_sequence,
            tolerance,
            self.strip_think,
            item.question,
        )

    @staticmethod
    def _result(raw: Any) -> Verdict:
        if isinstance(raw, Verdict):
            return raw
        return Verdict(
            correct=False, reason=f"error:{raw[1]}" if isinstance(raw, tuple) else "error"
        )

    def verify(
        self,
        pred: str,
        gold: str,
        answer_type: str,
        type_sequence: str = "",
        *,
        tolerance: float | None = None,
        question: str | None = None,
    ) -> Verdict:
        item = VerifyItem(
            pred=pred,
            gold=gold,
            answer_type=answer_type,
            type_sequence=type_sequence,
            tolerance=tolerance,
            question=question,
        )
        return self._result(self._pool.run(self._task(item)))

    def verify_many(
        self,
        items: Iterable[VerifyItem | Mapping[str, Any]],
        *,
        on_result: Callable[[Verdict], None] | None = None,
    ) -> list[Verdict]:
        """Verify concurrently; verdicts come back in input order. A small batch runs on the
        workers already started (at least one) rather than starting all of them
        (``WORK_PER_NEW_WORKER_MS``); :meth:`start` starts them ahead where that is wanted."""
        parsed = [i if isinstance(i, VerifyItem) else VerifyItem.model_validate(i) for i in items]
        callback = None if on_result is None else (lambda raw: on_result(self._result(raw)))
        costs = [_expected_cost(item) for item in parsed]
        order = sorted(range(len(parsed)), key=lambda i: -costs[i])
        threads = _threads_for(costs, self._pool.workers, self._pool.started)
        if threads > self._pool.started:
            # the batch repays more workers: start them now, in the background, so their
            # start overlaps the first comparisons (on demand, a batch could end on the first
            # worker before another thread asked for one)
            self._pool.start(threads)
        lanes = _lanes([costs[i] for i in order], threads)
        tasks = [self._task(parsed[i]) for i in order]
        raw = self._pool.map(tasks, callback, lanes, threads=threads)
        verdicts: list[Verdict] = [Verdict(correct=False, reason="error")] * len(parsed)
        for index, result in zip(order, raw, strict=True):
            verdicts[index] = self._result(result)
        return verdicts

    def start(self, count: int | None = None) -> None:
        """Start up to ``count`` workers now, in the background, so their ~1 s start overlaps
        the caller's own preparation (reading a case file) instead of its first comparison."""
        self._pool.start(count)

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> Verifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# (workers, tolerance, timeout per pair, strip think) -> this process's verifier of them
_shared: dict[tuple[int | None, float, float, bool], Verifier] = {}
_shared_lock = threading.Lock()


def shared_verifier(
    *,
    workers: int | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    strip_think: bool = True,
) -> Verifier:
    """The process's verifier for these settings: started on first use, closed at exit.

    Why one per process and not one per batch: a verifier starts its own worker interpreters
    (sympy, the LaTeX parsers, pint: about 1 s of CPU each), and a process judges many
    batches one after another (an evaluation's judge units under ``dag.test()``, the CLI's
    splits, a trainer's reward calls); a verifier per judge unit started 12 workers to judge
    the six units of one checkpoint on two CPUs. Workers hold no state that a verdict depends
    on, so the verdicts are those of a fresh verifier."""
    key = (workers, tolerance, timeout_s, strip_think)
    with _shared_lock:
        verifier = _shared.get(key)
        if verifier is None:
            verifier = Verifier(
                workers=workers, tolerance=tolerance, timeout_s=timeout_s, strip_think=strip_think
            )
            _shared[key] = verifier
            atexit.register(_close_in_owner, verifier, os.getpid())
        return verifier


def default_verifier() -> Verifier:
    """The process-wide verifier behind :func:`verify` and :func:`reward` (lazy)."""
    return shared_verifier(workers=min(4, default_workers()))


def _close_in_owner(verifier: Verifier, owner: int) -> None:
    """Close a shared verifier at exit, only in the process that started its workers."""
    if os.getpid() == owner:
        verifier.close()


def _forget_shared_after_fork() -> None:
    """A forked child (multiprocessing's fork context, a DataLoader worker, mutmut's
    mutant runs, the DAG tests' pre-imported parent) starts its own workers on demand
    instead of using its parent's through the pipes it inherited: two processes on one pipe
    garble each other's messages, and a worker the child killed on a timeout is reaped by
    the parent, which owns it."""
    global _shared, _shared_lock
    _shared = {}
    _shared_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_shared_after_fork)


def verify(
    pred: str,
    gold: str,
    answer_type: str,
    type_sequence: str = "",
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    question: str | None = None,
) -> Verdict:
    """Is the final answer in ``pred`` equal to ``gold``? Bounded in time, safe in threads.

    Pass the ``question`` text where it is known: it names the unit of a unitless gold.
    """
    return default_verifier().verify(
        pred, gold, answer_type, type_sequence, tolerance=tolerance, question=question
    )


def verify_many(
    items: Iterable[VerifyItem | Mapping[str, Any]],
    *,
    workers: int | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    on_result: Callable[[Verdict], None] | None = None,
) -> list[Verdict]:
    """Verify a batch on ``workers`` processes (default: all CPUs)."""
    with Verifier(workers=workers, tolerance=tolerance, timeout_s=timeout_s) as verifier:
        return verifier.verify_many(items, on_result=on_result)


def reward(
    pred: str,
    gold: str,
    answer_type: str,
    type_sequence: str = "",
    *,
    question: str | None = None,
) -> float:
    """1.0 for a verified-correct answer, else 0.0: the RL reward (never the LLM judge)."""
    verdict = verify(pred, gold, answer_type, type_sequence, question=question)
    return 1.0 if verdict.correct else 0.0
