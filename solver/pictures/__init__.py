"""Pictures of positions and layouts: :mod:`.picture` (a position as shapes: squares,
piece outlines, coordinates), :mod:`.svg` (SVG 1.1 text) and :mod:`.png` (PNG with Pillow)."""
