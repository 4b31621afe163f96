"""A tiny SVG vocabulary: pictures are ``xml.etree`` groups with a size.

Every drawing module builds its picture from these few shapes (rect, line,
polyline, circle, text) so that the PNG writer (``png.py``) can replay the
same tree with matplotlib and the HTML page can inline it as it is.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"  # text and grid lines
PAPER = "#ffffff"
MARK = "#e4002b"  # cells where two solutions differ
TITLE = 16.0  # font size of a figure's title


@dataclass(frozen=True)
class Picture:
    """A drawing: a ``<g>`` element whose shapes lie within ``width`` x ``height``."""

    width: float
    height: float
    body: ET.Element


def group(parent: ET.Element | None = None, **attrs: object) -> ET.Element:
    return shape("g", parent, **attrs)


def shape(tag: str, parent: ET.Element | None = None, **attrs: object) -> ET.Element:
    """An element ``tag`` with ``attrs`` (``class_`` -> class, ``stroke_width`` ->
    stroke-width, ``data_step`` -> data-step); None values are left out."""
    clean = {_name(k): _value(v) for k, v in attrs.items() if v is not None}
    return ET.Element(tag, clean) if parent is None else ET.SubElement(parent, tag, clean)


def text(parent: ET.Element, x: float, y: float, words: str, size: float,
         **attrs: object) -> ET.Element:
    """Text centred on (x, y)."""
    node = shape("text", parent, x=x, y=y, font_size=size, text_anchor="middle",
                 dominant_baseline="central", font_family=FONT, **attrs)
    node.text = words
    return node


def points(cells: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_value(x)},{_value(y)}" for x, y in cells)


def beside(panels: Sequence[tuple[str, Picture]], title: str = "", gap: float = 24,
           caption_size: float = 15) -> Picture:
    """Pictures side by side, each under its caption, all under ``title`` (one
    line of text per line of the title)."""
    lines = title.splitlines()
    top = 10 + TITLE * 1.35 * len(lines) if lines else 0.0
    head = caption_size * 2 if any(caption for caption, _ in panels) else 0.0
    width = sum(p.width for _, p in panels) + gap * (len(panels) + 1)
    width = max([width, *(text_width(line, TITLE) + 2 * gap for line in lines)])
    height = top + head + max(p.height for _, p in panels) + gap
    root = group(class_="figure")
    for i, line in enumerate(lines):
        text(root, width / 2, 10 + TITLE * 1.35 * (i + 0.5), line, TITLE,
             font_weight="bold" if i == 0 else "normal", fill=INK, class_="title")
    x = (width - sum(p.width for _, p in panels) - gap * (len(panels) - 1)) / 2
    for caption, picture in panels:
        if caption:
            text(root, x + picture.width / 2, top + head / 2, caption, caption_size, fill=INK,
                 class_="caption")
        placed = group(root, transform=f"translate({_value(x)},{_value(top + head)})")
        placed.append(picture.body)
        x += picture.width + gap
    return Picture(width, height, root)


def text_width(words: str, size: float) -> float:
    """About how wide ``words`` are in the sans-serif font (no font metrics at hand)."""
    return len(words) * size * 0.6


def document(picture: Picture, inline: bool = False) -> ET.Element:
    """The ``<svg>`` root for a picture, on a white background (``inline``: for
    an HTML page, which needs no namespace)."""
    root = ET.Element("svg", {"width": _value(picture.width), "height": _value(picture.height),
                              "viewBox": f"0 0 {_value(picture.width)} {_value(picture.height)}"})
    if not inline:
        root.attrib = {"xmlns": NS, "version": "1.1", **root.attrib}
    shape("rect", root, width="100%", height="100%", fill=PAPER, class_="background")
    root.append(picture.body)
    return root


def to_string(picture: Picture, inline: bool = False) -> str:
    return ET.tostring(document(picture, inline), encoding="unicode")


def _name(key: str) -> str:
    return "class" if key == "class_" else key.replace("_", "-")


def _value(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)
