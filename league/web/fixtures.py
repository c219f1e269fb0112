"""The fixture page and the result workflow on it: report, change or take back a
report, confirm and dispute (the two coaches), settle, approve, record, rearrange
and reopen (the organiser).
Each step is a POST guarded by a permission helper; its form cleans the input, a
service decides, and a refusal re-shows the fixture page with it on the form (400)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from league import confirm as confirmation
from league import layers
from league.services import disputes
from league.caching import pages
from league.services import fixtures as fixture_services
from league.services import results as services
from league.web.idempotency import idempotent
from league.web.feeds import side_name
from league.web.forms import (
    EARLY_FIELD, ApproveForm, DisputeForm, RearrangeForm, ReasonForm, proposal_form, record_arguments, record_form,
    report_form,
)
from league.models import Fixture, Result
from league.profiles import selectors as profiles
from league.permissions import coach_for, get_fixture_for_coach, require_organiser


def _re_shown(request: HttpRequest, pk: int, forms: dict | None = None, status: int = 200) -> bool:
    """A refused step re-shows the page with its forms bound: built for this request."""
    return forms is not None


def _fixture_viewer(request: HttpRequest, seen, pk: int, *args, **kwargs) -> str | None:
    """What the fixture page shows a logged-in viewer: the forms of their side, or
    the organiser's; built per request when the game has a panel here that is not kept."""
    _, _, game, home, away, organises, *_ = seen.rows
    if not layers.panels_kept(game, "fixture_detail"):
        return None
    coach = coach_for(request.user)
    side = "" if coach is None else "home" if coach.pk == home else "away" if coach.pk == away else ""
    return f"{side}:{int(request.user.is_superuser or organises)}"


@pages.kept_page(pages.fixture_season, _fixture_viewer, skip=_re_shown)
def fixture_detail(request: HttpRequest, pk: int, forms: dict | None = None, status: int = 200) -> HttpResponse:
    """Public: the match, its result and its history. The two coaches and the
    organiser also get the forms for the next step of the workflow. Logged in, kept
    per version of the season, viewer's side, organiser or not and day
    (league/caching/pages.py), unless the game has a panel here that is not kept."""
    fixture = get_object_or_404(
        Fixture.objects.with_related().select_related("round__season__league"), pk=pk
    )
    league = fixture.round.season.league
    result = fixture.result_or_none
    coach = coach_for(request.user)
    side = fixture.side_of(coach)
    is_organiser = league.is_organised_by(request.user)
    forms = forms or {}
    rules = league.rules
    by_team = league.named_by_team
    context = {
        "fixture": fixture,
        # Dungeon Bowl names a side by its team, the coach under it.
        "by_team": by_team,
        "names": [(entry.team or str(entry)) if by_team else str(entry)
                  for entry in (fixture.home, fixture.away) if entry is not None],
        "league": league,
        "season": fixture.round.season,
        "result": result,
        "side": side,
        "is_organiser": is_organiser,
        "events": list(fixture.events.select_related("by__coach").order_by("at", "id")),
        "rules": rules,
    }
    if not fixture.is_bye and not fixture.is_cancelled and (result is None or not result.is_approved):
        # Before the match: when these two coaches last met, in any league of the game.
        context["before_match"] = True
        context["last_met"] = profiles.last_meeting(fixture)
    if not fixture.is_bye and not fixture.is_cancelled:  # LG-2: nothing to do for a cancelled match
        if side and result is None:
            context["report_form"] = forms.get("report") or report_form(rules, fixture)
        if side and services.reporter_may_change(result, side, context["events"]):
            # GB-8 Decision: the reporter's own report, until the opponent answers.
            context["change_form"] = forms.get("change") or report_form(
                rules, fixture, initial=rules.initial_from(result), ask_early=False
            )
        if side and result is not None and result.status == Result.Status.REPORTED and side == result.confirming_side:
            context["can_confirm"] = True
            context["dispute_form"] = forms.get("dispute") or DisputeForm()
            context["proposal_form"] = forms.get("proposal") or proposal_form(
                rules, fixture, initial=rules.initial_from(result)
            )
        if is_organiser:
            initial = rules.initial_from(result) if result else {}
            context["record_form"] = forms.get("record") or record_form(rules, fixture, initial=initial)
            if result is None or not result.is_approved:
                context["rearrange_form"] = forms.get("rearrange") or RearrangeForm(initial={"date": fixture.date})
            if result is not None and not result.is_approved:
                context["approve_form"] = forms.get("approve") or ApproveForm()
            if result is not None and result.is_approved:
                context["reopen_form"] = forms.get("reopen") or ReasonForm()
    shown = {id(value) for value in context.values()}
    for form in forms.values():
        if id(form) not in shown:  # the page no longer offers that form: say why at the top
            for message in form.non_field_errors():
                messages.error(request, message)
    return render(request, "league/fixture_detail.html", context, status=status)


