from django.urls import path

from league.dungeonbowl.teams import college_views, skill_views, views
from league.dungeonbowl.playoffs import views as playoff_views
from league.dungeonbowl.redraft import views as redraft_views
from league.dungeonbowl.spending import views as spending_views

app_name = "dungeonbowl"

urlpatterns = [
    path("leagues/<slug:slug>/teams/new/", views.create_team, name="create_team"),
    path("leagues/<slug:slug>/teams/<slug:team_slug>/", views.team_detail, name="team_detail"),
    path("leagues/<slug:slug>/teams/<slug:team_slug>.json", views.team_json, name="team_json"),
    path("leagues/<slug:slug>/teams/<slug:team_slug>/lock/", views.lock_draft, name="lock_draft"),
    path("leagues/<slug:slug>/teams/<slug:team_slug>/accept/", views.accept_team, name="accept_team"),
    path("leagues/<slug:slug>/teams/<slug:team_slug>/refuse/", views.refuse_team, name="refuse_team"),
    path("leagues/<slug:slug>/teams/<slug:team_slug>/reroll/", spending_views.buy_reroll, name="buy_reroll"),
    path("leagues/<slug:slug>/teams/<slug:team_slug>/hire/", spending_views.hire_player, name="hire_player"),
    path("leagues/<slug:slug>/teams/<slug:team_slug>/journeyman/", spending_views.hire_journeyman, name="hire_journeyman"),
    path("leagues/<slug:slug>/teams/<slug:team_slug>/fire/", spending_views.fire_player, name="fire_player"),
    path("leagues/<slug:slug>/teams/<slug:team_slug>/advance/", spending_views.advance_player, name="advance_player"),
    path("leagues/<slug:slug>/teams/<slug:team_slug>/redraft/", redraft_views.redraft_page, name="redraft"),
    path("leagues/<slug:slug>/next-season/", redraft_views.next_season_page, name="next_season"),
    path("leagues/<slug:slug>/organiser/skills/", skill_views.skills_page, name="league_skills"),
    path("leagues/<slug:slug>/organiser/colleges/", college_views.colleges_page, name="league_colleges"),
    path("leagues/<slug:slug>/dice/", views.dice_log, name="dice_log"),
    path("leagues/<slug:slug>/draft/", views.draft, name="draft"),
    path("leagues/<slug:slug>/entries/", views.enter_team, name="enter_team"),
    path("leagues/<slug:slug>/organiser/teams/", views.entrants_page, name="entrants"),
    path("leagues/<slug:slug>/organiser/teams/lock/", views.lock_drafts, name="lock_drafts"),
    path("leagues/<slug:slug>/organiser/teams/enter/", views.enter_ready, name="enter_ready"),
    path("leagues/<slug:slug>/playoffs/", playoff_views.playoffs_page, name="playoffs"),
    path("leagues/<slug:slug>/playoffs/settle/", playoff_views.settle_tie, name="settle_tie"),
    path("leagues/<slug:slug>/playoffs/start/", playoff_views.start_playoffs, name="start_playoffs"),
    path("leagues/<slug:slug>/playoffs.json", playoff_views.playoffs_json, name="playoffs_json"),
]
