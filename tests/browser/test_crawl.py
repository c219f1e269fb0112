"""Every page of the role matrix, as every role that may see
it, in a real Chromium at a phone's 360 px and a laptop's 1280 px. A page fails on

- sideways scrolling: the document is wider than the window (only a table's own
  scroll box may scroll sideways, which keeps the team or coach column in view);
- a tap target under 44 px inside a form: buttons, inputs, selects, text areas,
  and a checkbox or radio button counted with its label (WCAG 2.5.5's 44 px;
  links in running text are left out, as WCAG 2.5.8 allows);
- a serious or critical accessibility violation reported by axe-core (the
  packaged axe.min.js of axe-playwright-python, evaluated by Playwright: the
  page's Content-Security-Policy stays as strict as it is).

The URLs are derived from the role matrix (tests/test_role_matrix.py) and its
world (tests/support/world.py): a row's GET that answers 200 to a role is crawled as that
role, in every game the row serves, so a page added later with its row is crawled
without touching this file. Each page is fetched once per role; a page whose HTML
another role was already shown (the CSRF token and the name in the header aside)
draws the same and is not drawn again, which keeps the crawl within minutes on a
loaded machine. What the crawl found is written to
artifacts/crawl.json (counts per width and each problem) as well as shown in the
failure."""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections import defaultdict

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from league.templatetags.site_tags import display_name
from tests.browser.chromium import CHROMIUM_ONLY, SCREENSHOTS
from tests.test_role_matrix import MATRIX, ROLES, url_kwargs, url_patterns, user_of
from tests.support.world import FAST_HASHERS, GAMES, build_world

# The pages draw the same on either database: the crawl, the suite's longest test,
# runs on SQLite only (.ci/run runs the suite on both).
pytestmark = [
    *CHROMIUM_ONLY,
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
                       reason="layout and accessibility do not depend on the database: crawled on SQLite"),
]

SIZES = {360: {"width": 360, "height": 780}, 1280: {"width": 1280, "height": 900}}
MIN_TARGET = 44  # px, WCAG 2.5.5 (AAA): a target a thumb hits

# The document is wider than its window (its width, else 0): something scrolls sideways.
SIDEWAYS = """() => {
  const doc = document.scrollingElement;
  return doc.scrollWidth > doc.clientWidth ? doc.scrollWidth : 0;
}"""

# Controls inside a form smaller than MIN_TARGET. A checkbox or radio button counts
# with its labels (a tap on the label ticks it); a control not shown (a closed tab
# panel or <details>) is left out.
SMALL_TARGETS = """(min) => {
  const small = [];
  const controls = document.querySelectorAll(
    'form button, form input:not([type=hidden]), form select, form textarea');
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
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
      const name = el.name || el.id || (el.textContent || '').trim().slice(0, 30);
      small.push(`${el.tagName.toLowerCase()}${el.type ? '[' + el.type + ']' : ''} ${name} ${Math.round(w)}x${Math.round(h)}`);
    }
  }
  return small;
}"""

AXE_OPTIONS = {"resultTypes": ["violations"]}
SERIOUS = {"serious", "critical"}


def crawl_plan(world) -> dict[int | None, tuple[str, object, list[str]]]:
    """Per user (None: anonymous): a label, the user, and the URLs whose matrix row
    says that role's GET answers 200, in every game the row serves."""
    plan: dict[int | None, tuple[str, object, list[str]]] = {}
    for name, _, params in url_patterns():
        row = MATRIX[name]
        for game in GAMES:
            if game not in row.games:
                continue
            url = reverse(name, kwargs=url_kwargs(world, game, params))
            for role, status in zip(ROLES, row.get):
                if status != 200:
                    continue
                user = user_of(world, game, role)
                key = user.pk if user else None
                label = role if role in ("anonymous", "nobody", "rival", "organiser") else f"{role}-{game}"
                plan.setdefault(key, (label, user, []))
                if url not in plan[key][2]:
                    plan[key][2].append(url)
    return plan


