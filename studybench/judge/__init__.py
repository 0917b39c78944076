"""The two-stage judge: the rule verifier first, an auditable LLM judge for what it rejects."""
