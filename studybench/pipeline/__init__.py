"""Composing one evaluation from the parts: generate, judge, score, report."""
