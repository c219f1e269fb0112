"""Each result form's submission is accepted once, however often a phone with a
poor signal sends it again.

Every POST form that reports, confirms or disputes a result (and The Big League's
match-day deck and achievement forms) carries a hidden ``idempotency_key``: a
random nonce and the user's id, signed by the server and dated when the page was
rendered (``{% idempotency_field %}``). A phone that lost its signal keeps the form
and sends it again later (static/js/offline.js); a double tap sends it twice. The
views wrapped in ``@idempotent`` answer such a resend with the outcome of the first
submission (the same redirect) and write nothing again:

- a key the server did not sign, signed for another user, or older than
  ``IDEMPOTENCY_KEY_DAYS`` is refused with a 400 that says why, and nothing is written;
- the key's nonce goes through league/idempotency.py, as the API's header does:
  recorded in the same transaction as the write it allowed, so two copies sent
  at once cannot both write and the second replays the first one's outcome (the
  same redirect); only an accepted submission (a redirect) uses the key up: a
  refused form (400) may be corrected and sent again with it;
- Decision: a form without a key (a page cached before this change, a script that
  posts) is accepted as before: the services still refuse a second confirmation
  of the same result and a different second report from the same coach, and take
  the same report again as the one there is, writing nothing; so nothing can be
  counted twice, only the friendly replay is missing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.safestring import SafeString

from league import idempotency
from league.models import IdempotencyKey

FIELD = "idempotency_key"
SALT = "league.idempotency"  # as first issued: a new salt would void every form key already on a page
REDIRECTS = (301, 302, 303)


class RefusedKey(Exception):
    """A key this user may not use; the message says what to do."""


def new_key(user) -> str:
    """A fresh signed key for one rendered form of ``user``."""
    return signing.dumps({"n": secrets.token_urlsafe(18), "u": user.pk}, salt=SALT)


def hidden_field(request: HttpRequest) -> SafeString:
    """The hidden input of a result form for ``request``'s logged-in user, with a
    fresh key: the template tag ``idempotency_field``, and what a kept page's forms
    get per request (registered with league/caching/kept_pages.py in league/apps.py)."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_key(request.user))


def nonce_of(value: str, user) -> str:
    """The nonce a key carries, if the server signed it for ``user`` within its
    lifetime; otherwise RefusedKey."""
    try:
        payload = signing.loads(value, salt=SALT, max_age=idempotency.lifetime())
    except signing.SignatureExpired:
        raise RefusedKey("This form was opened too long ago to be sent: open the page again and send it from there.")
    except signing.BadSignature:
        raise RefusedKey("This form's submission key was not issued by this site: open the page again and send it from there.")
    if not isinstance(payload, dict) or payload.get("u") != user.pk or not isinstance(payload.get("n"), str):
        raise RefusedKey("This form was opened by another account: open the page again and send it from there.")
    return payload["n"][:64]


def _refused(request: HttpRequest, reason: str) -> HttpResponse:
    return render(request, "league/refused_form.html", {"reason": reason}, status=400)


def _accepted(response: HttpResponse) -> idempotency.Outcome | None:
    """Only a redirect uses the key up; a refused form may be sent again with it."""
    if response.status_code in REDIRECTS:
        return idempotency.Outcome(response.status_code, response["Location"])
    return None


def idempotent(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Accept each submission of a form carrying ``idempotency_key`` once (module
    docstring, league/idempotency.py). Put it inside ``login_required`` and ``require_POST``."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        value = request.POST.get(FIELD, "")
        if not value:
            return view(request, *args, **kwargs)  # Decision: accepted as before (module docstring)
        try:
            nonce = nonce_of(value, request.user)
        except RefusedKey as refusal:
            return _refused(request, str(refusal))

        def replay(used: IdempotencyKey | None) -> HttpResponse:
            """The outcome of the first submission with this key, written again nowhere."""
            if used is None or not used.location:
                return _refused(request, "This form's submission key was already used for another form: "
                                         "open the page again and send it from there.")
            messages.info(request, "This was already received, so nothing was sent twice.")
            return HttpResponseRedirect(used.location, status=used.status)

        return idempotency.once(key=nonce, user=request.user, path=request.path,
                                step=lambda: view(request, *args, **kwargs), accepted=_accepted, replay=replay)

    return wrapped
