"""The Big League pages: public campaign table and feed and each coach's campaign
page, with the lookups, permissions and the action runner each concern's views
share: picks and confirmations (moments.views), the Longshanks' adjustment
(ledgers.views), the Final Day (finalday.views), Wheeling & Dealing
(dealing.views), a fixture's campaign page, decks and achievements (decks.views).

Views are thin: a permission helper returns the object or raises 404/403, the
form cleans, the service decides. A refused action re-renders the page with the
refusal on the form that caused it (status 400) and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django_tables2 import RequestConfig

from campaigns import selectors, setup
from campaigns.dealing.forms import LoanForm, OfferForm, SponsorshipForm
from campaigns.ledgers.forms import AdjustForm
from campaigns.moments.forms import PickForm, StartingPickForm
from campaigns.moments import services as moments
from campaigns.finalday import services as titles
from campaigns.models import Campaign, CampaignCoach, Title
from campaigns.web.tables import CampaignTable
from league.caching import pages
from league.models import League, Season
from league.permissions import coach_for

# Lookups and permissions --------------------------------------------------------


def _campaign(slug: str) -> Campaign:
    """The league's current season as a campaign (404 for other games or no season).
    Unsaved while its rows are not written yet: pages show it as new, and an action
    writes the rows first (``_written``), so a GET never writes (STYLE habit 14)."""
    league = get_object_or_404(League, slug=slug, game_system="guildball")
    season = Season.objects.filter(league=league).select_related("league").first()
    if season is None:
        raise Http404("This league has no season yet.")
    return selectors.campaign_of(season)


def _coach_in(campaign: Campaign, coach_id: int) -> CampaignCoach:
    """The coach's row (unsaved if not written yet); 404 when not in the campaign."""
    found = selectors.find_coach(campaign, coach_id)
    if found is None:
        raise Http404("That coach is not in this campaign.")
    return found[0]


def _written(cc: CampaignCoach) -> CampaignCoach:
    """The coach's saved row for an action: the season's campaign rows are written
    first if it started without them (an import, an entry added later). Call inside
    the action's transaction, so a refused action writes nothing."""
    if cc.pk is not None:
        return cc
    campaign = setup.ensure_campaign(cc.campaign.season)
    saved = CampaignCoach.objects.select_related("entry__coach", "guild").get(entry_id=cc.entry_id)
    saved.campaign = campaign
    return saved


def _me(request: HttpRequest, campaign: Campaign) -> CampaignCoach:
    """The logged-in user's own row in the campaign; 403 for anyone else."""
    coach = coach_for(request.user)
    if coach is None:
        raise PermissionDenied("You are not a coach in this campaign.")
    return _coach_in_or_403(campaign, coach.pk)


def _coach_in_or_403(campaign: Campaign, coach_id: int) -> CampaignCoach:
    try:
        return _coach_in(campaign, coach_id)
    except Http404:
        raise PermissionDenied("You are not a coach in this campaign.") from None


def _is_organiser(request: HttpRequest, campaign: Campaign) -> bool:
    return campaign.season.league.is_organised_by(request.user)


def _may_view(request: HttpRequest, campaign: Campaign, cc: CampaignCoach) -> tuple[bool, bool]:
    """A coach's page is for that coach and the Longshanks: (is_owner, is_organiser)."""
    is_owner = cc.entry.coach.user_id == request.user.pk
    is_organiser = _is_organiser(request, campaign)
    if not (is_owner or is_organiser):
        raise PermissionDenied("A coach's campaign page is for that coach and the organiser.")
    return is_owner, is_organiser


def _joining_of(campaign: Campaign, cc: CampaignCoach):
    """What an unsaved coach starts with, for re-showing their page."""
    return selectors.find_coach(campaign, cc.entry.coach_id)[1] if cc.pk is None else None


def _refused(exc: Exception) -> str:
    return " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)


# Public pages ------------------------------------------------------------------------


def campaign_table(request: HttpRequest, slug: str) -> HttpResponse:
    """Campaign table (public): LP, CP, Moments, Favours and the title race."""
    campaign = _campaign(slug)
    rows = selectors.campaign_rows(campaign)
    race = selectors.title_race(rows)
    fixed = selectors.fixed_titles(campaign) if campaign.is_over else None
    is_organiser = _is_organiser(request, campaign)
    me = coach_for(request.user)
    table = CampaignTable(
        rows,
        league=campaign.season.league,
        can_open=lambda coach_id: is_organiser or (me is not None and me.pk == coach_id),
    )
    RequestConfig(request, paginate=False).configure(table)
    context = {
        "campaign": campaign,
        "league": campaign.season.league,
        "season": campaign.season,
        "table": table,
        "race": [(label, *race[value]) for value, label in Title.Name.choices],
        "fixed": [(label, fixed[value]) for value, label in Title.Name.choices] if fixed is not None else None,
        "is_organiser": is_organiser,
        # The Final Day button says why it cannot be pressed yet.
        "final_day_refusal": titles.final_day_refusal(campaign) if is_organiser and not campaign.is_over else None,
    }
    return render(request, "campaigns/campaign_table.html", context)


