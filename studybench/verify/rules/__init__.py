"""The per-type judgers: does one predicted answer equal one gold answer?

Each judger takes two *normalised* box contents and returns an
:class:`~studybench.verify.rules.outcome.Outcome` whose ``reason`` names the rule that decided
(``numeric``, ``unit_converted``, ``symbolic``, ...) or why it failed (``wrong_value``,
``unit_mismatch``, ``unparseable``, ...). One module per answer type:

- :mod:`~studybench.verify.rules.outcome`: the verdict and the shared reasons;
- :mod:`~studybench.verify.rules.matching`: one-to-one matching of value lists;
- :mod:`~studybench.verify.rules.numeric_value`: NV;
- :mod:`~studybench.verify.rules.expression`: EX (and the parsing the EQ judger shares);
- :mod:`~studybench.verify.rules.equation`: EQ;
- :mod:`~studybench.verify.rules.interval`: IN;
- :mod:`~studybench.verify.rules.choice`: MC, TF, QL;
- :mod:`~studybench.verify.rules.combine`: the dispatcher :func:`judge_answers`, which applies
  the answer type's selection rules (last box, TUP positions, ALT candidates) on top.

Imports point down that list, so there is no cycle. Everything here is pure and runs inside
the verifier's worker processes.
"""

from __future__ import annotations

from studybench.verify.rules.combine import judge_answers, judge_atom, normalize_all
from studybench.verify.rules.outcome import Outcome

__all__ = ["Outcome", "judge_answers", "judge_atom", "normalize_all"]
