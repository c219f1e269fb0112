"""The user's API tokens: make one (shown once), see what each may do and when it
was last used, revoke one. One page; both forms post to it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers

from league.api import tokens
from league.api.forms import TokenForm
from league.api.models import ApiToken
from league.forms import refuse


@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
    """GET: the tokens and the form for a new one. POST ``action=create``: the new
    token, shown on this answer only (never stored, never cached); ``action=revoke``
    with ``token``: revoke one of the viewer's own (another's is a 404)."""
    form = TokenForm()
    status, shown = 200, None
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "revoke":
            try:
                revoked = tokens.revoke_token(token_id=int(request.POST.get("token", "")), by=request.user)
            except (ValueError, ApiToken.DoesNotExist):
                raise Http404("No such token.")
            messages.success(request, f"Revoked “{revoked.name}”: it is refused from now on.")
            return redirect(reverse("api_tokens"))
        form = TokenForm(request.POST)
        status = 400
        if action == "create" and form.is_valid():
            try:
                made, shown = tokens.create_token(
                    user=request.user, name=form.cleaned_data["name"], scopes=form.cleaned_data["scopes"]
                )
            except ValidationError as error:
                refuse(form, error)
            else:
                status, form = 201, TokenForm()
                shown = {"token": made, "value": shown}
        elif action != "create":
            form.add_error(None, "Choose what to do: make a token or revoke one.")
    response = render(request, "apitokens/tokens.html", {
        "form": form, "shown": shown, "tokens": tokens.tokens_of(request.user), "max_active": tokens.MAX_ACTIVE,
    }, status=status)
    add_never_cache_headers(response)  # a new token is on this page once, and in no cache
    return response
