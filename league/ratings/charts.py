"""A coach's rating by week as server-side SVG, drawn on the engine's frame
(league/web/charts.py): the rating as a line, its RD as a band around it."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from league.svg import GRID, INK, MUTED, PALETTE, label, svg

WIDTH, HEIGHT = 360, 170
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 26
MAX_POINTS = 120  # the last weeks at most: a page's size is bounded whatever the history


def rating_chart(weeks: Sequence[tuple], *, chart_id: str, title: str) -> SafeString:
    """``weeks``: (Monday, rating, RD) after each week the coach played, oldest
    first. Empty markup for no week."""
    weeks = list(weeks)[-MAX_POINTS:]
    if not weeks:
        return mark_safe("")
    low = min(rating - rd for _, rating, rd in weeks)
    high = max(rating + rd for _, rating, rd in weeks)
    low, high = 50 * int(low // 50), 50 * (int(high // 50) + 1)
    first, last = weeks[0][0], weeks[-1][0]
    span_days = max((last - first).days, 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(day) -> float:
        return round(LEFT + (plot_w * (day - first).days / span_days if len(weeks) > 1 else plot_w / 2), 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    ticks = [low, (low + high) / 2, high]
    grid = mark_safe("".join(
        format_html('<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1"/>{}', LEFT, y(tick),
                    WIDTH - RIGHT, y(tick), GRID,
                    label(LEFT - 4, y(tick) + 3.5, f"{tick:.0f}", size=10, room=LEFT - 6, fill=MUTED, anchor="end"))
        for tick in ticks
    ))
    band = " ".join(f"{x(day)},{y(rating + rd)}" for day, rating, rd in weeks) + " " + " ".join(
        f"{x(day)},{y(rating - rd)}" for day, rating, rd in reversed(weeks))
    line = " ".join(f"{x(day)},{y(rating)}" for day, rating, _ in weeks)
    colour = PALETTE[1]
    axis = format_html(
        "{}{}",
        label(LEFT, HEIGHT - 8, f"{first:%d %b %Y}", size=10, room=plot_w / 2 - 4, fill=MUTED),
        label(WIDTH - RIGHT, HEIGHT - 8, f"{last:%d %b %Y}", size=10, room=plot_w / 2 - 4, fill=MUTED, anchor="end")
        if len(weeks) > 1 else "",
    )
    end = weeks[-1]
    body = format_html(
        '{}<polygon points="{}" fill="{}" fill-opacity="0.15" stroke="none"/>'
        '<polyline points="{}" fill="none" stroke="{}" stroke-width="2" stroke-linejoin="round"/>'
        '<circle cx="{}" cy="{}" r="3" fill="{}"/>{}',
        grid, band, colour, line, colour, x(end[0]), y(end[1]), INK, axis,
    )
    start = weeks[0]
    desc = (f"Rating after each week played, from {start[1]:.0f} (week of {start[0]:%d %b %Y}) "
            f"to {end[1]:.0f} (week of {end[0]:%d %b %Y}); the band is one rating deviation either side.")
    return svg(chart_id, WIDTH, HEIGHT, title, desc, body)
