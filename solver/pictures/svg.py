"""SVG pictures of positions, in the spirit of python-chess's ``chess.svg.board``.

>>> from solver.core.position import Position
>>> from solver.core.variants import VARIANTS
>>> board(Position.empty(VARIANTS["duo"]), size=300)[:40]
'<svg xmlns="http://www.w3.org/2000/svg" '

The text is SVG 1.1 (it opens in any browser) and deterministic: the same position and
options give the same bytes. Elements carry classes a style sheet or a test can select:
``square <colour>`` (one ``rect`` per covered square), ``piece <colour>`` (one ``path``
per piece: its outline), ``blocked``, ``start <colour>``, ``grid``, ``frame``, ``last``
(the highlight of the last piece), ``coordinate`` and ``number`` (``text``). On a board
that is not square (Trigon) every cell is a ``polygon``: ``cell <colour>`` covered,
``cell`` empty, ``blocked``; a shared starting point is a ``circle`` of class ``start``.
"""

from __future__ import annotations

from typing import Unpack
from xml.sax.saxutils import escape, quoteattr

from solver.core.position import Position
from solver.pictures.picture import (
    Circle,
    Label,
    Lines,
    Outline,
    PictureOptions,
    Polygon,
    Rect,
    Scene,
    Shape,
    scene,
)

UNIT = 20  # user units per square in the viewBox
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
BASELINE = 0.36  # a label's baseline below its centre, in font sizes (digits and letters)


def board(position: Position, **options: Unpack[PictureOptions]) -> str:
    """The picture of a position as SVG text.

    Args:
        position: the position to draw.
        **options: ``size`` (width in pixels), ``coordinates``, ``numbers``, ``order``,
            ``last``, ``new``, ``start_squares``, ``colours``: see
            :func:`solver.pictures.picture.scene`.

    Raises:
        ValueError: a bad option (see :func:`solver.pictures.picture.scene`).
    """
    return to_svg(scene(position, **options))


def to_svg(picture: Scene) -> str:
    """A scene as SVG 1.1 text (one element per line, a final newline)."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{picture.pixels}" '
        f'height="{picture.pixel_height}" viewBox="0 0 {_n(picture.width)} '
        f'{_n(picture.height)}" font-family={quoteattr(FONT)}>'
    )
    return "\n".join([head, *(_element(s) for s in picture.shapes), "</svg>"]) + "\n"


def _element(shape: Shape) -> str:
    if isinstance(shape, Rect):
        paint = f'fill="{shape.fill}"' if shape.fill else 'fill="none"'
        if shape.stroke:
            paint += f' stroke="{shape.stroke}" stroke-width="{_n(shape.width)}"'
        return (
            f'<rect class="{_class(shape.kind, shape.colour)}" x="{_n(shape.x)}" '
            f'y="{_n(shape.y)}" width="{_n(shape.w)}" height="{_n(shape.h)}" {paint}/>'
        )
    if isinstance(shape, Polygon):
        points = " ".join(_xy(p) for p in shape.points)
        return (
            f'<polygon class="{_class(shape.kind, shape.colour)}" points="{points}" '
            f'fill="{shape.fill}"/>'
        )
    if isinstance(shape, Lines):
        d = " ".join(f"M{_xy(a)}L{_xy(b)}" for a, b in shape.segments)
        return (
            f'<path class="{shape.kind}" d="{d}" fill="none" stroke="{shape.stroke}" '
            f'stroke-width="{_n(shape.width)}" stroke-opacity="{shape.opacity}"/>'
        )
    if isinstance(shape, Outline):
        d = "M" + "L".join(_xy(p) for p in shape.points) + "Z"
        return (
            f'<path class="{_class(shape.kind, shape.colour)}" d="{d}" fill="none" '
            f'stroke="{shape.stroke}" stroke-width="{_n(shape.width)}" stroke-linejoin="round"/>'
        )
    if isinstance(shape, Circle):
        return (
            f'<circle class="{_class(shape.kind, shape.colour)}" cx="{_n(shape.cx)}" '
            f'cy="{_n(shape.cy)}" r="{_n(shape.r)}" fill="{shape.fill}"/>'
        )
    if isinstance(shape, Label):
        return (
            f'<text class="{shape.kind}" x="{_n(shape.x)}" '
            f'y="{_n(shape.y + BASELINE * shape.size)}" font-size="{_n(shape.size)}" '
            f'fill="{shape.fill}" text-anchor="middle">{escape(shape.text)}</text>'
        )
    raise TypeError(f"unknown shape {shape!r}")


def _class(kind: str, colour: str) -> str:
    return f"{kind} {colour}" if colour else kind


def _xy(point: tuple[float, float]) -> str:
    return f"{_n(point[0])},{_n(point[1])}"


def _n(value: float) -> str:
    """A length in user units (squares times :data:`UNIT`), at most two decimals."""
    text = f"{value * UNIT:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
