"""A join link says what will happen (LG-1): once the season's fixtures exist the
page says so in the joiner's words before anyone signs up, and its button sends a
request that waits on the organiser's dashboard with LG-1's two choices; the
season's coaches without an account are offered as "I am one of these", a claim
the organiser confirms with one click. Every refusal writes nothing."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.template.defaultfilters import urlencode
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Coach, Entry, Fixture, JoinLink, JoinRequest, Result, Round, Season
from league.outbox import notifications
from league.people import join_requests, joining
from league.services.seasons import generate_fixtures
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db

STARTED = ("Season 1 has started: your request to join will wait for the organiser, who can put you in the next "
           "season or, while no result is reported, start the fixtures again with you in.")
ORGANISERS_QUESTION = ("already has its fixtures", "Nobody joins a running round robin", "put the newcomer")


@pytest.fixture
def link(season, organiser) -> JoinLink:
    return joining.create_link(season=season, by=organiser, max_uses=None, closes_on=None)


@pytest.fixture
def url(link) -> str:
    return reverse("league:join", args=[joining.make_token(link)])


@pytest.fixture
def ivy(season) -> Coach:
    """A coach the organiser pasted: no account."""
    return EntryFactory(season=season, coach__name="Ivy Thorne", coach__user=None, coach__email="").coach


@pytest.fixture
def players(season, ivy) -> list[Coach]:
    """Two coaches with accounts beside Ivy."""
    return [EntryFactory(season=season, coach__name=name).coach for name in ("Rook", "Wren")]


@pytest.fixture
def started(season, players, organiser) -> Season:
    generate_fixtures(season=season, by=organiser)
    return season


@pytest.fixture
def joiner():
    return UserFactory(username="newcomer", email="newcomer@example.com")


def _rows() -> tuple[int, ...]:
    return (Entry.objects.count(), Coach.objects.count(), JoinRequest.objects.count(), Round.objects.count(),
            Fixture.objects.count())


def _dashboard(league) -> str:
    return reverse("league:organiser_dashboard", args=[league.slug])


def _answer(league, join_request) -> str:
    return reverse("league:answer_join_request", args=[league.slug, join_request.pk])


# The join page, before anyone signs up ------------------------------------------------


def test_before_the_fixtures_joining_stays_one_button(client, url, season, joiner, ivy):
    client.force_login(joiner)
    page = client.get(url).content.decode()
    assert "Join Season 1</button>" in page and "has started" not in page
    client.post(url, {"action": "join", "name": "Newcomer"})
    assert Entry.objects.filter(season=season, coach__user=joiner).exists()
    assert not JoinRequest.objects.exists()


def test_once_the_fixtures_exist_the_page_says_so_before_sign_up(client, url, started):
    page = client.get(url).content.decode()
    assert STARTED in page
    assert not any(words in page for words in ORGANISERS_QUESTION)
    # Both ways in come back here: the page's own buttons and the header's links.
    assert page.count(f"{reverse('signup')}?next={urlencode(url)}") == 2
    assert page.count(f"{reverse('login')}?next={urlencode(url)}") == 2


def test_the_headers_sign_up_carries_the_join_page_even_with_sign_up_closed(client, url, settings, season):
    settings.OPEN_SIGNUP = False
    page = client.get(url).content.decode()
    header = page.split("</header>")[0]
    assert f'href="{reverse("signup")}?next={urlencode(url)}"' in header
    # Elsewhere the closed sign-up is not offered, and the log-in link keeps the page.
    elsewhere = client.get(reverse("league:league_list")).content.decode().split("</header>")[0]
    assert ">Sign up</a>" not in elsewhere and 'login/?next=/"' in elsewhere


def test_sign_up_from_the_header_verifies_and_comes_back_to_the_join_page(client, url, started, settings,
                                                                         django_capture_on_commit_callbacks):
    settings.OPEN_SIGNUP = False
    page = client.get(url).content.decode()
    signup = re.search(r'<header.*?href="(/accounts/signup/\?next=[^"]+)"', page, re.S).group(1).replace("&amp;", "&")
    form = client.get(signup).content.decode()
    assert 'name="next"' in form and url in form
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(signup, {"username": "ivy", "email": "ivy@example.com",
                                        "password1": "a long enough passphrase", "password2": "a long enough passphrase",
                                        "next": url})
    assert response.status_code == 200
    link = re.search(r"http://\S+", mail.outbox[-1].body).group(0)
    verify = link.split("testserver", 1)[-1]
    assert client.get(verify).status_code == 200
    assert client.post(verify)["Location"] == url
    assert STARTED in client.get(url).content.decode()


# A newcomer after the fixtures ----------------------------------------------------------


def test_a_newcomer_after_the_fixtures_asks_and_waits(client, url, started, link, joiner, organiser,
                                                      django_capture_on_commit_callbacks):
    client.force_login(joiner)
    page = client.get(url).content.decode()
    assert STARTED in page and "Ask to join Season 1</button>" in page
    before = (Entry.objects.count(), Coach.objects.count())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "join", "name": "Newcomer", "team": "Masons"})
    assert response["Location"] == url
    asked = JoinRequest.objects.get()
    assert (asked.kind, asked.outcome, asked.name, asked.team, asked.user, asked.link) == (
        "new", "pending", "Newcomer", "Masons", joiner, link)
    assert (Entry.objects.count(), Coach.objects.count()) == before  # nothing entered yet
    link.refresh_from_db()
    assert link.uses == 1
    [told] = [message for message in mail.outbox if organiser.email in message.to]
    assert "Newcomer asks to join Season 1" in told.subject
    assert "commissioner" not in told.body.lower()
    assert reverse("league:organiser_dashboard", args=[started.league.slug]) in told.body
    again = client.get(url).content.decode()
    assert "waits for the organiser" in again and "Ask to join" not in again
    # The request is on their own page.
    assert "waits for the organiser" in client.get(reverse("league:my_fixtures")).content.decode()


def test_asking_twice_writes_nothing(client, url, started, joiner):
    client.force_login(joiner)
    client.post(url, {"action": "join", "name": "Newcomer"})
    before = _rows()
    response = client.post(url, {"action": "join", "name": "Newcomer"})
    assert response.status_code == 400 and "already waits" in response.content.decode()
    assert _rows() == before


def test_an_organiser_who_turned_requests_off_is_not_mailed(client, url, started, joiner, organiser,
                                                           django_capture_on_commit_callbacks):
    notifications.set_preferences(user=organiser, on=[kind.key for kind in notifications.kinds()
                                                      if kind.key != "join_requested"])
    client.force_login(joiner)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "join", "name": "Newcomer"})
    assert JoinRequest.objects.count() == 1
    assert not [message for message in mail.outbox if organiser.email in message.to]


def test_a_coach_already_in_the_season_is_told_so(client, url, started, players):
    client.force_login(players[0].user)
    page = client.get(url).content.decode()
    assert "You are in Season 1 already" in page and "Ask to join" not in page
    before = _rows()
    assert client.post(url, {"action": "join"}).status_code == 400
    assert _rows() == before


# "I am one of these" ----------------------------------------------------------------------


def test_only_coaches_without_an_account_are_offered(client, url, season, ivy, players, joiner):
    client.force_login(joiner)
    page = client.get(url).content.decode()
    assert "I am Ivy Thorne</button>" in page
    assert "I am Rook" not in page and "I am Wren" not in page
    anonymous = Client().get(url).content.decode()
    assert "Ivy Thorne" in anonymous and "I am Ivy Thorne" not in anonymous  # sign up or log in first


def test_a_claim_waits_for_the_organiser(client, url, season, ivy, joiner, organiser,
                                         django_capture_on_commit_callbacks):
    client.force_login(joiner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "claim", "coach": ivy.pk})
    assert response["Location"] == url
    claim = JoinRequest.objects.get()
    assert (claim.kind, claim.coach, claim.outcome, claim.user) == ("claim", ivy, "pending", joiner)
    ivy.refresh_from_db()
    assert ivy.user is None  # nothing taken until the organiser confirms
    [told] = [message for message in mail.outbox if organiser.email in message.to]
    assert "newcomer says they are Ivy Thorne" in told.subject
    assert "You said you are <strong>Ivy Thorne</strong>" in client.get(url).content.decode()


@pytest.mark.parametrize("whom", ["with an account", "of another season", "not a number"])
def test_a_claim_of_a_coach_not_offered_writes_nothing(client, url, season, players, joiner, whom):
    target = {
        "with an account": lambda: players[0].pk,
        "of another season": lambda: EntryFactory(coach__user=None, coach__name="Elsewhere").coach.pk,
        "not a number": lambda: "1; drop",
    }[whom]()
    client.force_login(joiner)
    before = _rows()
    response = client.post(url, {"action": "claim", "coach": target})
    assert response.status_code == 400
    assert _rows() == before


# The organiser's answers ----------------------------------------------------------------


@pytest.fixture
def newcomer_request(started, joiner, link) -> JoinRequest:
    return join_requests.ask_to_join(token=joining.make_token(link), user=joiner, name="Newcomer", team="Masons")


@pytest.fixture
def claim(season, ivy, joiner, link) -> JoinRequest:
    return join_requests.claim(token=joining.make_token(link), user=joiner, coach_id=ivy.pk)


def test_the_dashboard_shows_a_claim_and_one_click_confirms_it(client, season, league, claim, ivy, joiner, organiser,
                                                              django_capture_on_commit_callbacks):
    client.force_login(organiser)
    page = client.get(_dashboard(league)).content.decode()
    assert "says they are" in page and "Confirm: they are Ivy Thorne</button>" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(_answer(league, claim), {"decision": "confirm"})
    assert response["Location"] == _dashboard(league)
    ivy.refresh_from_db()
    assert ivy.user == joiner
    claim.refresh_from_db()
    assert (claim.outcome, claim.decided_by) == ("accepted", organiser) and claim.decided_at is not None
    [told] = [message for message in mail.outbox if joiner.email in message.to]
    assert "confirmed that you are Ivy Thorne" in told.body
    assert "says they are" not in client.get(_dashboard(league)).content.decode()  # the kept page changed


def test_a_confirmed_claim_makes_one_coach_of_two_leagues(client, season, league, ivy, link, organiser):
    elsewhere = EntryFactory(coach__name="Ivy T", season__league=LeagueFactory(name="Other League"))
    person = elsewhere.coach.user
    claim = join_requests.claim(token=joining.make_token(link), user=person, coach_id=ivy.pk)
    client.force_login(organiser)
    client.post(_answer(league, claim), {"decision": "confirm"})
    assert not Coach.objects.filter(pk=ivy.pk).exists()
    assert set(Entry.objects.filter(coach=elsewhere.coach).values_list("season", flat=True)) == {
        season.pk, elsewhere.season_id}
    claim.refresh_from_db()
    assert (claim.outcome, claim.coach) == ("accepted", elsewhere.coach)


def test_without_a_next_season_the_choice_is_explained_and_refused(client, league, newcomer_request, organiser):
    client.force_login(organiser)
    page = client.get(_dashboard(league)).content.decode()
    assert '<button type="button" disabled>Put them in the next season</button>' in page
    assert "No next season is open yet" in page
    before = _rows()
    response = client.post(_answer(league, newcomer_request), {"decision": "next"}, follow=True)
    assert "has no next season open yet" in response.content.decode()
    assert _rows() == before
    newcomer_request.refresh_from_db()
    assert newcomer_request.outcome == "pending"


def test_the_organiser_puts_a_newcomer_in_the_next_season(client, league, started, newcomer_request, joiner,
                                                           organiser, django_capture_on_commit_callbacks):
    later = SeasonFactory(league=league, name="Season 2", start_date=started.start_date + datetime.timedelta(days=90))
    client.force_login(organiser)
    page = client.get(_dashboard(league)).content.decode()
    assert "Put them in Season 2</button>" in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_answer(league, newcomer_request), {"decision": "next"})
    entry = Entry.objects.get(coach__user=joiner)
    assert (entry.season, entry.coach.name, entry.team) == (later, "Newcomer", "Mason's")  # the Guild by its catalogue name
    newcomer_request.refresh_from_db()
    assert (newcomer_request.outcome, newcomer_request.placed_in) == ("next", later)
    [told] = [message for message in mail.outbox if joiner.email in message.to]
    assert "You are in Season 2" in told.subject and "put you in Season 2" in told.body


def test_generating_again_is_confirmed_first_then_enters_the_newcomer(client, league, started, newcomer_request,
                                                                      joiner, organiser):
    client.force_login(organiser)
    before = _rows()
    ask = client.post(_answer(league, newcomer_request), {"decision": "regenerate"})
    assert ask.status_code == 200 and "generated again" in ask.content.decode()
    assert _rows() == before
    client.post(_answer(league, newcomer_request), {"decision": "regenerate", "confirmed": "yes"})
    entry = Entry.objects.get(coach__user=joiner)
    assert entry.season == started
    assert Fixture.objects.filter(round__season=started).filter(home=entry).exists() or \
        Fixture.objects.filter(round__season=started, away=entry).exists()
    newcomer_request.refresh_from_db()
    assert (newcomer_request.outcome, newcomer_request.placed_in) == ("regenerate", started)


def test_once_a_result_is_reported_the_fixtures_are_not_generated_again(client, league, started, newcomer_request,
                                                                        organiser):
    fixture = Fixture.objects.filter(round__season=started, away__isnull=False).first()
    Result.objects.create(fixture=fixture, home_score=12, away_score=6, outcome="home", summary="12 – 6")
    client.force_login(organiser)
    page = client.get(_dashboard(league)).content.decode()
    assert "Generate the fixtures again with them in</button>" not in page
    assert "can no longer be generated again" in page
    before = _rows()
    response = client.post(_answer(league, newcomer_request), {"decision": "regenerate", "confirmed": "yes"},
                           follow=True)
    assert "can no longer be generated again" in response.content.decode()
    assert _rows() == before


@pytest.mark.parametrize("which", ["newcomer", "claim"])
def test_a_refusal_enters_nobody_and_tells_them(client, league, ivy, started, joiner, link, organiser, which,
                                                django_capture_on_commit_callbacks):
    token = joining.make_token(link)
    asked = (join_requests.ask_to_join(token=token, user=joiner, name="Newcomer") if which == "newcomer"
             else join_requests.claim(token=token, user=joiner, coach_id=ivy.pk))
    client.force_login(organiser)
    entries = Entry.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_answer(league, asked), {"decision": "refuse"})
    asked.refresh_from_db()
    assert asked.outcome == "refused" and Entry.objects.count() == entries
    [told] = [message for message in mail.outbox if joiner.email in message.to]
    assert "did not accept" in told.body
    # Answered once: a second answer is refused and writes nothing.
    before = _rows()
    response = client.post(_answer(league, asked), {"decision": "confirm"}, follow=True)
    assert "answered already" in response.content.decode() and _rows() == before


def test_who_may_answer(client, league, claim, ivy, players, joiner, other_organiser):
    url = _answer(league, claim)
    assert client.post(url, {"decision": "confirm"})["Location"].startswith(reverse("login"))
    for user in (UserFactory(username="nobody"), players[0].user, joiner, other_organiser):
        client.force_login(user)
        assert client.post(url, {"decision": "confirm"}).status_code == 403
    rival_league = LeagueFactory(name="Rival League", slug="rival", organisers=[other_organiser])
    client.force_login(other_organiser)
    # The rival's own league does not have this request: 404.
    assert client.post(reverse("league:answer_join_request", args=[rival_league.slug, claim.pk]),
                       {"decision": "confirm"}).status_code == 404
    claim.refresh_from_db()
    ivy.refresh_from_db()
    assert claim.outcome == "pending" and ivy.user is None


def test_an_unknown_decision_writes_nothing(client, league, claim, organiser):
    client.force_login(organiser)
    before = _rows()
    for decision in ("", "next", "regenerate-all"):
        client.post(_answer(league, claim), {"decision": decision, "confirmed": "yes"})
    claim.refresh_from_db()
    assert claim.outcome == "pending" and _rows() == before


# The set-up page's join links --------------------------------------------------------------


def test_each_join_link_is_a_selectable_address_with_a_copy_button(client, organiser, league, started, link, url):
    client.force_login(organiser)
    page = client.get(reverse("league:season_setup", args=[league.slug])).content.decode()
    # after the fixtures too; the token carries the second it was signed, so compare what it names
    token = re.search(r'class="join-url" type="text" readonly value="http://testserver/join/([^/"]+)/"', page).group(1)
    assert joining.read_token(token) == link
    assert f'data-copy="join-link-{link.pk}"' in page and ">Copy</button>" in page
    button = re.search(r"<button[^>]*data-copy[^>]*>", page).group(0)
    assert " hidden" in button  # shown by static/js/copy.js; without script the address is selected and copied
    assert "js/copy.js" in page and "<script>" not in page


# Costs ----------------------------------------------------------------------------------------


def _coaches(season, count: int) -> None:
    """``count`` pasted coaches (no account) in ``season``, the ones before removed."""
    Entry.objects.filter(season=season).delete()
    Coach.objects.filter(name__startswith="Pasted").delete()
    for n in range(count):
        EntryFactory(season=season, coach__name=f"Pasted {n:02d}", coach__user=None, coach__email="")


@pytest.mark.parametrize("logged_in", [False, True])
def test_the_join_page_costs_the_same_at_4_and_40_coaches(client, season, link, url, organiser, logged_in):
    if logged_in:
        client.force_login(UserFactory(username="visitor"))
    counts = []
    for size in (4, 40):
        Entry.objects.filter(season=season).delete()
        _coaches(season, size)
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url)
        assert page.content.decode().count("Pasted ") == size
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_dashboard_with_requests_costs_the_same_at_4_and_40_coaches(client, league, season, link, organiser):
    counts = []
    client.force_login(organiser)
    token = joining.make_token(link)
    for size in (4, 40):
        JoinRequest.objects.all().delete()
        Round.objects.filter(season=season).delete()
        Entry.objects.filter(season=season).delete()
        _coaches(season, size)
        pasted = list(Coach.objects.filter(name__startswith="Pasted").order_by("pk"))
        for n, coach in enumerate(pasted[:2]):
            join_requests.claim(token=token, user=UserFactory(username=f"claimer{size}{n}"), coach_id=coach.pk)
        generate_fixtures(season=season, by=organiser)
        for n in range(2):
            join_requests.ask_to_join(token=token, user=UserFactory(username=f"late{size}{n}"), name=f"Late {size} {n}")
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            page = client.get(_dashboard(league)).content.decode()
        assert page.count("Confirm: they are") == 2 and page.count("Refuse</button>") == 4
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_me_shows_a_waiting_request_until_the_organiser_answers(client, league, started, newcomer_request, joiner,
                                                                organiser):
    """/me/ is a kept page: the request's season is among what it reads, so an answer changes it."""
    me = reverse("league:my_fixtures")
    client.force_login(joiner)
    assert "as <strong>Newcomer</strong> waits for the organiser" in client.get(me).content.decode()
    assert "as <strong>Newcomer</strong> waits" in client.get(me).content.decode()  # kept, the same
    join_requests.decide(join_request=newcomer_request, by=organiser, decision="regenerate")
    page = client.get(me).content.decode()
    assert "waits for the organiser" not in page and "Coming up" in page


