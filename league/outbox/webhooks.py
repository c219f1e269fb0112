"""A league's webhooks: each approved (or corrected) result and the new top of
the table are posted to the organiser's Discord channel, and, signed, to any
receiver the organiser names.

An approval queues one task (``announce``, league/outbox/tasks.py) in the approving
transaction; the worker reads the table when it runs it, so the request computes
no standings (one per result on "approve all" would slow it), and queues a post
per address. Each post is a task of its own: it survives the web worker, is
retried on a network error, a 429 or a 5xx with growing pauses, each attempt
recorded, and each retry sends the same body. Every post goes through the same
address check as the league's events (league/outbox/addresses.py): never to a
private, loopback or link-local address, and a redirect is refused, never
followed. Discord stays one kind of receiver with its own format (``content``).

The signed webhook (``League.webhook_url``) carries ``X-League-Signature:
sha256=<hex>``, the HMAC-SHA256 of the request body under the league's
``webhook_secret``, so the receiver can check the post came from this site.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import logging
from typing import Any

from django_tasks import task

from league.outbox import addresses, notifications, tasks
from league.outbox.links import site_root
from league.text import words
from league.models import Season
from league.standings.season import compute_standings

logger = logging.getLogger(__name__)

MAX_CONTENT = 2000  # Discord refuses longer messages
SIGNATURE_HEADER = "X-League-Signature"


def sign(secret: str, body: bytes) -> str:
    """The signature header's value: ``sha256=`` and the hex HMAC-SHA256 of ``body``."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _side(entry, league) -> str:
    return words.side(entry, entry.team, by_team=league.named_by_team)


def result_approved(result) -> None:
    """The webhook hook of the approval services (league/services/results.py), separate
    from the mail: queue the announcement of an approved (or corrected) result, if
    the league has a webhook. Called inside the approving transaction, which writes
    the task; the table is read when the task runs, after the approval committed
    (so it includes this result)."""
    if notifications.is_quiet():
        return
    fixture = result.fixture
    season = fixture.round.season
    league = season.league
    if not (league.discord_webhook or league.webhook_url):
        return
    line = (
        f"**{league.name}** · {fixture.title}: {_side(fixture.home, league)} v {_side(fixture.away, league)} — "
        f"{result.summary or result.get_outcome_display()} (approved)"
    )
    link = f"{site_root()}{fixture.get_absolute_url()}"
    event = {
        "event": "result_approved",
        "league": league.slug,
        "fixture": fixture.pk,
        "home": str(fixture.home),
        "away": str(fixture.away),
        "result": result.summary or result.get_outcome_display(),
        "url": link,
    }
    tasks.enqueue_with_write(
        announce, season_id=season.pk, line=line, link=link, event=event,
        discord=league.discord_webhook, signed=league.webhook_url,
    )


def queue_test(league) -> list[str]:
    """Queue a test post to each of the league's webhooks, the organiser's check
    that the address works: a line naming the league, to Discord as a message and
    to the signed webhook as a ``test`` event. Called inside the organiser's write's
    transaction; returns where it goes ("Discord", "the signed webhook"), empty
    when the league has neither address."""
    line = f"**{league.name}**: a test message from the league's settings page. Approved results will be posted here."
    link = f"{site_root()}{league.get_absolute_url()}"
    queued = []
    if league.discord_webhook:
        body = json.dumps({"content": f"{line}\n{link}"[:MAX_CONTENT], "allowed_mentions": {"parse": []}})
        tasks.enqueue_with_write(post, url=league.discord_webhook, body=body, headers={})
        queued.append("Discord")
    if league.webhook_url and league.webhook_secret:
        body = json.dumps({"event": "test", "league": league.slug, "text": line, "url": link}, sort_keys=True)
        tasks.enqueue_with_write(
            post, url=league.webhook_url, body=body,
            headers={SIGNATURE_HEADER: sign(league.webhook_secret, body.encode())},
        )
        queued.append("the signed webhook")
    return queued


@task()
def announce(*, season_id: int, line: str, link: str, event: dict[str, Any], discord: str, signed: str) -> str:
    """Read the season's table now and queue the posts: to Discord, and, signed
    with the league's secret as it is now, to the organiser's receiver. The secret
    is read here, never stored in the task's row (superusers read rows in the admin)."""
    season = Season.objects.select_related("league").get(pk=season_id)
    content = _message(line, link, season)
    queued = []
    if discord:
        body = json.dumps({"content": content, "allowed_mentions": {"parse": []}})
        post.enqueue(url=discord, body=body, headers={})
        queued.append("Discord")
    secret = season.league.webhook_secret
    if signed and secret:  # a secret cleared in the admin: nothing the receiver could check
        body = json.dumps({**event, "text": content}, sort_keys=True)
        post.enqueue(url=signed, body=body, headers={SIGNATURE_HEADER: sign(secret, body.encode())})
        queued.append("the signed webhook")
    return f"queued posts to {' and '.join(queued)}" if queued else "nothing to post"


def _message(line: str, link: str, season: Season) -> str:
    """The post: the result, its page and the top three of the table (of each
    division, where the season has divisions)."""
    groups: dict[str | None, list] = {}
    for row in compute_standings(season):
        groups.setdefault(row.division, []).append(row)
    text = f"{line}\n{link}"
    for division, rows in groups.items():
        heading = f"Top of {division}:" if division else "Top of the table:"
        top = "\n".join(f"{row.position_label}. {row.name or row.coach} — {row.lp} LP" for row in rows[:3])
        text += f"\n{heading}\n{top}"
    return text[:MAX_CONTENT]


@task()
def post(*, url: str, body: str, headers: dict[str, str], attempt: int = 1) -> str:
    """POST the JSON ``body`` to ``url`` through the one address check of every
    webhook (league/outbox/addresses.py): retried (league/outbox/tasks.py) on a
    network error, a 429 or a 5xx; an address the site never posts to (private,
    loopback, link-local), a redirect or another 4xx is final, logged and recorded
    as refused."""
    try:
        status = addresses.post(url, body, headers, agent="webhook")
    except addresses.NotAllowed as refusal:
        logger.error("Webhook post not sent: %s", refusal)
        raise tasks.Refused(str(refusal)) from None
    except (OSError, http.client.HTTPException) as error:
        problem = str(error) or type(error).__name__
    else:
        if 200 <= status < 300:
            return f"posted (HTTP {status})"
        if status != 429 and status < 500:
            why = " (redirects are not followed)" if 300 <= status < 400 else ""
            logger.error("Webhook refused the post (HTTP %s%s); not retried", status, why)
            raise tasks.Refused(f"HTTP {status}{why}")
        problem = f"HTTP {status}"
    tasks.retry_or_give_up(
        post, {"url": url, "body": body, "headers": headers}, attempt=attempt, problem=problem,
        logger=logger, what="Webhook post",
    )
    raise AssertionError("unreachable")  # retry_or_give_up always raises
