"""The frame every server-side SVG picture is drawn on, for every package's
charts (the engine's in league/web/charts.py, the ratings', a game's, a layer's):
the palette, a label that never runs out of the picture, the <svg> element with
its title and description. Pure functions from plain values to markup.
"""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString

# The badge colours of static/css/site.css, in the same order.
PALETTE = (
    "#b3261e", "#1f6fb2", "#2e7d32", "#8e44ad", "#c76b00", "#00838f",
    "#5d4037", "#ad1457", "#3949ab", "#558b2f", "#6d4c41", "#37474f",
)
INK, MUTED, GRID, FAINT = "#1d2330", "#5d6677", "#d9dee7", "#c5cad3"


# Character widths in ems, generous for system-ui fonts: the server has no font
# metrics, so a label is measured on the wide side and shortened to its room.
NARROW, WIDE = frozenset("iljtfrI.,:;'!|()[] ·"), frozenset("MWmw@%—")


def text_width(text: str, size: float) -> float:
    """How wide ``text`` draws at font ``size``, at most (see NARROW/WIDE)."""
    ems = 0.0
    for char in text:
        if char in NARROW:
            ems += 0.34
        elif char in WIDE:
            ems += 0.95
        elif not char.isascii():
            ems += 1.0  # accents fit in less, but a CJK glyph is a full em
        elif char.isupper() or char.isdigit():
            ems += 0.72
        else:
            ems += 0.58
    return ems * size


def fit(text: str, size: float, room: float) -> str:
    """``text`` as it fits in ``room`` units at font ``size``: whole, or cut with
    an ellipsis (the whole of it goes in the label's <title>, see ``label``)."""
    if text_width(text, size) <= room:
        return text
    while text and text_width(text + "…", size) > room:
        text = text[:-1].rstrip()
    return text + "…"


def label(x: float, y: float, text: str, *, size: float, room: float, fill: str, anchor: str = "start",
          extra: SafeString | str = "") -> SafeString:
    """A <text> that never runs out of the picture: shortened to ``room`` units,
    with the whole text as its <title> (a tooltip, read by screen readers) when
    shortened."""
    shown = fit(text, size, room)
    tip = format_html("<title>{}</title>", text) if shown != text else ""
    return format_html(
        '<text x="{}" y="{}" font-size="{}" fill="{}" text-anchor="{}"{}>{}{}</text>',
        x, y, size, fill, anchor, extra, shown, tip,
    )


def centred_label(x: float, y: float, text: str, *, size: float, room: float, width: float, fill: str) -> SafeString:
    """An axis label centred on ``x`` in at most ``room`` units, moved inwards at
    the picture's edges (0 to ``width``) so that none of it is cut off."""
    half = text_width(fit(text, size, room), size) / 2
    x = round(min(max(x, half + 1), width - half - 1), 1)
    return label(x, y, text, size=size, room=room, fill=fill, anchor="middle")


def svg(chart_id: str, width: int, height: int, title: str, desc: str, body: SafeString) -> SafeString:
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        'aria-labelledby="{i}-title {i}-desc" class="chart-svg" font-family="system-ui, sans-serif">'
        '<title id="{i}-title">{t}</title><desc id="{i}-desc">{d}</desc>{b}</svg>',
        w=width, h=height, i=chart_id, t=title, d=desc, b=body,
    )


# Position by round (a bump chart) ----------------------------------------------------
