"""Every text a user can write is plain text (league/text/plaintext.py). A
control character (``Hollis\\x0bSprocket``, a ``\\x1b`` in a CP adjustment reason)
or a text-direction override is refused with a message, at the site's forms, the
admin and the imports; a line break only where the text has several lines."""

from __future__ import annotations

import importlib
import io
import json
import pkgutil

import pytest
from django import forms
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

import campaigns
import league
from campaigns.models import CampaignPointLine
from league.text import markers
from league.text import plaintext
from league.services import results as services
from league.models import Coach, League, Result, ResultEvent
from league.text.plaintext import PlainText, PlainTextField, problem
from league.leaguefiles import registry
from league.leaguefiles.export import stream_league
from league.leaguefiles.importer import ImportRefused, import_league, read_file
from tests.api.conftest import bearer
from tests.support.builders import season_with_results
from tests.campaigns.factories import make_campaign
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory
from tests.reliability.test_import_lines import GB, OK_GB, refused

# The data migration keeps its own copy of the rule as it was (a migration imports no
# live application code); these tests run that copy.
plain_text_migration = importlib.import_module("league.migrations.0012_plain_text")
cleaned = plain_text_migration.cleaned

# What the data migration cleaned; the rule refuses every other noncharacter too.
REFUSED_BY_THE_MIGRATION = ["Hollis\x0bSprocket", "Zed\x1b[31m", "a\x00b", "a\x7fb", "a\x85b", "a\x9bb", "Ada\u202eeve",
                            "x\u2066y", "a\u2069", "a\uffffb", "a\ufffeb", "a\tb", "a\nb", "a\rb"]
REFUSED = [*REFUSED_BY_THE_MIGRATION, "a\ufdd0b", "a\ufdefb", "a\U0001fffeb", "a\U0010ffffb"]
# What every way in refuses alike: a kept page's marker character, another
# noncharacter, a control character.
UNPLAIN = [(markers.EDGE, "the non-character U+FFFF"), ("\ufdd0", "the non-character U+FDD0"),
           ("\x1b", "the control character U+001B")]


@pytest.mark.parametrize("text", REFUSED)
def test_a_one_line_text_refuses_control_characters_and_direction_overrides(text):
    assert problem(text)


@pytest.mark.parametrize("text", ["Ada Blackwater", "Zoë O'Brien", "Łódź 🏆", "עברית", "a\u200db", "", "\ufdcf\ufffd\U0001fffd"])
def test_plain_text_passes(text):
    assert problem(text) is None
    assert problem(text, multiline=True) is None


def test_a_multi_line_text_allows_line_breaks_and_tabs_only():
    assert problem("one\r\ntwo\n\tthree", multiline=True) is None
    assert [problem(text, multiline=True) for text in ("a\x0bb", "a\u202eb", "a\x1bb")] == [
        "the control character U+000B", "the text-direction control U+202E", "the control character U+001B",
    ]


def test_cleaned_keeps_the_words_apart():
    assert cleaned("Hollis\x0bSprocket") == "Hollis Sprocket"
    assert cleaned("a\r\nb\x1b[0m\u202e!") == "a b[0m!"
    assert cleaned("one\r\n\ttwo\x0c", multiline=True) == "one\r\n\ttwo "
    for text in REFUSED_BY_THE_MIGRATION:
        assert problem(cleaned(text)) is None


def test_every_text_column_of_every_app_carries_the_rule():
    """One depth: admin forms, model forms and ``full_clean`` of any model refuse,
    a text field added later included (it is added when the apps are ready)."""
    fields = [(model, field) for model in apps.get_models() for field in plaintext.text_fields(model)]
    assert {model._meta.app_label for model, _ in fields} >= {"league", "campaigns", "dungeonbowl", "dreadball", "auth"}
    missing = [
        f"{model._meta.label}.{field.name}" for model, field in fields
        if PlainText(multiline=plaintext.is_multiline(field)) not in field.validators
    ]
    assert missing == []


def test_the_form_field_folds_a_boxed_reason_onto_one_line():
    from django import forms

    boxed = PlainTextField(widget=forms.Textarea)
    assert boxed.clean("  It rained.\r\nWe stopped.  ") == "It rained. We stopped."
    with pytest.raises(forms.ValidationError, match="U\\+001B"):
        boxed.clean("It\x1brained")
    with pytest.raises(forms.ValidationError, match="one line"):
        PlainTextField().clean("It\nrained")
    assert PlainTextField(multiline=True).clean("a\r\nb") == "a\r\nb"


