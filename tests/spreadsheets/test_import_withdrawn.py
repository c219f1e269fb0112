"""LG-2 through the results import: nothing is imported for an entrant after it
withdrew. A line naming a withdrawn coach in a match without an approved result
is refused with its number and the reason, and nothing of the file is written;
a line repeating a result approved before the withdrawal still agrees. Driven
through ``manage.py import_results`` and the web import's preview, as an
organiser would."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db.models import Q
from django.urls import reverse

from league.models import Entry, Fixture, Result, ResultEvent, Round
from league.people import entrants as season_entrants
from league.standings.season import standings_for
from tests.support.builders import season_with_results
from tests.support.factories import SeasonFactory

pytestmark = pytest.mark.django_db

HEADER = "league,round,home,away,home_vp,away_vp,status"


@pytest.fixture
def withdrawn(league, organiser):
    """Season 1 of four coaches with round 1 approved; the first coach then
    withdraws (their later fixtures are removed, LG-2)."""
    season = SeasonFactory(league=league, name="Season 1", start_date=datetime.date(2026, 9, 7))
    season_with_results(coaches=4, played_rounds=1, season=season)
    entry = season.entries.order_by("pk").first()
    season_entrants.withdraw(entry=entry, by=organiser)
    return Entry.objects.select_related("coach", "season").get(pk=entry.pk)


def later_lines(entry: Entry) -> list[str]:
    """A round-3 line between the two coaches who still play each other, then one
    that names the withdrawn coach against the opponent they would have met."""
    season = entry.season
    rnd = season.rounds.get(number=3)
    kept = Fixture.objects.filter(round=rnd).exclude(Q(home=entry) | Q(away=entry)).select_related(
        "home__coach", "away__coach").get(away__isnull=False)
    others = set(season.entries.exclude(pk=entry.pk).values_list("coach__name", flat=True))
    opponent = (others - {kept.home.coach.name, kept.away.coach.name}).pop()
    return [
        HEADER,
        f"{season.league.name},3,{kept.home.coach.name},{kept.away.coach.name},12,8,played",
        f"{season.league.name},3,{entry.coach.name},{opponent},12,8,played",
    ]


def state(entry: Entry):
    played = {row.coach: row.played for row in standings_for(entry.season)}
    return (Fixture.objects.count(), Result.objects.count(), ResultEvent.objects.count(), Round.objects.count(),
            played)


def test_the_command_refuses_a_line_naming_a_withdrawn_coach_and_writes_nothing(tmp_path, withdrawn):
    before = state(withdrawn)
    path = tmp_path / "results.csv"
    path.write_text("\n".join(later_lines(withdrawn)) + "\n", encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_results", str(path), "--season", "Season 1", "--by", "longshanks")
    message = str(refused.value)
    assert "results.csv, line 3:" in message
    assert f"{withdrawn.coach.name} withdrew from Season 1" in message and "(LG-2)" in message
    assert "Nothing was imported" in message
    assert state(withdrawn) == before  # not even line 2, and the withdrawn coach still played 1
    assert before[4][withdrawn.coach.name] == 1


def test_a_result_approved_before_the_withdrawal_still_agrees(tmp_path, withdrawn):
    played = Fixture.objects.select_related("home__coach", "away__coach", "result").get(
        Q(home=withdrawn) | Q(away=withdrawn), round__number=1)
    result = played.result
    before = state(withdrawn)
    path = tmp_path / "again.csv"
    path.write_text("\n".join([
        HEADER,
        f"{withdrawn.season.league.name},1,{played.home.coach.name},{played.away.coach.name},"
        f"{result.home_score},{result.away_score},played",
    ]) + "\n", encoding="utf-8")
    call_command("import_results", str(path), "--season", "Season 1", "--by", "longshanks")
    assert state(withdrawn) == before


def test_the_web_preview_refuses_the_line_and_writes_nothing(client, organiser, league, withdrawn):
    before = state(withdrawn)
    client.force_login(organiser)
    text = "\n".join(later_lines(withdrawn)) + "\n"
    response = client.post(reverse("league:league_import", args=[league.slug]), {
        "file": SimpleUploadedFile("results.csv", text.encode(), content_type="text/csv"), "season": "Season 1",
    })
    assert response.status_code == 400
    page = response.content.decode()
    assert "Line 3:" in page and f"{withdrawn.coach.name} withdrew from Season 1" in page
    assert "Nothing was imported" in page and "confirm" not in response.context
    assert state(withdrawn) == before
