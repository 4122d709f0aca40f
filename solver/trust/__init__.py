"""Answers read back from disk: which count as proofs, the claims of a solution file,
cube-and-conquer joins, results rows."""
