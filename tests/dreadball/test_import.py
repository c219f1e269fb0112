"""``manage.py import_results FILE.csv --game dreadball``: a DreadBall
league from a spreadsheet, validated like the report form, atomic and idempotent."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from league.dreadball.models import DreadBallResult, DreadBallSettings
from league.models import Coach, Entry, Fixture, League, Result, ResultEvent, Round, Season
from league.standings.season import standings_for
from tests.support.factories import UserFactory, with_organiser

HEADER = "league,round,home,away,winner,difference,rush,sudden_death,status"
GOOD = [
    HEADER,
    "Neon Dome,1,Dana Voss,Tavi Rell,home,7,9,no,played",
    "Neon Dome,1,Orla Quint,Bex Harrow,away,2,14,no,played",
    "Neon Dome,2,Dana Voss,Orla Quint,draw,0,16,yes,played",
    "Neon Dome,2,Tavi Rell,Bex Harrow,,,,,abandoned",
    "Neon Dome,3,Bex Harrow,Dana Voss,away,3,18,yes,played",
]
MODELS = (League, DreadBallSettings, Season, Coach, Entry, Round, Fixture, Result, DreadBallResult, ResultEvent,
          get_user_model())


@pytest.fixture(autouse=True)
def importer(db):
    """The organiser each import names (``--by`` is required), made
    before the tests count the rows."""
    return UserFactory(username="importing")


def write(tmp_path, lines, name="dreadball.csv"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(path, *args):
    out = StringIO()
    call_command("import_results", str(path), "--game", "dreadball", *with_organiser(args), stdout=out)
    return out.getvalue()


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.mark.django_db
def test_import_creates_a_dreadball_league_with_its_results(tmp_path):
    output = run(write(tmp_path, GOOD))

    league = League.objects.get()
    assert (league.name, league.slug, league.game_system) == ("Neon Dome", "neon-dome", "dreadball")
    settings = DreadBallSettings.objects.get(league=league)
    assert (settings.landslide_win, settings.win, settings.draw, settings.loss) == (3, 2, 1, 0)
    results = {
        (r.fixture.round.number, r.fixture.home.coach.name): (r.outcome, r.summary, r.status)
        for r in Result.objects.select_related("fixture__round", "fixture__home__coach")
    }
    assert results == {
        (1, "Dana Voss"): ("home", "7–0, landslide", "approved"),
        (1, "Orla Quint"): ("away", "0–2", "approved"),
        (2, "Dana Voss"): ("draw", "0–0, Sudden Death", "approved"),
        (2, "Tavi Rell"): ("abandoned", "abandoned", "approved"),
        (3, "Bex Harrow"): ("away", "0–3, Sudden Death", "approved"),
    }
    assert sorted(DreadBallResult.objects.values_list("difference", "landslide", "rush", "sudden_death")) == [
        (0, False, 16, True), (2, False, 14, False), (3, False, 18, True), (7, True, 9, False),
    ]
    table = {row.coach: (row.lp, row.won, row.drawn, row.lost, row.stats["strike_diff"], row.stats["landslides"])
             for row in standings_for(league.seasons.get())}
    assert table == {
        "Dana Voss": (3 + 1 + 2, 2, 1, 0, 10, 1),
        "Bex Harrow": (2, 1, 0, 2, 2 - 3, 0),
        "Orla Quint": (1, 0, 1, 1, -2, 0),
        "Tavi Rell": (0, 0, 0, 2, -7, 0),
    }
    assert "5 result(s) recorded" in output


@pytest.mark.django_db
def test_the_same_file_twice_changes_nothing(tmp_path):
    path = write(tmp_path, GOOD)
    run(path)
    before = counts()
    stamps = list(Result.objects.order_by("pk").values_list("pk", "approved_at", "summary"))

    output = run(path)

    assert counts() == before
    assert list(Result.objects.order_by("pk").values_list("pk", "approved_at", "summary")) == stamps
    assert "already up to date; nothing changed" in output


@pytest.mark.django_db
def test_a_changed_result_is_refused_with_its_line(tmp_path):
    run(write(tmp_path, GOOD))
    before = counts()
    changed = [HEADER, GOOD[1], "Neon Dome,1,Orla Quint,Bex Harrow,away,2,14,no,played",
               "Neon Dome,2,Dana Voss,Orla Quint,home,1,16,yes,played"]

    with pytest.raises(CommandError) as refused:
        run(write(tmp_path, changed, name="second.csv"))

    assert "second.csv, line 4: Dana Voss v Orla Quint in round 2 already has a different result 0–0, Sudden Death" in str(refused.value)
    assert "the file says played 1–0, Sudden Death" in str(refused.value)
    assert counts() == before


BAD = [
    pytest.param("Neon Dome,2,Ann,Bea,home,5,9,no,played",
                 "A game that ended in Rush 9 must have been a landslide: a difference of 7", id="early-not-landslide"),
    pytest.param("Neon Dome,2,Ann,Bea,draw,0,14,no,played", "A draw needs Sudden Death", id="draw-without-sd"),
    pytest.param("Neon Dome,2,Ann,Bea,home,0,14,no,played", "a difference of 0 is a draw", id="win-by-0"),
    pytest.param("Neon Dome,2,Ann,Bea,home,0,12,yes,played", "Sudden Death starts after Rush 14", id="level-win-too-early"),
    pytest.param("Neon Dome,2,Ann,Bea,home,2,12,yes,played", "Sudden Death starts after Rush 14", id="sd-too-early"),
    pytest.param("Neon Dome,2,Ann,Bea,home,2,16,no,played", "went to Sudden Death", id="late-without-sd"),
    pytest.param("Neon Dome,2,Ann,Bea,home,7,16,yes,played", "won by 1 to 4", id="sd-landslide"),
    pytest.param("Neon Dome,2,Ann,Bea,home,9,14,no,played", "The difference is 0 to 7", id="difference-too-big"),
    pytest.param("Neon Dome,2,Ann,Bea,home,2,40,yes,played", "The Rush is 1 to 30", id="rush-too-big"),
    pytest.param("Neon Dome,2,Ann,Bea,Ann,2,14,no,played", "winner must be home, away or draw, not 'Ann'", id="bad-winner"),
    pytest.param("Neon Dome,2,Ann,Bea,home,2,14,maybe,played", "sudden_death must be yes or no, not 'maybe'", id="bad-sd"),
    pytest.param("Neon Dome,2,Ann,Bea,home,two,14,no,played", "difference must be a whole number, not 'two'", id="bad-number"),
    pytest.param("Neon Dome,2,Ann,Bea,home,2,,no,played", "a played game needs rush", id="missing-rush"),
    pytest.param("Neon Dome,2,Ann,Bea,,,,,scheduled", "unknown status 'scheduled'; use played or abandoned", id="scheduled"),
    pytest.param("Neon Dome,2,Ann,Ann,home,2,14,no,played", "Ann cannot play themselves", id="same-coach"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("bad, reason", BAD)
def test_a_bad_line_is_refused_with_its_number_and_nothing_is_written(tmp_path, bad, reason):
    lines = [HEADER, GOOD[1], bad, "Neon Dome,3,Cal,Dov,away,1,14,no,played"]
    before = counts()

    with pytest.raises(CommandError) as refused:
        run(write(tmp_path, lines))

    message = str(refused.value)
    assert "dreadball.csv, line 3: " in message and reason in message
    assert message.endswith(". Nothing was imported.")
    assert counts() == before


@pytest.mark.django_db
def test_an_existing_league_of_another_game_is_refused(tmp_path, league):
    """``league`` (tests/conftest.py) is a Guild Ball league called Midlands Big League."""
    before = counts()
    lines = [HEADER, "Neon Dome,1,Ann,Bea,home,7,9,no,played", "Midlands Big League,1,Ann,Bea,home,7,9,no,played"]

    with pytest.raises(CommandError) as refused:
        run(write(tmp_path, lines))

    message = str(refused.value)
    assert "line 3: the league Midlands Big League (midlands) already exists as a Guild Ball: The Big League league, not DreadBall" in message
    assert "--game guildball" in message
    assert counts() == before


@pytest.mark.django_db
def test_an_existing_dreadball_league_is_reused(tmp_path, dr_league, organiser):
    run(write(tmp_path, [HEADER, "Neon Dome,1,Ann,Bea,away,7,14,no,played"]), "--by", organiser.username)
    assert League.objects.get() == dr_league
    assert Result.objects.get().summary == "0–7, landslide"


@pytest.mark.django_db
def test_a_guild_ball_header_is_refused_for_dreadball(tmp_path):
    with pytest.raises(CommandError, match="line 1: missing column\\(s\\) winner, difference, rush, sudden_death"):
        run(write(tmp_path, ["league,round,home,away,home_vp,away_vp,status", "Neon Dome,1,Ann,Bea,12,3,played"]))
    assert not League.objects.exists()


@pytest.mark.django_db
def test_dr3_a_sudden_death_win_with_the_score_level_imports(tmp_path):
    """DR-3 Decision: a Sudden Death game won level (only one team can still throw)
    imports as a win by 0 with Sudden Death, worth a win's League Points and no
    Strike Difference."""
    run(write(tmp_path, [HEADER, "Neon Dome,1,Dana Voss,Tavi Rell,away,0,15,yes,played"]))
    result = Result.objects.get()
    assert (result.outcome, result.summary, result.status) == ("away", "0–0, Sudden Death win", "approved")
    detail = DreadBallResult.objects.get()
    assert (detail.difference, detail.landslide, detail.rush, detail.sudden_death) == (0, False, 15, True)
    rows = {row.coach: row for row in standings_for(result.fixture.round.season)}
    assert (rows["Tavi Rell"].lp, rows["Tavi Rell"].won, rows["Tavi Rell"].stats["strike_diff"]) == (2, 1, 0)
    assert (rows["Dana Voss"].lp, rows["Dana Voss"].lost) == (0, 1)
