"""The only code that talks to MLflow: stores, run layout, provenance, comparisons.

Nothing else in studybench imports mlflow; everything here imports it lazily, so the package
stays fast to import.
"""
