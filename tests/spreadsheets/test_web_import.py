"""Import on the web (/leagues/<slug>/import/, league.spreadsheets.views): upload
the same CSV as ``manage.py import_results``, preview (counts and the first lines,
or the first bad line), confirm; the confirmed import writes what the preview
showed, or nothing. Driven through the test client as the organiser would."""

from __future__ import annotations

import datetime

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns.models import CampaignPointLine
from league.spreadsheets import preview as web_import
from league.spreadsheets.files import DATE_FORMATS
from league.models import Coach, Entry, Fixture, Result, ResultEvent, Round, Season
from tests.support.factories import EntryFactory, LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db

HEADER = "league,round,home,away,home_vp,away_vp,status"
LINES = [
    "Midlands Big League,1,Zoë O'Brien,Renée d'Arc,12,8,played",
    "Midlands Big League,1,Brother Cask,Mags Ironhand,4,14,played",
    "Midlands Big League,2,Zoë O'Brien,Brother Cask,,,scheduled",
]
MODELS = (Season, Coach, Entry, Round, Fixture, Result, ResultEvent, CampaignPointLine)


def url(league) -> str:
    return reverse("league:league_import", args=[league.slug])


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def upload(text: str, *, name: str = "results.csv", encoding: str = "utf-8") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(encoding), content_type="text/csv")


def csv_text(lines=LINES, *, header: str = HEADER, sep: str = ",") -> str:
    return "\n".join(line.replace(",", sep) for line in [header, *lines]) + "\n"


def preview(client, league, text: str, *, season: str = "Season 1", encoding: str = "utf-8", **extra):
    return client.post(url(league), {"file": upload(text, encoding=encoding), "season": season, **extra})


def payload_of(response) -> str:
    return response.context["confirm"].initial["payload"]


@pytest.fixture
def organiser_client(client, organiser, season):
    client.force_login(organiser)
    return client


def test_preview_shows_what_will_be_created_and_writes_nothing(organiser_client, league):
    before = counts()
    response = preview(organiser_client, league, csv_text())
    assert response.status_code == 200
    page = response.content.decode()
    summary = response.context["preview"]
    assert (summary.seasons, summary.coaches, summary.entries, summary.rounds, summary.fixtures,
            summary.results_recorded) == (0, 4, 4, 2, 3, 2)
    assert "Preview of results.csv" in page and "Import these 3 lines" in page
    assert "Zoë O&#x27;Brien v Renée d&#x27;Arc" in page and "12 – 8" in page and "scheduled" in page
    assert counts() == before  # the preview was rolled back


def test_confirm_writes_exactly_what_the_preview_showed(organiser_client, league, organiser):
    shown = preview(organiser_client, league, csv_text()).context["preview"]
    response = organiser_client.post(url(league), {"payload": payload_of(preview(organiser_client, league, csv_text()))})
    assert response.status_code == 302 and response.url == reverse("league:organiser_dashboard", args=[league.slug])
    season = Season.objects.get(league=league, name="Season 1")
    assert season.entries.count() == shown.entries
    assert Fixture.objects.filter(round__season=season).count() == shown.fixtures
    assert Result.objects.filter(fixture__round__season=season, status="approved").count() == shown.results_recorded
    # The uploader is the importer: the history and the coaches it made are theirs.
    assert set(ResultEvent.objects.values_list("by", flat=True)) == {organiser.pk}
    assert set(Coach.objects.filter(entries__season=season).values_list("created_by", flat=True)) == {organiser.pk}
    assert "Imported results.csv" in organiser_client.get(reverse("league:organiser_dashboard", args=[league.slug])).content.decode()


def test_confirm_refuses_when_the_league_changed_since_the_preview(organiser_client, league, season):
    payload = payload_of(preview(organiser_client, league, csv_text()))
    EntryFactory(season=season, coach__name="Brother Cask", coach__created_by=league.organisers.get())
    before = counts()
    response = organiser_client.post(url(league), {"payload": payload})
    assert response.status_code == 409
    assert "changed since the preview" in response.content.decode()
    assert counts() == before


