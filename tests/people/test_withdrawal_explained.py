"""LG-2 Decision, as the pages show it: an entrant who withdraws keeps their
approved results; their other fixtures stay listed as not played ("not played:
Dmitri withdrew"), their pages say so, the calendar feeds mark them cancelled,
nothing can be reported for them, each opponent is told, the standings keep the
entrant's row marked with the day and count the cancelled fixtures for nobody,
and the withdrawn coach has nothing left to do in that season."""

import csv
import datetime
import io
import json
import re

import icalendar
import pytest
from django.core import mail
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from league import selectors
from league.models import Entry, Fixture, NotificationPreference, Result
from league.people import entrants as season_entrants
from league.services import fixtures as fixture_services
from league.services import results as services
from league.standings.season import compute_standings
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(organiser):
    return LeagueFactory(name="Midas Cup", slug="midas", organisers=[organiser])


@pytest.fixture
def season(league):
    """Four coaches, every round dated in the past, the first round approved;
    one coach is Dmitri."""
    season = SeasonFactory(league=league, name="Season 1",
                           start_date=timezone.localdate() - datetime.timedelta(days=60))
    season_with_results(coaches=4, played_rounds=1, season=season)
    coach = season.entries.order_by("pk").first().coach
    coach.name = "Dmitri"
    coach.save()
    return season


@pytest.fixture
def dmitri(season):
    return season.entries.get(coach__name="Dmitri")


def theirs(entry):
    return Fixture.objects.filter(Q(home=entry) | Q(away=entry)).matches()


def opponent_of(fixture, entry):
    return fixture.away if fixture.home_id == entry.pk else fixture.home


def withdraw(client, organiser, league, entry, capture):
    client.force_login(organiser)
    with capture(execute=True):
        response = client.post(reverse("league:withdraw_entry", args=[league.slug, entry.pk]), {"confirmed": "yes"})
    assert response.status_code == 302
    client.logout()


def test_each_opponent_is_told_once_and_an_opt_out_is_honoured(
    client, organiser, league, season, dmitri, django_capture_on_commit_callbacks
):
    cancelled = list(theirs(dmitri).exclude(result__status=Result.Status.APPROVED).select_related("home__coach", "away__coach"))
    assert len(cancelled) == 2
    told, muted = (opponent_of(f, dmitri).coach for f in cancelled)
    NotificationPreference.objects.create(user=muted.user, off=["opponent_withdrew"])
    withdraw(client, organiser, league, dmitri, django_capture_on_commit_callbacks)
    assert [message.to for message in mail.outbox] == [[told.email]]
    message = mail.outbox[0]
    assert message.subject == "[Midas Cup] Dmitri withdrew: your match is not played"
    assert f"Dmitri ({dmitri.team}) has withdrawn from Midas Cup (Season 1)." in message.body
    fixture = next(f for f in cancelled if opponent_of(f, dmitri).coach == told)
    assert f"{fixture.title}, {fixture.date:%a %d %b %Y}: {fixture.home} v {fixture.away}, not played" in message.body
    assert "counts for nothing in the table for either side" in message.body


def test_the_fixtures_stay_listed_and_their_pages_say_why(
    client, organiser, league, season, dmitri, django_capture_on_commit_callbacks
):
    fixture = theirs(dmitri).exclude(result__status=Result.Status.APPROVED).select_related("round").last()
    opponent = opponent_of(fixture, dmitri)
    withdraw(client, organiser, league, dmitri, django_capture_on_commit_callbacks)

    client.force_login(opponent.coach.user)
    page = client.get(fixture.get_absolute_url())
    assert page.status_code == 200
    text = page.content.decode()
    assert "Not played: Dmitri withdrew" in text
    assert f"Dmitri withdrew from Season 1 on {date_format(timezone.localdate(), 'j M Y')}" in text
    assert "Report the result" not in text and "Not reported yet" not in text

    round_page = client.get(reverse("league:fixtures", args=[league.slug]), {"round": fixture.round.number})
    assert "not played: Dmitri withdrew" in round_page.content.decode()
    coach_page = client.get(reverse("league:coach_detail", args=[league.slug, opponent.coach_id])).content.decode()
    assert "not played: Dmitri withdrew" in coach_page
    week = client.get(league.get_absolute_url()).content.decode()  # this week is the last round: Dmitri's cancelled
    assert "not played: Dmitri withdrew" in week

    client.force_login(organiser)
    organiser_view = client.get(fixture.get_absolute_url()).content.decode()
    assert "Save and approve" not in organiser_view and "Rearrange" not in organiser_view


