"""A page or form of one game cites only its own game's rule ids and the engine's
LG- ids: every page reachable from a league's pages, crawled as its organiser and
as one of its coaches, for a league of each game in play (the demo world: a
season with fixtures and results) and a new one (a season with no fixtures yet,
where the set-up page, the checklist and the new-league form speak of fixtures,
cadence and divisions)."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from league import rules
from league.rules import rulebook
from league.rules.base import TOPICS
from tests.support.world import GAMES, Game, World, world_in_transaction

# The ids a game's pages must not show: every other game's.
FOREIGN = {
    "guildball": ("DB-", "DR-"),
    "dungeonbowl": ("GB-", "DR-"),
    "dreadball": ("GB-", "DB-"),
}
FAMILY = {"guildball": "GB", "dungeonbowl": "DB", "dreadball": "DR"}
PAGES_PER_CRAWL = 250
NOT_PAGES = (".ics", ".csv", ".json")


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.hrefs.extend(value for name, value in attrs if name == "href" and value)


def links(page: str, base: str) -> list[str]:
    parser = _Links()
    parser.feed(page)
    return [urljoin(base, href) for href in parser.hrefs]


def crawl(client: Client, starts: list[str], slugs: set[str]) -> dict[str, str]:
    """Every page reachable from ``starts`` through links that stay in the leagues
    ``slugs`` and their fixtures (the site's other pages belong to no game: the
    /rules/ page lists them all), at most ``PAGES_PER_CRAWL``: {address: text}."""
    inside = re.compile(r"^/(leagues/(%s)/|fixtures/\d+/)" % "|".join(map(re.escape, sorted(slugs))))
    seen, queue, pages = set(starts), deque(starts), {}
    while queue and len(pages) < PAGES_PER_CRAWL:
        address = queue.popleft()
        response = client.get(address)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        text = response.content.decode()
        pages[address] = text
        for link in links(text, address):
            parts = urlsplit(link)
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            if parts.netloc or not inside.match(parts.path) or parts.path.endswith(NOT_PAGES) or path in seen:
                continue
            seen.add(path)
            queue.append(path)
    return pages


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with world_in_transaction(django_db_blocker) as built:
        yield built


def new_league(client: Client, game: str) -> str:
    """A league of ``game`` made through the new-league form, its first season
    without entrants or fixtures: its slug."""
    page = client.get(reverse("league:new_league"), {"game": game})
    assert page.status_code == 200
    settings = {name: value for name, value in _form_defaults(page.content.decode()).items() if name.startswith("settings-")}
    response = client.post(reverse("league:new_league"), {
        "game": game, "name": f"New {game} league", "season_name": "Season 1", "start_date": "2026-09-07",
        "cadence_days": 7, "double_round_robin": "single", **settings,
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    return response["Location"].split("/")[2]


def _form_defaults(page: str) -> dict[str, str]:
    """The values a form's inputs and checked boxes start with (the game's settings
    at the rulebook's defaults)."""
    found: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if name is None or (kind and kind.group(1) in ("checkbox", "radio") and "checked" not in tag):
            continue
        found[name.group(1)] = value.group(1) if value else ""
    for name, chosen in re.findall(r'<select name="([^"]+)".*?<option value="([^"]*)"[^>]*selected', page, flags=re.S):
        found[name] = chosen
    return found


@dataclass
class Crawled:
    organiser: Client
    played: Game
    fresh: str  # the slug of a new league of the game, its season without fixtures
    pages: dict[str, dict[str, str]]  # role: {address: text}


def crawl_a_games_leagues(world: World, game: str) -> Crawled:
    """Every page of the game's demo league and of a new league of it, as their
    organiser and as a coach of the demo league."""
    played = world.games[game]
    organiser = Client()
    organiser.force_login(world.organiser)
    coach = Client()
    coach.force_login(played.right.user)
    fresh = new_league(organiser, game)
    starts = [reverse("league:league_detail", args=[played.league.slug]),
              reverse("league:organiser_dashboard", args=[played.league.slug]),
              reverse("league:organiser_coaches", args=[played.league.slug]),
              reverse("league:league_detail", args=[fresh]),
              reverse("league:organiser_dashboard", args=[fresh]),
              reverse("league:season_setup", args=[fresh]),
              f"{reverse('league:new_league')}?game={game}"]
    slugs = {played.league.slug, fresh}
    pages = {"organiser": crawl(organiser, starts, slugs),
             "coach": crawl(coach, starts[:1] + [reverse("league:fixture_detail", args=[played.fixture.pk]),
                                                 reverse("league:my_fixtures")], slugs)}
    assert len(pages["organiser"]) > 10 and len(pages["coach"]) > 5, {r: list(p) for r, p in pages.items()}
    return Crawled(organiser=organiser, played=played, fresh=fresh, pages=pages)


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_a_games_pages_cite_no_other_games_rule_ids(game, world: World):
    crawled_leagues = crawl_a_games_leagues(world, game)
    organiser, played, fresh, crawled = (crawled_leagues.organiser, crawled_leagues.played, crawled_leagues.fresh,
                                         crawled_leagues.pages)
    # A refusal says why on the page: approving a report the opponent has not
    # confirmed needs a reason (GB-8's Decision, for every game).
    refused = organiser.post(reverse("league:approve_result", args=[played.fixture.pk]), {"reason": ""})
    assert refused.status_code == 400 and "approving it anyway is an override" in refused.content.decode()
    crawled["organiser"]["approval refused"] = refused.content.decode()
    assert reverse("league:season_setup", args=[fresh]) in crawled["organiser"]
    cited = {
        (role, address, found)
        for role, pages in crawled.items() for address, text in pages.items()
        for found in re.findall(r"\b(?:%s)\d+[a-z]?" % "|".join(FOREIGN[game]), text)
    }
    assert not cited, sorted(cited)


@pytest.mark.django_db
def test_the_crawl_sees_a_games_own_ids(world: World):
    """The crawl reads what the pages print: a Dungeon Bowl league's pages cite DB- ids."""
    organiser = Client()
    organiser.force_login(world.organiser)
    slug = world.games["dungeonbowl"].league.slug
    pages = crawl(organiser, [reverse("league:league_detail", args=[slug])], {slug})
    assert any("DB-5a" in text for text in pages.values())


def test_a_game_cites_its_own_rules_for_what_the_engine_speaks_of():
    """``GameRules.cites``: every id a game gives the engine's pages is one of its own
    rules on /rules/, and the engine asks for nothing it does not know."""
    known = rulebook.by_id()
    for system, game in rules.GAMES.items():
        assert set(game.cites) <= set(TOPICS), system
        assert {rule_id.split("-")[0] for rule_id in game.cites.values()} <= {FAMILY.get(system)}, system
        assert set(game.cites.values()) <= set(known), system
    assert rules.rules_class("dreadball").cite("divisions") == ""
    assert rules.rules_class("dungeonbowl").cited("divisions", "Drawn.") == "Drawn (DB-2)."
    with pytest.raises(ValueError):
        rules.rules_class("guildball").cite("weather")
