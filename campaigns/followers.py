"""The Big League's kinds of fact and who follows them (league/facts/registry.py),
given in its declaration (``game.py``): the engine imports no layer."""

from __future__ import annotations

import itertools

from campaigns import notices
from campaigns.models import CampaignCoach
from campaigns.moments.services import MOMENTS_REACHED
from league.events import emit as events
from league.events import types as event_types
from league.facts.registry import Recorded
from league.games import Facts


def mail_moments_reached(fact: Recorded) -> None:
    """GB-13: the organisers confirm each new Moment: one notice per coach, as for one coach."""
    for _, reached in itertools.groupby(fact.about["unlocks"], key=lambda unlock: unlock.coach_id):
        notices.moments_reached(list(reached))


def events_moments_reached(fact: Recorded) -> None:
    """GB-13: a ``moment.reached`` event per new unlock, one emit per league (two
    queries, whatever the number)."""
    created = fact.about["unlocks"]
    coaches = {
        pk: (league_id, season_id, season_name, slug, name)
        for pk, league_id, season_id, season_name, slug, name in CampaignCoach.objects.filter(
            pk__in={unlock.coach_id for unlock in created}).values_list(
            "pk", "campaign__season__league_id", "campaign__season_id", "campaign__season__name",
            "campaign__season__league__slug", "entry__coach__name")
    }
    by_league: dict[int, list] = {}
    for unlock in created:
        league_id, season_id, season_name, slug, name = coaches[unlock.coach_id]
        by_league.setdefault(league_id, []).append((event_types.MOMENT_REACHED, {
            "league": slug, "season": {"id": season_id, "name": season_name},
            "moment": {"name": unlock.name, "threshold": unlock.threshold, "unlocks": unlock.unlocks, "coach": name},
        }))
    for league_id, reached in by_league.items():
        events.emit(league_id=league_id, events=reached)


FACTS = Facts(
    kinds={MOMENTS_REACHED: "Big League coaches reach Moments (GB-13)"},
    followers=(
        (MOMENTS_REACHED, "mail", mail_moments_reached),
        (MOMENTS_REACHED, "events", events_moments_reached),
    ),
)
