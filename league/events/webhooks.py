"""A league's two webhooks: each approved (or corrected) result and the new top of
the table are posted to the organiser's Discord channel, and, signed, to any
receiver the organiser names. They follow the approval's facts
(league/facts/subscriptions.py).

The organiser sets them on the league's settings page (``League.discord_webhook``,
``webhook_url``, ``webhook_secret``); each is a subscription of the league's
events (league/events/models.py) with a signature of its own, brought in step
with those settings before each post (``in_step``), so every post is a delivery
row of the events system: retried on a network error, a 429 or a 5xx with growing
pauses, each attempt recorded, each retry the same body, and never sent to a
private, loopback or link-local address nor after a redirect
(league/outbox/addresses.py). Receivers see what they always saw: Discord its
message (``content``), the signed receiver the same JSON with ``X-League-Signature:
sha256=<hex>``, the HMAC-SHA256 of the body under the league's secret
(league/events/delivery.py).

An approval queues one task (``announce``, league/outbox/tasks.py) in the
approving transaction; the worker reads the table when it runs it, so the request
computes no standings (one per result on "approve all" would slow it), and
writes a delivery a webhook.
"""

from __future__ import annotations

import http.client
import json
import logging
from typing import Any

from django_tasks import task

from league.events.delivery import deliver
from league.events.models import Delivery, Subscription
from league.outbox.quiet import is_quiet
from league.models import League, Season
from league.outbox import addresses, tasks
from league.outbox.links import site_root
from league.standings.season import compute_standings
from league.text import words

logger = logging.getLogger(__name__)

MAX_CONTENT = 2000  # Discord refuses longer messages
Signature = Subscription.Signature


def in_step(league: League) -> dict[str, Subscription]:
    """The league's webhooks as its subscriptions, by signature: each address the
    organiser set (and, for the signed one, a secret to sign with) made or
    brought up to date from the league's settings, whoever wrote them (the
    settings page, the admin). One query when nothing changed."""
    rows = {row.signature: row for row in
            Subscription.objects.filter(league=league).exclude(signature=Signature.STANDARD)}
    wanted = {Signature.DISCORD: (league.discord_webhook, "")}
    if league.webhook_secret:  # a secret cleared in the admin: nothing the receiver could check
        wanted[Signature.LEAGUE] = (league.webhook_url, league.webhook_secret)
    found = {}
    for signature, (url, secret) in wanted.items():
        if not url:
            continue
        row = rows.get(signature)
        if row is None:
            row = Subscription.objects.create(league=league, signature=signature, url=url, secret=secret)
        elif (row.url, row.secret, row.active) != (url, secret, True):
            row.url, row.secret, row.active = url, secret, True
            row.save(update_fields=["url", "secret", "active"])
        found[signature] = row
    return found


def _queue(subscription: Subscription, kind: str, body: str, *, with_write: bool) -> None:
    delivery = Delivery.objects.create(subscription=subscription, event_type=kind, payload=body)
    if with_write:
        tasks.enqueue_with_write(deliver, delivery_id=delivery.pk)
    else:
        deliver.enqueue(delivery_id=delivery.pk)


def _side(entry, league) -> str:
    return words.side(entry, entry.team, by_team=league.named_by_team)


def result_approved(result) -> None:
    """Queue the announcement of an approved (or corrected) result, if the league
    has a webhook: a follower of the approval's facts, inside the approving
    transaction, which writes the task; the table is read when the task runs,
    after the approval committed (so it includes this result)."""
    if is_quiet():
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


def queue_test(league: League) -> None:
    """Queue a test post to each of the league's webhooks, the organiser's check
    that the address works: a line naming the league, to Discord as a message and
    to the signed webhook as a ``test`` event. A follower of the organiser's
    request for it, inside that write's transaction."""
    line = f"**{league.name}**: a test message from the league's settings page. Approved results will be posted here."
    link = f"{site_root()}{league.get_absolute_url()}"
    hooks = in_step(league)
    if discord := hooks.get(Signature.DISCORD):
        body = json.dumps({"content": f"{line}\n{link}"[:MAX_CONTENT], "allowed_mentions": {"parse": []}})
        _queue(discord, "test", body, with_write=True)
    if signed := hooks.get(Signature.LEAGUE):
        body = json.dumps({"event": "test", "league": league.slug, "text": line, "url": link}, sort_keys=True)
        _queue(signed, "test", body, with_write=True)


@task()
def announce(*, season_id: int, line: str, link: str, event: dict[str, Any], discord: str, signed: str) -> str:
    """Read the season's table now and write a delivery to each webhook the league
    had when the result was approved (``discord``, ``signed``: their addresses
    then) and still has: to Discord, and, signed with the league's secret as it
    is now, to the organiser's receiver. The secret is read here, never stored in
    the task's row (superusers read rows in the admin)."""
    season = Season.objects.select_related("league").get(pk=season_id)
    content = _message(line, link, season)
    hooks = in_step(season.league)
    queued = []
    if discord and (subscription := hooks.get(Signature.DISCORD)):
        _queue(subscription, "result_approved", json.dumps({"content": content, "allowed_mentions": {"parse": []}}),
               with_write=False)
        queued.append("Discord")
    if signed and (subscription := hooks.get(Signature.LEAGUE)):
        _queue(subscription, "result_approved", json.dumps({**event, "text": content}, sort_keys=True),
               with_write=False)
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
    """Kept for the rows queued before the webhooks were delivered as events
    (a queued row names ``league.events.webhooks.post`` and its retries queue it
    again): POST the JSON ``body`` to ``url`` through the one address check of every
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
