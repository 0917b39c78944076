"""Benchmark construction: rebuilding StudyBench's splits with another filter model or books.

One module per step (each a DVC stage in ``data/build/dvc.yaml`` and a ``studybench build``
command): :mod:`pools` (release-format input records), :mod:`capability` (the filter model
asked like an evaluation), :mod:`subsample` (the Application Set by sub-discipline),
:mod:`admission` (the Transfer Set through the guidance pipeline's admission),
:mod:`training` (the three training layers, corpus redacted and audited), :mod:`funnel`
(the report), and :mod:`stages` (the steps wired to the settings and files).
"""
