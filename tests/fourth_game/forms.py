from django import forms

from league.web.forms import score_field


class RingballResultForm(forms.Form):
    home_score = score_field("Home rings")
    away_score = score_field("Away rings")
