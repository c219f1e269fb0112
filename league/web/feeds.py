"""Published data formats: standings as JSON/CSV rows, fixtures as iCalendar."""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterable

import icalendar
from django.conf import settings
from django.utils import timezone
from django.utils.crypto import salted_hmac

from league.text import csvsafe, words
from league.outbox.links import site_root
from league.models import Fixture
from league.rules.base import GameRules
from league.standings.ranking import StandingRow

def standings_columns(rules: GameRules) -> list[str]:
    """The keys of standings.json rows and the header of standings.csv: the division,
    then the game's own columns (GB: VP; DB: touchdowns and casualties; DR: Strike
    Difference and landslides), then ``withdrawn_on``: the day an entrant who
    withdrew left (LG-2), null for everyone else. Last, so a reader of the CSV by
    position finds every older column where it was."""
    return ["division", *rules.feed_columns, "withdrawn_on"]


def standings_rows(table: Iterable[StandingRow], rules: GameRules) -> list[dict]:
    """Rows in table order (division by division) with ``standings_columns``;
    ``division`` is null in a season without divisions."""
    columns = standings_columns(rules)
    return [{key: row.value(key) for key in columns} for row in table]


def csv_value(value):
    """A JSON value as standings.csv writes it: true/false as in standings.json
    (Python would write True/False), a date as ISO 8601, None as an empty cell."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def standings_csv(table: Iterable[StandingRow], rules: GameRules) -> str:
    """standings.csv: the same columns as standings.json. Every cell passes
    league/text/csvsafe.py, so a coach named ``=HYPERLINK(...)`` opens as text."""
    out = io.StringIO()
    writer = csvsafe.writer(out, fieldnames=standings_columns(rules))
    writer.writeheader()
    writer.writerows({key: csv_value(value) for key, value in row.items()} for row in standings_rows(table, rules))
    return out.getvalue()


def side_name(entry, league, *, with_coach: bool = True) -> str:
    """A side as a feed or a message names it: the coach, or where the game names
    sides by team (Dungeon Bowl) the team, with its coach unless ``with_coach`` is
    False."""
    return words.side(entry, entry.team, by_team=league.named_by_team, with_coach=with_coach)


def uid_domain() -> str:
    """What follows the ``@`` of every event's UID: the host of ``SITE_URL`` when it is
    set, else a name made from the secret key (under the reserved ``.invalid``), never
    the address a feed was read through. A calendar that subscribed through
    ``localhost`` and through ``127.0.0.1`` then sees one event per fixture, not two,
    and two sites never share a UID."""
    if settings.SITE_URL:
        return settings.SITE_URL.split("://", 1)[-1].split("/", 1)[0]
    return salted_hmac("league.ical.uid", "site").hexdigest()[:16] + ".league.invalid"


def fixtures_ical(fixtures: Iterable[Fixture], *, calendar_name: str, root: str = "") -> str:
    """One all-day event per match (byes are not events); a match a withdrawal
    cancelled (LG-2) stays, marked ``STATUS:CANCELLED``. ``root`` starts each
    event's link (league/outbox/links.py: SITE_URL, else the request's address).

    The ``icalendar`` library writes the text: RFC 5545 escaping (3.3.11), folding at
    75 octets (3.1) and the ``VALUE=DATE`` form of an all-day date. A fixture's UID is
    its primary key at ``uid_domain()``, so a calendar app updates, never duplicates,
    an event on every refresh."""
    root = (root or site_root()).rstrip("/")
    stamp = timezone.now().astimezone(datetime.timezone.utc).replace(microsecond=0)
    host = uid_domain()
    calendar = icalendar.Calendar()
    calendar.add("version", "2.0")
    calendar.add("prodid", "-//League Manager//Fixtures//EN")
    calendar.add("calscale", "GREGORIAN")
    # An X- property is written as it is given unless it is typed: vText escapes it.
    calendar.add("x-wr-calname", icalendar.vText(calendar_name))
    for fixture in fixtures:
        if fixture.is_bye:
            continue
        league = fixture.round.season.league
        home, away = side_name(fixture.home, league), side_name(fixture.away, league)
        result = fixture.result_or_none
        description = []
        if result is not None and result.is_approved:
            description.append(f"Result: {home} {result.summary.replace(' – ', ' - ')} {away}")
        if fixture.is_cancelled:  # LG-2
            description.append(f"Not played: {side_name(fixture.withdrawn_side, league)} withdrew")
        elif fixture.rearranged_reason:
            description.append(f"Rearranged: {fixture.rearranged_reason}")
        event = icalendar.Event()
        event.add("uid", f"fixture-{fixture.pk}@{host}")
        event.add("dtstamp", stamp)
        event.add("dtstart", fixture.date)
        event.add("dtend", fixture.date + datetime.timedelta(days=1))
        event.add("summary", f"{league.name} {fixture.title}: {home} v {away}")
        event.add("url", f"{root}{fixture.get_absolute_url()}")
        if fixture.is_cancelled:
            # The same UID with STATUS:CANCELLED: a subscribed calendar marks the
            # event it holds as called off instead of silently losing it.
            event.add("status", "CANCELLED")
        if description:
            event.add("description", "\n".join(description))
        calendar.add_component(event)
    return calendar.to_ical(sorted=False).decode("utf-8")