def campaign_json(request: HttpRequest, slug: str) -> JsonResponse:
    return JsonResponse(selectors.campaign_feed(_campaign(slug)))


# A coach's campaign page ------------------------------------------------------------------


def _coach_page_viewer(request: HttpRequest, seen, slug: str, coach_id: int) -> str | None:
    """The coach's campaign page is the same for the coach and for every organiser,
    kept for each; a 404 (another game, no season) or a 403 is built as usual."""
    seasons = seen.rows
    if not seasons or seasons[0][3] != "guildball":  # as ``_campaign``
        return None
    organises = seasons[0][4]
    coach = coach_for(request.user)
    is_owner, is_organiser = coach is not None and coach.pk == coach_id, request.user.is_superuser or organises
    if not (is_owner or is_organiser):
        return None  # a 403, or a 404 for a coach not in the campaign
    return f"{int(is_owner)}:{int(is_organiser)}"


@login_required
@pages.kept_page(pages.league_seasons, _coach_page_viewer)
def coach_page(request: HttpRequest, slug: str, coach_id: int) -> HttpResponse:
    """A coach's campaign page, for that coach and the Longshanks. Kept per version
    of the season, coach, kind of viewer and day (league/caching/pages.py): what it
    shows and its unbound forms change with nothing else; the seasons' versions,
    whether the viewer organises the league and their coach are one query."""
    campaign = _campaign(slug)
    found = selectors.find_coach(campaign, coach_id)
    if found is None:
        raise Http404("That coach is not in this campaign.")
    cc, joining = found
    is_owner, is_organiser = _may_view(request, campaign, cc)
    return _render_coach_page(request, campaign, cc, is_owner=is_owner, is_organiser=is_organiser, joining=joining)


def _render_coach_page(
    request: HttpRequest,
    campaign: Campaign,
    cc: CampaignCoach,
    *,
    is_owner: bool,
    is_organiser: bool,
    joining=None,
    bound: dict | None = None,
    status: int = 200,
) -> HttpResponse:
    bound = bound or {}
    if joining is None and cc.pk is not None:
        # What the page shows is the same for every viewer and changes
        # only with the season's version (every campaign row is tracked) or the day
        # (the phase): kept per version, coach and day; the forms are the viewer's.
        page = pages.fragment(campaign.season, f"campaign-coach:{cc.pk}:{timezone.localdate():%Y-%m-%d}",
                              lambda: selectors.coach_page(campaign, cc))
    else:
        page = selectors.coach_page(campaign, cc, joining)
    start_unlock, pending, phase = page["start_unlock"], page["pending"], page["phase"]
    forms_ = {}
    # GB-26: no pick once the campaign is over; LG-2: nor once the coach has withdrawn.
    if is_owner and not campaign.is_over and cc.entry.withdrawn_at is None:
        if start_unlock is not None and start_unlock.picked_card is None:
            forms_["start"] = bound.get("start") or StartingPickForm(coach=cc)
        for u in pending:
            key = f"pick-{u.pk}"
            u.form = bound.get(key) or PickForm(options=moments.pick_options(cc, u.unlocks), prefix=key)
        if phase.is_open:
            forms_["sponsorship"] = bound.get("sponsorship") or SponsorshipForm()
            forms_["loan"] = bound.get("loan") or LoanForm(coach=cc)
            forms_["offer"] = bound.get("offer") or OfferForm(coach=cc)
    if is_organiser:
        forms_["adjust"] = bound.get("adjust") or AdjustForm()
    # A refusal whose form is not on the page any more (a starting pick already
    # made, a phase that closed) is shown at the top instead.
    shown = set(map(id, forms_.values())) | {id(getattr(u, "form", None)) for u in pending}
    errors = list(bound.get("errors", []))
    for key, form in bound.items():
        if hasattr(form, "non_field_errors") and id(form) not in shown:
            errors.extend(form.non_field_errors())
    context = {
        **page,
        "campaign": campaign,
        "league": campaign.season.league,
        "season": campaign.season,
        "cc": cc,
        "forms": forms_,
        "errors": errors,
        "is_owner": is_owner,
        "is_organiser": is_organiser,
        "tab": _tab_for(bound),
        "tabs": TABS,
    }
    return render(request, "campaigns/coach_page.html", context, status=status)


