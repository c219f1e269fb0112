"""R1: the role matrix. Every URL pattern of the site has a row giving,
for each role, the status a GET and a POST answer; the test drives every row for
every game the URL serves and checks that nothing is written where no write is
allowed. A URL pattern without a row fails ``test_every_url_pattern_has_a_row``,
so a new page cannot slip past its access check.

The roles: anonymous, a coach who plays in no league (``nobody``), a coach of the
league who is not concerned (``wrong``: not in the fixture, not the team's
coach, not the coach of the page), the coach concerned (``right``), another
league's organiser (``rival``) and the league's organiser.

A POST carries no form data (the CSRF check is off in the test client, as in
every other test of the views): it proves who may reach the write, while the
fuzzing (tests/fuzz/) drives what the forms accept. "No write" is checked twice:
no INSERT, UPDATE or DELETE reaches the database during the request (outside the
session table: logging out ends a session), and every table has as many rows
after as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from campaigns.models import CardOffer, Loan, MomentUnlock
from league.dungeonbowl.models import Team
from league.models import Entry
from tests.support.world import GAMES, World, is_write, logged_in_clients, row_counts, world_in_transaction

ROLES = ("anonymous", "nobody", "wrong", "right", "rival", "organiser")

# URL namespaces left out, with the reason.
EXCLUDED_NAMESPACES = {
    # Django's own admin: its pages answer to staff with model permissions and are
    # scoped per organiser by league/admin/scoping.py (tested in tests/admin/test_organiser_admin.py).
    "admin": "Django's admin, tested in tests/admin/test_organiser_admin.py and tests/campaigns/test_admin.py",
}
# Patterns left out by name, with the reason.
EXCLUDED_NAMES: dict[str, str] = {}  # (the benchmark's bare view is mounted by bench/urls.py only)


@dataclass(frozen=True)
class Row:
    """Expected statuses for the six roles (in ROLES order) for a GET and a POST in
    the games the URL serves, and in the other games' leagues (``elsewhere``, for
    URLs of one game: they must refuse another game's league). ``writes`` names the
    roles whose POST may write: for some URLs a POST with no data is a complete
    request (confirming a report, buying a re-roll, logging out)."""

    get: tuple[int, ...]
    post: tuple[int, ...]
    games: tuple[str, ...] = tuple(GAMES)
    writes: tuple[str, ...] = ()
    elsewhere: tuple[tuple[int, ...], tuple[int, ...]] | None = None


def s(statuses: str) -> tuple[int, ...]:
    """"302 403 403 200 403 200" in ROLES order; a single number for all roles."""
    found = tuple(int(x) for x in statuses.split())
    return found * len(ROLES) if len(found) == 1 else found


GB, DB = ("guildball",), ("dungeonbowl",)
LOGGED_IN = ROLES[1:]
# A form's POST-only address: a GET goes back to its page (league/web/reload.py), and
# anonymous visitors are sent to log in.
POST_ONLY = "302"
# What a Guild Ball or Dungeon Bowl URL answers for another game's league.
NOT_THIS_GAME = (s("404"), s("404"))
NOT_THIS_GAME_LOGIN = (s("302 404 404 404 404 404"), s("302 404 404 404 404 404"))
NOT_THIS_GAME_ACTION = (s(POST_ONLY), s("302 404 404 404 404 404"))

MATRIX: dict[str, Row] = {
    # Site-wide pages.
    "health": Row(s("200"), s("405")),
    "rules": Row(s("200"), s("200")),
    # The service worker and the web app manifest, the same for everyone.
    "service_worker": Row(s("200"), s("405")),
    "manifest": Row(s("200"), s("405")),
    "login": Row(s("200"), s("200")),  # an empty form: "this field is required"
    # Where Discord sends the browser back: off in the matrix's world (no Discord
    # application set), so 404 for everyone. On, it needs the state of a log-in this
    # browser started: tests/accounts/test_discord_login.py drives it against a stand-in
    # Discord, every refusal a message on the log-in page.
    "discord_complete": Row(s("404"), s("405")),
    "logout": Row(s("405"), s("302"), writes=LOGGED_IN),  # ends the session
    "profile": Row(s("302 200 200 200 200 200"), s("302 400 400 400 400 400")),
    # Personal API tokens: a POST naming no action is refused (400), nothing written.
    "api_tokens": Row(s("302 200 200 200 200 200"), s("302 400 400 400 400 400")),
    # The API's result writes answer a personal token only (tests/api/ drive every
    # scope and role with tokens): a session's request has none, 401; a GET, 405.
    "api:api_report_result": Row(s("405"), s("401")),
    "api:api_confirm_result": Row(s("405"), s("401")),
    "api:api_dispute_result": Row(s("405"), s("401")),
    "api:api_approve_result": Row(s("405"), s("401")),
    # The league whole for a token that may organise (tests/api/test_export.py): a session is no token.
    "api:api_export_league": Row(s("401"), s("405")),
    "accept_invitation": Row(s("400"), s("400")),  # an unknown token
    "claim_place": Row(s("400"), s("400")),  # an unknown token
    "confirm_email": Row(s("400"), s("400")),  # an unknown token
    # Anyone signs up (logged in: on to where they were going); a POST
    # without data is a refused form. An unknown token: a clear 400 page.
    "signup": Row(s("200 302 302 302 302 302"), s("400 302 302 302 302 302")),
    "verify_email": Row(s("400"), s("400")),
    "league:join": Row(s("400"), s("400")),
    # Any account with a verified address may start a league; a POST naming no game
    # shows the games again.
    "league:new_league": Row(s("302 200 200 200 200 200"), s("302 200 200 200 200 200")),
    "password_reset": Row(s("200"), s("200")),
    "password_reset_done": Row(s("200"), s("405")),
    "password_reset_confirm": Row(s("200"), s("200")),  # an invalid link says so
    "password_reset_complete": Row(s("200"), s("405")),
    "password_change": Row(s("302 200 200 200 200 200"), s("302 200 200 200 200 200")),
    "password_change_done": Row(s("302 200 200 200 200 200"), s("302 405 405 405 405 405")),
    # The engine's public pages and feeds, for every game.
    "league:league_list": Row(s("200"), s("200")),
    "league:league_detail": Row(s("200"), s("200")),
    "league:fixtures": Row(s("200"), s("200")),
    "league:standings_json": Row(s("200"), s("200")),
    # A game's ratings across every league (RT-1..RT-4), the same for everyone.
    "ratings:ranking": Row(s("200"), s("405")),
    "ratings:feed": Row(s("200"), s("405")),
    "league:standings_csv": Row(s("200"), s("200")),
    # Leaderboards and records, a league's and a game's across the site: public, read only.
    "league:league_leaderboards": Row(s("200"), s("200")),
    "league:league_leaderboards_json": Row(s("200"), s("200")),
    "league:league_leaderboards_csv": Row(s("200"), s("200")),
    "league:league_records": Row(s("200"), s("200")),
    "league:game_leaderboards": Row(s("200"), s("200")),
    "league:game_leaderboards_json": Row(s("200"), s("200")),
    "league:game_leaderboards_csv": Row(s("200"), s("200")),
    "league:game_records": Row(s("200"), s("200")),
    "league:league_ics": Row(s("200"), s("200")),
    "league:coach_detail": Row(s("200"), s("200")),
    # A coach's profile across every league, and head-to-head: public (no email shown).
    "coach_profile": Row(s("200"), s("200")),
    "head_to_head": Row(s("200"), s("200")),
    "league:coach_ics": Row(s("200"), s("200")),
    "league:fixture_detail": Row(s("200"), s("200")),
    "league:my_fixtures": Row(s("302 200 200 200 200 200"), s("302 200 200 200 200 200")),
    # A merge request is its account holder's alone: anyone else, and an id of none, a 404
    # (tests/people/test_pages.py drives one waiting on the right coach).
    "league:merge_request": Row(s("302 404 404 404 404 404"), s("302 404 404 404 404 404")),
    # The organiser's pages: only this league's organiser.
    "league:organiser_dashboard": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 200")),
    "league:dashboard_approve": Row(s("302 403 403 403 403 302"), s("302 403 403 403 403 302")),
    # The season checklist's one-click steps: the demo seasons have their
    # fixtures and are not over, so the organiser's POST is refused with a message
    # (fixtures exist, divisions come before them, the season is still played) and
    # writes nothing.
    "league:checklist_fixtures": Row(s("302 403 403 403 403 302"), s("302 403 403 403 403 302")),
    "league:checklist_divisions": Row(s("302 403 403 403 403 302"), s("302 403 403 403 403 302")),
    "league:checklist_next_season": Row(s("302 403 403 403 403 302"), s("302 403 403 403 403 302")),
    # The season's set-up: a POST naming no action is refused (400).
    "league:season_setup": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 400")),
    "league:organiser_coaches": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 400")),
    "league:invite_coach": Row(s("302 403 403 403 403 302"), s("302 403 403 403 403 302")),
    "league:organiser_lockouts": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 200")),
    # The league's settings: a POST naming no section is refused (400), nothing written.
    "league:organiser_settings": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 400")),
    "league:organiser_events": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 400")),
    # The league taken away whole (a download): its organisers only; nothing to post.
    "league:organiser_export": Row(s("302 403 403 403 403 200"), s("302 405 405 405 405 405")),
    # The web import; a POST without a file is the form again, 400.
    "league:league_import": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 400")),
    # The right coach is not locked out: the organiser's POST says so and deletes nothing.
    "league:unlock_coach": Row(s("302 403 403 403 403 302"), s("302 403 403 403 403 302")),
    # The result workflow on a fixture whose report waits on the right coach.
    "league:report_result": Row(s(POST_ONLY), s("302 403 403 400 403 400")),  # already reported
    "league:confirm_result": Row(s(POST_ONLY), s("302 403 403 302 403 403"), writes=("right",)),
    # Changing or taking back a report: only its reporter (not a role here: the right
    # coach is the opponent, refused with the reason), never the organiser.
    "league:change_report": Row(s(POST_ONLY), s("302 403 403 400 403 403")),
    "league:withdraw_report": Row(s(POST_ONLY), s("302 403 403 400 403 403")),
    "league:dispute_result": Row(s(POST_ONLY), s("302 403 403 400 403 400")),  # a dispute needs its reason
    "league:approve_result": Row(s(POST_ONLY), s("302 403 403 403 403 400")),  # unconfirmed: needs a reason
    "league:record_result": Row(s(POST_ONLY), s("302 403 403 403 403 400")),
    "league:rearrange_fixture": Row(s(POST_ONLY), s("302 403 403 403 403 400")),
    "league:reopen_result": Row(s(POST_ONLY), s("302 403 403 403 403 400")),
    # Settling a dispute: the organiser's; this fixture is not disputed, so back to
    # its page with a message and nothing written.
    "league:settle_dispute": Row(s(POST_ONLY), s("302 403 403 403 403 302")),
    # The Big League (Guild Ball only); the right coach is Ada, who has a Moment
    # card to pick, an offer and a loan request to answer.
    "campaigns:campaign_table": Row(s("200"), s("200"), GB, elsewhere=NOT_THIS_GAME),
    "campaigns:campaign_json": Row(s("200"), s("200"), GB, elsewhere=NOT_THIS_GAME),
    # The read API (/api/v1/, league/api): the same answer for everyone, read-only
    # (a POST is 405); a game's endpoints refuse another game's league (404).
    "api_docs": Row(s("200"), s("405")),
    "api:api-root": Row(s("404"), s("404")),
    "api:openapi-json": Row(s("200"), s("405")),
    **{f"api:{name}": Row(s("200"), s("405")) for name in (
        "leagues", "league", "seasons", "divisions", "standings", "rounds", "fixtures", "results", "coaches", "coach",
        "coach_results", "ranking", "profile", "league_leaderboards", "game_leaderboards", "records")},
    **{f"api:dungeonbowl_{name}": Row(s("200"), s("405"), DB, elsewhere=(s("404"), s("405"))) for name in (
        "teams", "roster", "treasury", "playoffs")},
    "api:dreadball_teams": Row(s("200"), s("405"), ("dreadball",), elsewhere=(s("404"), s("405"))),
    "api:bigleague_campaign": Row(s("200"), s("405"), GB, elsewhere=(s("404"), s("405"))),
    # The test fourth game's endpoint: the world has no Ringball league, so every
    # league of it refuses; tests/test_fourth_game.py asks a Ringball league's.
    "api:ringball_crews": Row(s("404"), s("405"), (), elsewhere=(s("404"), s("405"))),
    "campaigns:coach_page": Row(s("302 403 403 200 403 200"), s("302 403 403 200 403 200"), GB,
                                elsewhere=NOT_THIS_GAME_LOGIN),
    "campaigns:fixture_page": Row(s("302 403 403 200 403 200"), s("302 403 403 200 403 200"), GB,
                                  elsewhere=NOT_THIS_GAME_LOGIN),
    "campaigns:adjust": Row(s(POST_ONLY), s("302 403 403 403 403 400"), GB, elsewhere=NOT_THIS_GAME_ACTION),
    "campaigns:confirm_unlock": Row(s(POST_ONLY), s("302 403 403 403 403 400"), GB, elsewhere=NOT_THIS_GAME_ACTION),
    "campaigns:declare_final_day": Row(s(POST_ONLY), s("302 403 403 403 403 302"), GB,  # unticked: nothing declared
                                       elsewhere=NOT_THIS_GAME_ACTION),
    "campaigns:start_pick": Row(s(POST_ONLY), s("302 403 400 400 403 403"), GB, elsewhere=NOT_THIS_GAME_ACTION),
    "campaigns:pick": Row(s(POST_ONLY), s("302 403 404 400 403 403"), GB, elsewhere=NOT_THIS_GAME_ACTION),
    "campaigns:buy_sponsorship": Row(s(POST_ONLY), s("302 403 400 400 403 403"), GB, elsewhere=NOT_THIS_GAME_ACTION),
    "campaigns:buy_advancement": Row(s(POST_ONLY), s("302 403 400 400 403 403"), GB, elsewhere=NOT_THIS_GAME_ACTION),
    "campaigns:request_loan": Row(s(POST_ONLY), s("302 403 400 400 403 403"), GB, elsewhere=NOT_THIS_GAME_ACTION),
    "campaigns:answer_loan": Row(s(POST_ONLY), s("302 403 404 400 403 403"), GB, elsewhere=NOT_THIS_GAME_ACTION),
    "campaigns:make_offer": Row(s(POST_ONLY), s("302 403 400 400 403 403"), GB, elsewhere=NOT_THIS_GAME_ACTION),
    "campaigns:answer_offer": Row(s(POST_ONLY), s("302 403 404 400 403 403"), GB, elsewhere=NOT_THIS_GAME_ACTION),
    "campaigns:register_deck": Row(s(POST_ONLY), s("302 403 403 400 403 403"), GB, elsewhere=NOT_THIS_GAME_ACTION),
    # No card ticked is a complete answer: "none achieved".
    "campaigns:record_achievements": Row(s(POST_ONLY), s("302 403 403 302 403 403"), GB, writes=("right",),
                                         elsewhere=NOT_THIS_GAME_ACTION),
    # Dungeon Bowl only; the right coach owns the team.
    "dungeonbowl:team_detail": Row(s("200"), s("200"), DB, elsewhere=NOT_THIS_GAME),
    "dungeonbowl:team_json": Row(s("200"), s("200"), DB, elsewhere=NOT_THIS_GAME),
    "dungeonbowl:dice_log": Row(s("200"), s("200"), DB, elsewhere=NOT_THIS_GAME),
    # Any coach may draft a team; the organiser may look at the form but drafts for nobody.
    "dungeonbowl:draft": Row(s("302 200 200 200 403 200"), s("302 200 200 200 403 403"), DB,
                             elsewhere=NOT_THIS_GAME_LOGIN),
    "dungeonbowl:create_team": Row(s("302 200 200 200 403 403"), s("302 200 200 200 403 403"), DB,
                                   elsewhere=NOT_THIS_GAME_LOGIN),
    # The live league's drafts are not locked yet: the organiser's empty POST locks one.
    "dungeonbowl:lock_draft": Row(s(POST_ONLY), s("302 403 403 403 403 302"), DB, writes=("organiser",),
                                  elsewhere=NOT_THIS_GAME_ACTION),
    # The right coach's team is accepted already: accepting or refusing it changes nothing (DB-1).
    "dungeonbowl:accept_team": Row(s(POST_ONLY), s("302 403 403 403 403 302"), DB, elsewhere=NOT_THIS_GAME_ACTION),
    "dungeonbowl:refuse_team": Row(s(POST_ONLY), s("302 403 403 403 403 302"), DB, elsewhere=NOT_THIS_GAME_ACTION),
    "dungeonbowl:enter_team": Row(s(POST_ONLY), s("302 403 403 403 403 302"), DB, elsewhere=NOT_THIS_GAME_ACTION),
    # A re-roll needs no choice: the empty POST buys one (DB-12).
    "dungeonbowl:buy_reroll": Row(s(POST_ONLY), s("302 403 403 302 403 302"), DB, writes=("right", "organiser"),
                                  elsewhere=NOT_THIS_GAME_ACTION),
    "dungeonbowl:hire_player": Row(s(POST_ONLY), s("302 403 403 302 403 302"), DB, elsewhere=NOT_THIS_GAME_ACTION),
    "dungeonbowl:fire_player": Row(s(POST_ONLY), s("302 403 403 302 403 302"), DB, elsewhere=NOT_THIS_GAME_ACTION),
    # Play-offs (DB-5b): the commissioner's page; the regular season is still under
    # way, so settling a tie or starting them does nothing yet. For another game's
    # league only its organiser learns there are no play-offs there.
    "dungeonbowl:playoffs": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 200"), DB,
                                elsewhere=(s("302 403 403 403 403 404"), s("302 403 403 403 403 404"))),
    "dungeonbowl:settle_tie": Row(s(POST_ONLY), s("302 403 403 403 403 302"), DB,
                                  elsewhere=(s(POST_ONLY), s("302 403 403 403 403 404"))),
    "dungeonbowl:start_playoffs": Row(s(POST_ONLY), s("302 403 403 403 403 302"), DB,
                                      elsewhere=(s(POST_ONLY), s("302 403 403 403 403 404"))),
    "dungeonbowl:playoffs_json": Row(s("200"), s("200"), DB, elsewhere=NOT_THIS_GAME),
    # The off-season (DB-15), a public page; the live league is mid-season, so a POST
    # naming no step goes back to the page with the reason.
    "dungeonbowl:redraft": Row(s("200"), s("302 403 403 302 403 302"), DB,
                               elsewhere=NOT_THIS_GAME),
    # An empty POST is a refused form: 400 with its errors.
    "dungeonbowl:next_season": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 400"), DB,
                                   elsewhere=NOT_THIS_GAME_LOGIN),
    # DB-5a: the commissioner adds a friendly (an empty POST is a form error); another
    # game has no friendlies, which only its organiser learns.
    "league:add_friendly": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 400"), DB,
                               elsewhere=(s("302 403 403 403 403 404"), s("302 403 403 403 403 404"))),
    "dungeonbowl:advance_player": Row(s(POST_ONLY), s("302 403 403 302 403 302"), DB, elsewhere=NOT_THIS_GAME_ACTION),
    # DB-12: an empty POST is a refused form, the team page again with its errors.
    "dungeonbowl:hire_journeyman": Row(s(POST_ONLY), s("302 403 403 400 403 400"), DB, elsewhere=NOT_THIS_GAME_ACTION),
    # The commissioner's "Teams and drafts" page and its two one-click
    # steps (the live league's drafts are not locked yet: locking them writes).
    "dungeonbowl:entrants": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 200"), DB,
                                elsewhere=NOT_THIS_GAME_LOGIN),
    "dungeonbowl:lock_drafts": Row(s(POST_ONLY), s("302 403 403 403 403 302"), DB, writes=("organiser",),
                                   elsewhere=NOT_THIS_GAME_ACTION),
    "dungeonbowl:enter_ready": Row(s(POST_ONLY), s("302 403 403 403 403 302"), DB, writes=("organiser",),
                                   elsewhere=NOT_THIS_GAME_ACTION),
    # LG-1: answering a join link's request from the dashboard: only the league's
    # organiser; a GET goes back to the dashboard, and the demo league has no such
    # request (another league's, or none), so the organiser's POST is a 404.
    "league:answer_join_request": Row(s("302 403 403 403 403 302"), s("302 403 403 403 403 404")),
    # LG-2: withdrawing the right coach's entry; the organiser's first POST only
    # shows the confirmation page, so nothing is written.
    "league:withdraw_entry": Row(s("302 403 403 403 403 302"), s("302 403 403 403 403 200")),
    # DR-5: every coach of the season registers their own team (the wrong coach
    # too: their own); the organiser registers anyone's. An empty POST is a form error.
    "dreadball:register_team": Row(s("302 403 200 200 403 200"), s("302 403 400 400 403 400"), ("dreadball",),
                                   elsewhere=NOT_THIS_GAME_LOGIN),
    # DB-6, DB-7: the league's own colleges, its organiser's page; an empty POST
    # names no action (400).
    "dungeonbowl:league_colleges": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 400"), DB,
                                       elsewhere=(s("302 403 403 403 403 404"), s("302 403 403 403 403 404"))),
    # DB-11: the league's own skills, its organiser's page; an empty POST is the
    # add form without a name (400).
    "dungeonbowl:league_skills": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 400"), DB,
                                     elsewhere=(s("302 403 403 403 403 404"), s("302 403 403 403 403 404"))),
    # DR-5: the league's own published teams, its organiser's page; an empty POST
    # names no action (400). In another game's league only its organiser learns
    # there are none.
    "dreadball:published_teams": Row(s("302 403 403 403 403 200"), s("302 403 403 403 403 400"), ("dreadball",),
                                     elsewhere=(s("302 403 403 403 403 404"), s("302 403 403 403 403 404"))),
}


def _resolver_patterns(resolver=None, namespace: str = "", prefix: str = "") -> list[tuple[str, str, list[str]]]:
    """(name with namespace, route, parameter names) of every named pattern, walking
    included URLconfs; excluded namespaces are skipped."""
    resolver = resolver or get_resolver()
    found = []
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            ns = p.namespace or ""
            if ns in EXCLUDED_NAMESPACES:
                continue
            full = f"{namespace}:{ns}" if namespace and ns else (ns or namespace)
            found += _resolver_patterns(p, full, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            if p.name is None:
                found.append(("", prefix + str(p.pattern), []))
                continue
            name = f"{namespace}:{p.name}" if namespace else p.name
            route = prefix + str(p.pattern)
            found.append((name, route, re.findall(r"<(?:\w+:)?(\w+)>", route)))
    return found


def url_patterns() -> list[tuple[str, str, list[str]]]:
    return [(n, r, a) for n, r, a in _resolver_patterns() if n.split(":")[-1] not in EXCLUDED_NAMES]


def url_kwargs(world: World, game: str, params: list[str]) -> dict:
    """The URL's parameters in ``game``: its demo league, the coach concerned and
    their fixture, team, latest Moment, the loan and the offer waiting on them."""
    g = world.games[game]
    mine = {"entry__coach": g.right}
    values = {
        "slug": g.league.slug,
        "game": game,
        "coach_id": g.right.pk,
        # The right coach's opponent in the fixture: a pair that has met.
        "other_id": g.fixture.away.coach_id if g.fixture.home.coach_id == g.right.pk else g.fixture.home.coach_id,
        "pk": g.fixture.pk,
        "fixture_id": g.fixture.pk,
        "token": "not-an-invitation",
        "uidb64": "MQ",
        # Ids of rows the right coach does not have in this game: the view must
        # answer for the league, not the id.
        "team_slug": "no-such-team",
        "unlock_id": 999999,
        "loan_id": 999999,
        "offer_id": 999999,
        "request_id": 999999,
        "merge_id": 999999,
        "entry_id": Entry.objects.filter(season__league=g.league, coach=g.right)
        .order_by("-season__start_date", "-season_id").values_list("pk", flat=True).first() or 999999,
    }
    team = Team.objects.filter(league=g.league, coach=g.right).first()
    if team:
        values["team_slug"] = team.slug
    ids = {
        "unlock_id": MomentUnlock.objects.filter(**{f"coach__{k}": v for k, v in mine.items()}).order_by("-threshold"),
        "loan_id": Loan.objects.filter(status="pending", **{f"lender__{k}": v for k, v in mine.items()}),
        "offer_id": CardOffer.objects.filter(status="pending", **{f"recipient__{k}": v for k, v in mine.items()}),
    }
    for param, queryset in ids.items():
        pk = queryset.values_list("pk", flat=True).first()
        if pk:
            values[param] = pk
    return {p: values[p] for p in params}


def drive(client: Client, method: str, url: str) -> tuple[int, list[str], bool]:
    """(status, write statements, whether any table's row count changed), in a
    savepoint rolled back afterwards so the next role finds the world unchanged."""
    with transaction.atomic():
        before = row_counts()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url) if method == "GET" else client.post(url)
        writes = [q["sql"][:160] for q in queries.captured_queries if is_write(q["sql"])]
        changed = row_counts() != before
        transaction.set_rollback(True)
    return response.status_code, writes, changed


def missing_rows(patterns: list[tuple[str, str, list[str]]]) -> list[str]:
    """Patterns without a row (an unnamed pattern counts as missing: name it)."""
    return sorted(f"{name or '(unnamed)'} {route}" for name, route, _ in patterns if name not in MATRIX)


# The tests --------------------------------------------------------------------


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with world_in_transaction(django_db_blocker) as built:
        yield built


@pytest.fixture(scope="module")
def clients(world, django_db_blocker) -> dict[tuple[str, str], Client]:
    """A client per game and role, logged in once (inside the world's transaction)."""

    def users(w, game):
        g = w.games[game]
        return {"anonymous": None, "nobody": w.nobody, "wrong": g.wrong.user, "right": g.right.user,
                "rival": w.rival, "organiser": w.organiser}

    with django_db_blocker.unblock():
        return logged_in_clients(world, users)


def test_every_url_pattern_has_a_row():
    missing = missing_rows(url_patterns())
    assert not missing, f"URL patterns without a row in the role matrix (tests/test_role_matrix.py): {missing}"
    stale = sorted(set(MATRIX) - {name for name, _, _ in url_patterns()})
    assert not stale, f"rows for URL patterns that no longer exist: {stale}"


def test_a_new_url_without_a_row_is_reported():
    """The coverage check sees a pattern added anywhere, however deeply included."""
    from django.http import HttpResponse
    from django.urls import include, path
    from django.urls.resolvers import RegexPattern

    def view(request):
        return HttpResponse()

    nested = ([path("deeper/<int:pk>/", view, name="new_page")], "newapp")
    resolver = URLResolver(RegexPattern(r"^/"), [*get_resolver().url_patterns, path("x/", include(nested))])
    assert missing_rows(_resolver_patterns(resolver)) == ["newapp:new_page x/deeper/<int:pk>/"]


def test_rows_give_a_status_for_every_role():
    for name, row in MATRIX.items():
        for statuses in (row.get, row.post, *(row.elsewhere or ())):
            assert len(statuses) == len(ROLES), name
        assert set(row.writes) <= set(ROLES), name
        assert set(row.games) <= set(GAMES), name


CASES = [
    pytest.param(name, game, id=f"{name}-{game}")
    for name, row in MATRIX.items()
    for game in GAMES
    if game in row.games or row.elsewhere is not None
]


@pytest.mark.django_db
@pytest.mark.parametrize("name,game", CASES)
def test_role_matrix(name, game, world, clients):
    row = MATRIX[name]
    params = next(params for n, _, params in url_patterns() if n == name)
    url = reverse(name, kwargs=url_kwargs(world, game, params))
    get, post = (row.get, row.post) if game in row.games else row.elsewhere
    seen, wrong_writes = {}, []
    for method, expected in (("GET", get), ("POST", post)):
        for role, status in zip(ROLES, expected):
            # Logging out ends the shared client's session: use a fresh one for it.
            client = clients[game, role]
            if name == "logout" and role != "anonymous":
                client = Client()
                client.force_login(user_of(world, game, role))
            got, writes, changed = drive(client, method, url)
            seen[method, role] = got
            may_write = method == "POST" and role in row.writes and got < 400
            if (writes or changed) and not may_write:
                wrong_writes.append((method, role, writes or "row counts changed"))
    expected_all = {(m, r): st for m, sts in (("GET", get), ("POST", post)) for r, st in zip(ROLES, sts)}
    differences = {k: f"expected {expected_all[k]}, got {v}" for k, v in seen.items() if v != expected_all[k]}
    assert not differences, f"{url}: {differences}"
    assert not wrong_writes, f"{url}: wrote where no write is allowed: {wrong_writes}"


def user_of(world: World, game: str, role: str):
    g = world.games[game]
    return {"anonymous": None, "nobody": world.nobody, "wrong": g.wrong.user, "right": g.right.user,
            "rival": world.rival, "organiser": world.organiser}[role]
