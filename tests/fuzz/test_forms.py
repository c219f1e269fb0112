"""Every form of the site, fuzzed (R3): the forms are read from the pages that
show them (so a new field is fuzzed without a change here), each field gets a
value that is sometimes right (an option of its select, its own value) and often
not (huge and negative numbers, dates at the ends of the calendar, long text,
NUL bytes, other fields' ids). The answer is never a 5xx, and an input the site
refuses (anything but a redirect after the action) writes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import given, note
from hypothesis import strategies as st

from campaigns.models import CampaignCoach
from league.dungeonbowl.models import Team
from tests.fuzz.conftest import Attempt, Field, forms_on
from tests.support.world import GAMES

NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, -1, 7, 12, 20, 32767, 32768, 65536, 2**31 - 1, 2**31, 2**53, 2**63 - 1, 2**63, 2**64, 10**30]),
).map(str)
DATES = st.one_of(
    st.dates().map(str),
    st.sampled_from(["0001-01-01", "9999-12-31", "2026-02-30", "2026-13-01", "1970-01-01", "31/12/2026", ""]),
)
TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["\x00", "a\x00b", "Hollis\x0bSprocket", "a\x1b[2Jb", "Ada\u202eeve", "a\r\nb", "=SUM(A1)", "<script>alert(1)</script>", " ", "x" * 5000, "é" * 600,
                     "1e308", "NaN", "-0", "0x10", "1_000"]),
)
GARBAGE = st.one_of(NUMBERS, TEXT, DATES)


def field_values(field: Field) -> st.SearchStrategy:
    """Usually a value the page offers, otherwise anything; sometimes the field is left out."""
    offered = field.options or ([field.value] if field.value else [])
    right = st.sampled_from(offered) if offered else st.nothing()
    if field.kind in ("select", "checkbox", "radio", "hidden"):
        kind = st.one_of(NUMBERS, TEXT)  # ids past 64 bits included
    else:
        kind = {"number": NUMBERS, "date": DATES}.get(field.kind, GARBAGE)
    many = st.lists(st.one_of(right, kind), max_size=3) if field.kind == "checkbox" or field.kind == "select" else None
    choices = [right, right, kind, st.just(None)]
    if many is not None:
        choices.append(many)
    return st.one_of(*choices)


def draw_post(data, forms) -> tuple[str, dict[str, str]]:
    """One of ``forms`` (action, fields) and a POST for it: each field's value drawn
    from what such a field may receive, good and bad (a field drawn as None is left out)."""
    action, fields = data.draw(st.sampled_from(forms), label="form")
    post = {}
    for field in fields.values():
        value = data.draw(field_values(field), label=field.name)
        if value is not None:
            post[field.name] = value
    return action, post


SPENDS = "(Wheeling & Dealing)"


def pages(world, game: str) -> list[tuple[str, str]]:
    """(role, page) for every page with a form, in ``game``."""
    g = world.games[game]
    slug = g.league.slug
    found = [
        ("right", reverse("league:fixture_detail", args=[g.open_fixture.pk])),  # report
        ("right", reverse("league:fixture_detail", args=[g.fixture.pk])),  # confirm, dispute
        ("organiser", reverse("league:fixture_detail", args=[g.fixture.pk])),  # approve, record, rearrange
        ("organiser", reverse("league:fixture_detail", args=[g.approved_fixture.pk])),  # reopen
        ("organiser", reverse("league:organiser_coaches", args=[slug])),  # invitations
        ("right", reverse("profile")),
        ("right", reverse("league:new_league") + f"?game={game}"),  # a new league
    ]
    if game == "guildball":
        found += [
            ("organiser", reverse("league:organiser_dashboard", args=[slug])),  # approve, confirm Moments
            ("right", SPENDS),
            ("right", reverse("campaigns:coach_page", args=[slug, g.right.pk])),  # picks, spends, deals
            ("organiser", reverse("campaigns:coach_page", args=[slug, g.right.pk])),  # adjust, confirm Moments
            ("organiser", reverse("campaigns:campaign_table", args=[slug])),  # final day
            ("right", reverse("campaigns:fixture_page", args=[slug, g.open_fixture.pk])),  # deck
            ("right", reverse("campaigns:fixture_page", args=[slug, g.fixture.pk])),  # achievements
        ]
    if game == "dungeonbowl":
        team = Team.objects.get(league=g.league, coach=g.right)
        found += [
            ("right", reverse("dungeonbowl:team_detail", args=[slug, team.slug])),  # hire, fire, re-roll, advance
            ("organiser", reverse("dungeonbowl:team_detail", args=[slug, team.slug])),
            ("right", reverse("dungeonbowl:draft", args=[slug])),
            ("organiser", reverse("dungeonbowl:draft", args=[slug])),
        ]
    return found


def fields_of(form) -> dict[str, Field]:
    """A Django form's fields as a page would show them."""
    from django import forms as djforms

    found = {}
    for name, f in form.fields.items():
        kind = ("select" if isinstance(f, djforms.ChoiceField) else "number" if isinstance(f, djforms.IntegerField)
                else "date" if isinstance(f, djforms.DateField) else "text")
        field = found[form.add_prefix(name)] = Field(form.add_prefix(name), kind)
        if kind == "select":
            field.options = [str(value) for value, _ in f.choices if str(value)]
    return found


