"""Board geometries: the square grid and Blokus Trigon's triangle grid (docs/geometry.md)."""
