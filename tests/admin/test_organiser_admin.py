"""The organiser's admin site (STYLE habit 8; GB-1, GB-4..GB-8): scoping to the
leagues a user organises, and the workflow actions through the services."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core import mail
from django.urls import reverse

from league.guildball.models import GuildBallSettings
from league.models import Coach, Division, Fixture, League, Result, ResultEvent, Season
from tests.support.builders import season_with_results
from tests.support.factories import (
    CoachFactory,
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    ResultFactory,
    RoundFactory,
    SeasonFactory,
    UserFactory,
)

MODELS = ["coach", "league", "season", "entry", "round", "fixture", "result"]


def changelist(model: str) -> str:
    return reverse(f"admin:league_{model}_changelist")


def change_url(obj, view: str = "change") -> str:
    return reverse(f"admin:league_{obj._meta.model_name}_{view}", args=[obj.pk])


def run_action(client, model: str, action: str, objects, query: str = "", **data):
    """POST an admin action on ``objects`` (the intermediate form's submit when
    ``apply`` is in ``data``) and follow the redirect."""
    payload = {"action": action, ACTION_CHECKBOX_NAME: [obj.pk for obj in objects], **data}
    return client.post(changelist(model) + query, payload, follow=True)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def world(season):
    """The organiser's season (Velocity, Rage, Shade, Brick), one reported and one
    confirmed result, one fixture unplayed, plus another league run by someone else."""
    entries = [
        EntryFactory(season=season, coach=CoachFactory(name=name, email=f"{name.lower()}@example.com"))
        for name in ("Velocity", "Rage", "Shade", "Brick")
    ]
    rnd = RoundFactory(season=season, number=1, date=datetime.date(2026, 9, 7))
    reported = FixtureFactory(round=rnd, home=entries[0], away=entries[1])
    confirmed = FixtureFactory(round=rnd, home=entries[2], away=entries[3])
    rnd2 = RoundFactory(season=season, number=2, date=datetime.date(2026, 9, 14))
    unplayed = FixtureFactory(round=rnd2, home=entries[0], away=entries[2])
    reported_result = ResultFactory(
        fixture=reported, home_score=12, away_score=8, status=Result.Status.REPORTED, approved_at=None, reported_side="home"
    )
    confirmed_result = ResultFactory(
        fixture=confirmed, home_score=4, away_score=12, status=Result.Status.CONFIRMED, approved_at=None, reported_side="home"
    )

    foreign_league = LeagueFactory(name="Faraway Cup", slug="faraway")
    foreign_season = SeasonFactory(league=foreign_league, name="Faraway Season")
    foreign_round = RoundFactory(season=foreign_season, number=1)
    foreign_fixture = FixtureFactory(
        round=foreign_round,
        home=EntryFactory(season=foreign_season, coach=CoachFactory(name="Stranger")),
        away=EntryFactory(season=foreign_season, coach=CoachFactory(name="Outsider")),
    )
    foreign_result = ResultFactory(fixture=foreign_fixture, status=Result.Status.DISPUTED, approved_at=None, dispute_reason="Faraway quarrel")
    return {
        "season": season,
        "entries": entries,
        "round": rnd,
        "reported": reported_result,
        "confirmed": confirmed_result,
        "unplayed": unplayed,
        "foreign_league": foreign_league,
        "foreign_season": foreign_season,
        "foreign_round": foreign_round,
        "foreign_fixture": foreign_fixture,
        "foreign_result": foreign_result,
    }


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


# Smoke tests -------------------------------------------------------------------

OWN_CONTENT = {
    "coach": "Velocity",
    "league": "Midlands Big League",
    "season": "Season 1",
    "entry": "Velocity",
    "round": "Round 2",
    "fixture": "Velocity",
    "result": "Rage",
}


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("who", ["superuser", "organiser"])
def test_changelist_lists_own_objects(client, world, model, who, request):
    client.force_login(request.getfixturevalue(who))
    response = client.get(changelist(model))
    assert response.status_code == 200
    content = response.content.decode()
    assert OWN_CONTENT[model] in content
    foreign = {"coach": "Stranger", "league": "Faraway Cup", "season": "Faraway Season", "entry": "Stranger",
               "round": "Faraway Season", "fixture": "Stranger", "result": "Stranger"}[model]
    if who == "superuser":
        assert foreign in content
    else:
        assert foreign not in content


@pytest.mark.parametrize("model", ["coach", "league", "season", "entry", "round", "fixture"])
@pytest.mark.parametrize("who", ["superuser", "organiser"])
def test_add_page_renders(client, world, model, who, request):
    client.force_login(request.getfixturevalue(who))
    response = client.get(reverse(f"admin:league_{model}_add"))
    assert response.status_code == 200
    assert 'name="_save"' in response.content.decode()


@pytest.mark.parametrize("who", ["superuser", "organiser"])
def test_results_are_never_added_by_hand(client, world, who, request):
    """A result is entered through the Fixture action, so it goes through record_result."""
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("admin:league_result_add")).status_code == 403
    assert reverse("admin:league_result_add") not in client.get(changelist("result")).content.decode()


def test_admin_index_lists_the_cockpit(organiser_client, world):
    content = organiser_client.get(reverse("admin:index")).content.decode()
    for name in ("Coaches", "Leagues", "Seasons", "Fixtures", "Results"):
        assert name in content


def test_coach_without_staff_is_sent_to_login(client, world):
    client.force_login(world["entries"][0].coach.user)
    response = client.get(changelist("fixture"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


def test_anonymous_is_sent_to_login(client, world):
    response = client.get(change_url(world["reported"]))
    assert response.status_code == 302 and response.url.startswith(reverse("admin:login"))


# Scoping -----------------------------------------------------------------------


@pytest.mark.parametrize("key", ["season", "round", "unplayed", "reported"])
def test_other_organiser_cannot_open_this_leagues_objects(client, world, other_organiser, key):
    client.force_login(other_organiser)
    obj = world[key]
    response = client.get(change_url(obj))
    assert response.status_code in (302, 403, 404)
    if response.status_code == 302:
        assert response.url == reverse("admin:index")
    assert response.status_code != 200
    for view in ("history", "delete"):
        response = client.get(change_url(obj, view))
        assert response.status_code in (302, 403, 404), view
        assert "Velocity" not in response.content.decode()


def test_other_organiser_cannot_open_this_league(client, world, other_organiser, league):
    client.force_login(other_organiser)
    response = client.get(change_url(league), follow=True)
    assert "Midlands Big League" not in response.content.decode()
    response = client.post(change_url(league), {"name": "Hijacked", "slug": "hijacked", "game_system": "guildball", "vp_target": 12})
    assert response.status_code in (302, 403, 404)
    league.refresh_from_db()
    assert league.name == "Midlands Big League"


def test_other_organiser_sees_nothing_of_this_league(client, world, other_organiser):
    client.force_login(other_organiser)
    for model in MODELS:
        response = client.get(changelist(model) + ("?show=all" if model == "result" else ""))
        assert response.status_code == 200
        content = response.content.decode()
        assert "Velocity" not in content and "Midlands" not in content, model


def test_other_organiser_cannot_act_on_this_leagues_results(client, world, other_organiser):
    client.force_login(other_organiser)
    run_action(client, "result", "approve", [world["reported"]])
    world["reported"].refresh_from_db()
    assert world["reported"].status == Result.Status.REPORTED


def test_coach_only_visible_to_their_leagues_or_creator(client, world, organiser, other_organiser):
    lonely = CoachFactory(name="Newcomer", created_by=other_organiser)
    client.force_login(organiser)
    assert "Newcomer" not in client.get(changelist("coach")).content.decode()
    assert client.get(change_url(lonely)).status_code == 302
    client.force_login(other_organiser)
    assert "Newcomer" in client.get(changelist("coach")).content.decode()
    assert client.get(change_url(lonely)).status_code == 200


def test_form_choices_are_scoped_to_own_leagues(organiser_client, world):
    content = organiser_client.get(reverse("admin:league_season_add")).content.decode()
    assert "Midlands Big League" in content and "Faraway Cup" not in content
    content = organiser_client.get(reverse("admin:league_fixture_add")).content.decode()
    assert "Velocity (Midlands Big League – Season 1)" in content
    assert "Stranger" not in content and "Faraway" not in content
    content = organiser_client.get(change_url(world["season"])).content.decode()
    assert "Velocity" in content and "Stranger" not in content


def test_fixture_add_refuses_entries_of_another_season(organiser_client, world, league):
    other_season = SeasonFactory(league=league, name="Season 2")
    elsewhere = EntryFactory(season=other_season, coach=CoachFactory(name="Elsewhere"))
    rnd = world["round"]
    response = organiser_client.post(
        reverse("admin:league_fixture_add"),
        {"round": rnd.pk, "home": world["entries"][1].pk, "away": elsewhere.pk, "date": "2026-09-08"},
    )
    assert response.status_code == 200
    assert "is not entered in" in response.content.decode()
    assert not Fixture.objects.filter(away=elsewhere).exists()


def test_organiser_cannot_add_a_season_to_another_league(organiser_client, world):
    response = organiser_client.post(
        reverse("admin:league_season_add"),
        {
            "league": world["foreign_league"].pk, "name": "Sneaky", "start_date": "2026-10-01", "cadence_days": 7,
            "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 200
    assert not Season.objects.filter(name="Sneaky").exists()


# Leagues and coaches -----------------------------------------------------------


# The site's new-league form's first season (founding.create_league), as the admin's add page asks it.
FIRST_SEASON = {"season_name": "Season 1", "start_date": "2026-09-07", "cadence_days": 7, "double_round_robin": "single"}


def test_organiser_adds_a_league_and_runs_it(organiser_client, organiser):
    content = organiser_client.get(reverse("admin:league_league_add")).content.decode()
    assert "id_organisers" not in content  # only a superuser picks organisers
    assert 'name="season_name"' in content and 'name="slug"' not in content
    response = organiser_client.post(
        reverse("admin:league_league_add"),
        {"name": "Northern League", "game_system": "guildball", "description": "", **FIRST_SEASON},
        follow=True,
    )
    assert response.status_code == 200
    league = League.objects.get(slug="northern-league")  # the site's slug for the name
    assert list(league.organisers.all()) == [organiser]
    assert list(league.seasons.values_list("name", "start_date", "cadence_days", "double_round_robin")) == [
        ("Season 1", datetime.date(2026, 9, 7), 7, False)
    ]
    assert "Northern League" in organiser_client.get(changelist("league")).content.decode()


def test_the_games_settings_start_at_the_rulebook_defaults_and_are_edited_inline(organiser_client):
    organiser_client.post(
        reverse("admin:league_league_add"),
        {"name": "Quick League", "game_system": "guildball", "description": "", **FIRST_SEASON},
    )
    league = League.objects.get(name="Quick League")
    settings_row = GuildBallSettings.objects.get(league=league)
    assert settings_row.vp_target == 12  # GB-8: a standard game
    page = organiser_client.get(change_url(league)).content.decode()
    assert "VP target" in page and 'name="guildball_settings-0-vp_target"' in page
    response = organiser_client.post(
        change_url(league),
        {
            "name": "Quick League", "slug": "quick", "description": "",
            "guildball_settings-TOTAL_FORMS": "1", "guildball_settings-INITIAL_FORMS": "1",
            "guildball_settings-MIN_NUM_FORMS": "1", "guildball_settings-MAX_NUM_FORMS": "1",
            "guildball_settings-0-id": str(settings_row.pk), "guildball_settings-0-league": str(league.pk),
            "guildball_settings-0-vp_target": "8",
        },
    )
    assert response.status_code == 302
    league = League.objects.get(slug="quick")
    assert league.rules.vp_target == 8
    assert league.rules.validate({"home_score": 8, "away_score": 3}).outcome == "home"  # GB-8: a quick game
    response = organiser_client.post(
        change_url(league),
        {
            "name": "Quick League", "slug": "quick", "description": "",
            "guildball_settings-TOTAL_FORMS": "1", "guildball_settings-INITIAL_FORMS": "1",
            "guildball_settings-MIN_NUM_FORMS": "1", "guildball_settings-MAX_NUM_FORMS": "1",
            "guildball_settings-0-id": str(settings_row.pk), "guildball_settings-0-league": str(league.pk),
            "guildball_settings-0-vp_target": "9",
        },
    )
    assert response.status_code == 200 and "not one of the available choices" in response.content.decode()
    assert GuildBallSettings.objects.get(league=league).vp_target == 8


def test_superuser_chooses_organisers(client, superuser, other_organiser):
    client.force_login(superuser)
    assert "id_organisers" in client.get(reverse("admin:league_league_add")).content.decode()
    client.post(
        reverse("admin:league_league_add"),
        {"name": "Southern", "game_system": "guildball", "organisers": [other_organiser.pk], **FIRST_SEASON},
    )
    assert list(League.objects.get(slug="southern").organisers.all()) == [other_organiser]


def test_coach_created_by_organiser(organiser_client, organiser, world):
    page = organiser_client.get(reverse("admin:league_coach_add")).content.decode()
    assert "Midlands Big League" in page and "Faraway Cup" not in page  # the leagues they run
    organiser_client.post(
        reverse("admin:league_coach_add"), {"name": "Fresh Face", "email": "fresh@example.com", "league": world["season"].league.pk}
    )
    coach = Coach.objects.get(name="Fresh Face")
    assert coach.created_by == organiser and not coach.entries.exists()
    content = organiser_client.get(changelist("coach") + "?q=fresh").content.decode()
    assert "Fresh Face" in content and "Velocity" not in content


# Actions: seasons --------------------------------------------------------------


def test_generate_fixtures(organiser_client, world, league):
    season = SeasonFactory(league=league, name="Season 2")
    for coach in Coach.objects.filter(name__in=["Velocity", "Rage", "Shade", "Brick"]):
        EntryFactory(season=season, coach=coach)
    response = run_action(organiser_client, "season", "generate_fixtures", [season])
    assert any("3 rounds of fixtures generated" in m for m in messages_of(response))
    assert season.rounds.count() == 3
    assert Fixture.objects.filter(round__season=season).count() == 6
    season.refresh_from_db()
    assert season.schedule_seed is not None


def test_generate_fixtures_refusals_change_nothing(organiser_client, world, league):
    lonely = SeasonFactory(league=league, name="Season 3")
    EntryFactory(season=lonely, coach=CoachFactory(name="Solo"))
    response = run_action(organiser_client, "season", "generate_fixtures", [lonely, world["season"]])
    texts = " ".join(messages_of(response))
    assert "at least two coaches" in texts
    assert "already has its fixtures" in texts
    assert not lonely.rounds.exists()
    assert world["season"].rounds.count() == 2


def test_draw_divisions_then_each_entry_offers_only_its_seasons_divisions(organiser_client, world, league):
    season = SeasonFactory(league=league, name="Season 4")
    for n in range(9):
        EntryFactory(season=season, coach=CoachFactory(name=f"Divided {n}"))
    other = SeasonFactory(name="Elsewhere")
    Division.objects.create(season=other, name="Secret Division")
    response = run_action(organiser_client, "season", "draw_divisions", [season], apply="1", count=2, seed=4)
    assert any("Divisions drawn for 1 season" in m for m in messages_of(response))
    assert sorted(season.divisions.values_list("name", flat=True)) == ["Division A", "Division B"]
    assert sorted(d.entries.count() for d in season.divisions.all()) == [4, 5]
    page = organiser_client.get(change_url(season)).content.decode()
    assert "Division A" in page and "Secret Division" not in page


def test_draw_divisions_refuses_too_few_entries(organiser_client, world, league):
    season = SeasonFactory(league=league, name="Season 5")
    for n in range(6):
        EntryFactory(season=season, coach=CoachFactory(name=f"Few {n}"))
    response = run_action(organiser_client, "season", "draw_divisions", [season], apply="1", count=2, seed=4)
    assert any("at least 8 entries" in m for m in messages_of(response))
    assert not season.divisions.exists()


# Actions: results --------------------------------------------------------------


def test_results_needing_attention_is_the_default_view(organiser_client, world, league):
    approved = ResultFactory(fixture=world["unplayed"])
    world["reported"].status = Result.Status.DISPUTED
    world["reported"].dispute_reason = "It was 12-10"
    world["reported"].save()
    content = organiser_client.get(changelist("result")).content.decode()
    assert "It was 12-10" in content  # disputed, with its reason
    assert "Shade v Brick" in content  # confirmed, awaiting approval
    assert str(approved.fixture) not in content
    assert str(approved.fixture) in organiser_client.get(changelist("result") + "?show=all").content.decode()
    disputed_only = organiser_client.get(changelist("result") + "?show=disputed").content.decode()
    assert "It was 12-10" in disputed_only and "Shade v Brick" not in disputed_only


def test_approve_selected_results(organiser_client, world):
    """GB-8 Decision: a reported result is not confirmed, so the bulk action asks for
    the override's reason first and approves nothing until it has one."""
    response = run_action(organiser_client, "result", "approve", [world["reported"], world["confirmed"]])
    assert "1 of the selected results have not been confirmed" in response.content.decode()
    response = run_action(organiser_client, "result", "approve", [world["reported"], world["confirmed"]], apply="1", reason="")
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    assert not ResultEvent.objects.filter(action="approved").exists()
    response = run_action(
        organiser_client, "result", "approve", [world["reported"], world["confirmed"]],
        apply="1", reason="the opponent agreed by phone",
    )
    assert "2 result(s) approved." in messages_of(response)
    for key in ("reported", "confirmed"):
        world[key].refresh_from_db()
        assert world[key].is_approved
    assert ResultEvent.objects.filter(action="approved").count() == 2
    note = ResultEvent.objects.get(action="approved", fixture=world["reported"].fixture).note
    assert note == "approved without the opponent's confirmation (awaiting confirmation): the opponent agreed by phone"


