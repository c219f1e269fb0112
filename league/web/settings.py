"""The organiser's settings page of a league: its name and description, its
game's settings, its webhooks (with a test message) and its organisers. Each
section is a form of its own posting here with its ``section``; a done write
goes back to the page (POST/redirect/GET), a refused one shows the page again
with the reason (400). The writes are league/services/settings.py's."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from league.permissions import get_league_for_organiser
from league.models import League
from league.rules import rules_class
from league.services import settings as league_settings
from league.forms import refuse
from league.web.settings_forms import LeagueForm, OrganiserForm, WebhooksForm, game_settings_form, help_and_rule

# Each section's form, and the part of the page it goes back to.
SECTIONS = {"league": "league", "game": "game", "webhooks": "webhooks", "test_webhooks": "webhooks",
            "add_organiser": "organisers", "remove_organiser": "organisers"}


@login_required
def organiser_settings(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_league_for_organiser(request, slug)
    section = request.POST.get("section") if request.method == "POST" else None
    data = request.POST if section else None
    game = rules_class(league.game_system)
    locked = league_settings.locked_settings(league)
    forms_ = {
        "league": LeagueForm(data if section == "league" else None,
                             initial={"name": league.name, "description": league.description}),
        "webhooks": WebhooksForm(data if section == "webhooks" else None,
                                 initial={"discord_webhook": league.discord_webhook, "webhook_url": league.webhook_url}),
        "add_organiser": OrganiserForm(data if section == "add_organiser" else None),
    }
    if game.settings_model is not None:
        forms_["game"] = game_settings_form(
            game.settings_model, locked=locked, data=data if section == "game" else None,
            instance=game.settings_model.objects.filter(league=league).first() or game.settings_model(league=league),
        )
    status = 200
    if request.method == "POST":
        done = _act(request, league, section, forms_)
        if done is not None:
            return done
        status = 400
    organisers = list(league.organisers.order_by("username"))
    return render(request, "league/organiser_settings.html", {
        "league": league, "forms": forms_, "game_name": game.name, "data_pages": game.data_pages(league), "locked": locked, "organisers": organisers,
        "game_fields": [(forms_["game"][name], locked.get(name, ""), *help_and_rule(field.help_text))
                        for name, field in forms_["game"].fields.items()] if "game" in forms_ else [],
    }, status=status)


def _act(request: HttpRequest, league: League, section: str | None, forms_) -> HttpResponse | None:
    """Do what one section posted: a redirect back to it when done, None to show
    the page again with the reason (400)."""
    if section not in SECTIONS or (section == "game" and "game" not in forms_):
        messages.error(request, "Choose what to change with one of the page's buttons.")
        return None
    by = request.user
    back = redirect(reverse("league:organiser_settings", args=[league.slug]) + f"#{SECTIONS[section]}")
    try:
        if section == "test_webhooks":
            queued = league_settings.send_test_message(league=league, by=by)
            messages.success(request, f"A test message is on its way to {' and '.join(queued)}: look there in a minute.")
            return back
        if section == "remove_organiser":
            user_id = request.POST.get("user", "")
            if not (user_id.isdigit() and len(user_id) <= 12):
                messages.error(request, "Choose an organiser to remove from the list.")
                return None
            leaving = league_settings.remove_organiser(league=league, by=by, user_id=int(user_id))
            messages.success(request, f"{leaving.username} no longer organises {league.name}.")
            if leaving.pk == by.pk:
                return redirect(league.get_absolute_url())
            return back
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return None
    form = forms_[section]
    if not form.is_valid():
        return None
    data = form.cleaned_data
    try:
        if section == "league":
            league_settings.rename_league(league=league, by=by, name=data["name"], description=data["description"])
            messages.success(request, "The league's name and description are saved.")
        elif section == "game":
            values = {name: value for name, value in data.items() if not form.fields[name].disabled}
            league_settings.change_game_settings(league=league, by=by, values=values)
            messages.success(request, "The game's settings are saved.")
        elif section == "webhooks":
            league_settings.set_webhooks(league=league, by=by, discord_webhook=data["discord_webhook"],
                                         webhook_url=data["webhook_url"], new_secret=data["new_secret"])
            messages.success(request, "The webhook addresses are saved." + (
                " The signing secret is new: give it to the receiver." if data["new_secret"] else ""))
        elif section == "add_organiser":
            account = league_settings.add_organiser(league=league, by=by, who=data["who"])
            messages.success(request, f"{account.username} organises {league.name} with you now.")
    except ValidationError as error:
        refuse(form, error)
        return None
    return back
