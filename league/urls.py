"""The root URLconf (league is also the project package) with the league's own
pages under the ``league`` namespace."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from league.web import converters  # noqa: F401  registers <id:...> before the patterns below
from league.api import site as api_site
from league.accounts import forms as account_forms
from league.accounts import discord
from league.accounts import views as account_views
from league.api import views as token_views
from league.web import errors
from league.web import home as home_views
from league.spreadsheets import views as import_views
from league.web import offline
from league.events import views as event_views
from league.web import organiser as organiser_views
from league.people import views as people_views
from league.web import fixtures as result_views
from league.leaguefiles import views as export_views
from league.web import settings as settings_views
from league.web import setup as setup_views
from league.web import public as views
from league.records import views as record_views
from league.profiles import views as profile_views

league_patterns = [
    path("", views.league_list, name="league_list"),
    path("me/", home_views.my_fixtures, name="my_fixtures"),
    path("me/merges/<id:merge_id>/", people_views.merge_request, name="merge_request"),
    path("leagues/new/", setup_views.new_league, name="new_league"),
    path("leagues/<slug:slug>/", views.league_detail, name="league_detail"),
    path("leagues/<slug:slug>/fixtures/", views.fixtures, name="fixtures"),
    path("leagues/<slug:slug>/standings.json", views.standings_json, name="standings_json"),
    path("leagues/<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
    path("leagues/<slug:slug>/fixtures.ics", views.league_ics, name="league_ics"),
    path("leagues/<slug:slug>/leaderboards/", record_views.league_leaderboards, name="league_leaderboards"),
    path("leagues/<slug:slug>/leaderboards.json", record_views.league_leaderboards_json, name="league_leaderboards_json"),
    path("leagues/<slug:slug>/leaderboards.csv", record_views.league_leaderboards_csv, name="league_leaderboards_csv"),
    path("leagues/<slug:slug>/records/", record_views.league_records, name="league_records"),
    path("leaderboards/<slug:game>/", record_views.game_leaderboards, name="game_leaderboards"),
    path("leaderboards/<slug:game>.json", record_views.game_leaderboards_json, name="game_leaderboards_json"),
    path("leaderboards/<slug:game>.csv", record_views.game_leaderboards_csv, name="game_leaderboards_csv"),
    path("records/<slug:game>/", record_views.game_records, name="game_records"),
    path("leagues/<slug:slug>/coaches/<id:coach_id>/", views.coach_detail, name="coach_detail"),
    path("leagues/<slug:slug>/coaches/<id:coach_id>/fixtures.ics", views.coach_ics, name="coach_ics"),
    path("leagues/<slug:slug>/organiser/", organiser_views.organiser_dashboard, name="organiser_dashboard"),
    path("leagues/<slug:slug>/organiser/approve/", organiser_views.approve_from_dashboard, name="dashboard_approve"),
    path("leagues/<slug:slug>/organiser/season/", setup_views.season_setup, name="season_setup"),
    path("leagues/<slug:slug>/organiser/join-requests/<id:request_id>/", people_views.answer_join_request,
         name="answer_join_request"),
    path("leagues/<slug:slug>/organiser/settings/", settings_views.organiser_settings, name="organiser_settings"),
    path("leagues/<slug:slug>/organiser/events/", event_views.organiser_events, name="organiser_events"),
    path("leagues/<slug:slug>/organiser/export.json", export_views.export_league, name="organiser_export"),
    path("join/<str:token>/", people_views.join, name="join"),
    path("leagues/<slug:slug>/organiser/coaches/", people_views.organiser_coaches, name="organiser_coaches"),
    path("leagues/<slug:slug>/organiser/checklist/fixtures/", organiser_views.checklist_fixtures,
         name="checklist_fixtures"),
    path("leagues/<slug:slug>/organiser/checklist/divisions/", organiser_views.checklist_divisions,
         name="checklist_divisions"),
    path("leagues/<slug:slug>/organiser/checklist/next-season/", organiser_views.checklist_next_season,
         name="checklist_next_season"),
    path("leagues/<slug:slug>/organiser/friendly/", organiser_views.add_friendly, name="add_friendly"),
    path("leagues/<slug:slug>/organiser/lockouts/", organiser_views.organiser_lockouts, name="organiser_lockouts"),
    path("leagues/<slug:slug>/import/", import_views.league_import, name="league_import"),
    path(
        "leagues/<slug:slug>/organiser/lockouts/<id:coach_id>/unlock/", organiser_views.unlock_coach,
        name="unlock_coach",
    ),
    path(
        "leagues/<slug:slug>/organiser/coaches/<id:coach_id>/invite/", people_views.invite_coach, name="invite_coach"
    ),
    path(
        "leagues/<slug:slug>/organiser/entries/<id:entry_id>/withdraw/", people_views.withdraw_entry,
        name="withdraw_entry",
    ),
    path("fixtures/<id:pk>/", result_views.fixture_detail, name="fixture_detail"),
    path("fixtures/<id:pk>/report/", result_views.report_result, name="report_result"),
    path("fixtures/<id:pk>/report/change/", result_views.change_report, name="change_report"),
    path("fixtures/<id:pk>/report/take-back/", result_views.withdraw_report, name="withdraw_report"),
    path("fixtures/<id:pk>/confirm/", result_views.confirm_result, name="confirm_result"),
    path("fixtures/<id:pk>/dispute/", result_views.dispute_result, name="dispute_result"),
    path("fixtures/<id:pk>/settle/", result_views.settle_dispute, name="settle_dispute"),
    path("fixtures/<id:pk>/approve/", result_views.approve_result, name="approve_result"),
    path("fixtures/<id:pk>/record/", result_views.record_result, name="record_result"),
    path("fixtures/<id:pk>/rearrange/", result_views.rearrange_fixture, name="rearrange_fixture"),
    path("fixtures/<id:pk>/reopen/", result_views.reopen_result, name="reopen_result"),
]

urlpatterns = [
    # First: the pages most requested (the league page, its feeds, the fixture
    # pages) resolve without trying every other app's patterns. No other pattern
    # matches an address of these (tests/test_urls.py).
    path("", include((league_patterns, "league"))),
    path("health/", errors.health, name="health"),
    path("api/v1/", api_site.api.urls),
    path("api/docs/", api_site.docs_view, name="api_docs"),
    path("rules/", views.rules_page, name="rules"),
    path("coaches/<id:coach_id>/", profile_views.coach_profile, name="coach_profile"),
    path("coaches/<id:coach_id>/vs/<id:other_id>/", profile_views.head_to_head, name="head_to_head"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("admin/", admin.site.urls),
    path("accounts/login/", account_views.LoginView.as_view(), name="login"),
    # Where Discord sends the browser back (league/accounts/discord.py): 404 unless the
    # server sets its Discord application. The log-in page and the profile start it.
    path("accounts/discord/complete/", discord.complete, name="discord_complete"),
    path("accounts/signup/", setup_views.signup_page, name="signup"),
    path("accounts/verify/<str:token>/", setup_views.verify_email, name="verify_email"),
    path("accounts/logout/", offline.LogoutView.as_view(), name="logout"),
    path("accounts/profile/", account_views.profile, name="profile"),
    path("accounts/tokens/", token_views.api_tokens, name="api_tokens"),
    path("accounts/invitation/<str:token>/", people_views.accept_invitation, name="accept_invitation"),
    path("accounts/claim/<str:token>/", people_views.claim_place, name="claim_place"),
    path("accounts/email/<str:token>/", account_views.confirm_email, name="confirm_email"),
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(form_class=account_forms.ThrottledPasswordResetForm),
        name="password_reset",
    ),
    path("accounts/password_reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("", include("campaigns.urls")),
    path("", include("league.dungeonbowl.urls")),
    path("", include("league.dreadball.urls")),
    path("", include("league.ratings.urls")),
]

handler404 = "league.web.errors.not_found"
handler500 = "league.web.errors.server_error"
