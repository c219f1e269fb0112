"""Pictures as server-side SVG: pure functions from plain values to markup, no
JavaScript, readable on a phone.

Every chart is an ``<svg role="img">`` with a ``<title>`` and a ``<desc>`` (named
by ``aria-labelledby``) that say in words what it shows; the pages also give the
numbers as a table or list beside it. The Content-Security-Policy forbids inline
styles, so colours are presentation attributes (``fill=``, ``stroke=``). A line's
colour is its coach's badge colour, or its team's where rows are teams
(league/templatetags/site_tags.py), so a coach or team looks the same in the
table, the badges and the chart.

These are the engine's pictures, for every game; a layer draws its own on the same
frame (``svg``): The Big League's CP and Favours in campaigns/ledgers/charts.py.
"""

from __future__ import annotations

import math

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from league.svg import FAINT, GRID, INK, MUTED, PALETTE, label, svg, text_width
from league.templatetags.site_tags import badge_index, coach_badge_index
from league.text.words import possessive

OUTCOME_FILL = {"W": "#1f7a3a", "D": "#7b8494", "L": "#9b2c1f"}
OUTCOME_WORD = {"W": "won", "D": "drawn", "L": "lost"}


def colour_for(name: str) -> str:
    return PALETTE[badge_index(name)]


@dataclass(frozen=True)
class Series:
    name: str
    positions: tuple[int, ...]  # position after each round, first round first
    coach_id: int | None = None  # a coach's line takes the coach's badge colour; a team's, its name's

    @property
    def colour(self) -> str:
        return PALETTE[coach_badge_index(self.coach_id)] if self.coach_id is not None else colour_for(self.name)


BUMP_WIDTH = 360  # viewBox units: about one CSS pixel per unit on a phone
BUMP_LEFT, BUMP_RIGHT, BUMP_TOP, BUMP_ROW = 26, 118, 22, 18


MIN_DOT_GAP = 6  # px between rounds below which dots would merge into the line
MIN_LABEL_GAP = 22  # px a round label "R12" needs


BUMP_MAX_ROWS = 20  # the plot is at most this many rows tall, whatever the field (a page's size is bounded)
BUMP_MAX_POINTS = 120  # points per line at most: more rounds than this are sampled (the plot is 216 units wide)


def bump_y(place: int, places: int) -> float:
    """Where ``place`` goes: one row each in a field of up to ``BUMP_MAX_ROWS``,
    a linear scale over ``BUMP_MAX_ROWS`` rows for a bigger one."""
    if places <= BUMP_MAX_ROWS:
        return BUMP_TOP + (place - 1) * BUMP_ROW
    return round(BUMP_TOP + (place - 1) * (BUMP_MAX_ROWS - 1) * BUMP_ROW / (places - 1), 1)


def sampled_rounds(rounds: int, limit: int = BUMP_MAX_POINTS) -> list[int]:
    """The round indexes a line is drawn through: every round up to ``limit``,
    else every k-th and the last, so a line's markup is bounded."""
    if rounds <= limit:
        return list(range(rounds))
    every = math.ceil(rounds / (limit - 1))
    return sorted({*range(0, rounds, every), rounds - 1})


def bump_points(positions: Sequence[int], rounds: int, places: int, left: int = BUMP_LEFT) -> list[tuple[float, float]]:
    """Where a line's points go: x by round across the plot (from ``left``), y by
    position (1 at the top); at most ``BUMP_MAX_POINTS`` of them."""
    span = BUMP_WIDTH - left - BUMP_RIGHT
    step = span / max(rounds - 1, 1)
    kept = [i for i in sampled_rounds(rounds) if i < len(positions)]
    if positions and kept[-1] != len(positions) - 1:
        kept.append(len(positions) - 1)  # where it stands now, always
    return [(round(left + i * step, 1), bump_y(positions[i], places)) for i in kept]


