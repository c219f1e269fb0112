"""What the organiser's admin does with input that a database constraint or a
bound refuses: a form error or a message, never a 500,
and nothing written."""

from __future__ import annotations

import datetime

import pytest
from django.contrib import admin
from django.urls import reverse

from league.admin.scoping import BoundedInlineMixin, BoundedSelectionMixin, CheckedModelForm
from league.dungeonbowl.models import Player
from league.models import Coach, Fixture, Season
from tests.dungeonbowl.builders import db_league, db_team
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, RoundFactory, UserFactory


PROJECT_APPS = ("league", "campaigns", "dungeonbowl", "dreadball", "guildball")
NO_EVENTS = {"events-TOTAL_FORMS": "0", "events-INITIAL_FORMS": "0"}  # the fixture's read-only history inline


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def round_one(season):
    entries = [EntryFactory(season=season, coach=CoachFactory(name=name)) for name in ("Velocity", "Rage", "Shade", "Brick")]
    rnd = RoundFactory(season=season, number=1, date=datetime.date(2026, 9, 7))
    FixtureFactory(round=rnd, home=entries[0], away=entries[1])
    return rnd, entries


# Constraints on fields the admin form does not show -------------------


@pytest.mark.parametrize("side", ["home", "away"])
def test_admin_fixture_for_an_entrant_already_playing_that_round_is_a_form_error(organiser_client, round_one, side):
    """fixture_home_once_per_round / fixture_away_once_per_round name ``stage``, which
    the add form does not show: Django skipped them and the database refused (a 500)."""
    rnd, entries = round_one
    busy = entries[0] if side == "home" else entries[1]
    other = entries[2]
    data = {"round": rnd.pk, "home": busy.pk, "away": other.pk, "date": "2026-09-07", **NO_EVENTS}
    if side == "away":
        data["home"], data["away"] = other.pk, busy.pk
    response = organiser_client.post(reverse("admin:league_fixture_add"), data)
    assert response.status_code == 200
    assert f"{busy} already plays in {rnd}." in response.content.decode()
    assert Fixture.objects.filter(round=rnd).count() == 1


def test_admin_fixture_for_free_entrants_is_added(organiser_client, round_one):
    rnd, entries = round_one
    response = organiser_client.post(
        reverse("admin:league_fixture_add"),
        {"round": rnd.pk, "home": entries[2].pk, "away": entries[3].pk, "date": "2026-09-07", **NO_EVENTS},
    )
    assert response.status_code == 302
    assert Fixture.objects.filter(round=rnd, home=entries[2], away=entries[3]).exists()


def test_a_name_the_organiser_already_has_is_free_outside_a_season(organiser_client, organiser, league):
    """Names differ within a season's entrants, nowhere else: an organiser may add
    a second "Hollis" (for another season or league)."""
    Coach.objects.create(name="Hollis", created_by=organiser)
    response = organiser_client.post(reverse("admin:league_coach_add"), {"name": "Hollis", "email": "", "league": league.pk})
    assert response.status_code == 302
    assert Coach.objects.filter(name="Hollis").count() == 2


def test_coach_rename_to_a_name_of_their_season_is_a_form_error(organiser_client, organiser, season):
    EntryFactory(season=season, coach=Coach.objects.create(name="Hollis", created_by=organiser))
    other = EntryFactory(season=season, coach=Coach.objects.create(name="Sprocket", created_by=organiser)).coach
    response = organiser_client.post(reverse("admin:league_coach_change", args=[other.pk]), {"name": "HOLLIS", "email": ""})
    assert response.status_code == 200
    assert "There is already a coach called Hollis in Season 1" in response.content.decode()
    assert Coach.objects.get(pk=other.pk).name == "Sprocket"
    elsewhere = Coach.objects.create(name="Sprocket Two", created_by=organiser)
    response = organiser_client.post(reverse("admin:league_coach_change", args=[elsewhere.pk]), {"name": "Hollis", "email": ""})
    assert response.status_code == 302 and Coach.objects.get(pk=elsewhere.pk).name == "Hollis"


