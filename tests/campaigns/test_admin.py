"""The Longshanks' admin for The Big League: every changelist and change page
renders, organisers see only their own leagues, the actions go through the services."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from campaigns.dealing import services as dealing
from campaigns.ledgers import services as ledgers
from campaigns.models import Campaign, CampaignCoach, CampaignPointLine, FavourLine, MomentUnlock, Title
from league.models import Fixture
from tests.campaigns.factories import make_campaign, play, user_of
from tests.support.factories import LeagueFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db

MODELS = [
    "guild", "plotcard", "sponsorship", "moment", "campaign", "campaigncoach", "campaignpointline", "favourline",
    "momentunlock", "loan", "cardoffer", "sponsorshippurchase", "deck", "achievement", "title",
]


@pytest.fixture
def played(season, organiser):
    coaches = make_campaign(season, 4, organiser=organiser)
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    a, b = coaches[0], coaches[1]
    ledgers.adjust(coach=a, ledger="cp", amount=20, reason="admin test", by=organiser)
    ledgers.adjust(coach=b, ledger="favours", amount=5, reason="grant", by=organiser)
    dealing.request_loan(borrower=b, lender=a, model_name="Friday", model_type="squaddie", by=user_of(b))
    return coaches


@pytest.mark.parametrize("model", MODELS)
def test_every_changelist_renders_for_the_organiser(client, organiser, played, model):
    client.force_login(organiser)
    response = client.get(reverse(f"admin:campaigns_{model}_changelist"))
    assert response.status_code == 200


def test_change_pages_and_superuser_catalogue(client, organiser, played):
    client.force_login(organiser)
    cc = played[0]
    assert client.get(reverse("admin:campaigns_campaigncoach_change", args=[cc.pk])).status_code == 200
    line = FavourLine.objects.filter(coach=cc).first()
    assert client.get(reverse("admin:campaigns_favourline_change", args=[line.pk])).status_code == 200
    # Ledgers are append-only: no add page, no delete.
    assert client.get(reverse("admin:campaigns_favourline_add")).status_code == 403
    assert client.get(reverse("admin:campaigns_favourline_delete", args=[line.pk])).status_code == 403
    # The shared catalogue is read-only for an organiser, editable by a superuser.
    assert client.get(reverse("admin:campaigns_plotcard_add")).status_code == 403
    client.force_login(UserFactory(username="root", is_superuser=True, is_staff=True))
    assert client.get(reverse("admin:campaigns_plotcard_add")).status_code == 200


def test_ledgers_filter_by_kind_and_coach(client, organiser, played):
    client.force_login(organiser)
    a = played[0]
    page = client.get(reverse("admin:campaigns_favourline_changelist"), {"kind__exact": "match", "coach__id__exact": a.pk})
    rows = page.context["cl"].result_list
    assert rows and all(e.kind == "match" and e.coach_id == a.pk for e in rows)


def test_other_organiser_sees_nothing_of_this_league(client, other_organiser, played):
    client.force_login(other_organiser)
    for model in ["campaigncoach", "favourline", "momentunlock", "loan"]:
        response = client.get(reverse(f"admin:campaigns_{model}_changelist"))
        assert response.status_code == 200 and response.context["cl"].result_count == 0
    own = SeasonFactory(league=LeagueFactory(organisers=[other_organiser]))
    make_campaign(own, 2, organiser=other_organiser, prefix="Rival")
    assert client.get(reverse("admin:campaigns_campaigncoach_changelist")).context["cl"].result_count == 2


def action(client, model, name, objects, **data):
    return client.post(
        reverse(f"admin:campaigns_{model}_changelist"),
        {"action": name, ACTION_CHECKBOX_NAME: [o.pk for o in objects], **data},
        follow=True,
    )


def test_confirm_adjust_and_final_day_actions(client, organiser, other_organiser, played):
    a = played[0]
    unlock = MomentUnlock.objects.get(coach=a, threshold=20)
    client.force_login(other_organiser)
    action(client, "momentunlock", "confirm", [unlock])
    assert MomentUnlock.objects.get(pk=unlock.pk).confirmed_at is None
    client.force_login(organiser)
    assert "1 Moment(s) confirmed" in action(client, "momentunlock", "confirm", [unlock]).content.decode()
    assert MomentUnlock.objects.get(pk=unlock.pk).confirmed_by == organiser

    response = action(client, "campaigncoach", "adjust", [a], apply="1", ledger="cp", amount=10, reason="hosted")
    assert "Adjustment recorded for 1 coach" in response.content.decode()
    assert CampaignPointLine.objects.get(reason="hosted").amount == 10
    response = action(client, "campaigncoach", "adjust", [a], apply="1", ledger="favours", amount=-99, reason="fine")
    assert "never below zero" in response.content.decode()

    campaign = Campaign.objects.get()
    assert "still without an approved result" in action(client, "campaign", "final_day", [campaign]).content.decode()
    for f in Fixture.objects.unplayed():
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    assert "Final Day declared for 1" in action(client, "campaign", "final_day", [campaign]).content.decode()
    assert Title.objects.filter(campaign=campaign).exists()
    assert CampaignCoach.objects.count() == 4