def test_approve_confirmed_results_needs_no_reason(organiser_client, world):
    response = run_action(organiser_client, "result", "approve", [world["confirmed"]])
    assert "1 result(s) approved." in messages_of(response)


def test_approve_reports_what_failed(organiser_client, world):
    already = ResultFactory(fixture=world["unplayed"])
    response = run_action(
        organiser_client, "result", "approve", [world["reported"], already], query="?show=all", apply="1", reason="ok"
    )
    texts = messages_of(response)
    assert "1 result(s) approved." in texts
    assert any("already approved" in t for t in texts)
    assert ResultEvent.objects.filter(fixture=already.fixture).count() == 0


def test_result_change_page_is_read_only(organiser_client, world):
    response = organiser_client.get(change_url(world["reported"]))
    content = response.content.decode()
    assert response.status_code == 200
    assert 'name="_save"' not in content and 'name="home_score"' not in content
    organiser_client.post(change_url(world["reported"]), {"home_score": 0, "away_score": 12})
    world["reported"].refresh_from_db()
    assert (world["reported"].home_score, world["reported"].away_score) == (12, 8)


def test_organiser_cannot_delete_a_result(organiser_client, world):
    assert organiser_client.get(change_url(world["reported"], "delete")).status_code == 403
    assert "delete_selected" not in organiser_client.get(changelist("result")).content.decode()