def test_another_organisers_coach_name_is_free(organiser_client, organiser, league):
    Coach.objects.create(name="Hollis", created_by=UserFactory(username="someone"))
    response = organiser_client.post(reverse("admin:league_coach_add"), {"name": "Hollis", "email": "", "league": league.pk})
    assert response.status_code == 302
    assert Coach.objects.get(name="Hollis", created_by=organiser)


def test_dungeon_bowl_player_number_taken_on_the_draft_list_is_a_form_error(organiser_client, organiser):
    """dbplayer_number_unique_on_draft_list names ``team`` and ``status``, read-only on
    the player's admin page: renumbering onto a team-mate was an IntegrityError."""
    team = db_team(db_league(organiser), "Karak Scorchers")
    first, second = team.players.order_by("number")[:2]
    response = organiser_client.post(
        reverse("admin:dungeonbowl_player_change", args=[second.pk]), {"name": second.name, "number": str(first.number)}
    )
    assert response.status_code == 200
    assert f"{first.name} already wears number {first.number} on this team" in response.content.decode()
    assert Player.objects.get(pk=second.pk).number == second.number


def test_every_admin_form_checks_the_whole_row():
    """Each admin (and inline) of the project's apps writes through CheckedModelForm
    (the game's settings inline on a league included)."""
    from league.admin.leagues import _settings_inline
    from league.guildball.models import GuildBallSettings

    assert issubclass(_settings_inline(GuildBallSettings), BoundedInlineMixin)
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in PROJECT_APPS:
            continue
        assert issubclass(model_admin.form, CheckedModelForm), type(model_admin).__name__
        for inline in model_admin.inlines:
            assert issubclass(inline, BoundedInlineMixin), inline.__name__
            assert issubclass(inline.form, CheckedModelForm), inline.__name__


# Search terms and date filters, bounded for every changelist ---------


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.mark.parametrize("year", ["99999999999999999999", "0", "10000", "²", "-1"])
def test_date_filter_off_the_calendar_is_refused_with_a_message(organiser_client, round_one, year):
    response = organiser_client.get(reverse("admin:league_fixture_changelist") + f"?date__year={year}&round=1")
    assert response.status_code == 302
    assert response.url == reverse("admin:league_fixture_changelist") + "?round=1"
    page = organiser_client.get(response.url)
    assert "That date is not on the calendar." in _messages(page)
    assert "Velocity" in page.content.decode()


@pytest.mark.parametrize("query", ["date__year=99999999999999999999", "date__month__gte=99999999999999999999", "date__day=0"])
def test_any_date_fields_part_off_the_calendar_is_refused(organiser_client, round_one, query):
    """The admin accepts a lookup on any of the model's own fields: a round's date
    (no date hierarchy there) overflowed the same way."""
    response = organiser_client.get(reverse("admin:league_round_changelist") + "?" + query)
    assert response.status_code == 302 and response.url == reverse("admin:league_round_changelist")
    assert "That date is not on the calendar." in _messages(organiser_client.get(response.url))


def test_date_filter_on_the_calendar_lists_the_fixtures(organiser_client, round_one):
    response = organiser_client.get(reverse("admin:league_fixture_changelist") + "?date__year=2026&date__month=9")
    assert response.status_code == 200
    assert "Velocity" in response.content.decode()


def test_round_filter_with_a_digit_that_is_no_number_lists_every_fixture(organiser_client, round_one):
    response = organiser_client.get(reverse("admin:league_fixture_changelist") + "?round=%C2%B2")
    assert response.status_code == 200


