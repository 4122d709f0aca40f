"""The game core: pieces, board geometry, variants, positions, the rules, placements,
symmetries, the independent rule checker and what a puzzle asks."""
