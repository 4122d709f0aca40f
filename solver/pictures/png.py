"""PNG pictures of positions: the scene of :mod:`solver.pictures.picture` drawn with Pillow.

Why Pillow: it installs from PyPI as a wheel on every common platform with no system
library (FreeType for the labels is inside the wheel), and it is what the tests use to
decode the PNGs anyway. Rasterising the SVG instead
would need Cairo (cairosvg) or a less common wheel; drawing the same shapes directly gives
the same picture without either. Pillow draws without anti-aliasing, so the picture is drawn
at a multiple of its size and scaled down (Lanczos), which smooths lines and labels.

The bytes are deterministic for one Pillow build: the same position and options give the
same file.
"""

from __future__ import annotations

import io
from functools import cache
from typing import Unpack

from PIL import Image, ImageDraw, ImageFont

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
    rgb,
    scene,
)

MAX_DRAWN = 4000  # pixels: the side of the supersampled image stays at most this (memory)


def board(position: Position, **options: Unpack[PictureOptions]) -> bytes:
    """The picture of a position as PNG bytes (the same picture as :func:`.svg.board`:
    ``size`` pixels wide, the height following the board's shape).

    Args:
        position: the position to draw.
        **options: see :func:`solver.pictures.picture.scene`.

    Raises:
        ValueError: a bad option (see :func:`solver.pictures.picture.scene`).
    """
    return to_png(scene(position, **options))


def to_png(picture: Scene) -> bytes:
    """A scene as PNG bytes (8-bit RGB)."""
    return _encode(draw(picture))


def draw(picture: Scene) -> Image.Image:
    """A scene as a Pillow image of ``picture.pixels`` x ``picture.pixel_height`` pixels."""
    size = (picture.pixels, picture.pixel_height)
    factor = max(1, min(4, MAX_DRAWN // max(size)))
    k = picture.scale * factor  # drawn pixels per square
    image = Image.new("RGBA", (size[0] * factor, size[1] * factor), (255, 255, 255, 255))
    pen = ImageDraw.Draw(image)
    for shape in picture.shapes:
        if isinstance(shape, Rect):
            _rect(pen, shape, k)
        elif isinstance(shape, Polygon):
            pen.polygon([_px(p, k) for p in shape.points], fill=shape.fill)
        elif isinstance(shape, Lines):
            layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
            colour = (*rgb(shape.stroke), round(255 * shape.opacity))
            width = max(1, round(shape.width * k))
            layer_pen = ImageDraw.Draw(layer)
            for a, b in shape.segments:
                layer_pen.line([_px(a, k), _px(b, k)], fill=colour, width=width)
            image = Image.alpha_composite(image, layer)
            pen = ImageDraw.Draw(image)
        elif isinstance(shape, Outline):
            _outline(pen, shape, k)
        elif isinstance(shape, Circle):
            x, y, r = shape.cx * k, shape.cy * k, shape.r * k
            pen.ellipse([x - r, y - r, x + r, y + r], fill=shape.fill)
        elif isinstance(shape, Label):
            font = _font(max(1, round(shape.size * k)))
            pen.text(
                _px((shape.x, shape.y), k), shape.text, fill=shape.fill, font=font, anchor="mm"
            )
    if factor > 1:
        image = image.resize(size, Image.Resampling.LANCZOS)
    return image.convert("RGB")


def _rect(pen: ImageDraw.ImageDraw, shape: Rect, k: float) -> None:
    x0, y0 = _px((shape.x, shape.y), k)
    x1, y1 = _px((shape.x + shape.w, shape.y + shape.h), k)
    if shape.fill:
        pen.rectangle([x0, y0, x1 - 1, y1 - 1], fill=shape.fill)
    if shape.stroke:  # centred on the rectangle's edge, as in SVG
        half = shape.width * k / 2
        width = max(1, round(shape.width * k))
        pen.rectangle(
            [round(x0 - half), round(y0 - half), round(x1 + half) - 1, round(y1 + half) - 1],
            outline=shape.stroke,
            width=width,
        )


def _outline(pen: ImageDraw.ImageDraw, shape: Outline, k: float) -> None:
    """A closed line with round joins (each corner gets a disc), as the SVG draws it."""
    points = [_px(p, k) for p in shape.points]
    width = max(1, round(shape.width * k))
    pen.line(points + points[:1], fill=shape.stroke, width=width)
    r = width / 2
    for x, y in points:
        pen.ellipse([x - r, y - r, x + r, y + r], fill=shape.stroke)


def _px(point: tuple[float, float], k: float) -> tuple[int, int]:
    return (round(point[0] * k), round(point[1] * k))


@cache
def _font(pixels: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in scalable font (Aileron, inside the wheel) at a size in pixels."""
    return ImageFont.load_default(size=pixels)


def _encode(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
