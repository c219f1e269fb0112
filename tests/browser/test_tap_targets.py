"""Every tap target at least 44 px high and wide on a phone (WCAG 2.5.5's 44 px):
a crawl at 390 px over the main pages of all three games (the league page and its
sortable standings, the fixtures, a fixture's page, /me/, the organiser's
dashboard, coaches, settings and season set-up pages, a team page), as the
organiser and as a coach, measuring every visible link, button, input, select and
<summary> with getBoundingClientRect.

The one exemption is WCAG 2.5.8's "inline" one: a link inside a sentence, whose
size the line height of the text around it decides. A link counts as inline when
it is laid out inline (not a block, flex or inline-block box) and the text block
around it (its nearest ancestor that is not inline) has words of its own besides
its links: a rule's small link at the end of a sentence, "draft its players" in
a paragraph. The site lays out every link that stands for itself as a box
(static/css/site.css: a list of fixtures or to-dos, a table's cells and sort
headers, the rounds, a paragraph that is one link), and those are measured.

A checkbox or radio button counts with its labels (a tap on the label ticks it)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from league.dungeonbowl.models import Team
from tests.browser.chromium import CHROMIUM_ONLY, shot
from tests.browser.test_crawl import session_cookie
from tests.support.world import FAST_HASHERS, GAMES, build_world

pytestmark = [
    *CHROMIUM_ONLY,
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
                       reason="sizes do not depend on the database: crawled on SQLite"),
]

MIN_TARGET = 44
PHONE = {"width": 390, "height": 844}

SMALL = """(min) => {
  const words = (el) => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll('a, button, input, select, textarea, summary').forEach((n) => n.remove());
    return (copy.textContent.match(/[A-Za-zÀ-ÿ]{2,}/g) || []).length;
  };
  const inline = (el) => {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    let block = el.parentElement;
    while (block && getComputedStyle(block).display === 'inline') block = block.parentElement;
    return block !== null && words(block) >= 2;
  };
  const small = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
    if (el.checkVisibility && !el.checkVisibility()) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (inline(el)) continue;
    let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
    if (el.type === 'checkbox' || el.type === 'radio') {
      for (const label of el.labels || []) {
        const l = label.getBoundingClientRect();
        if (l.width === 0) continue;
        left = Math.min(left, l.left); top = Math.min(top, l.top);
        right = Math.max(right, l.right); bottom = Math.max(bottom, l.bottom);
      }
    }
    const [w, h] = [right - left, bottom - top];
    if (w < min - 0.5 || h < min - 0.5) {
      const name = (el.getAttribute('href') || el.name || el.id || '') + ' "' + (el.textContent || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 30) + '"';
      small.push(`${el.tagName.toLowerCase()} ${name} ${Math.round(w)}x${Math.round(h)}`);
    }
  }
  return small;
}"""


def main_pages(world, game: str, *, organiser: bool) -> list[str]:
    g = world.games[game]
    slug = g.league.slug
    pages = [
        reverse("league:league_detail", args=[slug]),
        reverse("league:league_detail", args=[slug]) + "?sort=-lp",  # the standings, sorted by a header
        reverse("league:fixtures", args=[slug]),
        reverse("league:fixture_detail", args=[g.fixture.pk]),
        reverse("league:my_fixtures"),
        reverse("league:coach_detail", args=[slug, g.right.pk]),
    ]
    if game == "guildball":
        pages.append(reverse("campaigns:coach_page", args=[slug, g.right.pk]))
    elif game == "dungeonbowl":
        team = Team.objects.filter(league=g.league, coach=g.right).first()
        pages.append(reverse("dungeonbowl:team_detail", args=[slug, team.slug]))
    else:
        pages.append(reverse("dreadball:register_team", args=[slug]))
    if organiser:
        pages += [reverse(f"league:{name}", args=[slug])
                  for name in ("organiser_dashboard", "organiser_coaches", "organiser_settings", "season_setup")]
    return pages


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_every_tap_target_is_44_px_on_a_phone(live_server, browser):
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        world = build_world()
    problems: list[str] = []
    crawled = 0
    for who in ("organiser", "coach"):
        for game in GAMES:
            user = world.organiser if who == "organiser" else world.games[game].right.user
            context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
            context.add_cookies(session_cookie(user, live_server))
            page = context.new_page()
            for url in main_pages(world, game, organiser=who == "organiser"):
                response = page.goto(live_server.url + url)
                assert response.status == 200, (who, url, response.status)
                crawled += 1
                small = page.evaluate(SMALL, MIN_TARGET)
                problems += [f"{who} {url}: {target}" for target in small]
                shot(page, f"targets-{who}-{game}-{url.strip('/').replace('/', '_').replace('?', '_')[:60]}.png")
            context.close()
    assert crawled >= 40
    assert not problems, f"{len(problems)} tap targets under {MIN_TARGET} px:\n" + "\n".join(problems)