def test_nobody_deletes_a_result_or_what_holds_one(client, superuser, world):
    """The site reopens a result (results.reopen_result); no service deletes one."""
    client.force_login(superuser)
    result = world["reported"]
    assert client.post(change_url(result, "delete"), {"post": "yes"}).status_code == 403
    for holder in (world["season"], world["round"]):
        client.post(change_url(holder, "delete"), {"post": "yes"})
    assert Result.objects.filter(pk=result.pk).exists() and Season.objects.filter(pk=world["season"].pk).exists()


def test_correct_result(organiser_client, world):
    result = world["reported"]
    form = run_action(organiser_client, "result", "correct", [result])
    assert form.status_code == 200 and "Correct result" in form.content.decode()
    response = run_action(
        organiser_client, "result", "correct", [result], apply="1", home_score=8, away_score=12, reason="scoresheet swapped"
    )
    assert "Result corrected." in messages_of(response)
    result.refresh_from_db()
    assert (result.home_score, result.away_score, result.outcome, result.is_approved) == (8, 12, "away", True)
    assert ResultEvent.objects.get(fixture=result.fixture, action="corrected").note == "scoresheet swapped"


def test_correct_result_refusal_shows_the_form_again(organiser_client, world):
    result = world["reported"]
    response = run_action(
        organiser_client, "result", "correct", [result], apply="1", home_score=10, away_score=10, reason="typo"
    )
    assert response.status_code == 200 and "no draws" in response.content.decode()
    result.refresh_from_db()
    assert (result.home_score, result.away_score, result.status) == (12, 8, Result.Status.REPORTED)
    response = run_action(organiser_client, "result", "correct", [result], apply="1", home_score=10, away_score=6, reason="")
    assert "This field is required" in response.content.decode()
    response = run_action(organiser_client, "result", "correct", [result], apply="1", home_score=10, away_score=6, reason="time ran out")
    assert "must reach 12 VP" in response.content.decode()
    assert not ResultEvent.objects.filter(fixture=result.fixture).exists()
    # The Longshanks may override GB-8 with a recorded reason.
    run_action(organiser_client, "result", "correct", [result], apply="1", home_score=10, away_score=6, reason="time ran out", override="on")
    result.refresh_from_db()
    assert (result.home_score, result.override_reason, result.is_approved) == (10, "time ran out", True)


