"""``{% coach_ratings coach %}``: a coach's ratings per game with their weekly
history drawn (templates/ratings/_coach_ratings.html), two queries."""

from __future__ import annotations

from django import template
from django.urls import reverse

from league.ratings import charts, selectors

register = template.Library()

SHOWN_WEEKS = 12  # the figures under a chart: its last weeks


@register.inclusion_tag("ratings/_coach_ratings.html")
def coach_ratings(coach) -> dict:
    found = []
    for rating in selectors.ratings_for(coach):
        shown = rating.weeks[-SHOWN_WEEKS:]
        found.append({
            **vars(rating),
            "url": reverse("ratings:ranking", args=[rating.game_system]),
            "chart": charts.rating_chart(rating.weeks, chart_id=f"rating-{rating.game_system}",
                                         title=f"{coach.name}: {rating.game} rating by week"),
            "shown": shown,
            "more": len(rating.weeks) > len(shown),
        })
    return {"ratings": found, "coach": coach}
