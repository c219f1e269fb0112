"""The Big League as a layer on Guild Ball leagues: its hooks, panels and demo, the
``Layer`` its declaration carries (campaigns/game.py, read by ``league.layers``).
The engine never imports this app; it calls what is listed here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.paginator import Paginator
from django.template.loader import render_to_string
from django.urls import reverse

from campaigns import demo, guards, notices, selectors, setup
from campaigns.dealing import cancelling
from campaigns.decks import services as decks
from campaigns.ledgers import imports
from campaigns.ledgers import services as ledgers
from campaigns.web import waiting
from campaigns.models import Campaign, Title
from league.caching import pages
from league.web.checklist import Item
from league.layers import ImportColumns, Layer
from league.standings.season import standings_for

GAME_SYSTEMS = frozenset({"guildball"})


def league_panel(context: Mapping[str, Any]) -> str:
    """The league page: the titles once the Final Day is declared (GB-26), otherwise
    who leads each title race (GB-3), and the way to the campaign table. Reuses the
    page's standings: three queries."""
    season = context.get("season")
    if season is None:
        return ""
    campaign = selectors.campaign_of(season)
    if campaign.is_over:
        holders = selectors.fixed_titles(campaign)
    else:
        standings = context.get("standings")
        if standings is None:
            standings = standings_for(season)
        holders = {t: names for t, (names, _) in selectors.title_race_of(campaign, standings).items()}
    return render_to_string(
        "campaigns/panels/league_detail.html",
        {
            "campaign": campaign,
            "season": season,
            "titles": [(label, holders.get(value, [])) for value, label in Title.Name.choices],
        },
    )


def fixture_panel(context: Mapping[str, Any]) -> str:
    """The fixture page: the way to the match's Big League page (no query)."""
    return render_to_string("campaigns/panels/fixture_detail.html", {"league": context["league"], "fixture": context["fixture"]})


def coach_panel(context: Mapping[str, Any]) -> str:
    """A coach's league page: the campaign table, and the coach's own campaign page
    for that coach (no query)."""
    return render_to_string(
        "campaigns/panels/coach_detail.html",
        {"league": context["league"], "entry": context["entry"], "user": context.get("user")},
    )


def my_fixtures_panel(context: Mapping[str, Any]) -> str:
    """A coach's home: what waits on them in their campaigns (campaigns/web/waiting.py,
    six queries) and their campaign page in each of their Guild Ball leagues."""
    leagues = [league for league in context.get("leagues") or () if league.game_system in GAME_SYSTEMS]
    if not context.get("coach") or not leagues:
        return ""
    return render_to_string(
        "campaigns/panels/my_fixtures.html",
        {
            "leagues": leagues,
            "coach": context["coach"],
            "waiting": waiting.waiting_on(context["coach"], context.get("fixtures") or ()),
        },
    )


MOMENTS_PER_PAGE = 10
TRADES_PER_PAGE = 10


def _asked_page(request, name: str) -> int:
    asked = request.GET.get(name) if request is not None else None
    return int(asked) if asked and asked.isdigit() and len(asked) < 6 else 1


