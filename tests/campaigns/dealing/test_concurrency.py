"""GB-19/GB-20 under load: simultaneous spends by one coach, each in its own
connection and thread, never take the balance below zero and never spend more than
5 in a phase, because every spending transaction locks the coach's campaign row.
PostgreSQL only (SQLite serialises writers and ignores SELECT ... FOR UPDATE)."""

from campaigns.ledgers import balances
from campaigns.dealing import services as dealing
from campaigns.ledgers import services as ledgers
from campaigns.models import CampaignCoach, FavourLine, Sponsorship
from tests.campaigns.factories import make_campaign, user_of
from tests.support.concurrency import POSTGRES_ONLY, at_once
from tests.support.factories import LeagueFactory, SeasonFactory, UserFactory

pytestmark = POSTGRES_ONLY


def spend_all_at_once(cc: CampaignCoach) -> tuple[int, list[str]]:
    """Eight threads each buy a different sponsorship at the same moment."""
    sponsorships = list(Sponsorship.objects.all()[:8])
    user = user_of(cc)
    outcomes = at_once([lambda s=s: dealing.buy_sponsorship(coach=cc, sponsorship=s, by=user) for s in sponsorships])
    return len(outcomes.returned), outcomes.refusals


def campaign_with_balance(favours: int) -> CampaignCoach:
    organiser = UserFactory(username="ls")
    season = SeasonFactory(league=LeagueFactory(organisers=[organiser]))
    a, _ = make_campaign(season, 2, organiser=organiser)
    ledgers.adjust(coach=a, ledger="favours", amount=favours, reason="grant", by=organiser)
    return a


def test_simultaneous_spends_never_go_below_zero():
    a = campaign_with_balance(3)
    bought, refusals = spend_all_at_once(a)
    assert bought == 3
    assert balances.favour_balance(a) == 0
    assert len(refusals) == 5 and all("never go below zero" in r for r in refusals)


def test_simultaneous_spends_never_exceed_five_per_phase():
    a = campaign_with_balance(20)
    bought, refusals = spend_all_at_once(a)
    assert bought == 5
    assert balances.spent_in_phase(a, 0) == 5
    assert balances.favour_balance(a) == 15
    assert FavourLine.objects.filter(coach=a, phase=0).count() == 5
    assert len(refusals) == 3 and all("Favours allowed this Wheeling" in r for r in refusals)