def _rejected(request: HttpRequest, fixture: Fixture, key: str, form, error) -> HttpResponse:
    """Re-show the fixture page with the service's refusal on the form (400)."""
    if isinstance(error, ValidationError):
        for message in error.messages:
            form.add_error(None, message)
    return fixture_detail(request, fixture.pk, forms={key: form}, status=400)


def _submit(request: HttpRequest, fixture: Fixture, key: str, form, apply, success,
            confirm: dict | None = None) -> HttpResponse:
    """Validate ``form``, hand its data to ``apply`` (a service call) and go back to
    the fixture with ``success`` (or what ``success(returned)`` says of what the
    service returned); a refusal re-shows the page with it on the form.
    With ``confirm`` (``confirm.ask``'s words), a destructive step is asked first."""
    if not form.is_valid():
        return _rejected(request, fixture, key, form, None)
    if confirm is not None and not confirmation.confirmed(request):
        return confirmation.ask(request, back=fixture.get_absolute_url(), **confirm)
    try:
        done = apply(form.cleaned_data)
    except ValidationError as error:
        return _rejected(request, fixture, key, form, error)
    messages.success(request, success(done) if callable(success) else success)
    return redirect(fixture)


def _facts(data: dict) -> dict:
    """A report form's cleaned data as the services take it."""
    return {key: value for key, value in data.items() if key != EARLY_FIELD}


@login_required
@require_POST
@idempotent
def report_result(request: HttpRequest, pk: int) -> HttpResponse:
    """A report. One sent again for a match the coach has reported already (from a
    page kept offline) is accepted when it says the same; when it differs it comes
    back as the change form, filled in with what was sent, for the coach to send
    on purpose (``services.report_result``)."""
    fixture = get_fixture_for_coach(request, pk)
    rules = fixture.round.season.league.rules
    stored = fixture.result_or_none
    own = stored is not None and services.reporter_may_change(stored, fixture.side_of(coach_for(request.user)),
                                                               fixture.events.all())
    form = report_form(rules, fixture, request.POST, ask_early=not own)
    return _submit(
        request, fixture, "change" if own else "report", form,
        lambda data: services.report_result(fixture=fixture, by=request.user, **_facts(data)),
        "You had reported this result already: it waits for your opponent to confirm it." if own else _reported,
    )


def _reported(result: Result) -> str:
    """What a report became: a report to confirm, or (sent after the opponent's own
    report, from a phone that was offline) a confirmation or a dispute."""
    if result.status == Result.Status.CONFIRMED:
        return "Your opponent had reported the same result: it is confirmed and counts once the organiser approves it."
    if result.status == Result.Status.DISPUTED:
        return "Your opponent had reported a different result: both versions go to the organiser, who settles it."
    return "Result reported. Your opponent now confirms it."