def test_correct_needs_exactly_one_result(organiser_client, world):
    response = run_action(organiser_client, "result", "correct", [world["reported"], world["confirmed"]])
    assert any("exactly one" in m for m in messages_of(response))


def test_reopen_result(organiser_client, world):
    approved = ResultFactory(fixture=world["unplayed"])
    response = run_action(organiser_client, "result", "reopen", [approved], query="?show=all", apply="1", reason="wrong coach")
    assert "1 result(s) reopened." in messages_of(response)
    approved.refresh_from_db()
    assert approved.status == Result.Status.REPORTED
    response = run_action(organiser_client, "result", "reopen", [world["reported"]], apply="1", reason="again")
    assert any("Only an approved result can be reopened" in m for m in messages_of(response))


# Actions: fixtures -------------------------------------------------------------


def test_abandon_fixture_gb6(organiser_client, world):
    fixture = world["unplayed"]
    form = run_action(organiser_client, "fixture", "abandon", [fixture])
    assert "Abandon fixtures" in form.content.decode()
    response = run_action(
        organiser_client, "fixture", "abandon", [fixture], apply="1", home_score=5, away_score=3, reason="venue flooded"
    )
    assert "1 fixture(s) abandoned." in messages_of(response)
    result = Result.objects.get(fixture=fixture)
    assert (result.outcome, result.home_score, result.away_score, result.is_approved) == ("abandoned", 5, 3, True)


