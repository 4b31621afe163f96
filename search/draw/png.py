"""PNG by matplotlib (the ``plots`` extra): the SVG tree of a picture replayed
shape by shape, so that a PNG shows exactly what the SVG shows.

Only the shapes ``svg.py`` makes are known: g (translate only), rect, line,
polyline, circle and text; an element with ``display="none"`` is left out.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from search.core.contract import GridcpError
from search.core.outputs import save_figure
from search.draw.svg import Picture, document

SCALE = 2  # image pixels per picture unit
_TRANSLATE = re.compile(r"translate\(\s*([-\d.]+)[\s,]+([-\d.]+)\s*\)")


def write_png(picture: Picture, path: Path, force: bool = False) -> None:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ModuleNotFoundError:
        raise GridcpError("PNG pictures need matplotlib (the 'plots' extra: "
                          "pip install 'gridcp[plots]'); SVG and HTML need nothing") from None
    # One picture unit is one point (1/72 inch), so line widths and font sizes carry over.
    figure = Figure(figsize=(picture.width / 72, picture.height / 72), dpi=72 * SCALE)
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, picture.width)
    axes.set_ylim(picture.height, 0)
    axes.axis("off")
    _Replay(axes, picture).node(document(picture), 0.0, 0.0)
    save_figure(figure, path, force=force, format="png")


class _Replay:
    def __init__(self, axes: Any, picture: Picture):
        self.axes, self.picture, self.z = axes, picture, 0

    def node(self, node: ET.Element, dx: float, dy: float) -> None:
        if node.get("display") == "none":
            return
        found = _TRANSLATE.fullmatch(node.get("transform", ""))
        if found:
            dx, dy = dx + float(found[1]), dy + float(found[2])
        self.z += 1
        shapes = {"rect": self._rect, "circle": self._circle, "line": self._line,
                  "polyline": self._polyline, "text": self._text}
        draw = shapes.get(node.tag.rpartition("}")[2])
        if draw is not None:
            draw(node, dx, dy)
        for child in node:
            self.node(child, dx, dy)

    def _style(self, node: ET.Element) -> dict[str, Any]:
        width = float(node.get("stroke-width", 1))
        style: dict[str, Any] = {"zorder": self.z, "linewidth": width,
                                 "alpha": float(node.get("opacity", 1))}
        dashes = node.get("stroke-dasharray")
        if dashes:
            style["linestyle"] = (0, tuple(float(d) / width for d in dashes.split(",")))
        return style

    def _rect(self, node: ET.Element, dx: float, dy: float) -> None:
        from matplotlib.patches import FancyBboxPatch

        full = node.get("width") == "100%"
        x, y = (0.0, 0.0) if full else (float(node.get("x", 0)) + dx, float(node.get("y", 0)) + dy)
        w = self.picture.width if full else float(node.get("width", 0))
        h = self.picture.height if full else float(node.get("height", 0))
        rounding = float(node.get("rx", 0))
        self.axes.add_patch(FancyBboxPatch(
            (x, y), w, h, boxstyle=f"round,pad=0,rounding_size={rounding}" if rounding
            else "square,pad=0", facecolor=_paint(node.get("fill", "#000000")),
            edgecolor=_paint(node.get("stroke")), **self._style(node)))

    def _circle(self, node: ET.Element, dx: float, dy: float) -> None:
        from matplotlib.patches import Circle

        self.axes.add_patch(Circle(
            (float(node.get("cx", 0)) + dx, float(node.get("cy", 0)) + dy),
            float(node.get("r", 0)), facecolor=_paint(node.get("fill", "#000000")),
            edgecolor=_paint(node.get("stroke")), **self._style(node)))

    def _line(self, node: ET.Element, dx: float, dy: float) -> None:
        xs = [float(node.get("x1", 0)) + dx, float(node.get("x2", 0)) + dx]
        ys = [float(node.get("y1", 0)) + dy, float(node.get("y2", 0)) + dy]
        self._stroke(node, xs, ys)

    def _polyline(self, node: ET.Element, dx: float, dy: float) -> None:
        pairs = [p.split(",") for p in node.get("points", "").split()]
        self._stroke(node, [float(x) + dx for x, _ in pairs], [float(y) + dy for _, y in pairs])

    def _stroke(self, node: ET.Element, xs: list[float], ys: list[float]) -> None:
        cap = {"round": "round", "square": "projecting"}.get(node.get("stroke-linecap", ""),
                                                              "butt")
        join = {"round": "round", "bevel": "bevel"}.get(node.get("stroke-linejoin", ""), "miter")
        self.axes.plot(xs, ys, color=_paint(node.get("stroke")), solid_capstyle=cap,
                       dash_capstyle=cap, solid_joinstyle=join, **self._style(node))

    def _text(self, node: ET.Element, dx: float, dy: float) -> None:
        from matplotlib import patheffects

        effects = []
        if node.get("stroke"):
            effects = [patheffects.withStroke(linewidth=float(node.get("stroke-width", 1)) * 2,
                                              foreground=node.get("stroke"))]
        self.axes.text(float(node.get("x", 0)) + dx, float(node.get("y", 0)) + dy,
                       node.text or "", ha="center", va="center",
                       fontsize=float(node.get("font-size", 12)),
                       fontweight=node.get("font-weight", "normal"),
                       color=node.get("fill", "#000000"), zorder=self.z, path_effects=effects)


def _paint(value: str | None) -> str:
    return "none" if value in (None, "none") else value
