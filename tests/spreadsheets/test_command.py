"""``manage.py import_results``: a spreadsheet moves a running league in (GB-6,
GB-7, GB-8). Driven through call_command as an organiser would run it."""

import datetime
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from league import layers
from league.services import results as services
from league.models import Coach, Entry, Fixture, League, Result, ResultEvent, Round, Season
from league.standings.season import standings_for
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, RoundFactory, SeasonFactory, with_organiser

HEADER = "league,round,home,away,home_vp,away_vp,status"

GOOD = [
    HEADER,
    "Harbour Cup,1,Zoë O'Brien,Renée d'Arc,12,8,played",
    "Harbour Cup,1,Brother Cask,Mags Ironhand,4,14,played",
    "Harbour Cup,2,Zoë O'Brien,Brother Cask,5,3,abandoned",
    "Harbour Cup,2,Renée d'Arc,Mags Ironhand,,,scheduled",
    "Harbour Cup,3,Mags Ironhand,Zoë O'Brien,,,scheduled",
    "Harbour Cup,3,Brother Cask,Renée d'Arc,,,scheduled",
]

MODELS = (League, Season, Coach, Entry, Round, Fixture, Result, ResultEvent, get_user_model())


def write(tmp_path, lines, name="results.csv"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(path, *args):
    out = StringIO()
    call_command("import_results", str(path), *with_organiser(args), stdout=out)
    return out.getvalue()


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.mark.django_db
def test_import_creates_league_season_coaches_fixtures_and_approved_results(tmp_path):
    output = run(write(tmp_path, GOOD), "--start", "2026-09-07")

    league = League.objects.get()
    assert (league.name, league.slug, league.game_system) == ("Harbour Cup", "harbour-cup", "guildball")
    importer = get_user_model().objects.get(username="importing")  # the organiser named with --by
    assert league.is_organised_by(importer)
    season = Season.objects.get(league=league)
    assert season.name == "Imported" and season.start_date == datetime.date(2026, 9, 7)
    assert sorted(Coach.objects.values_list("name", flat=True)) == [
        "Brother Cask", "Mags Ironhand", "Renée d'Arc", "Zoë O'Brien",
    ]
    assert season.entries.count() == 4
    assert [(r.number, r.date) for r in season.rounds.all()] == [
        (1, datetime.date(2026, 9, 7)), (2, datetime.date(2026, 9, 14)), (3, datetime.date(2026, 9, 21)),
    ]
    assert Fixture.objects.count() == 6

    results = {
        (r.fixture.round.number, r.fixture.home.coach.name): (r.home_score, r.away_score, r.outcome, r.status)
        for r in Result.objects.select_related("fixture__round", "fixture__home__coach")
    }
    assert results == {
        (1, "Zoë O'Brien"): (12, 8, "home", "approved"),
        (1, "Brother Cask"): (4, 14, "away", "approved"),
        (2, "Zoë O'Brien"): (5, 3, "abandoned", "approved"),
    }
    events = ResultEvent.objects.order_by("id")
    assert [(e.action, e.by) for e in events] == [
        ("entered", importer), ("entered", importer), ("abandoned", importer),
    ]
    assert events[0].note == "Imported from results.csv, line 2"

    # The imported results count: Mags won 14-4, Zoë won 12-8; GB-6 abandoned is a loss.
    table = standings_for(season)
    assert [(row.coach, row.lp, row.played, row.lost) for row in table] == [
        ("Mags Ironhand", 3, 1, 0),
        ("Zoë O'Brien", 3, 2, 1),
        ("Renée d'Arc", 0, 1, 1),
        ("Brother Cask", 0, 2, 2),
    ]
    assert "Imported results.csv into Harbour Cup" in output
    assert "3 result(s) recorded" in output


@pytest.mark.django_db
def test_importing_the_same_file_again_changes_nothing(tmp_path, monkeypatch):
    path = write(tmp_path, GOOD)
    run(path)
    before = counts()
    stamps = list(Result.objects.order_by("pk").values_list("pk", "approved_at", "home_score", "away_score"))
    every_model = {model._meta.label: model.objects.count() for model in apps.get_models()}
    approvals = []
    # The engine's hook for the campaign layer must not be called again.
    monkeypatch.setattr(layers, "result_approved", approvals.append)

    output = run(path)

    assert counts() == before
    assert list(Result.objects.order_by("pk").values_list("pk", "approved_at", "home_score", "away_score")) == stamps
    assert {model._meta.label: model.objects.count() for model in apps.get_models()} == every_model
    assert approvals == []
    assert "already up to date; nothing changed" in output


@pytest.mark.django_db
def test_reimport_of_a_longer_file_adds_only_the_new_results(tmp_path):
    run(write(tmp_path, GOOD))
    events = ResultEvent.objects.count()
    later = GOOD[:4] + [
        "Harbour Cup,2,Renée d'Arc,Mags Ironhand,13,10,played",
    ] + GOOD[5:]

    output = run(write(tmp_path, later))

    assert Fixture.objects.count() == 6 and Result.objects.count() == 4
    assert ResultEvent.objects.count() == events + 1
    result = Result.objects.get(fixture__round__number=2, fixture__home__coach__name="Renée d'Arc")
    assert (result.home_score, result.away_score, result.outcome, result.is_approved) == (13, 10, "home", True)
    assert "1 result(s) recorded" in output and "3 already up to date" in output


@pytest.mark.django_db
def test_existing_league_and_coach_are_reused(tmp_path, league, organiser):
    # The league's own coach (one who played an earlier season) is reused, however
    # the file writes the name; another league's namesake would not be
    # (tests/reliability/test_coach_scoping.py).
    zoe = EntryFactory(season=SeasonFactory(league=league, name="Spring"),
                       coach=CoachFactory(name="Zoë O'Brien", created_by=organiser)).coach
    lines = [HEADER, "Midlands Big League,1,Zoë O'Brien,Renée d'Arc,12,0,played"]

    run(write(tmp_path, lines), "--by", organiser.username, "--season", "Autumn")

    assert League.objects.get() == league
    assert Coach.objects.get(name="Zoë O'Brien") == zoe
    season = league.seasons.get(name="Autumn")
    assert set(season.entries.values_list("coach__name", flat=True)) == {"Zoë O'Brien", "Renée d'Arc"}
    assert ResultEvent.objects.get().by == organiser
    assert not get_user_model().objects.filter(username="importer").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("by", [(), ("--by", "nobody-here")])
def test_an_import_names_its_organiser_or_says_how(tmp_path, by):
    """Without --by the command refused to guess (an import as a system
    user made a league no organiser could reach); it says how to name one."""
    before = counts()
    with pytest.raises(CommandError, match="Name the organiser the import is recorded by with --by USERNAME"):
        call_command("import_results", str(write(tmp_path, GOOD)), *by, stdout=StringIO())
    assert counts() == before and not League.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("sep", [",", ";"])
def test_semicolons_a_byte_order_mark_and_a_date_column(tmp_path, sep, organiser):
    """A file from European Excel (semicolons, a byte-order mark) with
    the optional date column imports as the comma-separated one."""
    lines = [HEADER + ",date", GOOD[1] + ",2026-09-08", GOOD[2] + ",09/09/2026", GOOD[4] + ","]
    path = tmp_path / "excel.csv"
    path.write_text("\n".join(line.replace(",", sep) for line in lines) + "\n", encoding="utf-8-sig")
    run(path, "--start", "2026-09-07", "--by", organiser.username)
    dates = sorted(Fixture.objects.values_list("home__coach__name", "date"))
    assert dates == [("Brother Cask", datetime.date(2026, 9, 9)), ("Renée d'Arc", datetime.date(2026, 9, 14)),
                     ("Zoë O'Brien", datetime.date(2026, 9, 8))]


@pytest.mark.django_db
def test_existing_league_needs_one_of_its_organisers(tmp_path, league, other_organiser):
    lines = [HEADER, "Midlands Big League,1,Zoë O'Brien,Renée d'Arc,12,0,played"]
    with_organiser(())  # the account the default names exists before counting
    before = counts()

    for args in ([], ["--by", other_organiser.username]):
        with pytest.raises(CommandError, match="does not organise the existing league Midlands Big League"):
            run(write(tmp_path, lines), *args)

    assert counts() == before


@pytest.mark.django_db
def test_a_report_that_matches_the_file_is_approved(tmp_path, season, organiser):
    fixture = FixtureFactory(round=RoundFactory(season=season, number=1))
    report = services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=9)
    lines = [HEADER, f"{season.league.name},1,{fixture.home.coach.name},{fixture.away.coach.name},12,9,played"]

    run(write(tmp_path, lines), "--by", organiser.username, "--season", season.name)

    report.refresh_from_db()
    assert report.is_approved
    assert list(fixture.events.values_list("action", "by__username")) == [
        ("reported", fixture.home.coach.user.username), ("approved", organiser.username),
    ]
    assert Fixture.objects.count() == 1


