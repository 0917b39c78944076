"""The textbook corpus: OCR cleanup, redaction of test items, leak audit, fragments.

DVC stages call these through the ``studybench corpus`` commands.
"""