def _to_do(client) -> str:
    match = re.search(r'class="waiting[^"]*">([^<]+)</a>', client.get(reverse("league:league_list")).content.decode())
    return match.group(1)


def test_waiting_requests_count_in_the_organisers_to_do(client, league, season, ivy, players, link, organiser):
    """What waits on the organiser counts the requests as the dashboard lists them:
    the league list's "N to do" and the dashboard's checklist line, gone once answered."""
    client.force_login(organiser)
    before = _to_do(client)
    requests = [join_requests.claim(token=joining.make_token(link), user=UserFactory(), coach_id=ivy.pk)]
    stranger = UserFactory()
    requests.append(JoinRequest.objects.create(season=season, link=link, user=stranger,
                                               kind=JoinRequest.Kind.NEW, name="Sam Smith"))
    counted = 0 if before == "all clear" else int(before.split()[0])
    assert _to_do(client) == f"{counted + 2} to do"
    assert "2 people ask to join or to be one of the league" in client.get(_dashboard(league)).content.decode()
    client.post(_answer(league, requests[0]), {"decision": "refuse"})
    client.post(_answer(league, requests[1]), {"decision": "refuse"})
    assert _to_do(client) == before
    assert "ask to join or to be one of the league" not in client.get(_dashboard(league)).content.decode()