BAD_ROWS = [
    pytest.param(["Harbour Cup,1,Ann,Bea,12,8,won"], 3, "unknown status 'won'", id="unknown-status"),
    pytest.param(["Harbour Cup,1,Ann,Bea,twelve,8,played"], 3, "home_vp must be a whole number, not 'twelve'",
                 id="non-numeric-vp"),
    pytest.param(["Harbour Cup,1,Ann,Bea,12,-2,played"], 3, "away_vp cannot be negative (-2)", id="negative-vp"),
    pytest.param(["Harbour Cup,1,Ann,Bea,10,10,played"], 3, "Guild Ball has no draws", id="draw"),
    pytest.param(["Harbour Cup,1,Ann,Bea,10,8,played"], 3, "The winner must reach 12 VP", id="below-target"),
    pytest.param(["Harbour Cup,1,Ann,Bea,17,8,played"], 3, "No score can be above 16 VP", id="above-ceiling"),
    pytest.param(["Harbour Cup,1,Ann,Ann,12,8,played"], 3, "Ann cannot play themselves", id="same-coach"),
    pytest.param(["Harbour Cup,1,Ann,Zoë O'Brien,12,8,played"], 3,
                 "Zoë O'Brien already plays in round 1 (line 2)", id="coach-twice-in-round"),
    pytest.param(["Harbour Cup,1,Ann,Bea,12,,played"], 3, "a played fixture needs both home_vp and away_vp",
                 id="played-without-vp"),
    pytest.param(["Harbour Cup,1,Ann,Bea,12,8,scheduled"], 3, "a scheduled fixture has no VP yet",
                 id="scheduled-with-vp"),
    pytest.param(["Harbour Cup,one,Ann,Bea,12,8,played"], 3, "round must be a whole number, not 'one'",
                 id="bad-round"),
    pytest.param(["Harbour Cup,1,Ann,,12,8,played"], 3, "the away name is missing", id="missing-coach"),
    pytest.param(["Harbour Cup,1,Ann,Bea,12,8"], 3, "6 fields where the header has 7", id="short-row"),
    pytest.param(["Harbour Cup,1,Ann,Bea,12,8,played,extra"], 3, "more fields than the header", id="long-row"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("bad, line, reason", BAD_ROWS)
def test_a_bad_row_stops_the_import_and_writes_nothing(tmp_path, bad, line, reason):
    # The good first row would create the league; nothing of it may survive.
    lines = [HEADER, "Harbour Cup,1,Zoë O'Brien,Renée d'Arc,12,8,played", *bad, "Harbour Cup,2,Ann,Bea,,,scheduled"]
    with_organiser(())  # the account the import names exists before counting
    before = counts()

    with pytest.raises(CommandError) as refused:
        run(write(tmp_path, lines))

    message = str(refused.value)
    assert f"results.csv, line {line}: " in message
    assert reason in message
    assert message.endswith(". Nothing was imported.") and ".." not in message
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "lines, reason",
    [
        pytest.param([], "the file is empty", id="empty-file"),
        pytest.param(["league,round,home,away,home_vp,away_vp", "Harbour Cup,1,Ann,Bea,12,8"],
                     "missing column(s) status", id="missing-column"),
        pytest.param(["Harbour Cup,1,Ann,Bea,12,8,played"], "missing column(s) league, round", id="no-header"),
        pytest.param([HEADER + ",notes", "Harbour Cup,1,Ann,Bea,12,8,played,3"], "unknown column(s) notes",
                     id="unknown-column"),
    ],
)
def test_a_bad_header_is_refused_on_line_1(tmp_path, lines, reason):
    path = tmp_path / "results.csv"
    path.write_text("\n".join(lines), encoding="utf-8")

    with pytest.raises(CommandError) as refused:
        run(path)

    assert "results.csv, line 1: " in str(refused.value) and reason in str(refused.value)
    assert League.objects.count() == 0


@pytest.mark.django_db
def test_a_result_that_conflicts_with_the_stored_one_stops_the_second_file(tmp_path):
    run(write(tmp_path, GOOD))
    before = counts()
    conflicting = [
        HEADER,
        "Harbour Cup,4,Zoë O'Brien,New Coach,12,2,played",
        "Harbour Cup,1,Zoë O'Brien,Renée d'Arc,12,10,played",
    ]

    with pytest.raises(CommandError) as refused:
        run(write(tmp_path, conflicting, name="second.csv"))

    message = str(refused.value)
    assert "second.csv, line 3: " in message
    assert "Zoë O'Brien v Renée d'Arc in round 1 already has a different result 12-8 (approved)" in message
    assert counts() == before
    assert not Coach.objects.filter(name="New Coach").exists()


@pytest.mark.django_db
def test_a_fixture_that_clashes_with_a_stored_one_is_refused(tmp_path, season, organiser):
    rnd = RoundFactory(season=season, number=1)
    FixtureFactory(round=rnd, home=EntryFactory(season=season, coach__name="Ann"),
                   away=EntryFactory(season=season, coach__name="Bea"))
    before = counts()
    lines = [HEADER, f"{season.league.name},1,Ann,Cat,12,4,played"]

    with pytest.raises(CommandError, match=r"line 2: Ann already plays Bea in round 1"):
        run(write(tmp_path, lines), "--by", organiser.username, "--season", season.name)

    assert counts() == before


@pytest.mark.django_db
def test_abandoned_without_vp_is_recorded_0_0(tmp_path):
    run(write(tmp_path, [HEADER, "Harbour Cup,1,Ann,Bea,,,abandoned"]))

    result = Result.objects.get()
    assert (result.home_score, result.away_score, result.outcome, result.is_approved) == (0, 0, "abandoned", True)


@pytest.mark.django_db
def test_excel_bom_blank_lines_and_padding_are_accepted(tmp_path):
    path = tmp_path / "results.csv"
    text = "\ufeff" + HEADER + "\r\n Harbour Cup , 1 , Ann , Bea , 12 , 3 , Played \r\n,,,,,,\r\n\r\n"
    path.write_text(text, encoding="utf-8")

    run(path)

    result = Result.objects.select_related("fixture__home__coach").get()
    assert result.fixture.home.coach.name == "Ann" and (result.home_score, result.away_score) == (12, 3)


@pytest.mark.django_db
def test_unknown_user_and_missing_file_are_refused(tmp_path):
    with pytest.raises(CommandError, match="There is no user 'nobody'"):
        run(write(tmp_path, GOOD), "--by", "nobody")
    with pytest.raises(CommandError, match="Cannot read"):
        run(tmp_path / "missing.csv")
    assert League.objects.count() == 0
