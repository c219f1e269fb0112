"""The new-league flow for each game, the season set-up page (pasted
names, invitations, join links, fixtures) and the join link's page."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from league import signing
from league.people import joining
from league.models import Coach, Entry, JoinLink, League, Round, Season
from league.rules import rules_class
from tests.support.factories import EntryFactory, LeagueFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db

GAMES = ("guildball", "dungeonbowl", "dreadball")
DEFAULTS = {  # the rulebook's (GB-8, DB-6/DB-4/DB-5b/DB-15, DR-4)
    "guildball": {"vp_target": 12},
    "dungeonbowl": {"draft_budget": 1_000_000, "casualty_bonus": False, "playoffs": 0, "redraft_cap": False},
    "dreadball": {"landslide_win": 3, "win": 2, "draw": 1, "loss": 0},
}


def _post(game: str, **changes) -> dict:
    data = {
        "game": game, "name": "Harbour League", "season_name": "Season 1", "start_date": "2030-03-02",
        "cadence_days": "7", "double_round_robin": "single",
    }
    for field, value in DEFAULTS[game].items():
        if isinstance(value, bool):
            if value:
                data[f"settings-{field}"] = "on"
        else:
            data[f"settings-{field}"] = str(value)
    data.update(changes)
    return data


@pytest.fixture
def creator(db):
    return UserFactory(username="founder")


@pytest.mark.parametrize("game", GAMES)
def test_new_league_with_the_rulebook_defaults(client, creator, game, django_assert_max_num_queries):
    client.force_login(creator)
    page = client.get(reverse("league:new_league"), {"game": game})
    assert page.status_code == 200 and rules_class(game).name in page.content.decode()
    form = page.context["game_form"]
    assert {name: form[name].value() for name in DEFAULTS[game]} == DEFAULTS[game]
    # A fixed cost: one new league (its rate limit counted in the database), whatever else exists.
    with django_assert_max_num_queries(56):
        response = client.post(reverse("league:new_league"), _post(game, double_round_robin="double"))
    league = League.objects.get()
    assert response["Location"] == reverse("league:season_setup", args=[league.slug])
    assert league.game_system == game and list(league.organisers.all()) == [creator]
    settings = rules_class(game).settings_model.objects.get(league=league)
    assert {name: getattr(settings, name) for name in DEFAULTS[game]} == DEFAULTS[game]
    season = Season.objects.get(league=league)
    assert (season.name, season.start_date, season.cadence_days, season.double_round_robin) == (
        "Season 1", datetime.date(2030, 3, 2), 7, True
    )
    creator.refresh_from_db()
    assert not creator.is_staff and not creator.groups.exists()  # never the admin


def test_settings_other_than_the_defaults(client, creator):
    client.force_login(creator)
    client.post(reverse("league:new_league"), _post("guildball", **{"settings-vp_target": "8"}))
    assert League.objects.get().rules.vp_target == 8


@pytest.mark.parametrize("game,changes", [
    ("guildball", {"name": ""}),
    ("guildball", {"settings-vp_target": "13"}),
    ("dungeonbowl", {"settings-draft_budget": "5"}),
    ("dreadball", {"settings-win": "-1"}),
    ("dreadball", {"cadence_days": "0"}),
    ("dreadball", {"start_date": "1200-01-01"}),
    ("nogame", {}),
])
def test_bad_input_is_400_and_writes_nothing(client, creator, game, changes):
    client.force_login(creator)
    data = _post(game if game != "nogame" else "guildball", **changes)
    if game == "nogame":
        data["game"] = "chess"
    assert client.post(reverse("league:new_league"), data).status_code == 400
    assert not League.objects.exists() and not Season.objects.exists()


def test_the_slug_is_free(client, creator):
    LeagueFactory(slug="harbour-league")
    client.force_login(creator)
    client.post(reverse("league:new_league"), _post("guildball"))
    assert League.objects.filter(slug="harbour-league-2").exists()


# The season set-up page ----------------------------------------------------------


@pytest.fixture
def setup_url(league):
    return reverse("league:season_setup", args=[league.slug])


def test_a_paste_with_a_repeat_or_an_entrant_is_refused_with_its_lines(client, organiser, season, setup_url):
    """All or nothing: every line that cannot be entered is named, nothing is written."""
    EntryFactory(season=season, coach__name="Brick")
    client.force_login(organiser)
    text = "Ada\n\n  Velocity\t(Fishermen)\nａda\nBRICK\nShade\n"
    coaches = Coach.objects.count()
    response = client.post(setup_url, {"action": "paste", "names": text})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Line 4 repeats line 1: ａda." in page
    assert "Line 5: BRICK is in Season 1 already." in page
    assert Coach.objects.count() == coaches and Entry.objects.filter(season=season).count() == 1


def test_paste_names(client, organiser, other_organiser, league, season, setup_url):
    """A name that played in this league before is that coach (one person, one
    coach); a name of another organiser's league is a new coach of this one."""
    earlier = SeasonFactory(league=league, name="Season 0", start_date=datetime.date(2025, 9, 7))
    ada = EntryFactory(season=earlier, coach__name="Ada", coach__user=None).coach
    theirs = EntryFactory(season=SeasonFactory(league=LeagueFactory(organisers=[other_organiser])),
                          coach__name="Shade").coach
    client.force_login(organiser)
    text = "ADA\n\n  Velocity\t(Fishermen)\nShade\n"
    response = client.post(setup_url, {"action": "paste", "names": text}, follow=True)
    page = response.content.decode()
    assert "Entered 2: Velocity, Shade." in page
    assert "Entered again, as the coaches who played here before: Ada." in page
    entrants = Entry.objects.filter(season=season).select_related("coach")
    assert sorted(e.coach.name for e in entrants) == ["Ada", "Shade", "Velocity"]
    assert {e.coach_id for e in entrants} & {ada.pk, theirs.pk} == {ada.pk}


