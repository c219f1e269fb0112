"""Import on the web: the organiser uploads a results file of the
same format as ``manage.py import_results`` (league/spreadsheets/files.py), sees what
it would create (or its first bad line, with its number and reason), then
confirms.

The preview imports the file and rolls back (``web_import.preview_import``), so it
writes nothing and its counts are exactly the import's. The upload goes back to
the browser inside the confirmation form, signed by the site with the league, the
organiser, the season and what the preview counted (``django.core.signing``: no
server-side copy, no path the client names, nothing it can alter unnoticed); the
confirmed import refuses and writes nothing unless it writes what the preview
showed. The organiser is the importer (the results' history, the coaches they
create)."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from league import selectors
from league.spreadsheets import writer as importer
from league.spreadsheets import preview as web_import
from league.web.forms import ConfirmImportForm, ImportForm
from league.spreadsheets.files import BadRow, date_formats_shown, required_columns
from league.rules.importing import either
from league.permissions import get_league_for_organiser

SALT = "league.import_views.upload"
MAX_AGE = 60 * 60  # seconds a preview can be confirmed in


@login_required
def league_import(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the upload form. POST: the preview (an upload) or the import (a
    signed preview confirmed). Only the league's organisers; a refusal is a 400
    that names the line and writes nothing."""
    league = get_league_for_organiser(request, slug)
    current = selectors.season_for(league)
    context = {
        "league": league, "header": ",".join(required_columns(league.rules)), "max_kb": web_import.MAX_UPLOAD_BYTES // 1024,
        "date_formats": either(date_formats_shown()),
    }
    if request.method == "POST" and "payload" in request.POST:
        return _confirm(request, league, context)
    form = ImportForm(request.POST or None, request.FILES or None,
                      initial={"season": current.name if current else importer.DEFAULT_SEASON})
    if request.method != "POST":
        return render(request, "league/league_import.html", {**context, "form": form})
    if not form.is_valid():
        return render(request, "league/league_import.html", {**context, "form": form}, status=400)
    upload, season, start = form.cleaned_data["file"], form.cleaned_data["season"], form.cleaned_data["start"]
    try:
        if upload.size > web_import.MAX_UPLOAD_BYTES:  # before reading it
            raise BadRow(1, f"the file is {upload.size // 1024} KB; at most {web_import.MAX_UPLOAD_BYTES // 1024} KB "
                            f"can be imported at once: split it by rounds")
        text = web_import.read_upload(upload.read(web_import.MAX_UPLOAD_BYTES + 1))
        rows = web_import.rows_for_league(text, league=league)
        summary, lines = web_import.preview_import(rows, league=league, by=request.user, season_name=season,
                                                 start_date=start)
    except (BadRow, importer.ImportRefused) as error:
        return _refused(request, context, form, error)
    payload = signing.dumps(
        {"league": league.pk, "by": request.user.pk, "season": season, "start": start.isoformat() if start else None,
         "name": upload.name[:100], "text": text, "summary": web_import.summary_dict(summary)},
        salt=SALT, compress=True,
    )
    return render(request, "league/league_import.html", {
        **context, "preview": summary, "lines": lines, "rows": len(rows), "season": season, "file_name": upload.name,
        "confirm": ConfirmImportForm(initial={"payload": payload}),
    })


def _confirm(request: HttpRequest, league, context: dict) -> HttpResponse:
    form = ImportForm(initial={"season": importer.DEFAULT_SEASON})
    try:
        data = signing.loads(request.POST["payload"], salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        return _refused(request, context, form, "The preview is more than an hour old; upload the file again.")
    except signing.BadSignature:
        return _refused(request, context, form, "The confirmation does not match any preview; upload the file again.")
    if data["league"] != league.pk or data["by"] != request.user.pk:
        return _refused(request, context, form, "The confirmation is for another league or organiser; upload the file again.")
    start = datetime.date.fromisoformat(data["start"]) if data["start"] else None
    try:
        rows = web_import.rows_for_league(data["text"], league=league)
        summary = web_import.confirm_import(rows, league=league, by=request.user, season_name=data["season"],
                                          start_date=start, expected=data["summary"], source=data["name"])
    except (BadRow, importer.ImportRefused, web_import.ImportChanged) as error:
        return _refused(request, context, form, error, status=409 if isinstance(error, web_import.ImportChanged) else 400)
    messages.success(
        request,
        f"Imported {data['name']} into {league.name}, {data['season']}: {summary.fixtures} fixture(s) and "
        f"{summary.results_recorded + summary.results_approved} result(s); {summary.unchanged} already up to date.",
    )
    return redirect("league:organiser_dashboard", slug=league.slug)


def _refused(request, context: dict, form, error, *, status: int = 400) -> HttpResponse:
    """The upload form again with the reason: the line and why for a bad line."""
    if isinstance(error, BadRow):
        message = f"Line {error.line}: {error.reason.rstrip('.')}. Nothing was imported."
    else:
        message = f"{str(error).rstrip('.')}." if "Nothing was imported" in str(error) else \
            f"{str(error).rstrip('.')}. Nothing was imported."
    return render(request, "league/league_import.html", {**context, "form": form, "refusal": message}, status=status)
