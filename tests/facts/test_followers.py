"""Every kind of fact with who follows it, written out: a follower added, moved or
dropped shows here first (league/facts/subscriptions.py, and each game's and
layer's followers.py)."""

from __future__ import annotations

from league.facts import registry

MAIL_WEBHOOKS_EVENTS = ["ratings", "mail", "webhooks", "events"]

EXPECTED = {
    # A step of a match's result: the fixture's history row is the fact.
    "result.reported": ["mail", "events"],
    "result.changed": ["mail", "events"],
    "result.taken_back": ["mail", "events"],
    "result.confirmed": ["events"],
    "result.disputed": ["mail", "events"],
    "result.approved": MAIL_WEBHOOKS_EVENTS,
    "result.entered": MAIL_WEBHOOKS_EVENTS,
    "result.corrected": MAIL_WEBHOOKS_EVENTS,
    "result.abandoned": MAIL_WEBHOOKS_EVENTS,
    "result.reopened": ["ratings", "events"],
    "fixture.rearranged": ["mail", "events"],
    # Every other write: one Fact row.
    "results.imported": ["ratings", "events"],
    "league.imported": ["ratings"],
    "demo.loaded": ["ratings"],
    "entrant.joined": ["events"],
    "entrants.carried_over": ["events"],
    "entrant.withdrew": ["mail", "events"],
    "join.asked": ["mail"],
    "claim.asked": ["mail"],
    "join.decided": ["mail"],
    "coach.claimed": [],
    "merge.asked": ["mail"],
    "coaches.merged": ["ratings"],
    "settings.changed": [],
    "webhooks.tested": ["webhooks"],
    # A game's and a layer's, named in their declarations: their own rows are the fact.
    "dungeonbowl.playoffs_seeded": ["events"],
    "campaigns.moments_reached": ["mail", "events"],
    "campaigns.moment_confirmed": ["mail"],
    "campaigns.loan_requested": ["mail"],
    "campaigns.loan_answered": ["mail"],
    "campaigns.offer_made": ["mail"],
    "campaigns.offer_answered": ["mail", "mail to the Longshanks"],
}


def test_every_kind_of_fact_and_its_followers():
    assert registry.table() == EXPECTED


def test_every_kind_says_what_happened():
    assert all(label for label in registry.kinds().values())