def test_abandon_refusals_change_nothing(organiser_client, world, league):
    bye = FixtureFactory(round=world["round"], home=EntryFactory(season=world["season"], coach=CoachFactory(name="Lonely")), away=None)
    response = run_action(
        organiser_client, "fixture", "abandon", [bye, world["unplayed"]], apply="1", home_score=17, away_score=0, reason="storm"
    )
    texts = " ".join(messages_of(response))
    assert "has a bye" in texts and "No score can be above 16" in texts
    assert not Result.objects.filter(fixture__in=[bye, world["unplayed"]]).exists()


def test_rearrange_fixture_emails_coaches(organiser_client, world, django_capture_on_commit_callbacks):
    fixture = world["unplayed"]
    form = run_action(organiser_client, "fixture", "rearrange", [fixture])
    assert "Rearrange fixtures" in form.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = run_action(
            organiser_client, "fixture", "rearrange", [fixture], apply="1", new_date="2026-09-20", reason="Velocity is away"
        )
    assert any("1 fixture(s) rearranged" in m for m in messages_of(response))
    fixture.refresh_from_db()
    assert fixture.date == datetime.date(2026, 9, 20) and fixture.rearranged_reason == "Velocity is away"
    recipients = sorted(to for message in mail.outbox for to in message.to)
    assert recipients == ["brick@example.com", "rage@example.com", "shade@example.com", "velocity@example.com"]
    assert "Velocity is away" in mail.outbox[0].body