def test_nothing_can_be_reported_entered_or_rearranged_for_them(
    client, organiser, league, season, dmitri, django_capture_on_commit_callbacks
):
    fixture = theirs(dmitri).exclude(result__status=Result.Status.APPROVED).select_related("home__coach", "away__coach").first()
    opponent = opponent_of(fixture, dmitri)
    withdraw(client, organiser, league, dmitri, django_capture_on_commit_callbacks)

    client.force_login(opponent.coach.user)
    refused = client.post(reverse("league:report_result", args=[fixture.pk]), {"home_score": 12, "away_score": 6},
                          follow=True)
    assert refused.status_code == 400
    assert "is not played: Dmitri withdrew: nothing can be reported or arranged for it." in refused.content.decode()
    assert not Result.objects.filter(fixture=fixture).exists()

    with pytest.raises(Exception, match="not played: Dmitri withdrew"):
        services.record_result(fixture=fixture, by=organiser, reason="played after all", home_score=12, away_score=6)
    with pytest.raises(Exception, match="not played: Dmitri withdrew"):
        fixture_services.rearrange_fixture(fixture=fixture, by=organiser, new_date=timezone.localdate(), reason="venue")
    assert not Result.objects.filter(fixture=fixture).exists()


def test_the_calendar_keeps_the_event_and_marks_it_cancelled(
    client, organiser, league, season, dmitri, django_capture_on_commit_callbacks
):
    fixture = theirs(dmitri).exclude(result__status=Result.Status.APPROVED).first()
    played = theirs(dmitri).filter(result__status=Result.Status.APPROVED).first()
    feed = reverse("league:league_ics", args=[league.slug])

    def events():
        calendar = icalendar.Calendar.from_ical(client.get(feed).content)
        return {str(event["UID"]): event for event in calendar.walk("VEVENT")}

    before = events()
    withdraw(client, organiser, league, dmitri, django_capture_on_commit_callbacks)
    after = events()
    assert set(after) == set(before)  # the same UIDs: a calendar updates the events it holds
    uid = next(uid for uid in after if uid.startswith(f"fixture-{fixture.pk}@"))
    assert after[uid]["STATUS"] == "CANCELLED" and "Not played: Dmitri withdrew" in str(after[uid]["DESCRIPTION"])
    assert "STATUS" not in before[uid]
    played_uid = next(uid for uid in after if uid.startswith(f"fixture-{played.pk}@"))
    assert "STATUS" not in after[played_uid]
    coach_feed = client.get(reverse("league:coach_ics", args=[league.slug, dmitri.coach_id])).content.decode()
    assert coach_feed.count("STATUS:CANCELLED") == 2


def test_the_table_keeps_the_row_marked_with_the_day(
    client, organiser, league, season, dmitri, django_capture_on_commit_callbacks
):
    withdraw(client, organiser, league, dmitri, django_capture_on_commit_callbacks)
    today = timezone.localdate()
    rows = json.loads(client.get(reverse("league:standings_json", args=[league.slug])).content)["standings"]
    assert {row["coach"]: row["withdrawn_on"] for row in rows} == {
        entry.coach.name: today.isoformat() if entry == dmitri else None for entry in season.entries.all()
    }
    csv_text = client.get(reverse("league:standings_csv", args=[league.slug])).content.decode()
    rows = {row["coach"]: row["withdrawn_on"] for row in csv.DictReader(io.StringIO(csv_text))}
    assert rows == {entry.coach.name: today.isoformat() if entry == dmitri else "" for entry in season.entries.all()}
    page = client.get(league.get_absolute_url()).content.decode()
    assert f'<small class="withdrew">withdrew {date_format(today, "j M")}</small>' in page
    assert page.count('class="withdrew"') == 1
    own = client.get(reverse("league:coach_detail", args=[league.slug, dmitri.coach_id])).content.decode()
    assert f"Withdrew {date_format(today, 'j M')}: the approved results stand, the matches left are not played." in own


