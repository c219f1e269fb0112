"""Published data formats: standings as JSON/CSV rows, fixtures as iCalendar."""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterable

from django.utils import timezone

from league import csvsafe
from league.links import site_root
from league.models import Fixture
from league.rules.base import GameRules
from league.ranking import StandingRow

def standings_columns(rules: GameRules) -> list[str]:
    """The keys of standings.json rows and the header of standings.csv: the division,
    then the game's own columns (GB: VP; DB: touchdowns and casualties; DR: Strike
    Difference and landslides)."""
    return ["division", *rules.feed_columns]


def standings_rows(table: Iterable[StandingRow], rules: GameRules) -> list[dict]:
    """Rows in table order (division by division) with ``standings_columns``;
    ``division`` is null in a season without divisions."""
    columns = standings_columns(rules)
    return [{key: row.value(key) for key in columns} for row in table]


def csv_value(value):
    """A JSON value as standings.csv writes it: true/false as in standings.json
    (Python would write True/False), None as an empty cell."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def standings_csv(table: Iterable[StandingRow], rules: GameRules) -> str:
    """standings.csv: the same columns as standings.json. Every cell passes
    league/csvsafe.py, so a coach named ``=HYPERLINK(...)`` opens as text."""
    out = io.StringIO()
    writer = csvsafe.writer(out, fieldnames=standings_columns(rules))
    writer.writeheader()
    writer.writerows({key: csv_value(value) for key, value in row.items()} for row in standings_rows(table, rules))
    return out.getvalue()


def ical_escape(text: str) -> str:
    """RFC 5545 3.3.11 TEXT escaping."""
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\r\n", "\\n").replace("\n", "\\n")


def ical_fold(line: str) -> str:
    """RFC 5545 3.1: lines longer than 75 octets continue on lines starting with a space."""
    out, current = [], b""
    for char in line:
        encoded = char.encode("utf-8")
        if len(current) + len(encoded) > (75 if not out else 74):
            out.append(current.decode("utf-8"))
            current = b""
        current += encoded
    out.append(current.decode("utf-8"))
    return "\r\n ".join(out)


def side_name(entry, league) -> str:
    """A side as a feed names it: the coach, or where the game names sides by team
    (Dungeon Bowl, issue 18.15) the team with its coach."""
    if league.named_by_team and entry.team:
        return f"{entry.team} ({entry})"
    return str(entry)


def fixtures_ical(fixtures: Iterable[Fixture], *, calendar_name: str, root: str = "") -> str:
    """One all-day event per match (byes are not events). ``root`` starts each
    event's link (league/links.py: SITE_URL, else the request's address)."""
    root = (root or site_root()).rstrip("/")
    stamp = timezone.now().astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    host = root.split("://", 1)[-1].split("/", 1)[0] or "localhost"
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//League Manager//Fixtures//EN",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{ical_escape(calendar_name)}",
    ]
    for fixture in fixtures:
        if fixture.is_bye:
            continue
        league = fixture.round.season.league
        home, away = side_name(fixture.home, league), side_name(fixture.away, league)
        summary = f"{league.name} {fixture.title}: {home} v {away}"
        result = fixture.result_or_none
        description = []
        if result is not None and result.is_approved:
            description.append(f"Result: {home} {result.summary.replace(' – ', ' - ')} {away}")
        if fixture.rearranged_reason:
            description.append(f"Rearranged: {fixture.rearranged_reason}")
        lines += [
            "BEGIN:VEVENT",
            f"UID:fixture-{fixture.pk}@{host}",
            f"DTSTAMP:{stamp}",
            f"DTSTART;VALUE=DATE:{fixture.date:%Y%m%d}",
            f"DTEND;VALUE=DATE:{fixture.date + datetime.timedelta(days=1):%Y%m%d}",
            f"SUMMARY:{ical_escape(summary)}",
            f"URL:{root}{fixture.get_absolute_url()}",
        ]
        if description:
            lines.append(f"DESCRIPTION:{ical_escape(chr(10).join(description))}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "\r\n".join(ical_fold(line) for line in lines) + "\r\n"