def test_rearrange_refusals_change_nothing(organiser_client, world, django_capture_on_commit_callbacks):
    played = world["reported"].fixture
    played_result = world["reported"]
    played_result.status = Result.Status.APPROVED
    played_result.approved_at = datetime.datetime(2026, 9, 8, tzinfo=datetime.timezone.utc)
    played_result.save()
    with django_capture_on_commit_callbacks(execute=True):
        response = run_action(
            organiser_client, "fixture", "rearrange", [played], apply="1", new_date="2026-09-20", reason="late"
        )
    assert any("already has an approved result" in m for m in messages_of(response))
    played.refresh_from_db()
    assert played.date == datetime.date(2026, 9, 7)
    assert mail.outbox == []
    # A missing date or reason keeps the form on screen.
    response = run_action(organiser_client, "fixture", "rearrange", [world["unplayed"]], apply="1", new_date="", reason="")
    assert response.status_code == 200 and "This field is required" in response.content.decode()


def test_enter_result_from_fixture(organiser_client, world):
    fixture = world["unplayed"]
    response = run_action(
        organiser_client, "fixture", "enter_result", [fixture], apply="1", home_score=12, away_score=10, reason="phoned in"
    )
    assert "Result recorded." in messages_of(response)
    result = Result.objects.get(fixture=fixture)
    assert result.is_approved and result.outcome == "home"
    assert fixture.events.get().action == "entered"


