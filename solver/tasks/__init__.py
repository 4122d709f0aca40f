"""Tasks: what a command asks of the engines (solve and check, endgame checks, hints,
ratings, reviews, the solo companion, card making)."""
