"""A confirmation step before a destructive action: retiring a team,
firing a player, reopening a result. The first POST shows what will happen and a
button that posts the same fields again with ``confirmed``; only that second POST
acts. A page of the site, no script (the Content-Security-Policy allows none
inline), so it works the same everywhere."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

CONFIRMED = "confirmed"


def confirmed(request: HttpRequest) -> bool:
    return request.POST.get(CONFIRMED) == "yes"


def ask(request: HttpRequest, *, title: str, consequence: str, button: str, back: str) -> HttpResponse:
    """The confirmation page: ``consequence`` says what cannot be undone, ``button``
    does it, ``back`` (a URL) leaves everything as it was. It writes nothing."""
    fields = [(name, value) for name, values in request.POST.lists() for value in values
              if name not in ("csrfmiddlewaretoken", CONFIRMED)]
    return render(request, "league/confirm.html", {
        "title": title, "consequence": consequence, "button": button, "back": back, "fields": fields,
        "action": request.get_full_path(), "confirmed_name": CONFIRMED,
    })
