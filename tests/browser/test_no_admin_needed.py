"""An organiser never needs /admin/: a person signs up through the site,
verifies the address from the mail and starts a league of each game through
/leagues/new/, then walks every task of the season checklist (a link followed,
a one-click task pressed) and follows every link of the dashboard, the settings,
the season set-up and the Coaches pages, and of the pages those lead to inside
the league's organiser pages (same site, GET). No link on any of them, and no
address the browser requests, is under /admin/; and the header offers no admin
to them (a self-signed-up organiser is not staff)."""

from __future__ import annotations

import datetime
from collections import deque
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from league.models import League
from tests.browser.chromium import CHROMIUM_ONLY, new_page, no_sideways_scroll, shot
from tests.browser.test_start_a_league import Counted, _sign_up_and_verify
from tests.test_rule_ids_per_game import links
from tests.support.world import GAMES

pytestmark = CHROMIUM_ONLY

ADMIN = "/admin/"
NAMES = ("Ivy", "Brick", "Morag", "Sol")
NOT_PAGES = (".ics", ".csv", ".json")
MOST_PAGES = 400


def start_league(organiser: Counted, live_server, game: str) -> League:
    page = organiser.page
    organiser.open(live_server.url + reverse("league:new_league"))
    organiser.click(f"a[href='?game={game}']")
    page.fill("input[name=name]", f"Self-run {game}")
    page.fill("input[name=start_date]", str(timezone.localdate() + datetime.timedelta(days=7)))
    organiser.click("button:text('Create the league')")
    league = League.objects.get(name=f"Self-run {game}")
    page.wait_for_url(f"**{reverse('league:season_setup', args=[league.slug])}")
    if page.locator("textarea[name=names]").count():  # the games whose coaches are entered by name
        page.fill("textarea[name=names]", "\n".join(f"{name} of {game}" for name in NAMES))
        organiser.click("button:text('Enter these names')")
        page.wait_for_selector("text=Ivy of")
    return league


def walk_checklist(organiser: Counted, live_server, league: League) -> list[str]:
    """Every checklist task of the dashboard: a link is followed and its page kept,
    a one-click task is pressed; until none is left that was not tried."""
    page = organiser.page
    dashboard = live_server.url + reverse("league:organiser_dashboard", args=[league.slug])
    tried: set[str] = set()
    task_pages: list[str] = []
    while True:
        organiser.open(dashboard)
        items = page.locator("li.checklist-item")
        todo = [items.nth(i) for i in range(items.count()) if items.nth(i).get_attribute("id") not in tried]
        if not todo:
            return task_pages
        item = todo[0]
        tried.add(item.get_attribute("id"))
        link = item.locator("a.button")
        if link.count():
            task_pages.append(link.get_attribute("href"))
            organiser.counts[organiser.who] += 1
            link.click()
        else:
            organiser.counts[organiser.who] += 1
            item.locator("button").click()
        page.wait_for_load_state()
        assert "Server Error" not in page.content(), page.url
        no_sideways_scroll(page)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_self_signed_up_organiser_never_meets_the_admin(live_server, browser):
    organiser = Counted(new_page(browser, "desktop"), {"organiser": 0}, "organiser")
    page = organiser.page
    _sign_up_and_verify(organiser, live_server, "selfrun")
    assert not User.objects.get(username="selfrun").is_staff
    found: list[str] = []
    crawled: dict[str, int] = {}
    for game in GAMES:
        league = start_league(organiser, live_server, game)
        starts = walk_checklist(organiser, live_server, league)
        starts += [reverse(f"league:{name}", args=[league.slug])
                   for name in ("organiser_dashboard", "organiser_settings", "season_setup", "organiser_coaches")]
        starts += [reverse("league:league_list"), reverse("league:my_fixtures"), league.get_absolute_url()]
        for url in (reverse("league:organiser_dashboard", args=[league.slug]), reverse("league:organiser_settings", args=[league.slug])):
            organiser.open(live_server.url + url)
            assert page.locator(f"header a[href^='{ADMIN}']").count() == 0
            no_sideways_scroll(page)
            shot(page, f"no-admin-{game}-{url.strip('/').split('/')[-1]}.png")
        # The task pages' links, and on through the league's organiser pages.
        organiser_area = f"/leagues/{league.slug}/"
        seen, queue = set(starts), deque(starts)
        while queue and len(seen) < MOST_PAGES:
            address = queue.popleft()
            response = page.request.get(live_server.url + address, max_redirects=0)
            crawled[address] = response.status
            assert response.status < 500, (address, response.status)
            if response.status != 200 or not response.headers.get("content-type", "").startswith("text/html"):
                continue
            for link in links(response.text(), live_server.url + address):
                parts = urlsplit(link)
                if parts.netloc and parts.netloc != urlsplit(live_server.url).netloc:
                    continue  # another site (the rulebooks, Discord)
                path = parts.path + (f"?{parts.query}" if parts.query else "")
                if parts.path.startswith(ADMIN):
                    found.append(f"{address} links to {path}")
                    continue
                if path in seen or parts.path.endswith(NOT_PAGES) or "logout" in parts.path:
                    continue
                seen.add(path)
                # Every link of the task pages is followed; beyond them, the league's own pages.
                if address in starts or parts.path.startswith(organiser_area) or parts.path.startswith("/fixtures/"):
                    queue.append(path)
    assert len(crawled) > 40, crawled
    assert not found, "\n".join(found)
    assert not [url for url in organiser.requested if urlsplit(url).path.startswith(ADMIN)]
    print(f"\n[no admin] {len(crawled)} pages crawled, {organiser.counts['organiser']} clicks")
