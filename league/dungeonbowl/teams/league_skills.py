"""A Dungeon Bowl league's own skills (DB-11): its organiser adds a skill the
site's list lacks (a supplement's, a house rule's) for their league only, and
changes its name or category. Every league's skills stay the superuser's. Each
write is one transaction, permission-checked; refusals are ``ValidationError``
with the reason, nothing half-written. A player who gained a skill keeps it by
name: renaming the skill later changes no player."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from league.permissions import require_organiser
from league.dungeonbowl.models import Skill
from league.dungeonbowl.models.teams import GAME_SYSTEM
from league.models import League


@transaction.atomic
def save_skill(*, league: League, by, name: str, category: str, skill: Skill | None = None) -> Skill:
    """Add a skill of the league's own (``skill`` None) or change one: never one
    of every league's."""
    require_organiser(league, by)
    if league.game_system != GAME_SYSTEM:
        raise ValidationError("Only a Dungeon Bowl league has a skill list.")
    League.objects.select_for_update().get(pk=league.pk)  # two adds of one name queue up here
    if skill is not None:
        skill = Skill.objects.select_for_update().get(pk=skill.pk)
        if skill.league_id != league.pk:
            raise ValidationError("A skill every league uses is the site's to change, not a league's.")
    else:
        skill = Skill(league=league)
    name = " ".join(name.split())
    if Skill.for_league(league.pk).filter(name__iexact=name).exclude(pk=skill.pk).exists():
        raise ValidationError({"name": f"The league's skill list has {name} already."})
    skill.name, skill.category = name, category
    skill.full_clean()
    skill.save()
    return skill
