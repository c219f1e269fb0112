"""Another organiser's coach: ``import_results --by rival`` once matched
coaches by name across all leagues, entered another organiser's coach in rival's
league, and rival could then rename that coach and change their email in the
admin. Now an import matches only the league's own coaches (one person, one
coach), a name matching someone else's coach makes a new coach, and
the admin changes (and shows the address of) only the organiser's own coaches."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from league.models import Coach, Entry
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory, with_organiser

pytestmark = pytest.mark.django_db

GB = "league,round,home,away,home_vp,away_vp,status"


@pytest.fixture
def victim(organiser, season):
    """longshanks' coach Ada, entered in longshanks' league, with an address."""
    return EntryFactory(
        season=season, coach=CoachFactory(name="Ada Blackwater", email="ada@private.example", created_by=organiser, user=None)
    ).coach


def import_file(tmp_path, lines, *args):
    path = tmp_path / "results.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    call_command("import_results", str(path), *with_organiser(args), stdout=StringIO())


def test_an_import_by_rival_makes_its_own_coach_for_a_name_someone_else_has(tmp_path, victim, other_organiser):
    lines = [GB, "Rival Cup,1,Ada Blackwater,Brisket,12,8,played"]
    import_file(tmp_path, lines, "--by", "rival")
    adas = list(Coach.objects.filter(name="Ada Blackwater").order_by("pk"))
    assert len(adas) == 2
    original, theirs = adas
    assert original == victim and theirs.created_by == other_organiser
    # The original coach is in no league of rival's; the new one is.
    assert not Entry.objects.filter(coach=victim, season__league__slug="rival-cup").exists()
    assert Entry.objects.filter(coach=theirs, season__league__slug="rival-cup").exists()
    # Importing the same file again finds rival's coach: nothing new.
    import_file(tmp_path, lines, "--by", "rival")
    assert Coach.objects.filter(name="Ada Blackwater").count() == 2


def test_an_import_by_the_organiser_finds_their_own_coach(tmp_path, victim, organiser, season):
    import_file(tmp_path, [GB, f"{season.league.name},1,Ada Blackwater,Brisket,12,8,played"], "--by", "longshanks")
    assert Coach.objects.filter(name="Ada Blackwater").count() == 1


def test_a_dungeon_bowl_team_import_by_rival_makes_its_own_coach(tmp_path, victim, other_organiser):
    from tests.dungeonbowl.test_import_teams import league_file, team_lines

    # A Dungeon Bowl league starts with at least 4 teams (DB-1).
    teams = [("Reds", "Ada Blackwater"), ("Blues", "Bea Quill"), ("Greens", "Cal Ode"), ("Golds", "Dot Fenn")]
    lines = [line for team, coach in teams for line in team_lines(team, coach, "College of Fire", league="Rival Bowl")]
    path = league_file(tmp_path, lines)
    call_command("import_teams", str(path), "--by", "rival", stdout=StringIO())
    assert Coach.objects.filter(name="Ada Blackwater").count() == 2
    from league.dungeonbowl.models import Team

    assert Team.objects.get(name="Reds").coach.created_by == other_organiser


@pytest.fixture
def shared(victim, other_organiser):
    """longshanks' Ada also plays in rival's league (rival entered her there)."""
    league = LeagueFactory(name="Rival Cup", slug="rival-cup", organisers=[other_organiser])
    EntryFactory(season=SeasonFactory(league=league), coach=victim)
    return victim


def test_rival_cannot_rename_or_readdress_another_organisers_coach(client, shared, other_organiser):
    client.force_login(other_organiser)
    url = reverse("admin:league_coach_change", args=[shared.pk])
    page = client.get(url)
    assert page.status_code == 200  # she plays in rival's league: visible, read-only
    body = page.content.decode()
    assert "ada@private.example" not in body and 'name="name"' not in body
    response = client.post(url, {"name": "Renamed", "email": "rival@evil.example"})
    assert response.status_code == 403
    shared.refresh_from_db()
    assert (shared.name, shared.email) == ("Ada Blackwater", "ada@private.example")
    assert client.post(reverse("admin:league_coach_delete", args=[shared.pk]), {"post": "yes"}).status_code == 403
    assert Coach.objects.filter(pk=shared.pk).exists()


def test_rival_sees_no_other_organisers_address_in_the_list(client, shared, other_organiser):
    own = CoachFactory(name="Rival's Own", email="own@rival.example", created_by=other_organiser)
    EntryFactory(season=Entry.objects.get(coach=shared, season__league__slug="rival-cup").season, coach=own)
    client.force_login(other_organiser)
    body = client.get(reverse("admin:league_coach_changelist")).content.decode()
    assert "Ada Blackwater" in body and "a…@private.example" in body and "ada@private.example" not in body
    assert "ada@private.example" not in body  # every address is masked in the list (own ones on their page)
    # Searching by address cannot probe another organiser's coaches either.
    found = client.get(reverse("admin:league_coach_changelist"), {"q": "ada@private.example"})
    assert found.context["cl"].result_count == 0


def test_the_creator_still_changes_their_coach(client, shared, organiser):
    client.force_login(organiser)
    url = reverse("admin:league_coach_change", args=[shared.pk])
    assert "ada@private.example" in client.get(url).content.decode()
    response = client.post(url, {"name": "Ada Blackwater", "email": "ada@new.example"})
    assert response.status_code == 302
    shared.refresh_from_db()
    assert shared.email == "ada@new.example"


def test_rival_cannot_invite_another_organisers_coach(client, shared, other_organiser):
    from django.core import mail

    shared.user = None
    shared.save()
    client.force_login(other_organiser)
    client.post(reverse("admin:league_coach_changelist"), {"action": "invite", "_selected_action": [shared.pk]})
    assert mail.outbox == []


def test_an_import_refuses_a_name_written_two_ways_or_shared_by_two_of_the_leagues_coaches(tmp_path, organiser, season):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="line 3: Ada and ADA are one name written two ways"):
        import_file(tmp_path, [GB, "Two Ways,1,Ada,Brisket,12,8,played", "Two Ways,2,ADA,Brisket,12,8,played"],
                    "--by", "longshanks")
    for year in (2024, 2025):
        EntryFactory(season=SeasonFactory(league=season.league, name=str(year)), coach__name="Sam Smith",
                     coach__user=None)
    before = Coach.objects.count(), Entry.objects.count()
    with pytest.raises(CommandError, match="line 2: 2 coaches of .* are called Sam Smith: add them from the Coaches"):
        import_file(tmp_path, [GB, f"{season.league.name},1,Sam Smith,Brisket,12,8,played"], "--by", "longshanks")
    assert (Coach.objects.count(), Entry.objects.count()) == before
