"""Template filters for words and marks people read: colour badges for names,
dates as people say them, rule ids as links, display names instead of usernames.

Everything here is pure over what the page already loaded: no filter queries the
database (``display_name`` reads ``user.coach``, which the caller selects). The
offline tags at the end give a form its submission key and a page its user's mark."""

from __future__ import annotations

import datetime
import re
import zlib

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from league.caching import kept_pages
from league import permissions
from league.text import words

register = template.Library()

BADGE_COLOURS = 12  # .badge.b0 ... .badge.b11 in static/css/site.css
RULE_ID = re.compile(r"^(GB|DB|DR|LG)-\d{1,2}[a-z]?$")


def badge_index(name: str) -> int:
    """The same colour for the same name on every page and every run (crc32, not
    Python's salted hash)."""
    return zlib.crc32(name.strip().casefold().encode("utf-8")) % BADGE_COLOURS


def initial(name: str) -> str:
    for char in name.strip():
        if char.isalnum():
            return char.upper()
    return "?"


@register.filter
def badge(name) -> SafeString | str:
    """``{{ entry.team|badge }}``: the name after a round colour mark with its
    initial, the same colour wherever that Guild, college or team appears."""
    name = str(name or "").strip()
    if not name:
        return ""
    return format_html(
        '<span class="badged"><span class="badge b{}" aria-hidden="true">{}</span>{}</span>',
        badge_index(name), initial(name), name,
    )


def coach_badge_index(coach_id: int) -> int:
    """A coach's colour, from the coach's id: the same on every page whatever the
    coach is called or renamed to, and two coaches who share a name (in two
    organisers' leagues) still tell apart."""
    return coach_id % BADGE_COLOURS


@register.filter
def coach_badge(coach) -> SafeString | str:
    """``{{ entry.coach|coach_badge }}``: the coach's name after the coach's own
    mark (the initial on the colour ``coach_badge_index`` picks). The one place
    a coach's mark is decided; a Guild, college or team has ``badge``."""
    if coach is None or not getattr(coach, "pk", None):
        return ""
    return format_html(
        '<span class="badged"><span class="badge b{}" aria-hidden="true">{}</span>{}</span>',
        coach_badge_index(coach.pk), initial(coach.name), coach.name,
    )


@register.filter
def side(entry, league) -> str:
    """``{{ fixture.home|side:league }}``: the coach, or in a game that names sides
    by team the team with its coach (``words.side``). No query; anything without a
    team is shown as it is."""
    return words.side(entry, getattr(entry, "team", ""), by_team=getattr(league, "named_by_team", False))


@register.filter
def display_name(user) -> str:
    """What to call a user on a page (``permissions.display_name``)."""
    return permissions.display_name(user)


def say_date(value: datetime.date, today: datetime.date) -> str:
    """"today", "tomorrow", "yesterday", else "Tue 3 Mar" (with the year when it is
    not this year's)."""
    if isinstance(value, datetime.datetime):
        value = timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
    delta = (value - today).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    if delta == -1:
        return "yesterday"
    text = f"{value:%a} {value.day} {value:%b}"
    return text if value.year == today.year else f"{text} {value.year}"


@register.filter
def humandate(value) -> str:
    if not value:
        return ""
    return say_date(value, timezone.localdate())


@register.filter
def when(value) -> SafeString | str:
    """``humandate`` in a <time> element carrying the ISO date, and the full date
    as its title for "tomorrow"."""
    if not value:
        return ""
    day = value.date() if isinstance(value, datetime.datetime) else value
    return format_html('<time datetime="{}" title="{}">{}</time>', day.isoformat(), f"{day:%A} {day.day} {day:%B %Y}", humandate(value))


@register.filter
def rule(rule_id) -> SafeString | str:
    """``{{ "GB-9"|rule }}``: a small link to the rule's line on /rules/."""
    rule_id = str(rule_id).strip()
    if not RULE_ID.match(rule_id):
        return rule_id
    return format_html('<a class="rule" href="{}#{}">{}</a>', reverse("rules"), rule_id, rule_id)


@register.filter
def pluralise(count, word: str) -> str:
    """``{{ n|pluralise:"Favour" }}`` -> "1 Favour", "3 Favours";
    ``{{ n|pluralise:"injury,injuries" }}`` for a word that takes no s."""
    one, _, many = word.partition(",")
    return words.plural(count, one, many or None)


@register.filter
def possessive(name) -> str:
    """``{{ team.name|possessive }}``: "Forge Wardens'", "Ember Anvil's"."""
    return words.possessive(name)


@register.filter
def gp(amount, sign: str = "") -> str:
    """``{{ amount|gp }}`` -> "590,000 gp"; ``{{ amount|gp:"+" }}`` -> "+590,000 gp"
    (a ledger line). Anything not a whole number is shown as it is."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        return "" if amount is None else str(amount)
    return f"{words.thousands(amount, signed=sign == '+')} gp"


@register.filter
def mark(name) -> SafeString | str:
    """Only the colour mark of a Guild, college or team (its name as a tooltip),
    beside a coach's name where the team is not written out."""
    name = str(name or "").strip()
    if not name:
        return ""
    return format_html('<span class="badge b{}" title="{}" aria-hidden="true">{}</span>', badge_index(name), name, initial(name))


@register.simple_tag
def open_signup() -> bool:
    """Whether anyone may sign up here (OPEN_SIGNUP): the header's link."""
    return settings.OPEN_SIGNUP
# Offline -------------------------------------------------------------------------


@register.simple_tag(takes_context=True)
def idempotency_field(context) -> SafeString | str:
    """The hidden ``idempotency_key`` of a result form (league/web/idempotency.py): a
    fresh signed key per rendered form, for the logged-in user only."""
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return ""
    # A kept page gets a marker, each viewer's own key when it is served
    # (league/caching/kept_pages.py); any other page a fresh key.
    return mark_safe(kept_pages.form_key(request))


@register.simple_tag(takes_context=True)
def offline_user(context) -> str:
    """Who the page was made for, as the service worker and static/js/offline.js
    key what they keep (a hash, never the id): "" for a visitor or a page rendered
    without a request (the error pages)."""
    request = context.get("request")
    if request is not None and kept_pages.rendering_kept(request):
        return kept_pages.USER
    return kept_pages.offline_mark(request)


@register.simple_tag(takes_context=True)
def viewer_nav(context) -> str:
    """The menu of a logged-in viewer (``kept_pages.viewer_nav``). A kept page has
    a marker here instead, filled in per request (league/caching/kept_pages.py)."""
    request = context.get("request")
    if request is not None and kept_pages.rendering_kept(request):
        return mark_safe(kept_pages.NAV)
    return kept_pages.viewer_nav(context.get("user"), context.get("csrf_token"))
