"""The play-off bracket (DB-5b) as a server-side SVG picture: a pure function from
plain values to markup (league/web/charts.py's conventions: ``role="img"`` with a title
and a description, colours as presentation attributes, no script, no style). The
league page gives the same games as a list beside it (the text alternative).

Laid out for a phone first: 360 viewBox units wide (about one CSS pixel each at
390 px), the semi-finals on the left, the final and the match for third place on
the right, each box naming its two teams and their touchdowns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from league.svg import FAINT, GRID, INK, MUTED, fit, svg

WIDTH, HEIGHT = 360, 236
BOX_W, BOX_H, ROW = 160, 48, 22
WIN_FILL = "#e7f3ea"
# Top-left corner of each slot's box: semi-finals 1 and 2, the final, third place.
CORNERS = {1: (4, 22), 2: (4, 142), 3: (196, 82), 4: (196, 184)}
LABELS = {1: "Semi-final 1", 2: "Semi-final 2", 3: "Final", 4: "Third place"}
WAITING = {3: ("Semi-final 1 winner", "Semi-final 2 winner"), 4: ("Semi-final 1 loser", "Semi-final 2 loser")}
SCORE_W = 24  # the score column at the right of a box; names are clipped before it


@dataclass(frozen=True)
class Game:
    """One play-off game as plain values; ``winner`` is "home", "away" or None."""

    slot: int
    home: str
    away: str
    home_score: int | None = None
    away_score: int | None = None
    winner: str | None = None
    status: str = ""  # "approved", "awaiting confirmation" ... or "" when unreported


def describe(game: Game) -> str:
    """The game in words, for the picture's description and the text alternative."""
    label = LABELS[game.slot]
    if game.winner is not None:
        won = game.home if game.winner == "home" else game.away
        return f"{label}: {game.home} {game.home_score}–{game.away_score} {game.away}, {won} won."
    if game.status:
        return f"{label}: {game.home} v {game.away}, result {game.status}."
    return f"{label}: {game.home} v {game.away}, to be played."


def bracket_svg(games: Sequence[Game], *, chart_id: str = "bracket", title: str = "Play-off bracket") -> SafeString:
    """The semi-finals, then the final and the third-place match (drawn as still to
    come until the semi-finals are decided). Empty markup without semi-finals."""
    by_slot = {game.slot: game for game in games}
    if 1 not in by_slot:
        return mark_safe("")
    parts = [_connector()]
    for slot in (1, 2, 3, 4):
        game = by_slot.get(slot)
        parts.append(_box(slot, game, chart_id))
    known = [describe(by_slot[s]) for s in sorted(by_slot)]
    if 3 not in by_slot:
        known.append("The final and the match for third place follow once both semi-finals are decided.")
    return svg(chart_id, WIDTH, HEIGHT, title, " ".join(known), mark_safe("".join(parts)))


def _connector() -> str:
    """Lines from each semi-final to the final."""
    (x1, y1), (x2, y2), (fx, fy) = CORNERS[1], CORNERS[2], CORNERS[3]
    right, mid = x1 + BOX_W, (x1 + BOX_W + fx) // 2
    a, b, f = y1 + BOX_H // 2 + 6, y2 + BOX_H // 2 + 6, fy + BOX_H // 2 + 6
    return format_html(
        '<path d="M{r} {a}H{m}V{b}H{r}M{m} {f}H{fx}" fill="none" stroke="{c}" stroke-width="1.5"/>',
        r=right, a=a, m=mid, b=b, f=f, fx=fx, c=FAINT,
    )


def _box(slot: int, game: Game | None, chart_id: str) -> SafeString:
    x, y = CORNERS[slot]
    clip = f"{chart_id}-clip-{slot}"
    label = format_html('<text x="{}" y="{}" font-size="11" fill="{}">{}</text>', x, y - 5, MUTED, LABELS[slot])
    frame = format_html(
        '<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="#fff" stroke="{}"/>'
        '<clipPath id="{}"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>',
        x, y + 2, BOX_W, BOX_H, GRID, clip, x + 1, y + 2, BOX_W - SCORE_W - 2, BOX_H,
    )
    if game is None:
        rows = [(name, None, False, True) for name in WAITING.get(slot, ("", ""))]
    else:
        rows = [
            (game.home, game.home_score, game.winner == "home", False),
            (game.away, game.away_score, game.winner == "away", False),
        ]
    lines = []
    for index, (name, score, won, waiting) in enumerate(rows):
        top = y + 2 + index * (BOX_H // 2)
        if won:
            lines.append(format_html('<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>',
                                     x + 1, top + 1, BOX_W - 2, BOX_H // 2 - 2, WIN_FILL))
        shown = "" if score is None or (game is not None and game.winner is None and not game.status) else score
        lines.append(format_html(
            '<text x="{}" y="{}" font-size="13" fill="{}" font-weight="{}" clip-path="url(#{})">{}<title>{}</title></text>'
            '<text x="{}" y="{}" font-size="13" fill="{}" text-anchor="end" font-weight="{}">{}</text>',
            x + 6, top + 16, MUTED if waiting else INK, "bold" if won else "normal", clip, fit(name, 13, BOX_W - SCORE_W - 8), name,
            x + BOX_W - 6, top + 16, INK, "bold" if won else "normal", shown,
        ))
    return format_html("{}{}{}", label, frame, format_html_join("", "{}", ((line,) for line in lines)))
