"""The Big League pages, included at the site root before the league's own patterns."""

from django.urls import path

from campaigns.dealing import views as dealing
from campaigns.decks import views as decks
from campaigns.finalday import views as finalday
from campaigns.ledgers import views as ledgers
from campaigns.moments import views as moments
from campaigns.web import views
from league.web import converters  # noqa: F401  registers <id:...> before the patterns below

app_name = "campaigns"

P = "leagues/<slug:slug>/campaign"

urlpatterns: list = [
    path(f"{P}/", views.campaign_table, name="campaign_table"),
    path("leagues/<slug:slug>/campaign.json", views.campaign_json, name="campaign_json"),
    path(f"{P}/coaches/<id:coach_id>/", views.coach_page, name="coach_page"),
    path(f"{P}/coaches/<id:coach_id>/adjust/", ledgers.adjust, name="adjust"),
    path(f"{P}/start/", moments.start_pick, name="start_pick"),
    path(f"{P}/unlocks/<id:unlock_id>/pick/", moments.pick, name="pick"),
    path(f"{P}/unlocks/<id:unlock_id>/confirm/", moments.confirm_unlock, name="confirm_unlock"),
    path(f"{P}/sponsorships/", dealing.buy_sponsorship, name="buy_sponsorship"),
    path(f"{P}/advancement/", dealing.buy_advancement, name="buy_advancement"),
    path(f"{P}/loans/", dealing.request_loan, name="request_loan"),
    path(f"{P}/loans/<id:loan_id>/", dealing.answer_loan, name="answer_loan"),
    path(f"{P}/offers/", dealing.make_offer, name="make_offer"),
    path(f"{P}/offers/<id:offer_id>/", dealing.answer_offer, name="answer_offer"),
    path(f"{P}/final-day/", finalday.declare_final_day, name="declare_final_day"),
    path(f"{P}/fixtures/<id:fixture_id>/", decks.fixture_page, name="fixture_page"),
    path(f"{P}/fixtures/<id:fixture_id>/deck/", decks.register_deck, name="register_deck"),
    path(f"{P}/fixtures/<id:fixture_id>/achieved/", decks.record_achievements, name="record_achievements"),
]