def same_page(html: str, user) -> str:
    """The page with what differs between two requests of one page by two people
    taken out: the CSRF token and the name in the header."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    if user is not None:
        html = html.replace(display_name(user), "NAME")
    return html


def session_cookie(user, live_server) -> list[dict]:
    """The cookie of a session opened for ``user``, without the login form."""
    if user is None:
        return []
    client = Client()
    client.force_login(user)
    return [{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
             "url": live_server.url}]


# The page's shape: the visible elements with their classes and attribute names,
# not their text or values. Pages of one shape (one coach's page and another's, a
# public page seen by two logged-in roles) get one axe-core run between them, which
# keeps the crawl within minutes.
SHAPE = """() => {
  let hash = 0;
  for (const el of document.querySelectorAll('*')) {
    if (el.checkVisibility && !el.checkVisibility()) continue;
    const part = el.tagName + '.' + el.className + '[' + [...el.attributes].map(a => a.name).sort() + ']';
    for (let i = 0; i < part.length; i++) hash = (hash * 31 + part.charCodeAt(i)) | 0;
  }
  return hash;
}"""


# The API's docs are django-ninja's Swagger UI, a page for developers drawn by
# upstream's script: its contrast and its nested controls in each operation's
# summary are Swagger UI's. tests/browser/test_api_docs.py checks it loads every
# endpoint within the site's policy, at both widths.
THIRD_PARTY_PAGES = ("/api/docs/",)


def check_page(page, axe_script: str, seen: dict[int, list[str]]) -> tuple[int, list[str], list[str]]:
    """(the width when it scrolls sideways else 0, small tap targets, serious or
    critical axe violations)."""
    sideways = page.evaluate(SIDEWAYS)
    small = page.evaluate(SMALL_TARGETS, MIN_TARGET)
    shape = page.evaluate(SHAPE)
    if shape not in seen:
        page.evaluate(axe_script)
        found = page.evaluate("(options) => axe.run(document, options)", AXE_OPTIONS)
        seen[shape] = [
            f"{v['id']} ({v['impact']}): {v['help']}: " + "; ".join(" ".join(n["target"]) for n in v["nodes"][:3])
            for v in found["violations"]
            if v["impact"] in SERIOUS
        ]
    return sideways, small, seen[shape]


# The live server reads committed data, so the test commits; serialized_rollback
# puts the migrated catalogue back afterwards.
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_every_page_fits_a_phone_is_tappable_and_accessible(live_server, browser):
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        world = build_world()
    plan = crawl_plan(world)
    axe_script = Axe().axe_script
    started = time.monotonic()
    problems: list[str] = []
    shapes: dict[int, list[str]] = {}
    counts = {width: defaultdict(int) for width in SIZES}
    report: dict[str, list] = {"problems": problems}
    results: dict[tuple[int, str], tuple] = {}
    for label, user, urls in plan.values():
        cookies = session_cookie(user, live_server)
        pages = {}
        for width, viewport in SIZES.items():
            phone = width < 600
            context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
            context.add_cookies(cookies)
            pages[width] = context.new_page()
        for url in urls:
            # Fetched once per role; drawn at each width only if no role drew the
            # same page before (the same HTML draws the same at the same width).
            fetched = pages[360].request.get(live_server.url + url, max_redirects=0)
            if fetched.status != 200:
                problems.append(f"{label} {url}: status {fetched.status}")
                continue
            if not fetched.headers.get("content-type", "").startswith("text/html"):
                continue  # a feed: JSON, CSV, iCalendar
            if url.startswith(THIRD_PARTY_PAGES):
                continue
            html = same_page(fetched.text(), user)
            for width, page in pages.items():
                counts[width]["pages"] += 1
                key = (width, hashlib.sha256(html.encode()).hexdigest())
                if key not in results:
                    page.goto(live_server.url + url)
                    results[key] = check_page(page, axe_script, shapes)
                sideways, small, violations = results[key]
                where = f"{width}px {label} {url}"
                if sideways:
                    counts[width]["sideways"] += 1
                    problems.append(f"{where}: scrolls sideways ({sideways} px wide)")
                if small:
                    counts[width]["pages with small targets"] += 1
                    counts[width]["small targets"] += len(small)
                    problems.append(f"{where}: tap targets under {MIN_TARGET} px: {small}")
                if violations:
                    counts[width]["pages with violations"] += 1
                    counts[width]["violations"] += len(violations)
                    problems.extend(f"{where}: {v}" for v in violations)
        for page in pages.values():
            page.context.close()
    report["counts"] = {width: dict(c) for width, c in counts.items()}
    report["seconds"] = round(time.monotonic() - started)
    report["pages drawn"] = len(results)
    report["axe runs"] = len(shapes)
    SCREENSHOTS.parent.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS.parent / "crawl.json").write_text(json.dumps(report, indent=1))
    assert counts[360]["pages"] > 50, report["counts"]  # the crawl did reach the site
    assert not problems, f"{report['counts']}\n" + "\n".join(problems)
