"""A league's Discord webhook: each approved result and the new top of the table
are posted to the organiser's channel.

Posted after the approving transaction commits, from a background thread, with a
short timeout and a few attempts with growing pauses: Discord being slow or down
never fails nor slows the request that approved the result. What still fails is
logged. Plain ``urllib`` from the standard library is enough for one JSON POST.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.error
import urllib.request

from django.conf import settings
from django.db import transaction

from league.links import site_root
from league.models import Season
from league.standings import compute_standings

logger = logging.getLogger(__name__)

ATTEMPTS = 3
BACKOFF_SECONDS = (1.0, 4.0)  # pause before the 2nd and the 3rd attempt
MAX_CONTENT = 2000  # Discord refuses longer messages

_threads: list[threading.Thread] = []  # kept so tests (and shutdown) can wait for them


def result_approved(result) -> None:
    """Queue the post for an approved (or corrected) result, if the league has a
    webhook. Called inside the approving transaction; the table is read after it
    commits (in the request, a few queries, so it includes this result), and only
    the HTTP post runs in the background thread."""
    fixture = result.fixture
    season = fixture.round.season
    league = season.league
    if not league.discord_webhook:
        return
    url = league.discord_webhook
    line = (
        f"**{league.name}** · {fixture.title}: {fixture.home} v {fixture.away} — "
        f"{result.summary or result.get_outcome_display()} (approved)"
    )
    link = f"{site_root()}{fixture.get_absolute_url()}"
    season_id = season.pk
    # robust: a failure here is logged by Django, never raised into the request
    # whose write has already committed.
    transaction.on_commit(lambda: _post_in_background(url, _message(line, link, season_id)), robust=True)


def _message(line: str, link: str, season_id: int) -> str:
    """The post: the result, its page and the top three of the table (of each
    division, where the season has divisions)."""
    season = Season.objects.select_related("league").get(pk=season_id)
    groups: dict[str | None, list] = {}
    for row in compute_standings(season):
        groups.setdefault(row.division, []).append(row)
    text = f"{line}\n{link}"
    for division, rows in groups.items():
        heading = f"Top of {division}:" if division else "Top of the table:"
        top = "\n".join(f"{row.position_label}. {row.name or row.coach} — {row.lp} LP" for row in rows[:3])
        text += f"\n{heading}\n{top}"
    return text[:MAX_CONTENT]


def _post_in_background(url: str, content: str) -> threading.Thread:
    thread = threading.Thread(target=post, args=(url, content), name="discord-webhook", daemon=True)
    _threads[:] = [t for t in _threads if t.is_alive()]
    _threads.append(thread)
    thread.start()
    return thread


def wait_for_posts(timeout: float = 30) -> None:
    """Wait for the posts under way (tests; a management command before exiting)."""
    for thread in list(_threads):
        thread.join(timeout)


def post(url: str, content: str, *, sleep=time.sleep) -> bool:
    """POST ``content`` to the webhook: up to ``ATTEMPTS`` tries, pausing
    ``BACKOFF_SECONDS`` between them, retrying on a network error, a 429 or a 5xx.
    Returns whether it was delivered; a final failure is logged."""
    body = json.dumps({"content": content, "allowed_mentions": {"parse": []}}).encode()
    for attempt in range(1, ATTEMPTS + 1):
        request = urllib.request.Request(
            url, data=body, method="POST",
            headers={"Content-Type": "application/json", "User-Agent": "longshanks-league (webhook)"},
        )
        try:
            with urllib.request.urlopen(request, timeout=settings.WEBHOOK_TIMEOUT):
                return True
        except urllib.error.HTTPError as error:
            if error.code != 429 and error.code < 500:
                logger.error("Discord webhook refused the post (HTTP %s); not retried", error.code)
                return False
            problem = f"HTTP {error.code}"
        except (urllib.error.URLError, OSError) as error:
            problem = str(error)
        if attempt < ATTEMPTS:
            sleep(BACKOFF_SECONDS[min(attempt - 1, len(BACKOFF_SECONDS) - 1)] * settings.WEBHOOK_BACKOFF_SCALE)
        else:
            logger.error("Discord webhook post failed after %d attempts: %s", ATTEMPTS, problem)
    return False