def test_names_that_only_look_different_share_a_key():
    """NFKC, without format characters, blanks collapsed, casefolded."""
    keys = {plaintext.name_key(name) for name in ("Velocity", "velo\u200bcity", "ＶＥＬＯＣＩＴＹ", " VELO\u00adCITY ")}
    assert keys == {"velocity"}
    assert plaintext.name_key("Straße") == plaintext.name_key("STRASSE")
    assert plaintext.same_name("Ada\u200d", ["Bea", "ADA"]) == "ADA" and plaintext.same_name("Ada", ["Adam"]) is None


# Through the pages -------------------------------------------------------------------


@pytest.mark.django_db
def test_profile_refuses_a_control_character_in_the_display_name(client, season):
    user = EntryFactory(season=season, coach=CoachFactory(name="Hollis")).coach.user
    client.force_login(user)
    response = client.post(reverse("profile"), {"name": "Hollis\x0bSprocket", "email": "h@example.org"})
    assert response.status_code == 400
    assert "Remove the control character U+000B" in response.content.decode()
    assert Coach.objects.get(user=user).name == "Hollis"
    response = client.post(reverse("profile"), {"name": "Hollis\u202eSprocket", "email": "h@example.org"})
    assert response.status_code == 400 and "text-direction control U+202E" in response.content.decode()
    assert Coach.objects.get(user=user).name == "Hollis"


@pytest.mark.django_db
def test_organiser_cannot_add_a_coach_with_a_control_character(client, organiser, season):
    client.force_login(organiser)
    url = reverse("league:organiser_coaches", args=[season.league.slug])
    response = client.post(url, {"name": "Ada\x1b", "email": "ada@example.org", "team": "Reds"})
    assert response.status_code == 400 and "U+001B" in response.content.decode()
    assert not Coach.objects.filter(name__startswith="Ada").exists()


@pytest.mark.django_db
def test_cp_adjustment_reason_refuses_an_escape(client, season, organiser):
    cc = make_campaign(season, 4, organiser=organiser)[0]
    client.force_login(organiser)
    url = reverse("campaigns:adjust", args=[season.league.slug, cc.entry.coach_id])
    before = CampaignPointLine.objects.count()
    response = client.post(url, {"ledger": "cp", "amount": 3, "reason": "bonus\x1b[2J"})
    assert response.status_code == 400 and "Remove the control character U+001B" in response.content.decode()
    assert CampaignPointLine.objects.count() == before


@pytest.mark.django_db
def test_a_dispute_reason_typed_on_several_lines_is_kept_on_one(client, fixture, home_user, away_user):
    result = services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=7)
    client.force_login(away_user)
    url = reverse("league:dispute_result", args=[fixture.pk])
    response = client.post(url, {"reason": "It was 12-9\x07"})
    assert response.status_code == 400 and "U+0007" in response.content.decode()
    assert Result.objects.get(pk=result.pk).status == "reported"
    assert client.post(url, {"reason": "It was 12-9.\r\nAsk Bea."}).status_code == 302
    assert Result.objects.get(pk=result.pk).dispute_reason == "It was 12-9. Ask Bea."


@pytest.mark.django_db
def test_the_admin_refuses_on_the_field_and_keeps_a_description_on_several_lines(client, organiser):
    client.force_login(organiser)
    data = {"name": "North\u202eern", "game_system": "guildball", "description": "Tuesdays.", "season_name": "Season 1",
            "start_date": "2026-09-07", "cadence_days": 7, "double_round_robin": "single"}
    response = client.post(reverse("admin:league_league_add"), data)
    assert response.status_code == 200 and "Remove the text-direction control U+202E" in response.content.decode()
    assert not League.objects.filter(slug="northern").exists()
    data.update(name="Northern", description="Tuesdays,\r\n\tat the Anchor.\x1b")
    response = client.post(reverse("admin:league_league_add"), data)
    assert "Remove the control character U+001B" in response.content.decode()
    data.update(description="Tuesdays,\r\n\tat the Anchor.")
    assert client.post(reverse("admin:league_league_add"), data).status_code == 302
    assert League.objects.get(slug="northern").description == "Tuesdays,\r\n\tat the Anchor."
    response = client.post(reverse("admin:league_coach_add"), {"name": "Hollis\x0bSprocket", "email": ""})
    assert response.status_code == 200 and "U+000B" in response.content.decode()
    assert not Coach.objects.filter(name__startswith="Hollis").exists()


# Imports --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "line,reason",
    [
        ("Harbour Cup,1,Ada\x1bEve,Bea,12,8,played", "the home field holds the control character U+001B"),
        ("Harbour Cup,1,Ada,Bea\u202e,12,8,played", "the away field holds the text-direction control U+202E"),
        ('Harbour Cup,1,"Ada\nEve",Bea,12,8,played', "the home field holds a line break"),
        ("Harbour\x0bCup,1,Ada,Bea,12,8,played", "the league field holds the control character U+000B"),
    ],
)
def test_an_import_refuses_such_text_with_its_line(tmp_path, line, reason):
    message = refused(tmp_path, "import_results", [GB, OK_GB, line], "--game", "guildball")
    # A quoted field over two lines is named by the line it ends on, as every reason is.
    assert reason in message and f"line {3 + line.count(chr(10))}: " in message, message


