"""Symmetric assignments of shared starting points (Blokus Trigon, issue 43): the
``symmetric`` backend's name for :func:`solver.core.shared_starts.symmetric_starts` (the
steps S1-S3 there), which the fundamental-domain search uses too."""

from __future__ import annotations

from solver.core.shared_starts import SymmetricStart, symmetric_starts

__all__ = ["SymmetricStart", "symmetric_starts"]