def _own_report(request: HttpRequest, pk: int) -> tuple[Fixture, Result | None]:
    """The fixture and its result, for one of its two coaches: anyone else, the
    organiser included, is refused (403); the services decide whether this coach's
    report can still change."""
    fixture = get_fixture_for_coach(request, pk)
    if fixture.side_of(coach_for(request.user)) is None:
        raise PermissionDenied("Only the coach who reported this result can change or take it back.")
    return fixture, fixture.result_or_none


def _refused_on_page(request: HttpRequest, fixture: Fixture, error: ValidationError) -> HttpResponse:
    """A step with no form of its own refused: the fixture page with the reason (400)."""
    messages.error(request, " ".join(error.messages))
    return fixture_detail(request, fixture.pk, forms={}, status=400)


@login_required
@require_POST
@idempotent
def change_report(request: HttpRequest, pk: int) -> HttpResponse:
    """GB-8 Decision: the reporting coach sends their report again, changed, with
    the game's own form; the opponent is told and confirms the new one."""
    fixture, result = _own_report(request, pk)
    if result is None:
        return _refused_on_page(request, fixture, ValidationError("There is no report to change: report the match."))
    return _submit(
        request, fixture, "change", report_form(fixture.round.season.league.rules, fixture, request.POST, ask_early=False),
        lambda data: services.change_report(result=result, by=request.user, **_facts(data)),
        "Report changed. Your opponent has been told and now confirms the new result.",
    )


@login_required
@require_POST
@idempotent
def withdraw_report(request: HttpRequest, pk: int) -> HttpResponse:
    """GB-8 Decision: the reporting coach takes their report back, after a page
    that says what happens; the match waits for a report again."""
    fixture, result = _own_report(request, pk)
    if result is None:
        return _refused_on_page(request, fixture, ValidationError("There is no report to take back."))
    try:
        services.require_reporting_coach(result, request.user)
    except ValidationError as error:
        return _refused_on_page(request, fixture, error)
    league = fixture.round.season.league
    home, away = (side_name(entry, league, with_coach=False) for entry in (fixture.home, fixture.away))
    if not confirmation.confirmed(request):
        opponent = side_name(fixture.entry_for(result.confirming_side), league)
        return confirmation.ask(
            request, back=fixture.get_absolute_url(), title=f"Take back your report of {fixture.title}: {home} v {away}?",
            consequence=(f"Your report ({home} {result.summary} {away}) is deleted: nothing waits for {opponent} to "
                         "confirm, and the match waits for a report again, from either of you. "
                         f"{opponent} is told by email."),
            button="Take back the report",
        )
    try:
        services.withdraw_report(result=result, by=request.user)
    except ValidationError as error:
        return _refused_on_page(request, fixture, error)
    messages.success(request, "Report taken back: the match waits for a report again. Your opponent has been told.")
    return redirect(fixture)


def _result_for_coach(request: HttpRequest, pk: int) -> Result:
    fixture = get_fixture_for_coach(request, pk)
    result = fixture.result_or_none
    if result is None:
        raise PermissionDenied("This fixture has no reported result.")
    return result


