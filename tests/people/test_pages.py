"""Claiming a place and merging coaches through the pages, as the organiser and
the coaches do: the Coaches page's invitation by email, claim link and merge;
the claim page; a merge request on the account holder's /me/. Refusals answer
4xx with the reason and write nothing."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Coach, Entry, MergeRequest
from league.standings.season import standings_for
from tests.support.builders import season_with_results
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory, UserFactory
from tests.support.world import row_counts

pytestmark = pytest.mark.django_db


@pytest.fixture
def pasted(season):
    """A coach the organiser pasted: no account, no address."""
    return EntryFactory(season=season, coach=CoachFactory(name="Ivy Thorne", user=None, email="")).coach


@pytest.fixture
def coaches_url(league):
    return reverse("league:organiser_coaches", args=[league.slug])


def claim_link(client, url, coach) -> str:
    response = client.post(url, {"action": "claim_link", "coach": coach.pk})
    assert response.status_code == 200
    found = re.search(r'class="join-url claim-url" type="text" readonly value="([^"]+)"', response.content.decode())
    return "/" + found.group(1).split("/", 3)[3]


def figures(season):
    return [(r.entry_id, r.position, r.played, r.won, r.lost, r.lp) for r in standings_for(season)]


# The Coaches page: how a coach without an account claims their place -----------


def test_the_coaches_page_shows_how_each_coach_without_an_account_claims_their_place(client, organiser, pasted,
                                                                                    season, coaches_url):
    with_account = EntryFactory(season=season, coach=CoachFactory(name="Has One")).coach
    client.force_login(organiser)
    page = client.get(coaches_url).content.decode()
    row = page[page.index("Ivy Thorne"):page.index("Ivy Thorne") + 3000]
    assert "No account yet: how they claim their place" in row
    assert "Invite by email" in row and "Make a claim link" in row
    theirs = page[page.index(with_account.name):]
    assert "has an account" in theirs[:400]


def test_invite_by_email_sets_the_address_and_sends_the_invitation(client, organiser, pasted, coaches_url):
    client.force_login(organiser)
    response = client.post(coaches_url, {"action": "invite", "coach": pasted.pk, "email": "ivy@example.org"})
    assert response.status_code == 302
    assert Coach.objects.get(pk=pasted.pk).email == "ivy@example.org"
    assert mail.outbox[-1].to == ["ivy@example.org"] and "/accounts/invitation/" in mail.outbox[-1].body
    # Sent again to the address they have: a new link.
    assert client.post(coaches_url, {"action": "invite", "coach": pasted.pk, "email": ""}).status_code == 302
    assert len(mail.outbox) == 2


@pytest.mark.parametrize("posted", [{"email": "not an address"}, {"email": ""}, {"email": "a@b.org", "coach": "x"}])
def test_a_bad_invitation_is_400_on_the_form_and_writes_nothing(client, organiser, pasted, coaches_url, posted):
    client.force_login(organiser)
    before = row_counts()
    response = client.post(coaches_url, {"action": "invite", "coach": pasted.pk, **posted})
    assert response.status_code == 400 and row_counts() == before and mail.outbox == []
    assert Coach.objects.get(pk=pasted.pk).email == ""


def test_an_organiser_cannot_invite_or_link_another_leagues_coach(client, organiser, other_organiser, coaches_url):
    theirs = EntryFactory(season=SeasonFactory(league=LeagueFactory(organisers=[other_organiser])),
                          coach=CoachFactory(name="Not Mine", user=None, email="")).coach
    client.force_login(organiser)
    before = row_counts()
    response = client.post(coaches_url, {"action": "invite", "coach": theirs.pk, "email": "x@example.org"})
    assert response.status_code == 400 and "does not play in this league" in response.content.decode()
    response = client.post(coaches_url, {"action": "claim_link", "coach": theirs.pk})
    assert response.status_code == 400 and "does not play in this league" in response.content.decode()
    assert row_counts() == before and Coach.objects.get(pk=theirs.pk).invitation_nonce == ""


@pytest.mark.parametrize("role", ["anonymous", "coach", "rival"])
def test_only_the_organiser_invites_links_or_merges(client, other_organiser, pasted, season, coaches_url, role):
    coach = EntryFactory(season=season, coach=CoachFactory(name="Player")).coach
    if role != "anonymous":
        client.force_login(coach.user if role == "coach" else other_organiser)
    before = row_counts()
    for data in ({"action": "invite", "coach": pasted.pk, "email": "x@example.org"},
                 {"action": "claim_link", "coach": pasted.pk},
                 {"action": "merge", "keep": coach.pk, "absorb": pasted.pk, "confirmed": "yes"}):
        response = client.post(coaches_url, data)
        assert response.status_code == (302 if role == "anonymous" else 403)
    assert row_counts() == before and mail.outbox == []


# The claim link ----------------------------------------------------------------


def test_a_claim_link_makes_a_new_account_the_coach_and_a_new_link_retires_the_old(client, organiser, pasted,
                                                                                   coaches_url):
    client.force_login(organiser)
    old = claim_link(client, coaches_url, pasted)
    link = claim_link(client, coaches_url, pasted)
    client.logout()
    assert client.get(old).status_code == 400
    page = client.get(link).content.decode()
    assert "Welcome, Ivy Thorne" in page and "?next=/accounts/claim/" in page  # log in, and come back here
    response = client.post(link, {"username": "ivy", "password1": "a long pass phrase 7",
                                  "password2": "a long pass phrase 7"})
    assert response.status_code == 302
    assert Coach.objects.get(pk=pasted.pk).user.username == "ivy"
    assert client.get(link).status_code == 400  # spent


def test_a_coach_of_another_league_claims_through_the_link_and_becomes_one_coach(client, organiser, other_organiser,
                                                                                 pasted, season, coaches_url):
    """One person in two organisers' leagues ends as one coach with both records."""
    theirs = season_with_results(coaches=3, played_rounds=1, season=SeasonFactory(
        league=LeagueFactory(name="Harbour League", organisers=[other_organiser]), name="Spring"))
    ivy = Entry.objects.filter(season=theirs).first().coach
    Coach.objects.filter(pk=ivy.pk).update(name="Ivy T")
    ivy.user.refresh_from_db()
    entry = Entry.objects.get(coach=pasted)
    before = figures(theirs)
    client.force_login(organiser)
    link = claim_link(client, coaches_url, pasted)
    client.force_login(ivy.user)
    page = client.get(link).content.decode()
    assert "You are <strong>Ivy T</strong> in Harbour League: accept and your place in Midlands Big League " \
           "joins your record." in page
    assert client.post(link).status_code == 302
    assert Entry.objects.get(pk=entry.pk).coach_id == ivy.pk and not Coach.objects.filter(pk=pasted.pk).exists()
    assert figures(theirs) == before
    for slug in (season.league.slug, theirs.league.slug):
        assert "Ivy T" in client.get(reverse("league:league_detail", args=[slug])).content.decode()
    me = client.get(reverse("league:my_fixtures")).content.decode()
    assert "Midlands Big League" in me or "Harbour League" in me


