"""EvaLearn: loader, prompts, judge, metrics, end to end."""