@login_required
@require_POST
@idempotent
def confirm_result(request: HttpRequest, pk: int) -> HttpResponse:
    result = _result_for_coach(request, pk)
    try:
        services.confirm_result(result=result, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(result.fixture)
    messages.success(request, "Result confirmed. It counts once the organiser approves it.")
    return redirect(result.fixture)


@login_required
@require_POST
@idempotent
def dispute_result(request: HttpRequest, pk: int) -> HttpResponse:
    """The opponent disputes the report, with the result they say is right when
    they tick ``propose`` (the game's report form, prefixed ``proposed-``)."""
    result = _result_for_coach(request, pk)
    fixture = result.fixture
    form = DisputeForm(request.POST)
    proposal = proposal_form(fixture.round.season.league.rules, fixture, request.POST)
    wanted = form.is_valid() and form.cleaned_data["propose"]
    refused = {"dispute": form, "proposal": proposal}
    if not form.is_valid() or (wanted and not proposal.is_valid()):
        return fixture_detail(request, fixture.pk, forms=refused, status=400)
    try:
        services.dispute_result(
            result=result, by=request.user, reason=form.cleaned_data["reason"],
            proposed=dict(proposal.cleaned_data) if wanted else None,
        )
    except ValidationError as error:
        for message in error.messages:
            (proposal if wanted else form).add_error(None, message)
        return fixture_detail(request, fixture.pk, forms=refused, status=400)
    messages.success(request, "Dispute sent to the organiser" + (" with your version of the result." if wanted else "."))
    return redirect(fixture)


def _fixture_for_organiser(request: HttpRequest, pk: int) -> Fixture:
    fixture = get_object_or_404(Fixture.objects.select_related("round__season__league"), pk=pk)
    require_organiser(fixture.round.season.league, request.user)
    return fixture


@login_required
@require_POST
def settle_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser accepts one version of a disputed result (``accept``:
    reported or proposed); back to the dashboard when asked from there."""
    fixture = _fixture_for_organiser(request, pk)
    league = fixture.round.season.league
    back = (
        redirect("league:organiser_dashboard", slug=league.slug) if request.POST.get("back") == "dashboard"
        else redirect(fixture)
    )
    result = fixture.result_or_none
    if result is None:
        messages.error(request, "There is no result to settle.")
        return back
    try:
        settled = disputes.settle_dispute(result=result, by=request.user, accept=request.POST.get("accept", ""))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return back
    home, away = (side_name(entry, league, with_coach=False) for entry in (fixture.home, fixture.away))
    messages.success(request, f"Dispute settled: {home} {settled.summary} {away} is approved.")
    return back


@login_required
@require_POST
def approve_result(request: HttpRequest, pk: int) -> HttpResponse:
    fixture = _fixture_for_organiser(request, pk)
    result = fixture.result_or_none
    if result is None:
        messages.error(request, "There is no result to approve yet.")
        return redirect(fixture)
    return _submit(
        request, fixture, "approve", ApproveForm(request.POST),
        lambda data: services.approve_result(result=result, by=request.user, reason=data["reason"]),
        "Result approved: the standings now include it.",
    )


@login_required
@require_POST
def record_result(request: HttpRequest, pk: int) -> HttpResponse:
    fixture = _fixture_for_organiser(request, pk)
    rules = fixture.round.season.league.rules
    return _submit(
        request, fixture, "record", record_form(rules, fixture, request.POST),
        lambda data: services.record_result(fixture=fixture, by=request.user, **record_arguments(data)),
        "Result recorded and approved.",
    )


@login_required
@require_POST
def rearrange_fixture(request: HttpRequest, pk: int) -> HttpResponse:
    fixture = _fixture_for_organiser(request, pk)
    return _submit(
        request, fixture, "rearrange", RearrangeForm(request.POST),
        lambda data: fixture_services.rearrange_fixture(
            fixture=fixture, by=request.user, new_date=data["date"], reason=data["reason"]
        ),
        "Fixture rearranged; the coaches have been emailed.",
    )


@login_required
@require_POST
def reopen_result(request: HttpRequest, pk: int) -> HttpResponse:
    fixture = _fixture_for_organiser(request, pk)
    result = fixture.result_or_none
    if result is None:
        messages.error(request, "There is no result to reopen.")
        return redirect(fixture)
    return _submit(
        request, fixture, "reopen", ReasonForm(request.POST),
        lambda data: services.reopen_result(result=result, by=request.user, reason=data["reason"]),
        "Result reopened: it no longer counts until approved again.",
        confirm={"title": f"Reopen {fixture.title}: {side_name(fixture.home, fixture.round.season.league)} "
                          f"v {side_name(fixture.away, fixture.round.season.league)}?",
                 "consequence": (f"The approved result {result.summary} stops counting in the standings (and whatever "
                                 "the game derives from it) until it is approved again. Reason: "
                                 f"{request.POST.get('reason', '').strip()}"),
                 "button": "Reopen the result"},
    )
