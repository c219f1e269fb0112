"""Telling coaches what happened to their deals (GB-20, GB-23): a line on their
campaign page and, where they have an address, an email sent once the
transaction commits."""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.mail import send_mass_mail
from django.db import transaction
from django.urls import reverse

from campaigns.models import CampaignCoach, Notice


def tell(coaches: Iterable[CampaignCoach], text: str) -> list[Notice]:
    """Leave ``text`` on each coach's campaign page and email it to those with an
    address. Call inside the write's transaction: a refused write tells nobody."""
    coaches = list({cc.pk: cc for cc in coaches}.values())
    notices = Notice.objects.bulk_create([Notice(coach=cc, text=text[:500]) for cc in coaches])
    ids = [cc.pk for cc in coaches]
    transaction.on_commit(lambda: _mail(ids, text))
    return notices


def _mail(coach_ids: list[int], text: str) -> None:
    messages = []
    for cc in CampaignCoach.objects.filter(pk__in=coach_ids).select_related(
        "entry__coach__user", "campaign__season__league"
    ):
        to = cc.entry.coach.contact_email
        if not to:
            continue
        league = cc.campaign.season.league
        page = reverse("campaigns:coach_page", args=[league.slug, cc.entry.coach_id])
        messages.append(
            (f"[{league.name}] The Big League: news for {cc.name}", f"{text}\n\n{settings.SITE_URL}{page}\n",
             settings.DEFAULT_FROM_EMAIL, [to])
        )
    if messages:
        send_mass_mail(messages)