def test_the_cancelled_fixtures_count_for_nobody(organiser, season, dmitri):
    """Direct: the table after the withdrawal is the table before it, a report
    waiting on a cancelled fixture dropped, not counted (no double loss)."""
    waiting = theirs(dmitri).exclude(result__status=Result.Status.APPROVED).select_related(
        "home__coach__user", "away__coach__user").first()
    services.report_result(fixture=waiting, by=waiting.home.coach.user, home_score=12, away_score=0)

    def figures():
        return {row.coach: (row.position, row.played, row.won, row.drawn, row.lost, row.lp, row.stats)
                for row in compute_standings(season)}

    before = figures()
    assert season_entrants.withdraw(entry=dmitri, by=organiser) == 2
    assert figures() == before
    assert not Result.objects.filter(fixture=waiting).exists()
    assert Fixture.objects.filter(cancelled_by=dmitri).count() == 2
    assert all(row.withdrawn_on == timezone.localdate() for row in compute_standings(season) if row.coach == "Dmitri")


def test_the_withdrawn_coach_has_nothing_left_to_do_in_the_season(
    client, organiser, league, season, dmitri, django_capture_on_commit_callbacks
):
    client.force_login(dmitri.coach.user)
    assert "Report:" in client.get(reverse("league:my_fixtures")).content.decode()
    withdraw(client, organiser, league, dmitri, django_capture_on_commit_callbacks)
    client.force_login(dmitri.coach.user)
    page = client.get(reverse("league:my_fixtures")).content.decode()
    assert "Report:" not in page and "Nothing: you are up to date." in page
    assert Entry.objects.get(pk=dmitri.pk).withdrawn_at is not None


def test_the_league_page_says_the_season_is_played_out(client, organiser, league):
    """The last round's only match left is one a withdrawal cancelled: nothing is
    left to play this week or in the season (the league page's week, the next
    season's and the Final Day's checks)."""
    season = SeasonFactory(league=league, name="Season 1",
                           start_date=timezone.localdate() - datetime.timedelta(days=60))
    season_with_results(coaches=4, played_rounds=2, season=season)
    left = Fixture.objects.filter(round__season=season).unplayed()
    gone = left.first().home
    Result.objects.create(fixture=left.exclude(Q(home=gone) | Q(away=gone)).get(), home_score=12, away_score=0,
                          outcome="home", summary="12 – 0", status=Result.Status.APPROVED, approved_at=timezone.now())
    season_entrants.withdraw(entry=gone, by=organiser)
    assert not Fixture.objects.filter(round__season=season).unplayed().exists()
    publication = selectors.publication(season)
    assert publication.this_week_done and publication.all_played


def test_a_withdrawn_entrants_bye_says_not_played_not_has_a_bye(client, organiser, league, django_capture_on_commit_callbacks):
    """Five coaches: each round someone has a bye. Once its entrant withdrew, a
    bye still to come reads "not played: withdrew", on the lists and its page."""
    season = SeasonFactory(league=league, name="Season 1", start_date=timezone.localdate() + datetime.timedelta(days=3))
    season_with_results(coaches=5, played_rounds=0, season=season)
    bye = Fixture.objects.filter(round__season=season, away__isnull=True).select_related("home__coach", "round").first()
    gone = bye.home
    withdraw(client, organiser, league, gone, django_capture_on_commit_callbacks)
    round_page = client.get(reverse("league:fixtures", args=[league.slug]), {"round": bye.round.number}).content.decode()
    lines = re.findall(r'<li class="fixture">.*?</li>', round_page, re.S)
    line = next(li for li in lines if gone.coach.name in li and "/fixtures/" not in li)  # the bye: no match to open
    assert "not played: withdrew" in line and "has a bye" not in line
    page = client.get(bye.get_absolute_url())
    assert page.status_code == 200
    text = page.content.decode()
    assert f"{gone.coach.name} withdrew from Season 1 on {date_format(timezone.localdate(), 'j M Y')}" in text
    assert ": bye" not in text and "has no match" not in text
    others = Fixture.objects.filter(round__season=season, away__isnull=True).exclude(home=gone).select_related("round").first()
    other_round = client.get(reverse("league:fixtures", args=[league.slug]), {"round": others.round.number}).content.decode()
    assert "has a bye" in other_round  # anyone else's bye stays a bye