def test_a_forged_or_altered_payload_is_refused(organiser_client, league):
    payload = payload_of(preview(organiser_client, league, csv_text()))
    data = signing.loads(payload, salt="league.import_views.upload")
    forged = signing.dumps({**data, "text": csv_text([LINES[0].replace("12,8", "8,12")])}, salt="another", compress=True)
    before = counts()
    for bad in (forged, payload[:-3] + "abc", "x"):
        response = organiser_client.post(url(league), {"payload": bad})
        assert response.status_code == 400
        assert "does not match any preview" in response.content.decode()
    assert counts() == before


def test_another_organisers_preview_cannot_be_confirmed_here(client, league, organiser, other_organiser, season):
    theirs = LeagueFactory(name="Other League", slug="other", organisers=[other_organiser])
    client.force_login(other_organiser)
    payload = payload_of(preview(client, theirs, csv_text([line.replace("Midlands Big League", "Other League")
                                                            for line in LINES])))
    client.force_login(organiser)
    response = client.post(url(league), {"payload": payload})
    assert response.status_code == 400 and "another league or organiser" in response.content.decode()


@pytest.mark.parametrize(
    ("lines", "line", "reason"),
    [
        ([LINES[0], "Midlands Big League,1,Ada,Bea,12,20,played"], 3, "12"),  # GB-8: no VP over the target
        ([LINES[0], "Harbour Cup,1,Ada,Bea,12,8,played"], 3, "this page imports into Midlands Big League only"),
        ([LINES[0], "Midlands Big League,x,Ada,Bea,12,8,played"], 3, "round"),
        ([LINES[0], "Midlands Big League,1,Ada,Bea,12,8,played,2026-13-40"], 3, "more fields than the header"),
    ],
)
def test_a_bad_line_is_refused_with_its_number_and_nothing_written(organiser_client, league, lines, line, reason):
    before = counts()
    response = preview(organiser_client, league, csv_text(lines))
    assert response.status_code == 400
    page = response.content.decode()
    assert f"Line {line}:" in page and reason in page and "Nothing was imported" in page
    assert counts() == before


