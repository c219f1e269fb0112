"""The Dungeon Bowl demo that quickstart loads: built through the services, once."""

from io import StringIO

import pytest
from django.core.management import call_command

from league import layers
from league.dungeonbowl import demo
from league.dungeonbowl.models import DiceRoll, Honour, Player, Team, TreasuryLine
from league.dungeonbowl.seasons import season_over, trophy_holder_id
from league.models import Division, Result, Season

pytestmark = pytest.mark.django_db


def test_the_demo_league_has_a_finished_season_and_loads_once():
    report = demo.load()
    assert report.loaded and report.league_slug == demo.DEMO_SLUG
    teams = Team.objects.filter(league__slug=demo.DEMO_SLUG)
    assert teams.count() == 8
    assert set(teams.values_list("college__slug", flat=True)) == {"college-of-fire", "college-of-shadows"}
    assert Division.objects.filter(season__league__slug=demo.DEMO_SLUG).count() == 2
    approved = Result.objects.filter(fixture__round__season__league__slug=demo.DEMO_SLUG, status="approved")
    assert approved.filter(fixture__stage="regular").count() == 24  # 6 rounds, 4 games a round
    assert approved.filter(fixture__stage="playoff").count() == 4  # DB-5b: two semi-finals, final, third place
    assert not Result.objects.exclude(status="approved").exists()
    assert Player.objects.filter(team__in=teams, miss_next_game=True).exists()
    # DB-14: the season is over, its prizes paid and the Trophy held: the off-season (DB-15) can start.
    season = Season.objects.get(league__slug=demo.DEMO_SLUG)
    assert season_over(season)
    honours = list(Honour.objects.filter(season=season).order_by("placing"))
    assert [(h.placing, h.prize) for h in honours] == [(1, 100_000), (2, 60_000), (3, 30_000)]
    prizes = TreasuryLine.objects.filter(team__in=teams, kind="prize")
    assert sorted((line.team_id, line.amount) for line in prizes) == sorted((h.team_id, h.prize) for h in honours)
    assert trophy_holder_id(season.league) == honours[0].team_id
    assert TreasuryLine.objects.filter(team__coach__user__username="dungeon", kind="purchase").count() == 2
    assert TreasuryLine.objects.filter(team__in=teams, kind="winnings").exists()
    assert DiceRoll.objects.filter(league__slug=demo.DEMO_SLUG, purpose="winnings").count() >= 28
    for team in teams:
        assert team.treasury() >= 0
    counts = (Team.objects.count(), Result.objects.count(), TreasuryLine.objects.count())
    again = demo.load()
    assert not again.loaded and "already loaded" in again.message
    assert (Team.objects.count(), Result.objects.count(), TreasuryLine.objects.count()) == counts


def test_quickstart_prints_the_dungeon_bowl_coach():
    assert any(layer.demo is demo.load for layer in layers.layers())
    out = StringIO()
    call_command("quickstart", "--no-serve", verbosity=0, stdout=out)
    text = out.getvalue()
    assert "Loaded the demo league Altdorf Colleges Dungeon Bowl League" in text
    assert "username 'dungeon', password 'coach-demo'" in text
    assert "/leagues/altdorf-colleges/" in text