def _ticks(places: int) -> list[int]:
    """The places the grid names: every one in a small field, else 1 and round steps."""
    if places <= BUMP_MAX_ROWS:
        return list(range(1, places + 1))
    step = next(s for s in (2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000) if places / s <= 10)
    return [1, *range(step, places + 1, step)]


def bump_chart(
    series: Sequence[Series], *, chart_id: str = "bump", title: str = "Position by round", highlight: str | None = None,
    places: int | None = None,
) -> SafeString:
    """Everyone's position after each round, one line each, named at the right.
    With ``highlight`` (a name) that line is drawn strong and the others faint:
    a coach's own line among the field. ``places``: the size of the field when
    ``series`` is a part of it (the top of the table and the lines followed).
    Empty markup when no round is played."""
    series = [s for s in series if s.positions]
    rounds = max((len(s.positions) for s in series), default=0)
    if not rounds:
        return mark_safe("")
    places = max(places or 0, max(max(s.positions) for s in series))
    height = round(bump_y(places, places)) + 24
    plot_right = BUMP_WIDTH - BUMP_RIGHT
    ticks = _ticks(places)
    # A big field's place numbers ("100", "1000") need more room left of the plot.
    left = max(BUMP_LEFT, math.ceil(text_width(str(ticks[-1]), 10)) + 8)
    grid = format_html_join(
        "", '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1"/>{}',
        ((left, y, plot_right, y, GRID, label(left - 6, y + 3.5, str(p), size=10, room=left - 7, fill=MUTED, anchor="end"))
         for p in ticks for y in [bump_y(p, places)]),
    )
    # A long season's rounds are closer than a dot or a label is wide: then every
    # k-th round is labelled and only each line's last point (where it stands now)
    # is dotted, which also keeps the page small.
    span = BUMP_WIDTH - left - BUMP_RIGHT
    gap = span / max(rounds - 1, 1)
    every = max(1, math.ceil(MIN_LABEL_GAP / gap))
    axis = format_html_join(
        "", '<text x="{}" y="{}" font-size="10" fill="{}" text-anchor="middle">R{}</text>',
        ((round(left + i * gap, 1), height - 6, MUTED, i + 1) for i in range(rounds)
         if i % every == 0 or i == rounds - 1),
    )
    dotted = slice(None) if gap >= MIN_DOT_GAP else slice(-1, None)
    ordered = sorted(series, key=lambda s: (s.name == highlight, -s.positions[-1]))  # the highlight on top
    lines = []
    for s in ordered:
        points = bump_points(s.positions, rounds, places, left)
        strong = highlight is None or s.name == highlight
        colour = s.colour if strong else FAINT
        lines.append(format_html(
            '<g class="series" data-name="{}"><polyline points="{}" fill="none" stroke="{}" stroke-width="{}" '
            'stroke-linejoin="round" stroke-linecap="round"/>{}</g>',
            s.name, " ".join(f"{x},{y}" for x, y in points), colour, 3 if highlight and strong else 2,
            format_html_join("", '<circle cx="{}" cy="{}" r="2.6" fill="{}"/>', ((x, y, colour) for x, y in points[dotted])),
        ))
    # One label per final place: rows sharing a place share it ("=5 Ann, Bob"), and
    # on a scaled axis each label sits at least a line below the one above it.
    at: dict[int, list[Series]] = {}
    for s in series:
        at.setdefault(s.positions[-1], []).append(s)
    labels = []
    floor = 0.0
    for place, group in sorted(at.items()):
        names = ", ".join(s.name for s in group)
        mine = highlight is not None and any(s.name == highlight for s in group)
        y = max(bump_y(place, places) + 3.5, floor)
        floor = y + 12
        # Bold text is wider: measured a little smaller so that it fits all the same.
        labels.append(label(
            plot_right + 8, y, f"{'=' if len(group) > 1 else ''}{place} {names}", size=11,
            room=(BUMP_RIGHT - 10) / (1.08 if mine else 1), fill=INK if highlight is None or mine else MUTED,
            extra=mark_safe(' font-weight="700"') if mine else "",
        ))
    height = max(height, round(floor) + 12)
    desc = bump_description(series, rounds, highlight)
    body = format_html("{}{}{}{}", grid, axis, mark_safe("".join(lines)), mark_safe("".join(labels)))
    return svg(chart_id, BUMP_WIDTH, height, title, desc, body)