def test_a_claim_by_an_entrant_of_the_same_season_is_refused_and_writes_nothing(client, organiser, pasted, season,
                                                                                coaches_url):
    rival_entrant = EntryFactory(season=season, coach=CoachFactory(name="Same Season")).coach
    client.force_login(organiser)
    link = claim_link(client, coaches_url, pasted)
    client.force_login(rival_entrant.user)
    page = client.get(link).content.decode()
    assert "two entrants of one season are two people" in page and "Accept: Ivy Thorne is me" not in page
    before = row_counts()
    response = client.post(link)
    assert response.status_code == 400 and "two entrants of one season are two people" in response.content.decode()
    assert row_counts() == before and Coach.objects.get(pk=pasted.pk).user is None


# Merging two coach rows -----------------------------------------------------------


def _two_rows(organiser, *, accounts: tuple[bool, bool]):
    first = season_with_results(coaches=4, played_rounds=2, season=SeasonFactory(
        league=LeagueFactory(name="First League", organisers=[organiser]), name="Autumn"))
    second = season_with_results(coaches=4, played_rounds=2, season=SeasonFactory(
        league=LeagueFactory(name="Second League", organisers=[organiser]), name="Winter"))
    keep = Entry.objects.filter(season=first).order_by("pk").first().coach
    absorb = Entry.objects.filter(season=second).order_by("pk").first().coach
    for coach, has in zip((keep, absorb), accounts):
        if not has:
            Coach.objects.filter(pk=coach.pk).update(user=None)
            coach.user = None
    return first, second, keep, absorb


def test_the_organiser_merges_two_rows_after_seeing_what_moves(client, organiser, coaches_url, league):
    first, second, keep, absorb = _two_rows(organiser, accounts=(False, False))
    before = figures(first), figures(second)
    client.force_login(organiser)
    page = client.get(coaches_url).content.decode()
    assert f"{absorb.name} (Second League)" in page
    ask = client.post(coaches_url, {"action": "merge", "keep": keep.pk, "absorb": absorb.pk})
    assert ask.status_code == 200
    text = ask.content.decode()
    assert f"Merge {absorb.name} into {keep.name}?" in text
    assert "1 entry (Second League, Winter)" in text and "matches with a result" in text
    assert Coach.objects.filter(pk=absorb.pk).exists()  # asking writes nothing
    done = client.post(coaches_url, {"action": "merge", "keep": keep.pk, "absorb": absorb.pk, "confirmed": "yes"})
    assert done.status_code == 302
    assert not Coach.objects.filter(pk=absorb.pk).exists()
    assert (figures(first), figures(second)) == before
    assert keep.name in client.get(reverse("league:league_detail", args=[second.league.slug])).content.decode()