def spends_between_phases(world) -> list[tuple[str, dict[str, Field]]]:
    """The Big League's Wheeling & Dealing forms: the demo's phase may be closed
    today (GB-20), so the page does not show them; they are posted all the same."""
    from campaigns.dealing import forms as campaign_forms

    g = world.games["guildball"]
    cc = CampaignCoach.objects.get(entry__season__league=g.league, entry__coach=g.right)
    slug = g.league.slug
    return [
        (reverse("campaigns:buy_sponsorship", args=[slug]), fields_of(campaign_forms.SponsorshipForm())),
        (reverse("campaigns:buy_advancement", args=[slug]), {}),
        (reverse("campaigns:request_loan", args=[slug]), fields_of(campaign_forms.LoanForm(coach=cc))),
        (reverse("campaigns:make_offer", args=[slug]), fields_of(campaign_forms.OfferForm(coach=cc))),
    ]


PAGES = {"guildball": 14, "dungeonbowl": 11, "dreadball": 7}


@pytest.mark.django_db
@pytest.mark.parametrize("game,index", [(game, i) for game in GAMES for i in range(PAGES[game])])
def test_forms_refuse_bad_input_cleanly(game, index, world, clients):
    role, page = pages(world, game)[index]
    client = clients[game, role]
    forms = spends_between_phases(world) if page == SPENDS else forms_on(client.get(page).content.decode(), page)
    assert forms, f"no form on {page} for {role}"

    @given(data=st.data())
    def fuzz(data):
        action, post = draw_post(data, forms)
        note(f"{role} POST {action} {post!r}"[:2000])
        with Attempt() as attempt:
            response = client.post(action, post)
        assert response.status_code < 500, f"{action}: {response.status_code}"
        assert not attempt.unplain, f"{action} wrote text a backup cannot hold: {attempt.unplain}"
        if response.status_code not in (301, 302, 303):
            assert not attempt.wrote, f"{action} refused ({response.status_code}) but wrote {attempt.writes}"

    fuzz()


@pytest.mark.django_db
def test_every_game_page_with_forms_is_fuzzed(world, clients):
    assert {game: len(pages(world, game)) for game in GAMES} == PAGES
    # Between them the pages carry every kind of form the site has.
    actions = set()
    for game in GAMES:
        for role, page in pages(world, game):
            forms = spends_between_phases(world) if page == SPENDS else forms_on(
                clients[game, role].get(page).content.decode(), page)
            actions |= {action.rstrip("/").rsplit("/", 1)[-1] for action, _ in forms}
    expected = {"report", "confirm", "dispute", "approve", "record", "rearrange", "reopen", "adjust", "hire",
                "reroll", "deck", "achieved", "sponsorships", "loans", "offers", "profile"}
    assert expected <= actions, sorted(expected - actions)
    assert CampaignCoach.objects.exists()
