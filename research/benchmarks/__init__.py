"""Measurements of the research code; run each from the project root as
``python -m research.benchmarks.NAME`` (there ``import research`` and ``import solver``
both work)."""