def test_a_name_two_coaches_of_the_league_share_is_refused(client, organiser, league, season, setup_url):
    for year in (2024, 2025):
        EntryFactory(season=SeasonFactory(league=league, name=f"{year}", start_date=datetime.date(year, 9, 7)),
                     coach__name="Sam Smith", coach__user=None)
    client.force_login(organiser)
    response = client.post(setup_url, {"action": "paste", "names": "Ivy\nsam smith"})
    assert response.status_code == 400
    assert "Line 2: 2 coaches of Midlands Big League are called sam smith: add them from the Coaches page." in (
        response.content.decode())
    assert not Entry.objects.filter(season=season).exists()


def test_paste_nothing_is_400(client, organiser, season, setup_url):
    client.force_login(organiser)
    assert client.post(setup_url, {"action": "paste", "names": "\n \n"}).status_code == 400
    assert client.post(setup_url, {"action": "nothing"}).status_code == 400
    assert not Entry.objects.exists()


def test_invite_by_email(client, organiser, season, setup_url, mailoutbox):
    client.force_login(organiser)
    client.post(setup_url, {"action": "invite", "name": "Ada", "email": "ada@example.com", "team": ""})
    assert Entry.objects.get(season=season).coach.email == "ada@example.com"
    assert mailoutbox[0].to == ["ada@example.com"]


def test_generate_fixtures_refused_then_done(client, organiser, season, setup_url):
    client.force_login(organiser)
    EntryFactory(season=season)
    response = client.post(setup_url, {"action": "fixtures", "divisions": "0"})
    assert response.status_code == 400 and "at least two coaches" in response.content.decode()
    EntryFactory(season=season)
    assert client.post(setup_url, {"action": "fixtures", "divisions": "0"}).status_code == 302
    rounds = Round.objects.filter(season=season).count()
    assert rounds == 1
    response = client.post(setup_url, {"action": "fixtures", "divisions": "0"})
    assert response.status_code == 400 and "already has its fixtures" in response.content.decode()
    assert Round.objects.filter(season=season).count() == rounds


def test_setup_page_queries_do_not_grow(client, organiser, season, setup_url, django_assert_max_num_queries):
    client.force_login(organiser)
    for _ in range(2):
        JoinLink.objects.create(season=season, key=f"k{JoinLink.objects.count()}", created_by=organiser)
    for _ in range(12):
        EntryFactory(season=season)
    with django_assert_max_num_queries(14):
        page = client.get(setup_url)
    assert page.content.decode().count('class="join-url"') == 2


# Join links ---------------------------------------------------------------------


@pytest.fixture
def link(season, organiser):
    return joining.create_link(season=season, by=organiser, max_uses=None, closes_on=None)


def test_organiser_makes_and_revokes_a_link(client, organiser, season, setup_url):
    client.force_login(organiser)
    client.post(setup_url, {"action": "link", "link-max_uses": "2", "link-closes_on": ""})
    made = JoinLink.objects.get()
    assert made.max_uses == 2 and made.created_by == organiser
    page = client.get(setup_url).content.decode()
    assert reverse("league:join", args=[joining.make_token(made)]) in page
    client.post(setup_url, {"action": "revoke", "link": made.pk})
    made.refresh_from_db()
    assert made.revoked_at is not None


def test_join_through_a_link(client, season, link, django_assert_max_num_queries):
    url = reverse("league:join", args=[joining.make_token(link)])
    anonymous = client.get(url).content.decode()
    assert season.league.name in anonymous and reverse("signup") + "?next=" in anonymous
    user = UserFactory(username="joiner")
    client.force_login(user)
    with django_assert_max_num_queries(32):  # with the "entrant joined" event's subscribers (league/events/)
        response = client.post(url, {"name": "Joiner", "team": "Masons"})
    assert response["Location"] == reverse("league:my_fixtures")
    entry = Entry.objects.get(season=season)
    assert (entry.coach.user, entry.coach.name, entry.team) == (user, "Joiner", "Mason's")  # the Guild as the catalogue spells it
    link.refresh_from_db()
    assert link.uses == 1
    again = client.post(url, {"name": "Joiner"})
    assert again.status_code == 400 and "already" in again.content.decode()


