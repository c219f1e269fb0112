"""The Guild Ball result form: each coach's Victory Points (GB-8)."""

from __future__ import annotations

from django import forms

from league.web.forms import score_field


class GuildBallResultForm(forms.Form):
    home_score = score_field("Home")
    away_score = score_field("Away")