def bump_description(series: Sequence[Series], rounds: int, highlight: str | None = None) -> str:
    """The chart in words: for one coach, their path; for the field, who leads and
    who moved most."""
    if highlight:
        mine = next((s for s in series if s.name == highlight), None)
        if mine is not None:
            path = ", ".join(str(p) for p in mine.positions)
            return f"{possessive(highlight)} position after each of {len(mine.positions)} rounds: {path}."
    leaders = [s.name for s in series if s.positions[-1] == 1]
    moved = max(series, key=lambda s: s.positions[0] - s.positions[-1])
    text = f"Positions of {len(series)} after {rounds} round{'s' if rounds != 1 else ''}. Top now: {', '.join(leaders)}."
    gain = moved.positions[0] - moved.positions[-1]
    if gain > 0:
        text += f" Biggest climb: {moved.name}, from {moved.positions[0]} to {moved.positions[-1]}."
    return text


# Form guide --------------------------------------------------------------------------


def form_guide(outcomes: Sequence[str], *, chart_id: str = "form") -> SafeString:
    """The last results as W/D/L marks, oldest first (at most five shown)."""
    marks = [o for o in outcomes if o in OUTCOME_FILL][-5:]
    if not marks:
        return mark_safe("")
    size, gap = 22, 4
    width = len(marks) * (size + gap) - gap
    words = ", ".join(OUTCOME_WORD[m] for m in marks)
    body = format_html_join(
        "", '<rect x="{}" y="0" width="{}" height="{}" rx="4" fill="{}"/><text x="{}" y="15.5" font-size="12" font-weight="700" fill="#fff" text-anchor="middle">{}</text>',
        ((i * (size + gap), size, size, OUTCOME_FILL[m], i * (size + gap) + size / 2, m) for i, m in enumerate(marks)),
    )
    return svg(chart_id, width, size, f"Form: {''.join(marks)}", f"Last {len(marks)} results, oldest first: {words}.", body)


# From the engine's values ----------------------------------------------------------------


def letter(outcome: str, side: str) -> str:
    """W, D or L for ``side`` of a result (abandoned or unplayed is a loss for both)."""
    if outcome == "draw":
        return "D"
    return "W" if outcome == side else "L"


CHART_TOP = 10  # lines of a big field's chart: the top of the table, plus the ones followed


def standings_series(rows, *, follow: frozenset[int] | set[int] = frozenset(), top: int | None = None
                     ) -> list[tuple[str | None, list[Series]]]:
    """Standings rows (league/standings/ranking.py, with ``history``) as one set of lines
    per division, in table order. With ``top``: only each division's first
    ``top`` rows and the rows whose ``entry_id`` is in ``follow`` (a
    chart of a thousand lines is neither readable nor small)."""
    groups: dict[str | None, list[Series]] = {}
    for row in rows:
        group = groups.setdefault(row.division, [])
        if top is None or len(group) < top or row.entry_id in follow:
            # A row named by its coach is drawn in the coach's colour (site_tags.coach_badge).
            group.append(Series(row.name, tuple(row.history), row.coach_id if row.name == row.coach else None))
    return list(groups.items())


def division_sizes(rows) -> dict[str | None, int]:
    """How many rows each division has (a part-drawn chart's scale)."""
    sizes: dict[str | None, int] = {}
    for row in rows:
        sizes[row.division] = sizes.get(row.division, 0) + 1
    return sizes
