"""A fixed palette of colours that stay apart for 30 and more paths or pictures.

Colours come in layers of twelve hues 30 degrees apart in OKLCH (a perceptual
space, like HSLuv), visited five steps (150 degrees) at a time so that
neighbours in the list differ most; each layer of twelve has its own lightness
and turns its hues by a further offset, so that 36 colours are three clearly
different sets and colours past 36 still fall between earlier hues.  Chroma is
lowered until the colour fits sRGB.
"""

from __future__ import annotations

import math
from functools import cache

HUES = 12
LIGHTNESS = (0.68, 0.50, 0.84)  # OKLCH L of each layer of twelve, in turn
TURN = (0.0, 15.0, 7.5, 22.5)  # degrees each layer adds to its hues, in turn
CHROMA = 0.16


def colour(index: int) -> str:
    """The ``index``-th colour of the palette, as ``#rrggbb``."""
    return _colour(index)[0]


def ink_on(index: int) -> str:
    """Black or white, whichever reads better on ``colour(index)``."""
    return "#111111" if _colour(index)[1] > 0.6 else "#ffffff"


@cache
def _colour(index: int) -> tuple[str, float]:
    layer = index // HUES
    hue = (25 + (index * 5 % HUES) * 360 / HUES + TURN[layer % len(TURN)]) % 360
    lightness = LIGHTNESS[layer % len(LIGHTNESS)]
    chroma = CHROMA
    while True:
        rgb = _oklch_to_srgb(lightness, chroma, hue)
        if all(0 <= v <= 1 for v in rgb) or chroma <= 0:
            break
        chroma -= 0.005
    clipped = [min(1.0, max(0.0, v)) for v in rgb]
    return "#" + "".join(f"{round(v * 255):02x}" for v in clipped), lightness


def _oklch_to_srgb(lightness: float, chroma: float, hue: float) -> tuple[float, float, float]:
    a = chroma * math.cos(math.radians(hue))
    b = chroma * math.sin(math.radians(hue))
    l_ = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3
    m_ = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3
    s_ = (lightness - 0.0894841775 * a - 1.2914855480 * b) ** 3
    linear = (4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
              -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
              -0.0041960863 * l_ - 0.7034186147 * m_ + 1.7076147010 * s_)
    return tuple(_gamma(v) for v in linear)  # type: ignore[return-value]


def _gamma(v: float) -> float:
    if v <= 0.0031308:
        return 12.92 * v
    return 1.055 * math.copysign(abs(v) ** (1 / 2.4), v) - 0.055
