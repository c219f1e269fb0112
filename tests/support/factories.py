"""Factories whose related objects agree: both sides of a fixture are entries of
the fixture's season, an entry's coach has a login, and so on."""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model

from league.models import Coach, Entry, Fixture, League, Result, Round, Season

PASSWORD = "correct horse battery staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password(PASSWORD)


class CoachFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Coach

    name = factory.Sequence(lambda n: f"Coach {n:03d}")
    user = factory.SubFactory(UserFactory, username=factory.LazyAttribute(lambda u: u.factory_parent.name.lower().replace(" ", "")))
    email = factory.LazyAttribute(lambda c: f"{c.name.lower().replace(' ', '.')}@example.com")


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")
    game_system = "guildball"

    @factory.post_generation
    def organisers(self, create, extracted, **kwargs):
        if create and extracted:
            self.organisers.add(*extracted)


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    start_date = datetime.date(2026, 9, 7)


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    season = factory.SubFactory(SeasonFactory)
    coach = factory.SubFactory(CoachFactory)
    team = "Brewer's"


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    season = factory.SubFactory(SeasonFactory)
    number = factory.Sequence(lambda n: n % 200 + 1)  # league/datebounds.py: MAX_ROUNDS
    date = factory.LazyAttribute(lambda r: r.season.start_date + datetime.timedelta(days=7 * (r.number - 1)))


class FixtureFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Fixture

    round = factory.SubFactory(RoundFactory)
    home = factory.SubFactory(EntryFactory, season=factory.SelfAttribute("..round.season"))
    away = factory.SubFactory(EntryFactory, season=factory.SelfAttribute("..round.season"))
    date = factory.SelfAttribute("round.date")


class ResultFactory(factory.django.DjangoModelFactory):
    """An approved 12-6 home win unless told otherwise."""

    class Meta:
        model = Result

    fixture = factory.SubFactory(FixtureFactory)
    home_score = 12
    away_score = 6
    outcome = factory.LazyAttribute(lambda r: "home" if r.home_score > r.away_score else "away")
    summary = factory.LazyAttribute(lambda r: f"{r.home_score} – {r.away_score}")
    status = Result.Status.APPROVED
    approved_at = factory.LazyFunction(lambda: datetime.datetime(2026, 9, 8, 20, 0, tzinfo=datetime.timezone.utc))


def with_organiser(args) -> tuple:
    """An import command's arguments with an organiser named (the
    commands require ``--by``): ``importing``, made on first use, unless the test
    names one itself."""
    args = tuple(args)
    if "--by" in args:
        return args
    UserFactory(username="importing")
    return (*args, "--by", "importing")
