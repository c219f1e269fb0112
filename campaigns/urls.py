"""The Big League pages, included at the site root before the league's own patterns."""

from django.urls import path

from campaigns import views
from league import converters  # noqa: F401  registers <id:...> before the patterns below

app_name = "campaigns"

P = "leagues/<slug:slug>/campaign"

urlpatterns: list = [
    path(f"{P}/", views.campaign_table, name="campaign_table"),
    path("leagues/<slug:slug>/campaign.json", views.campaign_json, name="campaign_json"),
    path(f"{P}/coaches/<id:coach_id>/", views.coach_page, name="coach_page"),
    path(f"{P}/coaches/<id:coach_id>/adjust/", views.adjust, name="adjust"),
    path(f"{P}/start/", views.start_pick, name="start_pick"),
    path(f"{P}/unlocks/<id:unlock_id>/pick/", views.pick, name="pick"),
    path(f"{P}/unlocks/<id:unlock_id>/confirm/", views.confirm_unlock, name="confirm_unlock"),
    path(f"{P}/sponsorships/", views.buy_sponsorship, name="buy_sponsorship"),
    path(f"{P}/advancement/", views.buy_advancement, name="buy_advancement"),
    path(f"{P}/loans/", views.request_loan, name="request_loan"),
    path(f"{P}/loans/<id:loan_id>/", views.answer_loan, name="answer_loan"),
    path(f"{P}/offers/", views.make_offer, name="make_offer"),
    path(f"{P}/offers/<id:offer_id>/", views.answer_offer, name="answer_offer"),
    path(f"{P}/final-day/", views.declare_final_day, name="declare_final_day"),
    path(f"{P}/fixtures/<id:fixture_id>/", views.fixture_page, name="fixture_page"),
    path(f"{P}/fixtures/<id:fixture_id>/deck/", views.register_deck, name="register_deck"),
    path(f"{P}/fixtures/<id:fixture_id>/achieved/", views.record_achievements, name="record_achievements"),
]
