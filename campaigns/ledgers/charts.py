"""The Big League's pictures as server-side SVG: Campaign Points over the season with
the Moment thresholds (GB-11, GB-12) and Favours earned and spent (GB-18 to
GB-24). Pure functions from plain values to markup, drawn on the engine's chart
frame (league/web/charts.py: a title and a description in words, no inline
style); campaigns/ledgers/pictures.py feeds them from the ledger lines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from league.svg import GRID, INK, MUTED, centred_label, label, svg


@dataclass(frozen=True)
class Step:
    label: str  # what the x axis says: "R3", "start"
    value: int  # running total after this step


CP_WIDTH, CP_LEFT, CP_RIGHT, CP_TOP, CP_HEIGHT = 360, 34, 12, 12, 150


def cp_chart(steps: Sequence[Step], thresholds: Sequence[tuple[int, str]], *, chart_id: str = "cp") -> SafeString:
    """The running CP total by match with the Moment thresholds (GB-12) as dashed
    lines, each named; the scale reaches the next threshold above the total."""
    if not steps:
        return mark_safe("")
    top_value = max(s.value for s in steps)
    above = [t for t, _ in thresholds if t > top_value]
    scale = max(above[0] if above else top_value, 20)
    plot_bottom = CP_TOP + CP_HEIGHT
    span = CP_WIDTH - CP_LEFT - CP_RIGHT
    step_x = span / max(len(steps) - 1, 1)

    def y(value: int) -> float:
        return round(plot_bottom - CP_HEIGHT * max(value, 0) / scale, 1)

    # Every label is measured to its room (league/web/charts.py ``label``): a long
    # Moment or step name is shortened, never cut off at the picture's edge.
    marks = format_html_join(
        "", '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-dasharray="4 3"/>{}{}',
        ((CP_LEFT, y(t), CP_WIDTH - CP_RIGHT, y(t), "#c79a2b",
          label(CP_LEFT + 4, y(t) - 3, f"{t} · {name}", size=9.5, room=CP_WIDTH - CP_RIGHT - CP_LEFT - 4, fill=MUTED),
          label(CP_LEFT - 5, y(t) + 3.5, str(t), size=10, room=CP_LEFT - 6, fill=MUTED, anchor="end"))
         for t, name in thresholds if 0 < t <= scale),
    )
    points = [(round(CP_LEFT + i * step_x, 1), y(s.value)) for i, s in enumerate(steps)]
    line = format_html(
        '<polyline points="{}" fill="none" stroke="#1f6fb2" stroke-width="2.5" stroke-linejoin="round"/>{}',
        " ".join(f"{x},{yy}" for x, yy in points),
        format_html_join("", '<circle cx="{}" cy="{}" r="3" fill="#1f6fb2"/>', points),
    )
    shown = [(x, s) for (x, _), s in zip(points, steps) if len(steps) <= 12 or s is steps[-1]]
    room = span if len(shown) == 1 else max(step_x - 2, 12)
    labels = format_html_join(
        "", "{}", ((centred_label(x, plot_bottom + 13, s.label, size=9.5, room=room, width=CP_WIDTH, fill=MUTED),)
                   for x, s in shown),
    )
    base = format_html(
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}"/><text x="{}" y="{}" font-size="10" fill="{}" text-anchor="end">0</text>',
        CP_LEFT, plot_bottom, CP_WIDTH - CP_RIGHT, plot_bottom, GRID, CP_LEFT - 5, plot_bottom + 3.5, MUTED,
    )
    reached = [name for t, name in thresholds if t <= top_value]
    desc = f"Campaign Points after each step: {', '.join(f'{s.label} {s.value}' for s in steps)}."
    if reached:
        desc += f" Moments reached: {', '.join(reached)}."
    if above:
        nxt = next(name for t, name in thresholds if t == above[0])
        desc += f" Next: {nxt} at {above[0]} CP."
    body = format_html("{}{}{}{}", base, marks, line, labels)
    return svg(chart_id, CP_WIDTH, plot_bottom + 20, f"Campaign Points: {steps[-1].value}", desc, body)


@dataclass(frozen=True)
class FavourBar:
    label: str
    earned: int
    spent: int  # a positive number


def favours_chart(bars: Sequence[FavourBar], *, chart_id: str = "favours") -> SafeString:
    """Favours earned (up, green) and spent (down, red) at each step."""
    bars = [b for b in bars if b.earned or b.spent]
    if not bars:
        return mark_safe("")
    width, left, mid, half = 360, 24, 70, 56
    most = max(max(b.earned, b.spent) for b in bars) or 1
    slot = (width - left - 8) / len(bars)
    bar_w = max(min(slot * 0.6, 26), 4)
    parts = [format_html('<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}"/>', left, mid, width - 8, mid, GRID)]
    for i, b in enumerate(bars):
        x = round(left + i * slot + (slot - bar_w) / 2, 1)
        up = round(half * b.earned / most, 1)
        down = round(half * b.spent / most, 1)
        if b.earned:
            parts.append(format_html(
                '<rect x="{}" y="{}" width="{}" height="{}" fill="#1f7a3a"/><text x="{}" y="{}" font-size="9.5" fill="{}" text-anchor="middle">+{}</text>',
                x, mid - up, bar_w, up, x + bar_w / 2, mid - up - 3, INK, b.earned,
            ))
        if b.spent:
            parts.append(format_html(
                '<rect x="{}" y="{}" width="{}" height="{}" fill="#9b2c1f"/><text x="{}" y="{}" font-size="9.5" fill="{}" text-anchor="middle">−{}</text>',
                x, mid, bar_w, down, x + bar_w / 2, mid + down + 10, INK, b.spent,
            ))
        if len(bars) <= 12:
            parts.append(centred_label(x + bar_w / 2, 2 * half + 24, b.label, size=9, room=max(slot - 2, 12), width=width, fill=MUTED))
    earned, spent = sum(b.earned for b in bars), sum(b.spent for b in bars)
    desc = f"Favours earned {earned} and spent {spent}: " + "; ".join(
        f"{b.label} +{b.earned} −{b.spent}" for b in bars
    ) + "."
    return svg(chart_id, width, 2 * half + 30, f"Favours: {earned} earned, {spent} spent", desc, mark_safe("".join(parts)))