@pytest.mark.django_db
@pytest.mark.parametrize("season,reason", [("Spring\x1b", "U+001B"), ("Spring\x00", "a NUL byte"), ("Spring\nTwo", "line break")])
def test_an_import_refuses_a_season_name_that_is_not_plain_text(tmp_path, season, reason):
    message = refused(tmp_path, "import_results", [GB, OK_GB], "--season", season)
    assert "--season: a season name is plain text" in message and reason in message, message


# Rows from before: the data migration ------------------------------------------------


@pytest.mark.django_db
def test_the_migration_cleans_every_text_column_so_a_backup_can_be_taken(season, organiser, fixture):
    """Rows written before the rule (raw, as an old form let them in) are made plain by
    the data migration's own ``clean_rows``; the XML backup (docs/backup.md) then succeeds."""
    hollis = CoachFactory(name="Hollis")
    Coach.objects.filter(pk=hollis.pk).update(name="Hollis\x0bSprocket")
    League.objects.filter(pk=season.league_id).update(description="Tuesdays\r\n\tonly\x1b")
    event = ResultEvent.objects.create(fixture=fixture, action="reported", by=organiser, note="late\x1b[0m\u202e")
    organiser.__class__.objects.filter(pk=organiser.pk).update(first_name="Long\x85shanks")
    twin = Coach.objects.create(name="Twin Star", created_by=organiser)
    # Cleans to a name the organiser has: coach names are no longer unique (league/people/entrants.py
    # keeps them apart within a season), so it stays as cleaned. A unique column would get its id appended.
    clash = Coach.objects.create(name="Twin\tStar", created_by=organiser)

    def backup() -> None:
        call_command("dumpdata", format="xml", exclude=["contenttypes", "auth.permission", "sessions", "league.session", "axes"],
                     stdout=io.StringIO())

    with pytest.raises(CommandError, match="unserializable"):
        backup()
    assert plain_text_migration.clean_rows(apps, connection.alias) == 5
    assert Coach.objects.get(pk=hollis.pk).name == "Hollis Sprocket"
    assert League.objects.get(pk=season.league_id).description == "Tuesdays\r\n\tonly"
    assert ResultEvent.objects.get(pk=event.pk).note == "late[0m"
    assert organiser.__class__.objects.get(pk=organiser.pk).first_name == "Long shanks"
    assert Coach.objects.get(pk=twin.pk).name == "Twin Star"
    assert Coach.objects.get(pk=clash.pk).name == "Twin Star"
    backup()
    assert plain_text_migration.clean_rows(apps, connection.alias) == 0


def test_text_from_elsewhere_is_cleaned_as_the_rule_says():
    """A Discord username nobody here can correct is kept cleaned, not refused."""
    assert plaintext.cleaned("Hollis\x0bSprocket\uffff") == "Hollis Sprocket"
    assert plaintext.cleaned("a\r\n\tb\ufdd0", multiline=True) == "a\r\n\tb"
    for text in REFUSED:
        assert problem(plaintext.cleaned(text)) is None


def test_the_text_inside_a_json_value_is_checked_keys_and_all():
    assert plaintext.problem_in({"players": [{"name": "Ada", "skills": ["Block", "Dodge\n"]}], "n": 3}) is None
    assert plaintext.problem_in({"players": [{"name": f"Ada{markers.EDGE}"}]}) == "the non-character U+FFFF"
    assert plaintext.problem_in({"a\x1b": 1}) == "the control character U+001B"


# Every way in: one rule, the same answer ----------------------------------------------


def _modules(package):
    yield package
    for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if ".migrations" not in found.name and not found.name.endswith(("asgi", "wsgi")):
            yield importlib.import_module(found.name)


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_text_field_of_the_sites_forms_carries_the_rule():
    """Every form of the site's own, whatever its module, a form added later included:
    each text field it declares refuses what is not plain text (a model form's
    fields of the model carry the model's rule, test above). Passwords are never
    kept as text; the previewed import's payload is the site's own, signed."""
    for package in (league, campaigns):
        list(_modules(package))
    exempt = {("league.web.forms", "ConfirmImportForm", "payload")}
    missing = []
    for form in set(_subclasses(forms.BaseForm)):
        if not form.__module__.startswith(("league.", "campaigns.")):
            continue
        djangos = {name for base in form.__mro__[1:] if base.__module__.startswith("django.")
                   for name in getattr(base, "declared_fields", {})}
        for name, field in form.declared_fields.items():
            if (not isinstance(field, forms.CharField) or isinstance(field.widget, forms.PasswordInput)
                    or name in djangos or (form.__module__, form.__name__, name) in exempt):
                continue
            if not any(isinstance(validator, PlainText) for validator in field.validators):
                missing.append(f"{form.__module__}.{form.__name__}.{name}")
    assert sorted(missing) == []