TABS = [("overview", "Overview"), ("picks", "Picks"), ("decks", "Decks"), ("dealing", "Dealing"), ("history", "History")]
_TAB_OF_FORM = {
    "start": "picks", "sponsorship": "dealing", "loan": "dealing", "offer": "dealing", "advancement": "dealing",
    "loans": "dealing", "offers": "dealing",
}


def _tab_for(bound: dict) -> str:
    """The section of the page opened first: the one holding a refused form, else
    the overview (the page's tabs are anchors; static/css/site.css)."""
    if "tab" in bound:
        return bound["tab"]
    for key in bound:
        if key.startswith("pick-"):
            return "picks"
        if key in _TAB_OF_FORM:
            return _TAB_OF_FORM[key]
    return "overview"


@dataclass(frozen=True)
class Ask:
    """What the confirmation step of a destructive one-click action
    asks. No script (the CSP forbids inline script): the first POST answers this
    page, whose button posts the same fields again with ``confirmed=yes``."""

    question: str
    detail: str
    button: str


CONFIRMED = "confirmed"


def confirmation(request: HttpRequest, league: League, season: Season, ask: Ask, *, back: str) -> HttpResponse:
    """The confirmation page: the question, what the action does, the same fields
    posted again with the confirmation, and the way back without doing it."""
    fields = [
        (name, value) for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", CONFIRMED) for value in values
    ]
    context = {"league": league, "season": season, "ask": ask, "fields": fields, "back": back,
               "confirmed": CONFIRMED, "is_organiser": league.is_organised_by(request.user)}
    return render(request, "campaigns/confirm.html", context)


def _coach_action(
    request: HttpRequest,
    slug: str,
    form_key: str,
    build_form: Callable[[CampaignCoach], object] | None,
    act: Callable[[CampaignCoach, object], str],
    *,
    organiser_for: int | None = None,
    ask: Callable[[CampaignCoach], Ask] | None = None,
) -> HttpResponse:
    """Run one coach-page action: the acting coach (or, with ``organiser_for``, the
    Longshanks acting on that coach), a bound form, the service. Refusals re-render
    the page with the message on that form and status 400, in the error style.

    With ``ask``, a POST without the confirmation answers the confirmation page
    (it cannot be undone); ``ask`` raises the service's ValidationError first when the
    action cannot go through, so nobody is asked about what would be refused. It
    runs in a transaction rolled back afterwards: the step writes nothing."""
    campaign = _campaign(slug)
    if organiser_for is not None:
        if not _is_organiser(request, campaign):
            raise PermissionDenied("Only the organiser of this league can do this.")
        cc = _coach_in(campaign, organiser_for)
        is_owner, is_organiser = cc.entry.coach.user_id == request.user.pk, True
    else:
        cc = _me(request, campaign)
        is_owner, is_organiser = True, _is_organiser(request, campaign)
    form = build_form(cc) if build_form else None
    if form is not None and not form.is_valid():
        return _render_coach_page(
            request, campaign, cc, is_owner=is_owner, is_organiser=is_organiser, bound={form_key: form}, status=400,
            joining=_joining_of(campaign, cc),
        )
    try:
        if ask is not None and request.POST.get(CONFIRMED) != "yes":
            with transaction.atomic():
                question = ask(_written(cc))
                transaction.set_rollback(True)
            back = reverse("campaigns:coach_page", args=[slug, cc.entry.coach_id]) + f"#tab-{_TAB_OF_FORM.get(form_key, 'overview')}"
            return confirmation(request, campaign.season.league, campaign.season, question, back=back)
        with transaction.atomic():
            done = act(_written(cc), form)
    except ValidationError as exc:
        bound: dict = {"errors": [_refused(exc)], "tab": _TAB_OF_FORM.get(form_key, "overview")}
        if form is not None:
            form.add_error(None, exc)
            bound = {form_key: form}
        return _render_coach_page(
            request, campaign, cc, is_owner=is_owner, is_organiser=is_organiser, bound=bound, status=400,
            joining=_joining_of(campaign, cc),
        )
    messages.success(request, done)
    return redirect(reverse("campaigns:coach_page", args=[slug, cc.entry.coach_id]))