@pytest.mark.parametrize("sep", [",", ";"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig"])
def test_separators_and_byte_order_mark(organiser_client, league, sep, encoding):
    text = csv_text(sep=sep)
    response = preview(organiser_client, league, text, encoding=encoding)
    assert response.status_code == 200, response.content.decode()
    assert response.context["preview"].fixtures == 3
    assert organiser_client.post(url(league), {"payload": payload_of(response)}).status_code == 302
    names = set(Coach.objects.values_list("name", flat=True))
    assert {"Zoë O'Brien", "Renée d'Arc"} <= names  # the accents survived the encoding


def test_the_optional_date_column_dates_the_fixtures(organiser_client, league):
    lines = [f"{line},{day}" for line, day in zip(LINES, ("2026-09-07", "08/09/2026", ""))]
    response = preview(organiser_client, league, csv_text(lines, header=HEADER + ",date"), start="2026-09-01")
    assert response.status_code == 200
    assert "7 Sep 2026" in response.content.decode()
    organiser_client.post(url(league), {"payload": payload_of(response)})
    dates = dict(Fixture.objects.values_list("home__coach__name", "date").filter(round__number=1))
    assert dates == {"Zoë O'Brien": datetime.date(2026, 9, 7), "Brother Cask": datetime.date(2026, 9, 8)}
    # Without a date, the round's (start + 7 days a round).
    assert Fixture.objects.get(round__number=2).date == Round.objects.get(number=2).date


def test_a_bad_date_is_refused_with_its_line(organiser_client, league):
    lines = [f"{LINES[0]},2026-09-07", f"{LINES[1]},next tuesday"]
    response = preview(organiser_client, league, csv_text(lines, header=HEADER + ",date"))
    assert response.status_code == 400
    assert "Line 3: the date" in response.content.decode()


def test_a_file_too_big_is_refused_with_a_clear_message(organiser_client, league, monkeypatch):
    monkeypatch.setattr(web_import, "MAX_UPLOAD_BYTES", 100)
    response = preview(organiser_client, league, csv_text())
    assert response.status_code == 400
    assert "at most 0 KB can be imported at once" in response.content.decode()
    assert Fixture.objects.count() == 0


def test_not_utf8_is_refused(organiser_client, league):
    response = preview(organiser_client, league, csv_text(), encoding="latin-1")
    assert response.status_code == 400 and "not UTF-8" in response.content.decode()


def test_cp_columns_are_imported_from_the_web(organiser_client, league):
    lines = [f"{LINES[0]},15,5", f"{LINES[1]},,10", f"{LINES[2]},,"]
    response = preview(organiser_client, league, csv_text(lines, header=HEADER + ",home_cp,away_cp"))
    assert response.status_code == 200 and not CampaignPointLine.objects.filter(kind="adjustment").exists()
    organiser_client.post(url(league), {"payload": payload_of(response)})
    assert sorted(CampaignPointLine.objects.filter(kind="adjustment").values_list("amount", flat=True)) == [5, 10, 15]


@pytest.mark.parametrize("who", ["anonymous", "wrong", "right", "rival"])
def test_only_the_organiser_reaches_the_page(client, league, season, other_organiser, who):
    coach = EntryFactory(season=season).coach
    if who in ("wrong", "right"):  # a coach of the league; the import concerns no coach
        client.force_login(coach.user if who == "right" else EntryFactory(season=season).coach.user)
    elif who == "rival":
        client.force_login(other_organiser)
    before = counts()
    get = client.get(url(league))
    post = preview(client, league, csv_text())
    if who == "anonymous":
        assert get.status_code == 302 and get.url.startswith(reverse("login"))
        assert post.status_code == 302
    else:
        assert (get.status_code, post.status_code) == (403, 403)
    assert counts() == before


def test_the_organiser_sees_the_form(organiser_client, league):
    page = organiser_client.get(url(league)).content.decode()
    assert 'enctype="multipart/form-data"' in page and HEADER in page
    assert 'value="Season 1"' in page  # the current season by default
    assert 'for="id_file"' in page and 'for="id_season"' in page
    # Linked from the organiser's pages.
    dashboard = organiser_client.get(reverse("league:organiser_dashboard", args=[league.slug])).content.decode()
    assert url(league) in dashboard


def test_preview_costs_a_fixed_number_of_queries(organiser_client, league, django_assert_max_num_queries):
    """The preview is the bulk import rolled back: its queries do not grow with
    the lines (4 coaches, 6 lines; 12 coaches, 66 lines)."""
    from league.rules.scheduling import round_robin

    def text(coaches: int) -> str:
        names = [f"Coach {i}" for i in range(coaches)]
        lines = [f"Midlands Big League,{number},{home},{away},12,{number % 9},played"
                 for number, pairs in enumerate(round_robin(names, seed=2), start=1)
                 for home, away in pairs if home and away]
        return csv_text(lines)

    preview(organiser_client, league, text(4))  # warm: the session, the user
    for coaches in (4, 12):
        with django_assert_max_num_queries(70):
            response = preview(organiser_client, league, text(coaches))
        assert response.status_code == 200
    with django_assert_max_num_queries(12):
        assert organiser_client.get(url(league)).status_code == 200


def test_the_preview_marks_abandoned_lines(organiser_client, league):
    lines = [*LINES[:2], "Midlands Big League,2,Zoë O'Brien,Brother Cask,6,4,abandoned"]
    response = preview(organiser_client, league, csv_text(lines))
    assert response.status_code == 200
    rows = response.content.decode().split("<tbody>")[1].split("</tbody>")[0].split("</tr>")
    marked = [row for row in rows if "abandoned: a loss for both" in row]
    assert len(marked) == 1 and "Zoë O&#x27;Brien v Brother Cask" in marked[0]


def test_the_page_lists_every_date_format_the_reader_accepts(organiser_client, league):
    page = organiser_client.get(url(league)).content.decode()
    assert "YYYY-MM-DD, DD/MM/YYYY or DD.MM.YYYY" in page
    day = datetime.date(2026, 3, 9)
    for pattern in DATE_FORMATS:  # every one it lists, it reads
        lines = [LINES[0] + f",{day:{pattern}}"]
        response = preview(organiser_client, league, csv_text(lines, header=HEADER + ",date"))
        assert response.status_code == 200 and response.context["lines"][0].date == day, pattern