def test_a_coach_of_another_league_joins_as_themselves(client, season, link):
    other = EntryFactory(coach__name="Veteran")
    client.force_login(other.coach.user)
    client.post(reverse("league:join", args=[joining.make_token(link)]))
    assert Entry.objects.get(season=season).coach == other.coach
    assert Coach.objects.filter(name="Veteran").count() == 1


def _refused(client, url, status):
    client.force_login(UserFactory(username="late"))
    before = (Entry.objects.count(), Coach.objects.count())
    for response in (client.get(url), client.post(url, {"name": "Late"})):
        assert response.status_code == status, response.content.decode()[:300]
        assert "This join link does not work" in response.content.decode()
    assert (Entry.objects.count(), Coach.objects.count()) == before


def test_a_revoked_link(client, link, organiser):
    joining.revoke_link(link=link, by=organiser)
    _refused(client, reverse("league:join", args=[joining.make_token(link)]), 410)


def test_a_closed_link(client, link):
    JoinLink.objects.filter(pk=link.pk).update(closes_on=timezone.localdate() - datetime.timedelta(days=1))
    _refused(client, reverse("league:join", args=[joining.make_token(link)]), 410)


def test_a_link_over_its_limit(client, link, season):
    JoinLink.objects.filter(pk=link.pk).update(max_uses=1, uses=1)
    _refused(client, reverse("league:join", args=[joining.make_token(link)]), 410)


@pytest.mark.parametrize("forge", ["tampered", "other_key", "no_link", "junk"])
def test_a_forged_link(client, link, forge):
    token = joining.make_token(link)
    token = {
        "tampered": token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
        "other_key": signing.JOIN.make(ids={"l": link.pk}, state="guessed"),
        "no_link": signing.JOIN.make(ids={"l": 999999}, state=link.key),
        "junk": "not-a-token",
    }[forge]
    _refused(client, reverse("league:join", args=[token]), 400)


def test_the_last_place_goes_once(client, link):
    JoinLink.objects.filter(pk=link.pk).update(max_uses=1)
    token = joining.make_token(link)
    first, second = UserFactory(username="first"), UserFactory(username="second")
    joining.join(token=token, user=first, name="First")
    with pytest.raises(joining.LinkRefused):
        joining.join(token=token, user=second, name="Second")
    assert Entry.objects.count() == 1


@pytest.mark.parametrize("value", ["", "abc", "9" * 40, "-1"])
def test_withdrawing_no_link_is_400(client, organiser, season, setup_url, link, value):
    client.force_login(organiser)
    assert client.post(setup_url, {"action": "revoke", "link": value}).status_code == 400
    link.refresh_from_db()
    assert link.revoked_at is None


def test_another_seasons_link_is_not_withdrawn_here(client, organiser, season, setup_url):
    elsewhere = SeasonFactory(league=LeagueFactory(slug="elsewhere", organisers=[organiser]))
    other = joining.create_link(season=elsewhere, by=organiser, max_uses=None, closes_on=None)
    client.force_login(organiser)
    assert client.post(setup_url, {"action": "revoke", "link": other.pk}).status_code == 404
    other.refresh_from_db()
    assert other.revoked_at is None


@pytest.mark.parametrize("taken_by_creator", [False, True])
def test_a_second_league_of_the_same_name_is_refused_with_the_reason(client, creator, taken_by_creator):
    first = LeagueFactory(name="Harbour League", slug="harbour")
    if taken_by_creator:
        first.organisers.add(creator)
    client.force_login(creator)
    before = (League.objects.count(), Season.objects.count())
    response = client.post(reverse("league:new_league"), _post("guildball", name="harbour league"))
    page = response.content.decode()
    assert response.status_code == 400
    assert (League.objects.count(), Season.objects.count()) == before
    said = "You already run a league called" if taken_by_creator else "There is already a league called"
    assert f"{said} \u201cHarbour League\u201d" in page
    assert response.context["form"].errors["name"], "on the name, where the organiser types it"


def test_the_first_round_date_starts_a_week_from_today(client, creator):
    client.force_login(creator)
    page = client.get(reverse("league:new_league"), {"game": "guildball"}).content.decode()
    week = timezone.localdate() + datetime.timedelta(days=7)
    # A date picker shows only an ISO date (a British 13/12/2026 leaves it empty).
    assert f'name="start_date" value="{week.isoformat()}"' in page.replace('type="date" ', "")