@pytest.mark.django_db
@pytest.mark.parametrize("char,found", UNPLAIN)
def test_the_form_and_the_api_refuse_a_dispute_reason_with_the_same_message(client, fixture, home_user, away_user,
                                                                             char, found):
    result = services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=7)
    said = f"Remove {found}: only plain text can be saved."
    client.force_login(away_user)
    page = client.post(reverse("league:dispute_result", args=[fixture.pk]), {"reason": f"It was 12-9{char}"})
    assert page.status_code == 400 and said in page.content.decode()
    client.logout()
    answer = client.post(f"/api/v1/fixtures/{fixture.pk}/dispute/", {"reason": f"It was 12-9{char}"},
                         content_type="application/json", headers=bearer(away_user, "report"))
    assert answer.status_code == 400 and answer.json()["fields"] == {"reason": [said]}
    assert Result.objects.get(pk=result.pk).status == Result.Status.REPORTED
    assert not ResultEvent.objects.filter(action=ResultEvent.Action.DISPUTED).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("door", ["form", "api"])
def test_the_form_and_the_api_keep_a_reason_typed_on_several_lines_on_one_alike(client, fixture, home_user, away_user,
                                                                                door):
    result = services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=7)
    reason = "It was 12-9.\r\nAsk Bea."
    if door == "form":
        client.force_login(away_user)
        assert client.post(reverse("league:dispute_result", args=[fixture.pk]), {"reason": reason}).status_code == 302
    else:
        answer = client.post(f"/api/v1/fixtures/{fixture.pk}/dispute/", {"reason": reason},
                             content_type="application/json", headers=bearer(away_user, "report"))
        assert answer.status_code == 200, answer.content
    assert Result.objects.get(pk=result.pk).dispute_reason == "It was 12-9. Ask Bea."


@pytest.mark.django_db
@pytest.mark.parametrize("char,found", UNPLAIN)
def test_the_settings_form_refuses_it_in_the_league_s_name(client, organiser, season, char, found):
    client.force_login(organiser)
    page = client.post(reverse("league:organiser_settings", args=[season.league.slug]),
                       {"section": "league", "name": f"Harbour{char}Cup", "description": ""})
    assert page.status_code == 400 and f"Remove {found}: only plain text can be saved." in page.content.decode()
    assert League.objects.get(pk=season.league_id).name == season.league.name


@pytest.mark.django_db
@pytest.mark.parametrize("char,found", UNPLAIN)
def test_a_spreadsheet_refuses_it_with_its_line(tmp_path, char, found):
    message = refused(tmp_path, "import_results", [GB, OK_GB, f"Harbour Cup,1,Cy,Ada{char}Eve,12,8,played"],
                      "--game", "guildball")
    assert f"line 3: the away field holds {found}" in message, message


def _rows_held() -> dict[str, int]:
    return {part.label: part.model.objects.count() for part in registry.ordered_parts()}


@pytest.mark.django_db
@pytest.mark.parametrize("char,found", UNPLAIN)
@pytest.mark.parametrize("table,column,value", [
    ("league.coach", "name", lambda char: f"Ada{char}"),
    ("league.league", "description", lambda char: f"Tuesdays,\n{char}"),
    ("league.result", "proposed_facts", lambda char: {"home_score": 12, "note": f"x{char}"}),
])
def test_a_league_file_with_it_is_refused_whole(organiser, char, found, table, column, value):
    """As a form refuses it, so does a league's file: nothing is written, whichever
    table, in a text column (one line or several) or inside a JSON column."""
    league = LeagueFactory()
    season_with_results(coaches=4, played_rounds=2, season=SeasonFactory(league=league))
    data = json.loads("".join(stream_league(league)))
    part = next(part for part in data["tables"] if part["model"] == table)
    part["rows"][-1][part["columns"].index(column)] = value(char)
    before = _rows_held()
    with pytest.raises(ImportRefused) as refusal:
        import_league(read_file(io.BytesIO(json.dumps(data).encode())), organiser=organiser, slug="copy")
    assert str(refusal.value) == (f'The file\'s "{table}" {part["rows"][-1][0]!r} holds {found} in its "{column}": '
                                  f"only plain text can be imported.")
    assert _rows_held() == before
    data_plain = json.loads("".join(stream_league(league)))
    assert import_league(read_file(io.BytesIO(json.dumps(data_plain).encode())), organiser=organiser, slug="copy")
