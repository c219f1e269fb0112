"""The API's writes on a result: report, confirm and dispute (a token that may
report, as its user's coach) and approve (a token that may organise, on its
user's leagues). Each runs the site's own form for the game and the site's own
service (league/services/results.py), so the permissions, bounds and messages are
the fixture page's: a refusal is ``400 {"errors": [...]}`` (with ``fields`` naming
the form's fields), a permission refused or a scope missing ``403``, a fixture
that does not exist ``404``, a token missing or wrong ``401``; nothing is written
on any refusal.

An ``Idempotency-Key`` header (any text up to 200 characters, the client's own)
makes a step safe to send again: the first accepted request with it is recorded in
the same transaction as its write (league/idempotency.py, as the site's forms'
keys are), and the same key sent again by the same user answers
with the result as it stands and ``Idempotent-Replayed: true``, writing nothing.
A key already used for another step or fixture is refused (422).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Annotated, Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from ninja import Path, Router, Schema

from league import idempotency
from league.permissions import coach_for, get_fixture_for_coach, require_organiser
from league.api.access import bearer, rate_limit
from league.api.models import ApiToken, Scope
from league.models import Fixture, IdempotencyKey, League, Result
from league.services import results as services
from league.leaguefiles.export import stream_league
from league.web.forms import EARLY_FIELD, PROPOSAL_PREFIX, ApproveForm, DisputeForm, proposal_form, report_form

router = Router(tags=["results"], auth=bearer, throttle=[rate_limit])

KEY_HEADER = "Idempotency-Key"
MAX_KEY = 200
MAX_FACTS = 400  # a Dungeon Bowl report with every player's line stays far below
# A fixture's id: any whole number is answered (one that fits no row is a 404, one
# that is no number a 422), never an overflow in the database.
FixtureId = Annotated[int, Path(ge=-(2**31), le=2**31 - 1)]


class ReportIn(Schema):
    facts: dict[str, Any]


class DisputeIn(Schema):
    reason: str = ""
    proposed: dict[str, Any] | None = None


class ApproveIn(Schema):
    reason: str = ""


class ResultOut(Schema):
    fixture: int
    status: str
    summary: str
    home_score: int | None
    away_score: int | None
    url: str


class Errors(Schema):
    errors: list[str]
    fields: dict[str, list[str]] | None = None


ANSWERS = {200: ResultOut, 400: Errors, 401: Errors, 403: Errors, 404: Errors, 422: Errors, 429: Errors}

_SCOPE_REFUSALS = {
    Scope.REPORT: "This token may not report, confirm or dispute results: make one that may on your API tokens page.",
    Scope.ORGANISE: "This token may not act as an organiser: make one that may on your API tokens page.",
}


def _errors(status: int, messages: list[str], fields: dict[str, list[str]] | None = None) -> JsonResponse:
    body: dict[str, Any] = {"errors": messages}
    if fields:
        body["fields"] = fields
    return JsonResponse(body, status=status)


def _form_refused(*forms_) -> JsonResponse:
    messages, fields = [], {}
    for form in forms_:
        for name, errors in form.errors.items():
            if name == "__all__":
                messages.extend(errors)
            else:
                fields[name] = list(errors)
                messages.extend(f"{name}: {error}" for error in errors)
    return _errors(400, messages, fields)


def _result_out(fixture: Fixture, result: Result | None) -> dict[str, Any]:
    return {
        "fixture": fixture.pk,
        "status": result.status if result is not None else "none",
        "summary": result.summary if result is not None else "",
        "home_score": result.home_score if result is not None else None,
        "away_score": result.away_score if result is not None else None,
        "url": fixture.get_absolute_url(),
    }


def _as_form_data(facts: dict[str, Any], prefix: str = "") -> dict[str, Any] | None:
    """A JSON object of facts as a form's data (the form's own field names): plain
    values only; None leaves a field out. None when it holds anything else."""
    if len(facts) > MAX_FACTS:
        return None
    data = {}
    for name, value in facts.items():
        if value is None:
            continue
        if not isinstance(value, (str, int, float, bool)):
            return None
        data[f"{prefix}-{name}" if prefix else name] = value
    return data


def _unknown(form, data: dict[str, Any]) -> JsonResponse | None:
    """A 400 naming the facts the game's form does not have (a typo would otherwise
    be dropped without a word), with the ones it has."""
    known = {form.add_prefix(name) for name in (*form.fields, EARLY_FIELD)}  # played_early: harmless when not asked
    unknown = sorted(name for name in data if name not in known)
    if not unknown:
        return None
    names = ", ".join(name[:40] for name in unknown[:5])
    return _errors(400, [f"Unknown fact{'s' if len(unknown) > 1 else ''}: {names}. This game's report takes: "
                         f"{', '.join(sorted(form.fields))}."])


def _scoped(request: HttpRequest, scope: str) -> JsonResponse | None:
    token: ApiToken = request.auth
    return None if token.allows(scope) else _errors(403, [_SCOPE_REFUSALS[scope]])


def _once(request: HttpRequest, fixture_id: int, step: Callable[[], JsonResponse]) -> JsonResponse:
    """Run ``step`` (which answers the fixture's result as JSON, or a refusal) once
    per ``Idempotency-Key`` (module docstring); without the header, as sent."""
    raw = request.headers.get(KEY_HEADER, "")
    if not raw:
        return _refusals_caught(step)
    if len(raw) > MAX_KEY:
        return _errors(400, [f"An {KEY_HEADER} has at most {MAX_KEY} characters."])

    def accepted(response: JsonResponse) -> idempotency.Outcome | None:
        # Refused: nothing written, the key may be sent again with a corrected body.
        return idempotency.Outcome(200, f"api:{fixture_id}") if response.status_code == 200 else None

    def replay(used: IdempotencyKey | None) -> JsonResponse:
        if used is None:
            return _errors(422, [f"This {KEY_HEADER} was already used for another request: send a new key."])
        fixture = Fixture.objects.select_related("result").get(pk=fixture_id)
        response = JsonResponse(_result_out(fixture, fixture.result_or_none), status=used.status)
        response["Idempotent-Replayed"] = "true"
        return response

    key = hashlib.sha256(f"api:{request.user.pk}:{raw}".encode()).hexdigest()
    return idempotency.once(key=key, user=request.user, path=request.path, step=lambda: _refusals_caught(step),
                            accepted=accepted, replay=replay)


def _refusals_caught(step: Callable[[], JsonResponse]) -> JsonResponse:
    try:
        return step()
    except ValidationError as error:
        return _errors(400, error.messages)
    except PermissionDenied as error:
        return _errors(403, [str(error) or "You may not do this."])


def _coach_fixture(request: HttpRequest, fixture_id: int) -> Fixture:
    """The fixture, for one of its coaches or its organiser (as the fixture page's
    forms): 404 when it does not exist, 403 for anyone else."""
    return get_fixture_for_coach(request, fixture_id)


@router.post("/fixtures/{fixture_id}/report/", response=ANSWERS, url_name="api_report_result",
             summary="Report a result as the token's coach")
def report(request: HttpRequest, body: ReportIn, fixture_id: FixtureId) -> HttpResponse:
    """The game's report ``facts`` under the report form's own field names: Guild
    Ball ``home_score``, ``away_score``; Dungeon Bowl ``home_score``, ``away_score``,
    ``ending``, ``dice``, ``home_gather`` ... and one ``home_lineN_player`` line per
    player who did something; DreadBall ``winner``, ``difference``, ``rush``,
    ``sudden_death``. A fixture dated in the future also needs ``played_early: true``.
    A report sent after the opponent's confirms it when the same, disputes it when not."""
    refused = _scoped(request, Scope.REPORT)
    if refused:
        return refused

    def step() -> JsonResponse:
        fixture = _coach_fixture(request, fixture_id)
        rules = fixture.round.season.league.rules
        data = _as_form_data(body.facts)
        if data is None:
            return _errors(400, ["Each fact is a plain value (text, a number, true or false), as the report form takes."])
        stored = fixture.result_or_none
        own = stored is not None and services.reporter_may_change(
            stored, fixture.side_of(coach_for(request.user)), fixture.events.all())
        form = report_form(rules, fixture, data, ask_early=not own)
        if (refused := _unknown(form, data)) is not None:
            return refused
        if not form.is_valid():
            return _form_refused(form)
        facts = {key: value for key, value in form.cleaned_data.items() if key != EARLY_FIELD}
        result = services.report_result(fixture=fixture, by=request.user, **facts)
        return JsonResponse(_result_out(fixture, result))

    return _once(request, fixture_id, step)


def _reported_result(request: HttpRequest, fixture_id: int) -> Result:
    fixture = _coach_fixture(request, fixture_id)
    result = fixture.result_or_none
    if result is None:
        raise PermissionDenied("This fixture has no reported result.")
    return result


@router.post("/fixtures/{fixture_id}/confirm/", response=ANSWERS, url_name="api_confirm_result",
             summary="Confirm the opponent's report as the token's coach")
def confirm(request: HttpRequest, fixture_id: FixtureId) -> HttpResponse:
    refused = _scoped(request, Scope.REPORT)
    if refused:
        return refused

    def step() -> JsonResponse:
        result = services.confirm_result(result=_reported_result(request, fixture_id), by=request.user)
        return JsonResponse(_result_out(result.fixture, result))

    return _once(request, fixture_id, step)


@router.post("/fixtures/{fixture_id}/dispute/", response=ANSWERS, url_name="api_dispute_result",
             summary="Dispute the opponent's report as the token's coach")
def dispute(request: HttpRequest, body: DisputeIn, fixture_id: FixtureId) -> HttpResponse:
    """``reason``: what is wrong; ``proposed`` (optional): the result the coach says
    is right, in the report's facts, for the organiser to accept instead."""
    refused = _scoped(request, Scope.REPORT)
    if refused:
        return refused

    def step() -> JsonResponse:
        result = _reported_result(request, fixture_id)
        fixture = result.fixture
        form = DisputeForm({"reason": body.reason, "propose": body.proposed is not None})
        data = _as_form_data(body.proposed or {}, PROPOSAL_PREFIX)
        if data is None:
            return _errors(400, ["Each proposed fact is a plain value (text, a number, true or false)."])
        proposal = proposal_form(fixture.round.season.league.rules, fixture, data)
        if (refused := _unknown(proposal, data)) is not None:
            return refused
        wanted = body.proposed is not None
        if not form.is_valid() or (wanted and not proposal.is_valid()):
            return _form_refused(form, *([proposal] if wanted else []))
        disputed = services.dispute_result(
            result=result, by=request.user, reason=form.cleaned_data["reason"],
            proposed=dict(proposal.cleaned_data) if wanted else None,
        )
        return JsonResponse(_result_out(fixture, disputed))

    return _once(request, fixture_id, step)


@router.post("/fixtures/{fixture_id}/approve/", response=ANSWERS, url_name="api_approve_result",
             summary="Approve a result as the league's organiser")
def approve(request: HttpRequest, body: ApproveIn, fixture_id: FixtureId) -> HttpResponse:
    """GB-8 Decision: a result the opponent has not confirmed needs a ``reason``."""
    refused = _scoped(request, Scope.ORGANISE)
    if refused:
        return refused

    def step() -> JsonResponse:
        fixture = get_object_or_404(Fixture.objects.select_related("round__season__league"), pk=fixture_id)
        require_organiser(fixture.round.season.league, request.user)
        result = fixture.result_or_none
        if result is None:
            raise ValidationError("There is no result to approve yet.")
        form = ApproveForm({"reason": body.reason})
        if not form.is_valid():
            return _form_refused(form)
        approved = services.approve_result(result=result, by=request.user, reason=form.cleaned_data["reason"])
        return JsonResponse(_result_out(fixture, approved))

    return _once(request, fixture_id, step)


@router.get("/leagues/{slug}/export/", url_name="api_export_league",
            summary="The league whole, as the organiser's download (a token that may organise)",
            response={200: None, 401: Errors, 403: Errors, 404: Errors})
def export(request: HttpRequest, slug: str) -> HttpResponse:
    """The file of the settings page's "Take the league away" (docs/export-format.md),
    streamed as it is read: for a token that may organise, of one of the league's
    organisers."""
    refused = _scoped(request, Scope.ORGANISE)
    if refused:
        return refused
    league = get_object_or_404(League, slug=slug)
    if not league.is_organised_by(request.user):
        return _errors(403, ["Only the league's organisers can take it away."])
    response = StreamingHttpResponse((piece.encode() for piece in stream_league(league)),
                                     content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{league.slug}-{timezone.now():%Y-%m-%d}.json"'
    response["Cache-Control"] = "private, no-store"
    return response