def test_fixture_page_shows_history_read_only(organiser_client, world):
    fixture = world["unplayed"]
    run_action(organiser_client, "fixture", "abandon", [fixture], apply="1", home_score=0, away_score=0, reason="venue flooded")
    content = organiser_client.get(change_url(fixture)).content.decode()
    assert "venue flooded" in content and "abandoned" in content
    assert 'name="_save"' not in content and 'name="date"' not in content


def test_played_fixture_cannot_be_deleted(organiser_client, world):
    assert organiser_client.get(change_url(world["reported"].fixture, "delete")).status_code == 403
    assert organiser_client.get(change_url(world["unplayed"], "delete")).status_code == 200


# Query counts ------------------------------------------------------------------


def test_changelists_run_a_fixed_number_of_queries(client, organiser, django_assert_max_num_queries):
    """The same bound for a league of 4 coaches and one of 40 (STYLE habit 4)."""
    client.force_login(organiser)
    for size in (4, 40):
        league = LeagueFactory(organisers=[organiser])
        season = season_with_results(coaches=size, played_rounds=2, season=SeasonFactory(league=league))
        # Some results waiting on the organiser, so the default results view is not empty.
        Result.objects.filter(fixture__round__season=season, fixture__round__number=2).update(
            status=Result.Status.CONFIRMED, approved_at=None
        )
        for model in MODELS:
            for query in ("", "?show=all") if model == "result" else ("",):
                with django_assert_max_num_queries(11):
                    response = client.get(changelist(model) + query)
                assert response.status_code == 200
                assert league.name in response.content.decode() or model in ("coach", "entry")