@pytest.mark.parametrize("model", ["fixture", "coach", "season", "entry", "result", "league"])
def test_a_search_of_a_thousand_words_is_refused_with_a_message(organiser_client, round_one, model):
    """On SQLite 1,000 words were "Expression tree is too large", shown as the outage page."""
    url = reverse(f"admin:league_{model}_changelist")
    response = organiser_client.get(url, {"q": " ".join(["velocity"] * 1000)})
    assert response.status_code == 302 and response.url == url
    assert "Search for at most 10 words (200 characters)." in _messages(organiser_client.get(response.url))


def test_a_search_within_the_bounds_finds(organiser_client, round_one):
    response = organiser_client.get(reverse("admin:league_coach_changelist"), {"q": "Velocity"})
    assert response.status_code == 200
    content = response.content.decode()
    assert "Velocity" in content and "Brick" not in content


def test_every_changelist_is_bounded():
    """One mechanism for every changelist of the project's apps (BoundedSelectionMixin)."""
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label in PROJECT_APPS:
            assert isinstance(model_admin, BoundedSelectionMixin), type(model_admin).__name__


# A formset is as big as the page it came from ------------------------


def _season_add(total_forms: int, league) -> dict:
    return {
        "league": league.pk, "name": "Flood", "start_date": "2026-10-01", "cadence_days": 7,
        "divisions-TOTAL_FORMS": "0", "divisions-INITIAL_FORMS": "0",
        "entries-TOTAL_FORMS": str(total_forms), "entries-INITIAL_FORMS": "0",
    }


def test_a_season_add_with_two_thousand_entry_forms_is_refused_quickly(organiser_client, league, django_assert_max_num_queries):
    """entries-TOTAL_FORMS=2000 built and rendered 2,000 forms (30 s, the worker
    killed): the formset holds at most what the page offers."""
    for i in range(30):
        Coach.objects.create(name=f"Coach {i}", created_by=league.organisers.get())
    with django_assert_max_num_queries(200):
        response = organiser_client.post(reverse("admin:league_season_add"), _season_add(2000, league))
    assert response.status_code == 200
    assert "Please submit at most" in response.content.decode()
    assert response.content.decode().count('name="entries-') < 600
    assert not Season.objects.filter(name="Flood").exists()


def test_a_post_of_more_fields_than_any_form_has_is_a_400(organiser_client, league):
    data = _season_add(2, league)
    data.update({f"entries-{i}-team": "x" for i in range(1100)})
    response = organiser_client.post(reverse("admin:league_season_add"), data)
    assert response.status_code == 400
    assert not Season.objects.filter(name="Flood").exists()


def test_a_season_change_page_saves_more_entries_than_an_inline_offers(organiser_client, season):
    """The bound is what the page shows: a season already holding more entries than
    INLINE_MAX still saves (absolute_max grows with the rows it has)."""
    from league.admin.scoping import INLINE_MAX

    entries = [EntryFactory(season=season, coach=CoachFactory(name=f"Coach {i}")) for i in range(INLINE_MAX + 2)]
    page = organiser_client.get(reverse("admin:league_season_change", args=[season.pk])).content.decode()
    assert 'name="entries-TOTAL_FORMS" value="66"' in page  # every entry, no empty row
    data = {
        "league": season.league_id, "name": "Season One", "start_date": str(season.start_date),
        "cadence_days": season.cadence_days, "created_at_0": "2026-01-01", "created_at_1": "10:00",
        "divisions-TOTAL_FORMS": "0", "divisions-INITIAL_FORMS": "0",
        "entries-TOTAL_FORMS": str(len(entries)), "entries-INITIAL_FORMS": str(len(entries)),
    }
    for i, entry in enumerate(entries):
        data.update({f"entries-{i}-id": entry.pk, f"entries-{i}-season": season.pk, f"entries-{i}-coach": entry.coach_id,
                     f"entries-{i}-team": entry.team, f"entries-{i}-division": ""})
    response = organiser_client.post(reverse("admin:league_season_change", args=[season.pk]), data)
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.name == "Season One"
