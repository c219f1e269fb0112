"""The Big League as a layer on Guild Ball leagues: what ``CampaignsConfig.ready()``
registers with the engine (``league.layers``). The engine never imports this app;
it calls what is listed here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template.loader import render_to_string

from campaigns import demo, guards, imports, ledgers, notices, selectors, setup, waiting
from campaigns.models import Title
from league.layers import ImportColumns, Layer

GAME_SYSTEMS = frozenset({"guildball"})


def league_panel(context: Mapping[str, Any]) -> str:
    """The league page: the titles once the Final Day is declared (GB-26), otherwise
    who leads each title race (GB-3), and the way to the campaign table. Reuses the
    page's standings: four queries."""
    season = context.get("season")
    if season is None:
        return ""
    campaign = selectors.campaign_of(season)
    if campaign.is_over:
        holders = selectors.fixed_titles(campaign)
    else:
        rows = selectors.campaign_rows(campaign, standings=context.get("standings"))
        holders = {t: names for t, (names, _) in selectors.title_race(rows).items()}
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
    """A coach's home: what waits on them in their campaigns (campaigns/waiting.py,
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


def organiser_panel(context: Mapping[str, Any]) -> str:
    """The organiser's dashboard: Moments waiting for the Longshanks (GB-13), each
    with its confirm button. Six queries."""
    season = context.get("season")
    if season is None:
        return ""
    campaign = selectors.campaign_of(season)
    return render_to_string(
        "campaigns/panels/organiser_dashboard.html",
        {"league": context["league"], "unlocks": selectors.moments_to_confirm(campaign)},
        request=context.get("request"),
    )


LAYER = Layer(
    name="The Big League",
    app_label="campaigns",
    game_systems=GAME_SYSTEMS,
    result_approved=ledgers.on_result_approved,
    result_withdrawn=ledgers.on_result_withdrawn,
    results_imported=ledgers.derive_season,
    correction_warnings=ledgers.correction_warnings,
    lock_sides=guards.lock_fixture_sides,
    season_started=setup.ensure_campaign,
    import_columns=ImportColumns(columns=imports.COLUMNS, parse=imports.parse_cp, apply=imports.apply_cp,
                                 apply_all=imports.apply_cp_in_bulk),
    panels={
        "league_detail": league_panel,
        "fixture_detail": fixture_panel,
        "coach_detail": coach_panel,
        "my_fixtures": my_fixtures_panel,
        "organiser_dashboard": organiser_panel,
    },
    demo=demo.load,
    demo_accounts=demo.demo_accounts,
    notification_kinds=notices.KINDS,
    organiser_counts=waiting.moments_to_confirm_counts,
)