# The mixin's configuration check -----------------------------------------------


def test_league_lookup_is_checked():
    from django.contrib import admin

    from league.admin.scoping import OrganiserScopedAdmin

    class Good(OrganiserScopedAdmin):
        league_lookup = "round__season__league"

    class Wrong(OrganiserScopedAdmin):
        league_lookup = "round__season"

    class Missing(OrganiserScopedAdmin):
        pass

    site = admin.AdminSite()
    assert Good(Fixture, site).check() == []
    assert [e.id for e in Wrong(Fixture, site).check()] == ["league.E002"]
    assert [e.id for e in Missing(Fixture, site).check()] == ["league.E001"]


def test_schedule_fields_freeze_once_fixtures_exist(organiser_client, world):
    content = organiser_client.get(change_url(world["season"])).content.decode()
    assert 'name="start_date"' not in content and 'name="name"' in content
    content = organiser_client.get(change_url(world["round"])).content.decode()
    assert 'name="date"' not in content
    empty = SeasonFactory(league=world["season"].league, name="Season 9")
    assert 'name="start_date"' in organiser_client.get(change_url(empty)).content.decode()


# Tidy: addresses, names, read-only pages -----------------------------------------------


def test_organisers_see_coach_emails_masked_and_cannot_search_them(client, organiser, world):
    from django.contrib.auth import get_user_model

    client.force_login(organiser)
    url = reverse("admin:league_coach_changelist")
    page = client.get(url).content.decode()
    assert "rage@example.com" not in page and "r…@example.com" in page
    assert "0 coaches" in client.get(url, {"q": "rage@example"}).content.decode()  # no match by address
    assert "1 coach" in client.get(url, {"q": "Rage"}).content.decode()
    coach = Coach.objects.get(email="rage@example.com")
    form = client.get(reverse("admin:league_coach_change", args=[coach.pk])).content.decode()
    assert "rage@example.com" not in form  # a coach with an account keeps their address to themself
    superuser = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(superuser)
    assert "rage@example.com" in client.get(url).content.decode()


def test_admin_names_and_stylesheet(client, organiser, world):
    client.force_login(organiser)
    page = client.get(reverse("admin:index")).content.decode()
    assert "Campaign coaches" in page and "coachs" not in page
    assert "css/admin.css" in page


def test_read_only_pages_have_no_save_button(client, organiser, world):
    client.force_login(organiser)
    result = world["reported"]
    page = client.get(reverse("admin:league_result_change", args=[result.pk])).content.decode()
    assert 'name="_save"' not in page and 'name="_continue"' not in page and "Close" in page
    page = client.get(reverse("admin:league_fixture_change", args=[result.fixture.pk])).content.decode()
    assert 'name="_save"' not in page
    # The shared catalogue: organisers read it, only a superuser edits it.
    from campaigns.models import Guild

    page = client.get(reverse("admin:campaigns_guild_change", args=[Guild.objects.first().pk])).content.decode()
    assert 'name="_save"' not in page and "Close" in page


def test_a_coach_added_in_the_admin_is_checked_as_on_the_coaches_page(organiser_client, organiser, world):
    """invitations.add_coach decides. The admin adds a coach to no season, and names
    differ only within a season's entrants (league/people/entrants.py): a name
    that looks like a coach's of the league is a coach of its own until entered."""
    league = world["season"].league
    response = organiser_client.post(
        reverse("admin:league_coach_add"), {"name": "Ｖelocity", "email": "", "league": league.pk}, follow=True
    )
    assert response.status_code == 200
    added = Coach.objects.get(name="Ｖelocity")
    assert not added.entries.exists()
    foreign = organiser_client.post(
        reverse("admin:league_coach_add"), {"name": "Fresh Face", "email": "", "league": world["foreign_league"].pk}
    )
    assert foreign.status_code == 200 and not Coach.objects.filter(name="Fresh Face").exists()
