"""The organiser's events page (/leagues/<slug>/organiser/events/): the league's
subscriptions, a form to add one, and the latest deliveries with the answer each
got. Each form posts here with its ``section``; a done write goes back to the page
(POST/redirect/GET), a refused one shows the page again with the reason (400)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from league.permissions import get_league_for_organiser
from league.events import services, types
from league.events.models import MAX_URL, Delivery, Subscription
from league.models import League
from league.forms import refuse
from league.text.plaintext import PlainTextField

LOG_SIZE = 50  # the latest deliveries shown, whatever the league has sent


class SubscribeForm(forms.Form):
    url = PlainTextField(label="The receiver's address", max_length=MAX_URL,
                          widget=forms.URLInput(attrs={"placeholder": "https://example.org/league-events"}))
    event_types = forms.MultipleChoiceField(label="Send these events", choices=types.CHOICES,
                                            widget=forms.CheckboxSelectMultiple)


class ChangeForm(forms.Form):
    event_types = forms.MultipleChoiceField(label="Send these events", choices=types.CHOICES,
                                            widget=forms.CheckboxSelectMultiple)
    active = forms.BooleanField(label="Sending", required=False)


def _subscription_id(request: HttpRequest) -> int | None:
    value = request.POST.get("subscription", "")
    return int(value) if value.isdigit() and len(value) <= 12 else None


@login_required
def organiser_events(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_league_for_organiser(request, slug)
    section = request.POST.get("section") if request.method == "POST" else None
    form = SubscribeForm(request.POST if section == "subscribe" else None)
    status = 200
    if request.method == "POST":
        done = _act(request, league, section, form)
        if done is not None:
            return done
        status = 400
    # The organiser's own subscriptions; the league's two webhooks are its settings page's.
    subscriptions = list(Subscription.objects.filter(league=league, signature=Subscription.Signature.STANDARD)
                         .order_by("created_at", "pk"))
    changing = [(s, ChangeForm(initial={"event_types": s.event_types, "active": s.active}, prefix=f"s{s.pk}"))
                for s in subscriptions]
    deliveries = list(Delivery.objects.filter(subscription__league=league,
                                              subscription__signature=Subscription.Signature.STANDARD)
                      .select_related("subscription")
                      .order_by("-created_at", "-pk")[:LOG_SIZE])
    return render(request, "events/organiser_events.html", {
        "league": league, "form": form, "changing": changing, "deliveries": deliveries, "log_size": LOG_SIZE,
    }, status=status)


def _act(request: HttpRequest, league: League, section: str | None, form: SubscribeForm) -> HttpResponse | None:
    """Do what one form posted: a redirect back when done, None to show the page
    again with the reason (400)."""
    by = request.user
    back = redirect(reverse("league:organiser_events", args=[league.slug]))
    try:
        if section == "subscribe":
            if not form.is_valid():
                return None
            try:
                subscription = services.subscribe(league=league, by=by, url=form.cleaned_data["url"],
                                                  event_types=form.cleaned_data["event_types"])
            except ValidationError as error:
                refuse(form, error)
                return None
            messages.success(request, f"{subscription.url} is subscribed. Give its receiver the signing secret shown below.")
            return back
        subscription_id = _subscription_id(request)
        if section not in ("change", "secret", "remove") or subscription_id is None:
            messages.error(request, "Choose what to change with one of the page's buttons.")
            return None
        if section == "change":
            change = ChangeForm(request.POST, prefix=f"s{subscription_id}")
            if not change.is_valid():
                messages.error(request, "Choose at least one of the listed events.")
                return None
            services.change(league=league, by=by, subscription_id=subscription_id,
                            event_types=change.cleaned_data["event_types"], active=change.cleaned_data["active"])
            messages.success(request, "The subscription is saved.")
        elif section == "secret":
            services.renew_secret(league=league, by=by, subscription_id=subscription_id)
            messages.success(request, "The signing secret is new: give it to the receiver.")
        else:
            url = services.remove(league=league, by=by, subscription_id=subscription_id)
            messages.success(request, f"{url} gets no more events.")
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return None
    return back
