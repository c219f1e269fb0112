"""The Big League pages, included at the site root before the league's own patterns."""

from django.urls import path

from campaigns import deal_views, match_views, pick_views, views
from league.web import converters  # noqa: F401  registers <id:...> before the patterns below

app_name = "campaigns"

P = "leagues/<slug:slug>/campaign"

urlpatterns: list = [
    path(f"{P}/", views.campaign_table, name="campaign_table"),
    path("leagues/<slug:slug>/campaign.json", views.campaign_json, name="campaign_json"),
    path(f"{P}/coaches/<id:coach_id>/", views.coach_page, name="coach_page"),
    path(f"{P}/coaches/<id:coach_id>/adjust/", pick_views.adjust, name="adjust"),
    path(f"{P}/start/", pick_views.start_pick, name="start_pick"),
    path(f"{P}/unlocks/<id:unlock_id>/pick/", pick_views.pick, name="pick"),
    path(f"{P}/unlocks/<id:unlock_id>/confirm/", pick_views.confirm_unlock, name="confirm_unlock"),
    path(f"{P}/sponsorships/", deal_views.buy_sponsorship, name="buy_sponsorship"),
    path(f"{P}/advancement/", deal_views.buy_advancement, name="buy_advancement"),
    path(f"{P}/loans/", deal_views.request_loan, name="request_loan"),
    path(f"{P}/loans/<id:loan_id>/", deal_views.answer_loan, name="answer_loan"),
    path(f"{P}/offers/", deal_views.make_offer, name="make_offer"),
    path(f"{P}/offers/<id:offer_id>/", deal_views.answer_offer, name="answer_offer"),
    path(f"{P}/final-day/", pick_views.declare_final_day, name="declare_final_day"),
    path(f"{P}/fixtures/<id:fixture_id>/", match_views.fixture_page, name="fixture_page"),
    path(f"{P}/fixtures/<id:fixture_id>/deck/", match_views.register_deck, name="register_deck"),
    path(f"{P}/fixtures/<id:fixture_id>/achieved/", match_views.record_achievements, name="record_achievements"),
]
