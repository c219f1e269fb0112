"""The organiser's download of their league whole: one JSON file, streamed as it
is read, for the league's organisers only."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from league.permissions import get_league_for_organiser
from league.leaguefiles.export import stream_league


@login_required
@require_GET
def export_league(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    league = get_league_for_organiser(request, slug)
    response = StreamingHttpResponse(
        (piece.encode() for piece in stream_league(league)), content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{league.slug}-{timezone.now():%Y-%m-%d}.json"'
    response["Cache-Control"] = "private, no-store"
    return response
