"""The textbook-grounded guidance pipeline: the reachability witness of the Transfer Set.

Five teacher-driven stages turn each competition sub-problem into methodological guidance
that names what to use without giving the answer (format doc, section 10):

1. :mod:`~studybench.guidance.decompose`: knowledge points per sub-problem (teacher, JSON).
2. :mod:`~studybench.guidance.canonical`: near-duplicate names merged across the corpus.
3. :mod:`~studybench.guidance.retrieve`: BM25 + dense retrieval over textbook fragments,
   fused by reciprocal rank fusion.
4. :mod:`~studybench.guidance.verify`: the teacher scores coverage and quotes evidence; the
   quote is checked against the fragment deterministically.
5. :mod:`~studybench.guidance.guide`: the guidance text, behind a leakage gate
   (:mod:`~studybench.guidance.leakage` rules plus a teacher review).

:mod:`~studybench.guidance.admit` then asks the filter model with the guidance and admits
the problems it solves at least once. Every teacher call goes through
:class:`~studybench.guidance.teacher.Teacher`, whose reply cache makes every stage resumable
and a re-run free. Heavy libraries (bm25s, sentence-transformers, torch) are imported inside
functions, so importing this package stays cheap.
"""