def organiser_panel(context: Mapping[str, Any]) -> str:
    """The organiser's dashboard: the Moments waiting for the Longshanks (GB-13),
    how many, and a page of them (``?moments=`` its number), each with its
    confirm button; then the card sales and swaps the coaches agreed, newest
    first (GB-1, GB-23: every one is notified to the Longshanks), a page at a time
    (``?trades=``). Three queries whatever the campaign's size, once per version
    of the season and page (a confirmation or an accepted offer bumps it)."""
    season = context.get("season")
    if season is None:
        return ""
    request = context.get("request")
    number = _asked_page(request, "moments")

    def page() -> tuple[int, int, list[dict]]:
        lines = Paginator(
            selectors.moments_waiting([season.pk]).values(
                "pk", "name", "threshold", "coach__entry__coach_id", "coach__entry__coach__name"),
            MOMENTS_PER_PAGE,
        ).get_page(number)
        return lines.paginator.count, lines.number, list(lines.object_list)

    count, number, unlocks = pages.fragment(season, f"moments-waiting:{number}", page)
    last = max(1, -(-count // MOMENTS_PER_PAGE))
    return render_to_string(
        "campaigns/panels/organiser_dashboard.html",
        {"league": context["league"], "unlocks": unlocks, "count": count, "number": number, "last": last,
         "first_shown": (number - 1) * MOMENTS_PER_PAGE + 1, "last_shown": (number - 1) * MOMENTS_PER_PAGE + len(unlocks),
         "previous": number - 1 if number > 1 else None, "next": number + 1 if number < last else None,
         "trades": _trades_page(season, _asked_page(request, "trades"))},
        request=request,
    )


def _trades_page(season, number: int) -> dict[str, Any]:
    """A page of the season's card sales and swaps (GB-23) for the dashboard; a
    page past the last shows the last."""

    def page() -> tuple[int, int, list]:
        found, shown = number, TRADES_PER_PAGE
        count, lines = selectors.card_trades([season.pk], first=(found - 1) * shown, size=shown)
        if not lines and count:
            found = -(-count // shown)
            count, lines = selectors.card_trades([season.pk], first=(found - 1) * shown, size=shown)
        return count, found, lines

    count, number, lines = pages.fragment(season, f"card-trades:{number}", page)
    last = max(1, -(-count // TRADES_PER_PAGE))
    return {"lines": lines, "count": count, "first_shown": (number - 1) * TRADES_PER_PAGE + 1,
            "last_shown": (number - 1) * TRADES_PER_PAGE + len(lines), "last": last,
            "previous": number - 1 if number > 1 else None, "next": number + 1 if number < last else None}


def final_day_checklist(states) -> dict[int, list[Item]]:
    """The season checklist (league/web/checklist.py): once every League Match of a
    season has its approved result, the Final Day waits to be declared (GB-26).
    One query, only when such a season is in ``states``."""
    over = {state.season.pk: state for state in states if state.regular_over}
    if not over:
        return {}
    declared = set(
        Campaign.objects.filter(season__in=over, final_day_declared_at__isnull=False).values_list("season", flat=True)
    )
    return {
        pk: [Item("final_day", "Every League Match is played: the Final Day is not declared yet.",
                  reverse("campaigns:declare_final_day", args=[state.league.slug]), "Declare the Final Day",
                  post=True, rule="GB-26")]
        for pk, state in over.items() if pk not in declared
    }


LAYER = Layer(
    name="The Big League",
    app_label="campaigns",
    game_systems=GAME_SYSTEMS,
    result_approved=ledgers.on_result_approved,
    result_withdrawn=ledgers.on_result_withdrawn,
    report_taken_back=decks.report_taken_back,
    results_imported=ledgers.derive_season,
    correction_warnings=ledgers.correction_warnings,
    lock_sides=guards.lock_fixture_sides,
    season_started=lambda season, *, by: setup.ensure_campaign(season),  # the season's rows, whoever starts it
    held_by_fixtures=cancelling.held_by_fixtures,
    release_fixtures=cancelling.release_fixtures,
    import_columns=ImportColumns(columns=imports.COLUMNS, parse=imports.parse_cp, apply=imports.apply_cp,
                                 apply_all=imports.apply_cp_in_bulk),
    panels={
        "league_detail": league_panel,
        "fixture_detail": fixture_panel,
        "coach_detail": coach_panel,
        "my_fixtures": my_fixtures_panel,
        "organiser_dashboard": organiser_panel,
    },
    team_name=setup.guild_name,
    demo=demo.load,
    demo_accounts=demo.demo_accounts,
    notification_kinds=notices.KINDS,
    organiser_counts=waiting.moments_to_confirm_counts,
    checklist=final_day_checklist,
    # What waits on a coach in their campaigns: every row it reads bumps their
    # season; the fixture page's link to the match's Big League page reads none.
    kept_panels=frozenset({"my_fixtures", "fixture_detail"}),
)
