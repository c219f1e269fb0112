"""One person, one coach, in a real Chromium at 390 px and 1280 px: a pasted
coach claims her place through an invitation; a person who plays in two
organisers' leagues takes her pasted place through a claim link and ends as one
coach with both leagues' history; an organiser merges two coach rows of their
leagues and every figure of both leagues' tables stays as it was."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.urls import reverse

from league.models import Coach, Entry
from tests.browser.chromium import CHROMIUM_ONLY, log_in, new_page, no_sideways_scroll, shot
from tests.support.builders import season_with_results
from tests.support.factories import PASSWORD, CoachFactory, EntryFactory, LeagueFactory, SeasonFactory, UserFactory
from league.permissions import make_organiser

pytestmark = CHROMIUM_ONLY


def _organiser(username: str):
    user = UserFactory(username=username)
    make_organiser(user)
    return user


def _league_with(organiser, *, name: str, slug: str, coach: Coach, start: datetime.date):
    """A league of ``organiser`` whose season ``coach`` plays with three others,
    a round approved."""
    season = SeasonFactory(league=LeagueFactory(name=name, slug=slug, organisers=[organiser]), name="Spring",
                           start_date=start)
    EntryFactory(season=season, coach=coach)
    return season_with_results(coaches=3, played_rounds=1, season=season)


def _table(page, live_server, slug: str) -> str:
    page.goto(live_server.url + reverse("league:league_detail", args=[slug]))
    return page.inner_text(".table-wrap table >> nth=0")


def _open_claim(page, name: str) -> None:
    page.click(f"tr:has-text('{name}') summary")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_pasted_coach_claims_her_place_through_an_invitation(live_server, browser, size):
    organiser = _organiser("longshanks")
    ivy = CoachFactory(name="Ivy Thorne", user=None, email="")
    _league_with(organiser, name="Harbour League", slug="harbour", coach=ivy, start=datetime.date(2026, 9, 7))
    page = new_page(browser, size)
    log_in(page, live_server, "longshanks", PASSWORD)
    page.goto(live_server.url + reverse("league:organiser_coaches", args=["harbour"]))
    _open_claim(page, "Ivy Thorne")
    page.fill(f"#invite-{ivy.pk}", "ivy@example.org")
    no_sideways_scroll(page)
    shot(page, f"claim-invite-{size}.png")
    page.click(f"tr:has-text('Ivy Thorne') button:text('Invite by email')")
    page.wait_for_selector("text=Invitation sent to Ivy Thorne.")
    link = re.search(r"http://\S+/accounts/invitation/\S+/", mail.outbox[-1].body).group(0)

    her = new_page(browser, size)
    her.goto(link)
    her.fill("input[name=username]", "ivy")
    her.fill("input[name=password1]", PASSWORD)
    her.fill("input[name=password2]", PASSWORD)
    no_sideways_scroll(her)
    her.click("button:text('Create my account')")
    her.wait_for_url(f"**{reverse('league:my_fixtures')}")
    assert Coach.objects.get(pk=ivy.pk).user.username == "ivy"
    assert "Ivy Thorne" in her.inner_text("body")
    assert "Ivy Thorne" in _table(her, live_server, "harbour")
    shot(her, f"claim-invite-done-{size}.png")
    her.context.close()
    page.context.close()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_one_person_in_two_organisers_leagues_ends_as_one_coach(live_server, browser, size):
    first, second = _organiser("longshanks"), _organiser("rival")
    ivy = CoachFactory(name="Ivy Thorne")  # her account, in the rival's league
    UserFactory._meta.model.objects.filter(pk=ivy.user_id).update(username="ivy")
    pasted = CoachFactory(name="Ivy T", user=None, email="")  # the organiser pasted her as Ivy T
    _league_with(second, name="Rival League", slug="rival-league", coach=ivy, start=datetime.date(2026, 9, 7))
    _league_with(first, name="Harbour League", slug="harbour", coach=pasted, start=datetime.date(2026, 9, 14))
    page = new_page(browser, size)
    before = {slug: _table(page, live_server, slug) for slug in ("harbour", "rival-league")}
    log_in(page, live_server, "longshanks", PASSWORD)
    page.goto(live_server.url + reverse("league:organiser_coaches", args=["harbour"]))
    _open_claim(page, "Ivy T")
    page.click("tr:has-text('Ivy T') button:text('Make a claim link')")
    link = page.input_value("input.claim-url")
    no_sideways_scroll(page)
    shot(page, f"claim-link-{size}.png")

    her = new_page(browser, size)
    log_in(her, live_server, "ivy", PASSWORD)
    her.goto(link)
    her.wait_for_selector("text=You are Ivy Thorne in Rival League: accept and your place in Harbour League "
                          "joins your record.")
    no_sideways_scroll(her)
    shot(her, f"claim-link-accept-{size}.png")
    her.click("button:text('Accept: Ivy T is me')")
    her.wait_for_url(f"**{reverse('league:my_fixtures')}")
    assert not Coach.objects.filter(pk=pasted.pk).exists()
    assert set(Entry.objects.filter(coach=ivy).values_list("season__league__slug", flat=True)) == {
        "harbour", "rival-league"}
    me = her.inner_text("main")
    assert "Harbour League" in me and "Rival League" in me
    for slug in ("harbour", "rival-league"):
        after = _table(her, live_server, slug)
        assert "Ivy Thorne" in after
        assert after == re.sub(r"Ivy T(?!horne)", "Ivy Thorne", before[slug])
    her.context.close()
    page.context.close()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_an_organisers_merge_keeps_every_figure_of_both_leagues(live_server, browser, size):
    organiser = _organiser("longshanks")
    keep = CoachFactory(name="Sam Smith", user=None)
    absorb = CoachFactory(name="S. Smith", user=None)
    _league_with(organiser, name="Harbour League", slug="harbour", coach=keep, start=datetime.date(2026, 9, 7))
    _league_with(organiser, name="Quay League", slug="quay", coach=absorb, start=datetime.date(2026, 9, 14))
    page = new_page(browser, size)
    before = {slug: _table(page, live_server, slug) for slug in ("harbour", "quay")}
    log_in(page, live_server, "longshanks", PASSWORD)
    page.goto(live_server.url + reverse("league:organiser_coaches", args=["harbour"]))
    page.select_option("select[name=keep]", str(keep.pk))
    page.select_option("select[name=absorb]", str(absorb.pk))
    page.click("button:text('Show what moves')")
    page.wait_for_selector("text=Merge S. Smith into Sam Smith?")
    assert "1 entry (Quay League, Spring)" in page.inner_text("main")
    no_sideways_scroll(page)
    shot(page, f"merge-confirm-{size}.png")
    page.click("button:text('Merge: S. Smith is Sam Smith')")
    page.wait_for_selector("text=Merged: S. Smith is now Sam Smith")
    assert not Coach.objects.filter(pk=absorb.pk).exists()
    assert _table(page, live_server, "harbour") == before["harbour"]
    after = _table(page, live_server, "quay")
    assert after == before["quay"].replace("S. Smith", "Sam Smith") and "S. Smith" not in after
    page.context.close()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_merge_that_touches_an_account_waits_for_it_on_their_page(live_server, browser, size):
    organiser = _organiser("longshanks")
    ivy = CoachFactory(name="Ivy Thorne")
    UserFactory._meta.model.objects.filter(pk=ivy.user_id).update(username="ivy")
    pasted = CoachFactory(name="I. Thorne", user=None, email="")
    _league_with(organiser, name="Harbour League", slug="harbour", coach=ivy, start=datetime.date(2026, 9, 7))
    _league_with(organiser, name="Quay League", slug="quay", coach=pasted, start=datetime.date(2026, 9, 14))
    page = new_page(browser, size)
    before = _table(page, live_server, "quay")
    log_in(page, live_server, "longshanks", PASSWORD)
    page.goto(live_server.url + reverse("league:organiser_coaches", args=["harbour"]))
    page.select_option("select[name=keep]", str(ivy.pk))
    page.select_option("select[name=absorb]", str(pasted.pk))
    page.click("button:text('Show what moves')")
    page.wait_for_selector("text=Ivy Thorne has an account: they are asked first")
    page.click("button:text('Merge: I. Thorne is Ivy Thorne')")
    page.wait_for_selector("text=they are asked to accept the merge on their page")
    assert Coach.objects.filter(pk=pasted.pk).exists()

    her = new_page(browser, size)
    log_in(her, live_server, "ivy", PASSWORD)
    her.wait_for_selector("text=Is I. Thorne you?")
    no_sideways_scroll(her)
    shot(her, f"merge-request-{size}.png")
    her.click(".merge-request button:text('Accept')")
    her.wait_for_selector("text=with both records")
    assert not Coach.objects.filter(pk=pasted.pk).exists()
    assert _table(her, live_server, "quay") == before.replace("I. Thorne", "Ivy Thorne")
    her.context.close()
    page.context.close()
