"""The coach's campaign page in pictures: CP over the season with the Moment
thresholds (GB-11, GB-12) and Favours earned and spent (GB-18 to GB-24), built
from the ledger lines the page already reads (no query here) with the pure SVG
builders of campaigns/ledgers/charts.py."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.safestring import SafeString, mark_safe

from campaigns import rules
from campaigns.ledgers import charts


def _line_key(line) -> tuple[str, str]:
    """Which step a ledger line belongs to and its label: the round of the match
    it came from, the dealing phase of a spend, else the day it was written."""
    result = getattr(line, "result", None)
    if result is not None:
        number = result.fixture.round.number
        return f"match-{number}", f"R{number}"
    phase = getattr(line, "phase", None)
    if phase is not None:
        return f"phase-{phase}", f"after {phase}"
    day = line.created_at.date()
    return f"day-{day.isoformat()}", f"{day.day} {day:%b}"


def _in_order(lines: Sequence) -> list:
    return sorted(lines, key=lambda line: (line.created_at, line.pk or 0))


def cp_chart(cp_lines: Sequence, table, *, chart_id: str = "cp") -> SafeString:
    """The running CP total step by step, from 0, with the Moments up to the next one.
    Nothing before the first CP line: a lone "start 0" is no picture."""
    if not cp_lines:
        return mark_safe("")
    steps = [charts.Step("start", 0)]
    total, keys = 0, {}
    for line in _in_order(cp_lines):
        total += line.amount
        key, label = _line_key(line)
        if key in keys and steps[keys[key]] is steps[-1]:
            steps[-1] = charts.Step(label, total)
        else:
            keys[key] = len(steps)
            steps.append(charts.Step(label, total))
    top = max(s.value for s in steps)
    thresholds = [(m.threshold, m.name) for m in rules.moments_reached(top + 40, table)]
    return charts.cp_chart(steps, thresholds, chart_id=chart_id)


def favours_chart(favour_lines: Sequence, *, chart_id: str = "favours") -> SafeString:
    """Favours earned and spent, a bar pair per match or dealing phase."""
    bars: dict[str, list] = {}
    for line in _in_order(favour_lines):
        key, label = _line_key(line)
        bar = bars.setdefault(key, [label, 0, 0])
        if line.amount > 0:
            bar[1] += line.amount
        else:
            bar[2] -= line.amount
    return charts.favours_chart([charts.FavourBar(label, earned, spent) for label, earned, spent in bars.values()], chart_id=chart_id)