def test_a_merge_that_touches_an_account_waits_for_it(client, organiser, coaches_url,
                                                      django_capture_on_commit_callbacks):
    first, second, keep, absorb = _two_rows(organiser, accounts=(False, True))
    client.force_login(absorb.user)
    assert "you?" not in client.get(reverse("league:my_fixtures")).content.decode()  # kept from now on
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(coaches_url, {"action": "merge", "keep": keep.pk, "absorb": absorb.pk,
                                             "confirmed": "yes"})
    assert response.status_code == 302
    asked = MergeRequest.objects.get()
    assert Coach.objects.filter(pk=absorb.pk).exists()
    assert mail.outbox[-1].to == [absorb.email] and f"Is {keep.name} you?" in mail.outbox[-1].subject
    url = reverse("league:merge_request", args=[asked.pk])
    # Nobody else can see or answer it: not the organiser, not another coach.
    other = Entry.objects.filter(season=first).exclude(coach=keep).select_related("coach__user").first().coach.user
    for who in (organiser, other):
        client.force_login(who)
        assert client.get(url).status_code == 404 and client.post(url, {"answer": "accept"}).status_code == 404
    client.force_login(absorb.user)
    me = client.get(reverse("league:my_fixtures")).content.decode()
    assert f"Is {keep.name} you?" in me and url in me
    assert client.post(url, {"answer": "maybe"}).status_code == 400
    assert client.post(url, {"answer": "accept"}).status_code == 302
    assert not Coach.objects.filter(pk=absorb.pk).exists()
    kept = Coach.objects.get(pk=keep.pk)
    assert kept.user_id == absorb.user.pk
    assert f"Is {keep.name} you?" not in client.get(reverse("league:my_fixtures")).content.decode()


def test_a_refused_merge_request_moves_nothing(client, organiser, coaches_url):
    first, second, keep, absorb = _two_rows(organiser, accounts=(True, False))
    client.force_login(organiser)
    client.post(coaches_url, {"action": "merge", "keep": keep.pk, "absorb": absorb.pk, "confirmed": "yes"})
    asked = MergeRequest.objects.get()
    client.force_login(keep.user)
    assert client.post(reverse("league:merge_request", args=[asked.pk]), {"answer": "refuse"}).status_code == 302
    asked.refresh_from_db()
    assert asked.decided_at is not None and not asked.accepted and Coach.objects.filter(pk=absorb.pk).exists()
    assert client.get(reverse("league:merge_request", args=[asked.pk])).status_code == 404


def test_two_accounts_or_another_organisers_coach_are_refused_with_why(client, organiser, other_organiser,
                                                                       coaches_url):
    first, second, keep, absorb = _two_rows(organiser, accounts=(True, True))
    theirs = EntryFactory(season=SeasonFactory(league=LeagueFactory(organisers=[other_organiser])),
                          coach=CoachFactory(name="Elsewhere", user=None)).coach
    client.force_login(organiser)
    before = row_counts()
    response = client.post(coaches_url, {"action": "merge", "keep": keep.pk, "absorb": absorb.pk})
    assert response.status_code == 400 and "two accounts are two people" in response.content.decode()
    response = client.post(coaches_url, {"action": "merge", "keep": keep.pk, "absorb": theirs.pk, "confirmed": "yes"})
    assert response.status_code == 400  # not among the organiser's coaches
    assert row_counts() == before and not MergeRequest.objects.exists()


# Costs ----------------------------------------------------------------------------


def _sized(organiser, size: int):
    league = LeagueFactory(name=f"Sized {size}", slug=f"sized-{size}", organisers=[organiser])
    season = season_with_results(coaches=size, played_rounds=1, season=SeasonFactory(
        league=league, name="Season", start_date=datetime.date(2026, 9, 7)))
    Coach.objects.filter(entries__season=season).update(user=None)
    return league, season


def _count(client, method, url, data=None) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url) if method == "GET" else client.post(url, data)
    assert response.status_code < 400, (url, response.status_code)
    return len(queries)


def test_the_new_pages_cost_the_same_at_4_and_40_coaches(client, organiser):
    counts = {}
    for size in (4, 40):
        league, season = _sized(organiser, size)
        url = reverse("league:organiser_coaches", args=[league.slug])
        entries = list(Entry.objects.filter(season=season).order_by("pk").select_related("coach"))
        client.force_login(organiser)
        client.get(url)
        measured = [_count(client, "GET", url)]
        measured.append(_count(client, "POST", url, {"action": "claim_link", "coach": entries[0].coach_id}))
        later = EntryFactory(season=SeasonFactory(league=league, name="Earlier", start_date=datetime.date(2025, 9, 1)),
                             coach=CoachFactory(name=f"Later {size}", user=None)).coach
        measured.append(_count(client, "POST", url, {"action": "merge", "keep": entries[0].coach_id,
                                                     "absorb": later.pk}))
        link = claim_link(client, url, entries[2].coach)
        holder = UserFactory(username=f"holder-{size}")
        client.force_login(holder)
        measured.append(_count(client, "GET", link))
        Coach.objects.filter(pk=entries[3].coach_id).update(user=holder)
        asked = MergeRequest.objects.create(keep=entries[3].coach, absorb=entries[4 % size].coach, asked_by=organiser)
        measured.append(_count(client, "GET", reverse("league:merge_request", args=[asked.pk])))
        counts[size] = measured
    assert counts[4] == counts[40], counts
